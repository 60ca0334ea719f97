"""A person at the terminal: `--agents human,random` in `nord play`.

Before each of its decisions the seat sees the position as that player
sees it (game.view: an opponent's hidden items face down), who is to
choose what, and the numbered options; with `echo_moves` (the default;
`nord play` prints the game's log itself, masked for the seated players,
and turns it off unless --quiet) it first lists the moves made since its
last decision as it saw them (others' secret choices as '?'); it answers with an option's number,
the option as written ('b2') or the whole move ('cell b2'). A bare number
is always an option's number, even where an option's own text is a number
(a price, a count): one rule that never depends on what is offered, as a
menu's numbers do; the option whose text is '3' is typed as the whole move
('buy 3'), and a number that names another option than its text is
answered with what was taken. A bad entry is answered with what was wrong
and, for a move the rules refuse, why (the rule, taken apart as `nord
explain` does), and asked again; '?' or 'help' lists the options again.
The end of input (Ctrl-D, or a script that runs out) raises EndOfInput,
which `nord play` ends the game on, keeping the game so far as Ctrl-C does.
"""

from __future__ import annotations

import sys

from ..engine.game import canonical_option
from ..engine.views import seen_events
from ..limits import MAX_DIGITS, MAX_LINE, OverLimit, check_text
from .base import Agent, register

# (the renderer and the explainer are imported when a person first plays: every agent's module is
# imported to find one by name, and a program's seat never needs them)

SHOWN = 40          # options listed before each decision ('?' lists them all)
CLEAR = "\033[2J\033[3J\033[H"    # clear the screen and its scroll-back, cursor home (a hot seat's hand-over)


class EndOfInput(Exception):
    """The person's input ended before the game did."""


