"""The check that no option shows a player an item he cannot see looks at a
long list of options at C speed first (Options.check_seen): a long list of
sets passes, and an unseen item among many options is still found."""

import pytest

import nordlang

HIDDEN = """\
game: {name: Hidden, description: "a card only blue sees"}
players: {min: 2, max: 2, default: 2, colors: [red, blue]}
pieces:
  card: {tags: [1, 2, 3]}
zones:
  hand: {type: pool, per_player: true, visible: owner}
define:
  theirs: 'items(hand(1 - player))'     # (read through a definition: the load's check does not see it)
setup:
  - do: 'for p in players { create(card(1), hand(p)) } create(card(3), hand(1))'
turn:
  - choose: x
    from: '%s'
  - do: 'end_game()'
result:
  rank: ['points(p)']
"""

MANY_SETS = "[set([i]) for i in range(12)]"


def _load(tmp_path, source):
    f = tmp_path / "hidden.yaml"
    f.write_text(HIDDEN % source, encoding="utf-8")
    return nordlang.load(str(f))


def test_a_long_list_of_sets_passes(tmp_path):
    g = _load(tmp_path, MANY_SETS)
    assert len(g.state.pending.options) == 12


@pytest.mark.parametrize("source", [MANY_SETS + " + theirs", "theirs + " + MANY_SETS,
                                    MANY_SETS + " + [(1, 2, 3)] + theirs"])
def test_an_unseen_item_among_many_options_stops_with_the_rule(tmp_path, source):
    with pytest.raises(nordlang.NordError, match="an item red cannot see"):
        _load(tmp_path, source)
