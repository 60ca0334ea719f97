"""What a person meets at the terminal (issue 26): a legend whose letters
keep their meaning all game, a key to the map, the structures and what
stands in them; a bare number always an option's number; a refused move
told why; the final position at the end."""

import io
import re
import sys
from pathlib import Path

from nordlang import Game, load_rules
from nordlang.agents import human
from nordlang.agents.human import HumanAgent
from nordlang.cli import main
from nordlang.render.text import board_lines, piece_symbols

TTT = str(Path(__file__).parent / "games" / "tictactoe-mini" / "ttt.yaml")


def play(monkeypatch, capsys, entries, *args):
    """`nord play ... --agents human,random` with `entries` as its input: (status, stdout lines)."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(e + "\n" for e in entries)))
    status = main(["play", "--agents", "human,random", *args])
    return status, capsys.readouterr().out.splitlines()


def test_the_legend_is_fixed_by_the_rulebook_before_any_piece_is_on_the_board():
    rules = load_rules("nord")
    assert piece_symbols(rules) == {
        ("man", 0): "r", ("man", 1): "b", ("man", 2): "y",          # the first owned kind: the colours' initials
        ("jarl", 0): "R", ("jarl", 1): "B", ("jarl", 2): "Y",       # the second: their capitals
        ("man", None): "a", ("boat", None): "o", ("jarl", None): "j", ("treasure", None): "t"}
    # no letter of the map's (terrains m f k ~, the stone pile *, structures S @) is a piece's
    assert not set(piece_symbols(rules).values()) & set("mfk~*S@.")


def test_nord_a_letter_means_one_thing_all_game_with_a_key_to_the_map_and_the_settlements(monkeypatch, capsys):
    status, lines = play(monkeypatch, capsys, ["1"] * 400, "--game", "nord", "--seed", "1")
    assert status == 0
    legends = [ln for ln in lines if re.fullmatch(r"  (\S [a-z_]+(:[\w?]+)?)(, \S [a-z_]+(:[\w?]+)?)*", ln)]
    meaning = {}
    for ln in legends:
        for entry in ln.strip().split(", "):
            ch, what = entry.split(" ", 1)
            assert meaning.setdefault(ch, what) == what, f"{ch!r} meant {meaning[ch]} and now {what}"
    assert meaning["r"] == "man:red" and meaning["b"] == "man:blue" and meaning["t"] == "treasure:?"
    assert len(legends) > 20
    # turn 4: red's man on d9, blue's on h7 (beside settlement C), yellow's three; the map's key; the settlements
    i = lines.index("turn 4, red chooses play:")
    board = lines[lines.index("    a b c d e f g h i j k", i - 40):]
    assert board[1:23] == [
        " 1  ~ ~ ~ ~ ~ ~ ~ ~ ~ ~ ~",
        " 2  ~ ~ ~ ~ ~ ~ ~ ~ ~ ~ ~",
        " 3  ~ ~ m m f f S f f S ~",
        " 4  ~ ~ S t k f m f m k ~",
        " 5  ~ ~ k m ~ @ m k m t ~",
        " 6  ~ ~ t m ~ ~ k t m k ~",
        " 7  ~ y S m t k m b k t ~",
        " 8  y y f f k f f S m m ~",
        " 9  ~ ~ m r f t ~ ~ f m ~",
        "10  ~ ~ m S f k ~ ~ f S ~",
        "11  ~ ~ ~ ~ ~ ~ ~ ~ ~ ~ ~",
        "  r man:red, b man:blue, y man:yellow, t treasure:?",          # (the tiles on the stone piles lie face down)
        "  map: m mountain, f forest, k karst, ~ sea, * stone_pile, S settlement, @ dragon",
        "  settlement A (c4): jarl",
        "  settlement B (g3): jarl",
        "  settlement C (h8): jarl:blue, man:blue",
        "  settlement D (c7): jarl:yellow, man:yellow",
        "  settlement E (j3): jarl",
        "  settlement F (d10): jarl:red, man:red",
        "  settlement G (j10): jarl",
        "  dragon X (f5): empty",
        "fleet: boat x4"]


def test_the_board_is_drawn_from_the_position_and_the_legend_alone():
    """The same man is the same letter on an empty board and a full one."""
    g = Game(load_rules("nord"), 1)
    before = piece_symbols(g.rules)
    while not g.over and g.state.turn < 12:
        g.play_index(0)
    assert piece_symbols(g.rules) == before
    drawn = board_lines(g.rules, g.state)
    assert any("r man:red" in ln for ln in drawn) and not any("a man:red" in ln for ln in drawn)


def test_a_refused_move_is_told_why_by_the_rule(monkeypatch, capsys):
    """b2 is x's own: the rule that offers the cells says why it is not among them."""
    status, lines = play(monkeypatch, capsys, ["b2", "b2"], "--rulebook", TTT, "--seed", "1")
    assert status == 1
    i = next(k for k, ln in enumerate(lines) if ln.endswith("'b2' is not one of the 7 options of 'cell': type its "
                                                           "number, the option as listed, or ? to list them"))
    assert lines[i].startswith("x> ")
    assert lines[i + 1:i + 4] == [
        f"why: 'b2' is not an option of 'cell' (rule at {TTT}:46:5)",
        "    its options are: open_spaces(spaces)",
        "    open_spaces(spaces) leaves b2 out, which is in spaces (open_spaces: spaces of a collection with no "
        "piece and no structure): b2 holds mark:x"]


