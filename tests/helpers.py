"""Small helpers shared by tests."""


def ev(game, text):
    """The value of an expression of the rulebook's language on the game's position."""
    from nordlang.lang.compiler import Compiler
    from nordlang.lang.parser import parse
    c = Compiler(game.rules.names, text=text)
    fn = c.expr(parse(text, "expr"), frozenset())
    assert not c.errors
    return fn(game.rules.ctx(game.state))


def generated_source(game, text) -> str:
    """The Python source the compiler makes of an expression (what a test of
    the generated code's shape reads)."""
    from nordlang.lang.compiler import Compiler
    from nordlang.lang.parser import parse
    c = Compiler(game.rules.names, text=text)
    src = c.gen(parse(text, "expr"), frozenset(), {})
    assert not c.errors
    return src


def run_effects(game, text):
    """Run effects of the rulebook's language on the game's position."""
    from nordlang.lang.compiler import Compiler
    from nordlang.lang.parser import parse
    c = Compiler(game.rules.names)
    fn = c.block(parse(text, "effects"), frozenset())
    assert not c.errors
    fn(game.rules.ctx(game.state))


def random_decisions(rules, seed) -> list:
    """(choice, option texts) at every decision of a game played with random
    options (the generator seeded as the game)."""
    import random

    import nordlang
    g = nordlang.Game(rules, seed)
    rng = random.Random(seed)
    seen = []
    while not g.over:
        p = g.state.pending
        seen.append((p.step.name, tuple(p.texts)))
        g.play_index(rng.randrange(len(p.options)))
    return seen


def past_setup(game):
    """Take the first option of each choice the setup asks for (the players'
    starting settlements), so the game stands at its first turn."""
    while game.state.turn == 0 and not game.over:
        game.play_index(0)
    return game


def mid_game(players, seed, moves):
    """(rules, game) of Nord after `moves` random decisions (a random.Random(seed)
    picks each), for tests that want a position of a game under way."""
    import random

    import nordlang
    rules = nordlang.load_rules(players=players)
    g = nordlang.Game(rules, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        g.play_index(rng.randrange(len(g.state.pending.options)))
    return rules, g


def variant_rules(directory, text: str, players: int = 2, name: str = "variant.yaml"):
    """Rules with a variant of `text`, written to a file in `directory` (a
    file the rules' errors can point at)."""
    import nordlang
    path = directory / name
    path.write_text(text)
    return nordlang.load_rules(players=players, variants=[str(path)])


def first_error(path, variant: str, players: int = 2, seed: int = 1):
    """Write a variant to `path`, play it taking each choice's first option,
    and return the error the game stops with (None if it ends)."""
    import nordlang
    from nordlang.errors import NordError
    path.write_text(variant)
    game = nordlang.load(players=players, seed=seed, variants=[str(path)])
    try:
        while not game.over:
            game.play_index(0)
    except NordError as e:
        return e
    return None


# A small Nord board for scenarios written in the tests: A and B, the dragon boat X, mountains and forests.
NORD_BOARD = ('game: nord\nplayers: 2\nmap:\n  - "~~~~~~~~~"\n  - "~AmmB~~X~"\n  - "~ffkff~~~"\n  - "~~~~~~~~~"\n'
              "structures: {A: settlement, B: settlement, X: dragon}\nseats: [A, B]\n")


def scenario(tmp_path, text, head=NORD_BOARD):
    """A scenario of `head` (its game and board) and `text`, written to a file and loaded."""
    from nordlang.scenario import load_scenario
    path = tmp_path / "s.yaml"
    path.write_text("description: a scenario\n" + head + text)
    return load_scenario(path)


def scenario_failures(tmp_path, text, head=NORD_BOARD):
    """(what, expected, actual) of each failure of the scenario's run."""
    return [(f.what, f.expected, f.actual) for f in scenario(tmp_path, text, head).run().failures]


def scenario_error(tmp_path, text, head=NORD_BOARD):
    """The error the scenario's run stops with."""
    import pytest

    from nordlang.errors import NordError
    with pytest.raises(NordError) as e:
        scenario(tmp_path, text, head).run()
    return e.value


def counters(game) -> dict:
    """The counters a rulebook's `add("name", n)` keeps, by name."""
    return {k[1]: v for k, v in game.state.counters.items() if k[0] == "counter"}


def random_links(grid, seed: int, pieces: int):
    """(free spaces, rng, occupied spaces, their Links) on a board: `pieces`
    of its spaces outside structures occupied at random, for tests that then
    place and lift pieces at random."""
    import random

    from nordlang.board.graph import Links
    free = [s for s in grid.spaces if s not in grid.structure_at]
    rng = random.Random(seed)
    occ = set(rng.sample(free, pieces))
    return free, rng, occ, Links(grid, frozenset(occ))


def count_probes(monkeypatch, what=lambda machine, step, value: (step.name, value)) -> list:
    """The lookahead probes run from now on (monkeypatch undoes the count),
    one entry each: what(machine, step, value); the kept answers of probes
    are cleared first, so every probe runs."""
    from nordlang.engine import lookahead
    asked = []
    probe = lookahead.Lookahead._probe

    def counted(self, state, step, value, ctx=None):
        asked.append(what(self, step, value))
        return probe(self, state, step, value, ctx)
    monkeypatch.setattr(lookahead.Lookahead, "_probe", counted)
    lookahead._FEASIBLE.clear()
    return asked
