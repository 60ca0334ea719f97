"""What the page may choose from: the bundled games (players, variants),
the agents, and the defaults the server was started with. A variant is
taken by its bundled name, or as given on the command line; never a path
a page sends."""

from __future__ import annotations

import functools
import threading

from .. import load_rules
from ..errors import UsageError, did_you_mean
from .sessions import HUMAN


class Catalog:
    def __init__(self, game=None, variants=()):
        from ..rules.games import DEFAULT_GAME, bundled_games
        self.games = bundled_games()
        self.default_game = game or DEFAULT_GAME
        if self.default_game not in self.games:
            raise UsageError(f"no bundled game {self.default_game!r}", hint=did_you_mean(self.default_game, self.games)
                             or f"games: {', '.join(self.games)}")
        self.default_variants = [str(v) for v in variants]
        self._rules: dict = {}
        self._lock = threading.Lock()
        self._listing = None

    def variants(self, name: str) -> dict:
        """{variant as the page names it: description} for a game."""
        from ..rules.games import variants_folder
        from ..rules.yamlpos import load_yaml
        folder = variants_folder(self.games[name])
        out = {}
        for f in sorted(folder.glob("*.yaml")) if folder is not None else []:
            data = load_yaml(f)[0]
            out[f.stem] = " ".join(str(data.get("description", "")).split()) if isinstance(data, dict) else ""
        if name == self.default_game:
            for v in self.default_variants:
                out.setdefault(v, "given on the command line")
        return out

    def listing(self) -> dict:
        """The games (each with the agents that can take its seats), every
        agent, the defaults; made once (a server may warm it before the
        first page asks)."""
        from ..agents.base import REGISTRY, _load_all
        with self._lock:
            if self._listing is not None:
                return self._listing
            _load_all()
            agents = [HUMAN] + sorted(n for n, c in REGISTRY.items() if not getattr(c, "interactive", False))
            games = []
            for name, main in self.games.items():
                facts = dict(_rulebook_facts(main, main.stat().st_mtime_ns))
                evaluated = facts.pop("evaluation")
                games.append({"name": name, "title": facts.pop("title") or name, **facts,
                              "variants": self.variants(name),
                              "agents": [a for a in agents if a == HUMAN or evaluated
                                         or not getattr(REGISTRY[a], "needs_evaluation", False)]})
            self._listing = {"games": games, "agents": agents, "default_game": self.default_game,
                             "default_variants": self.default_variants}
            return self._listing

    def rules(self, name: str, players, variants: list):
        """Compiled rules for a game the page chose (cached per choice)."""
        if name not in self.games:
            raise UsageError(f"no bundled game {name!r}", hint=did_you_mean(name, self.games)
                             or f"games: {', '.join(self.games)}")
        known = self.variants(name)
        for v in variants:
            if v not in known:
                raise UsageError(f"{name} has no variant {v!r}", hint=did_you_mean(v, known)
                                 or f"variants: {', '.join(known) or 'none'}")
        key = (name, players, tuple(variants))
        with self._lock:
            if key not in self._rules:
                if len(self._rules) > 32:
                    self._rules.clear()
                self._rules[key] = load_rules(name, players, variants)
            return self._rules[key]

    def check_seats(self, seats: list, rules) -> None:
        from ..agents.base import check_agents
        check_agents([s for s in seats if s != HUMAN], rules)


@functools.lru_cache(maxsize=64)
def _rulebook_facts(main, _stamp) -> tuple:
    """What the page says of a bundled game, read from its main file and
    includes (not compiled): its title, player counts, and whether it states
    result.evaluation (the greedy and mcts agents need one). Kept for the
    process (by the main file's time): every app made in it shares them."""
    from ..rules.loader import read_rulebook
    data = read_rulebook(main, []).data
    pl = data.get("players") if isinstance(data.get("players"), dict) else {}
    desc = data.get("game") if isinstance(data.get("game"), dict) else {}
    result = data.get("result") if isinstance(data.get("result"), dict) else {}
    return (("title", desc.get("name")), ("min", pl.get("min")), ("max", pl.get("max")),
            ("default", pl.get("default", pl.get("min"))), ("evaluation", "evaluation" in result))