def test_a_long_reason_is_cut_to_a_screen(monkeypatch, capsys):
    status, lines = play(monkeypatch, capsys, ["1", "a1", "zzz"], "--game", "nord", "--seed", "1")
    assert status == 1
    i = next(k for k, ln in enumerate(lines) if ln.endswith("'a1' is not one of the 13 options of 'place': type its "
                                                           "number, the option as listed, or ? to list them"))
    assert lines[i + 1].startswith("why: 'a1' is not an option of 'place' (rule at ")
    assert lines[i + 6:i + 12] == [
        "      - land_groups(p, limit(t)) does not apply: a1 is not among land_spaces",
        "      - sea_groups(p, limit(t))",
        "        sea_groups(p, limit(t)) = [d11, c11,d11, d11,e11]",
        "        sea_groups(p = 0, lim = {land: 3, sea: 2, land_regions: 1}): let n = min([lim.sea, men_left(p), "
        "amount(fleet, boat())]) in groups(open_spaces(sea_spaces), 1, n, reach(p))",
        "          n = 2",
        "          none of its spaces is an anchor (anchors: c10,d9,d11,e10)"]
    assert lines[i + 12].startswith("red> 'zzz' is not one of the 13 options")
    assert lines[i + 13:i + 27][-1] == "  ... (1 more: `nord explain` shows them all)"
    assert lines[i + 27] == "red> "


def test_an_entry_the_explainer_cannot_read_gets_no_reason_and_no_traceback(monkeypatch):
    def boom(game, move):
        raise ValueError("unreadable")
    monkeypatch.setattr(human, "explain", boom)
    assert human.why_not(Game(load_rules(TTT), 1), "cell %%") == []
    assert human.why_not(None, "cell b2") == []


