"""The names a rulebook makes usable in its texts, gathered once by the
rules (rules/board_names.py) and handed to the compiler, which resolves
every name of a text against them."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Names:
    """Everything a rulebook makes nameable, handed to the compiler."""

    registry: object
    constants: dict = field(default_factory=dict)
    funcs: dict = field(default_factory=dict)      # name -> Func
    constructors: dict = field(default_factory=dict)  # name -> (lo, hi): name(x) is the pair (name, x)
    known: dict = field(default_factory=dict)      # kind of value (builtins.KINDS) -> (what, the texts it may be)
    constructor_args: dict = field(default_factory=dict)  # constructor -> the kind of value its argument is
    used: set = field(default_factory=set)         # definitions and constants some text refers to
    primitives: set = field(default_factory=set)   # the primitives some compiled text calls (at_turn_start, shuffle)
    literals: dict = field(default_factory=dict)   # (builtin, arg index) -> literal texts there (None: an expression)
    colors: tuple = ()                             # the players' colours, in turn order (for hints)
    warnings: list = field(default_factory=list)   # work the text shows to be too much (cost.py)
    choices: set = field(default_factory=set)      # the names of the flows' choices
    hidden: set = field(default_factory=set)       # names a choice hides, already reported (at their first call)

    def all_names(self):
        return (set(self.registry.names()) | set(self.constants) | set(self.funcs)
                | set(self.constructors))