@register
class HumanAgent(Agent):
    name = "human"
    interactive = True          # reads the terminal: for `nord play` only

    def __init__(self, seed: int = 0, stdin=None, stdout=None, **params):
        super().__init__(seed, **params)
        self._stdin, self._stdout = stdin, stdout
        self.echo_moves = True
        self._seen = 0              # the game's events this seat has been shown
        self.handover = None        # several people at one terminal, in a game with hidden parts: a shared
                                    # {"last": seat}; the screen is cleared and handed over between seats

    def say(self, text: str = "") -> None:
        out = self._stdout or sys.stdout
        print(text, file=out)
        out.flush()

    def choose(self, game) -> int:
        from ..render.text import event_lines, position_lines
        rules, p = game.rules, game.state.pending
        if self.handover is not None and self.handover.get("last") != p.player:
            self._hand_over(rules.color(p.player))
        if self.handover is not None:
            self.handover["last"] = p.player
        if self.echo_moves:
            events = game.state.events
            start = self._seen if self._seen <= len(events) else 0
            lines = event_lines(rules, seen_events(game.state, p.player, start))
            self._seen = len(events)
            if lines:
                self.say()
                self.say(f"since {rules.color(p.player)}'s last decision:" if start else "so far:")
                for line in lines:
                    self.say(line)
        self.say()
        for line in position_lines(rules, game.view(p.player)):
            self.say(line)
        prompt = p.step.prompt or p.step.name
        self.say(f"turn {game.state.turn}, {rules.color(p.player)} chooses {prompt}:")
        self.list_options(p, SHOWN)
        stdin = self._stdin or sys.stdin
        if getattr(stdin, "errors", None) == "strict" and hasattr(stdin, "reconfigure"):
            stdin.reconfigure(errors="replace")      # (bytes that are no UTF-8 are a line like any other wrong one)
        while True:
            out = self._stdout or sys.stdout
            print(f"{rules.color(p.player)}> ", end="", file=out)
            out.flush()
            try:
                line = stdin.readline()
            except UnicodeDecodeError:
                self.say("that line is not UTF-8 text: type an option's number or the option itself")
                continue
            if not line:
                self.say()
                raise EndOfInput()
            index, problem = self.read(p, line.strip(), game)
            if index is not None:
                if problem:
                    self.say(problem)
                return index
            if problem:
                self.say(problem)

    def _hand_over(self, color: str) -> None:
        """Between two people at one terminal: the screen cleared, and the next asked to take it
        (what one may see is not left on the screen for the other)."""
        self.say(CLEAR + f"pass the terminal to {color}: press Enter when only {color} is looking")
        if not (self._stdin or sys.stdin).readline():
            self.say()
            raise EndOfInput()
        self.say(CLEAR)

    def list_options(self, p, most: int | None = None) -> None:
        texts = p.texts
        shown = texts if most is None else texts[:most]
        width = len(str(len(texts)))
        for i, t in enumerate(shown, 1):
            self.say(f"  {i:>{width}}. {t}")
        if len(shown) < len(texts):
            self.say(f"  ... and {len(texts) - len(shown)} more: type ? to list them all")
        if any(t.isdigit() and t != str(i) for i, t in enumerate(texts, 1)):
            self.say(f"  (a number is an option's number; the option {_numbered(texts)!r} itself is typed "
                     f"'{p.step.name} {_numbered(texts)}')")

    def read(self, p, entry: str, game=None):
        """(index, None) for a valid entry, (index, a note) for a number that is
        also another option's text, (None, why not) for a bad one ((None,
        None) when the entry was a command, already answered)."""
        n = len(p.texts)
        if entry in ("?", "help") and p.find(entry) is None:
            self.list_options(p)
            return None, None
        if not entry:
            return None, f"nothing typed: type an option's number (1 to {n}), the option itself, or ? to list them"
        try:
            if len(entry) > MAX_LINE:
                raise OverLimit(f"a line of {len(entry)} characters is past the limit of {MAX_LINE}")
            check_text(entry, "that line")
        except OverLimit as e:
            return None, f"{e.message}: type an option's number (1 to {n}) or the option itself"
        if entry.isascii() and entry.isdigit():       # ('²' is a digit to isdigit, not a number)
            if len(entry) > MAX_DIGITS:
                return None, f"there is no option {entry[:12]}...: the options are numbered 1 to {n} (? lists them)"
            k = int(entry)
            also = f"; the option {entry!r} itself is typed '{p.step.name} {entry}'" if entry in p.texts else ""
            if 1 <= k <= n:
                return k - 1, (f"option {k}: {p.texts[k - 1]}{also}" if also and p.texts[k - 1] != entry else None)
            return None, f"there is no option {k}: the options are numbered 1 to {n} (? lists them){also}"
        text = entry
        head, _, rest = entry.partition(" ")
        if head == p.step.name and rest.strip():
            text = rest
        index = p.find(text.strip())
        if index is None:
            wanted = canonical_option(text)
            index = next((i for i, t in enumerate(p.texts) if canonical_option(t) == wanted), None)
        if index is not None:
            return index, None
        problem = (f"{entry!r} is not one of the {n} options of {p.step.name!r}: type its number, "
                   "the option as listed, or ? to list them")
        return None, "\n".join([problem, *why_not(game, f"{p.step.name} {text.strip()}")])


WHY_LINES = 12      # (an explanation can run long: the person sees its head; lines are left whole, their
                    # ends say the most: 'b2 holds mark:x')


def why_not(game, move: str) -> list[str]:
    """Why the rules refuse a move, as `nord explain` says it, cut to a
    screen's length; nothing when it cannot be told."""
    if game is None:
        return []
    try:
        legal, lines = explain(game, move)
    except Exception:       # noqa: BLE001 - a reason is a help: an entry it cannot read gets none, never a traceback
        return []
    if legal or not lines:
        return []
    body = lines[1:]
    head = lines[0].split(": illegal: ", 1)[-1]
    out = [f"why: {head}", *("  " + ln for ln in body[:WHY_LINES])]
    if len(body) > WHY_LINES:
        out.append(f"  ... ({len(body) - WHY_LINES} more: `nord explain` shows them all)")
    return out


def explain(game, move: str):
    """`nord explain`'s answer for a move (explain.explain, imported on first use)."""
    from ..explain import explain as answer
    return answer(game, move)


def _numbered(texts) -> str:
    """An option whose text is a number other than its place, for the hint."""
    return next(t for i, t in enumerate(texts, 1) if t.isdigit() and t != str(i))