def test_a_bare_number_is_always_an_options_number_and_the_whole_move_names_a_numeric_option(monkeypatch, capsys):
    """Vikings' wheel: at turn 4 the prices are 0 2 3 4 7 8 9 10 11; '7' is option 7 (the price 9),
    said so; 'buy 7' is the price 7."""
    status, lines = play(monkeypatch, capsys, ["5", "1", "1", "7"], "--game", "vikings", "--seed", "2")
    assert status == 1
    i = lines.index("turn 4, orange chooses buy:")
    assert lines[i + 1:i + 11] == [f"  {k}. {t}" for k, t in enumerate(
        ["0", "2", "3", "4", "7", "8", "9", "10", "11"], 1)] + [
        "  (a number is an option's number; the option '0' itself is typed 'buy 0')"]
    assert lines[i + 11] == "orange> option 7: 9; the option '7' itself is typed 'buy 7'"
    assert "    orange buys the set at 9: island:right with viking:yellow" not in lines[:i]
    assert "  orange   buy 9" in lines[i + 11:]
    status, lines = play(monkeypatch, capsys, ["5", "1", "1", "buy 7"], "--game", "vikings", "--seed", "2")
    i = lines.index("turn 4, orange chooses buy:")
    assert lines[i + 11] == "orange> turn 4, orange:" and lines[i + 12] == "  orange   buy 7"


def test_a_number_is_no_option_text_even_out_of_range(monkeypatch, capsys):
    status, lines = play(monkeypatch, capsys, ["5", "1", "1", "10"], "--game", "vikings", "--seed", "2")
    assert "orange> there is no option 10: the options are numbered 1 to 9 (? lists them); the option '10' " \
           "itself is typed 'buy 10'" in lines


class Pending:
    """What read() looks at of a pending choice."""
    def __init__(self, texts):
        self.texts = texts
        self.step = type("Step", (), {"name": "buy"})()

    def find(self, text):
        return self.texts.index(text) if text in self.texts else None


def test_read_numbers_and_texts():
    seat = HumanAgent(stdin=io.StringIO(), stdout=io.StringIO())
    p = Pending(["1", "3", "5"])
    assert seat.read(p, "1") == (0, None)              # option 1 is '1': nothing to say
    assert seat.read(p, "3") == (2, "option 3: 5; the option '3' itself is typed 'buy 3'")
    assert seat.read(p, "buy 3") == (1, None)
    assert seat.read(p, "2") == (1, None)              # '2' is no option's text: option 2
    assert seat.read(p, "5")[0] is None


def test_the_final_position_and_the_result_end_the_game(monkeypatch, capsys):
    status, lines = play(monkeypatch, capsys, ["5", "cell a1", "a3", "1", "1"], "--rulebook", TTT, "--seed", "1")
    assert status == 0
    assert lines[-10:] == [
        "final, after 7 turns:",
        "   a b c",
        "1  x o o",
        "2  x x .",
        "3  x o .",
        "  x mark:x, o mark:o",
        "  player         line   total",
        "  x                 1       1",
        "  o                 0       0",
        "winner: x"]


def test_a_game_of_machines_alone_prints_no_final_position(capsys):
    assert main(["play", "--rulebook", TTT, "--seed", "1", "--agents", "random"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[out.index("final, after 7 turns:") + 1] == "  player         line   total"


def test_the_final_table_shows_the_rank_keys_of_a_rulebook_that_ranks_by_other_than_points(tmp_path):
    """A rulebook ranking by something else than points (Reversi's discs):
    the final table shows each rank key, headed by its text, so the winner
    is seen to lead them; one that ranks by points first keeps its table."""
    import nordlang
    from nordlang.render.text import final_table
    variant = tmp_path / "by-marks.yaml"
    variant.write_text("description: most marks left\nextends: tictactoe\npatch:\n  result:\n"
                       "    rank: ['total(supply(p))', 'points(p)']\n")
    rules = nordlang.load_rules("tictactoe", variants=[str(variant)])
    game = nordlang.Game(rules, 0)
    for move in ["place a1", "place b1", "place a2", "place b2", "place a3"]:      # red's column: red has 2 left
        game.play(move)
    assert final_table(rules, game) == [            # red joined three, blue kept more marks: blue ranks first
        "  player          win   total  total(supply(p))  points(p)",
        "  red               1       1                 2          1",
        "  blue              0       0                 3          0",
        "winner: blue"]
    plain = nordlang.load_rules("tictactoe")
    assert final_table(plain, nordlang.Game(plain, 0))[0] == "  player     total"
