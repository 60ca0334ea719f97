"""One budget of work per decision: no rulebook runs away in time or memory.

Between two decisions the engine runs flow steps (counted by the flow's
STEP_BUDGET) and, inside them, expressions. Every loop of an expression
draws on one Budget, shared by everything the engine runs until it next
asks for a decision (Machine.run makes it; a Ctx made anywhere else has one
of its own): a comprehension's `for` clause charges the length of its
collection once, when it starts (nested clauses so charge the product), an
aggregate of a collection charges its length, each primitive charges in
proportion to the work it does (a range its numbers, groups() the sets it
finds, shortest_paths() the chains it walks), and so do the operators whose
work grows with their operands (+ of lists or texts, - of sets, `in` a
tuple, == of collections). Charging is a subtraction per clause or call,
not per element; a collection being built stops on the budget before it is
larger than the budget's number of items.
"""

from __future__ import annotations

from ..errors import EvalError, _line_of

# Steps of work a decision may take. Random games of Nord and of its bundled
# variants take at most about 3 000 a decision (lookahead probes included);
# the budget is some 700 times that, and is spent within about a second.
LIMIT = 2_000_000

# Work up to SMALL a call is not charged by primitives and operators: the
# loop making the call charges one step for it, so such work is at most
# SMALL times what the loops charge (and most calls in real games are small).
SMALL = 32

HINT = ("a decision may take at most {limit} steps of work (each value a loop, an aggregate or a primitive "
        "visits is one): loop over fewer values, filter with 'if' before a nested 'for', or split the work")


class BudgetError(EvalError):
    """The work of one decision passed the budget."""

    def __init__(self, text=None, pos=None, width=1):
        super().__init__("", pos, width=width, hint=HINT.format(limit=LIMIT))
        self.name(text or _text_at(pos, width))

    def name(self, text) -> None:
        """Say which expression ran out of budget (its text, when known)."""
        shown = "" if not text else f": {text if len(text) <= 80 else text[:77] + '...'}"
        self.message = f"too much work before the next decision{shown}" \
                       f" (over the budget of {LIMIT} steps)"
        self.args = (self.message,)


class Budget:
    """The steps of work left until the next decision."""

    __slots__ = ("left",)

    def __init__(self, left: int | None = None):
        self.left = LIMIT if left is None else left

    def charge(self, n: int) -> None:
        """Draw n steps; past the budget, a BudgetError (placed by the
        compiled code that called the primitive: see trace._fail)."""
        left = self.left - n
        self.left = left
        if left < 0:
            raise BudgetError()


def charge(ctx, n: int) -> None:
    """A primitive draws n steps of work from the decision's budget."""
    b = ctx.budget
    left = b.left - n
    b.left = left
    if left < 0:
        raise BudgetError()



def size(c) -> int:
    """How many items a collection holds (0 for a value that is none: using it as one says so)."""
    try:
        return len(c)
    except TypeError:
        return 0


def _text_at(pos, width):
    """The text at a position of a file (an effect's: the compiler keeps no text of its own for those)."""
    line = _line_of(pos)
    return line[pos.col - 1:pos.col - 1 + width].strip() if line and width > 1 else None
