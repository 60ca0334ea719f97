"""take and put between a track and a pool or a deck change the state in
one step (State.slot_and_pool): the same zones and events as the two steps
of the general path, every part of the position the two zones belong to
changed (so no memoised value is read stale), copies left alone, and the
errors of what cannot be done unchanged. On the tableau game
(tests/games/tableau): the offer a track of cards 1, 2, 3, 4, the deck
4, 3, 2, 1, 2, 4, 1, 3, tableau cells pools."""

from pathlib import Path

import pytest
from helpers import ev
from helpers import run_effects as run

import nordlang
from nordlang.errors import EvalError
from nordlang.lang.reads import ZONES

TABLEAU = Path(__file__).parent / "games" / "tableau" / "tableau.yaml"
CELL = ("tableau", 0, 0, 0)
OFFER, DECK = ("offer", None), ("deck", None)


@pytest.fixture
def game():
    """Cell (0, 0) of tableau(0) made (a pool) and holding card 4; the offer's slot 2 emptied into it."""
    game = nordlang.load(str(TABLEAU), seed=0)
    run(game, "move(card(4), deck, cell(tableau(0), 0, 0))")
    return game


def _changed_together(st, before, *zones):
    """The version moved on, and every zone's parts (zones, its name's, its name and owner's) are at it."""
    assert st.version != before
    assert st.parts[ZONES] == st.version
    for z in zones:
        assert st.parts[z[0]] == st.version
        if st.by_owner:
            assert st.parts[z[:2]] == st.version


def test_take_into_a_pool(game):
    st = game.state
    before, events = st.version, len(st.events)
    run(game, "take(offer, 2, cell(tableau(0), 0, 0))")
    assert st.tracks[OFFER] == [("card", 1), ("card", 2), None, ("card", 4)]
    assert st.pools[CELL] == {("card", 4): 1, ("card", 3): 1}
    assert st.events[events:] == [("move", ("card", 3), OFFER, CELL, 1)]
    _changed_together(st, before, OFFER, CELL)
    assert ev(game, "total(cell(tableau(0), 0, 0))") == 2 and ev(game, "total(offer)") == 3


def test_put_from_a_pool_and_from_a_deck(game):
    st = game.state
    run(game, "take(offer, 2, deck)")
    before = st.version
    run(game, "put(card(4), cell(tableau(0), 0, 0), offer, 2)")
    assert st.tracks[OFFER][2] == ("card", 4) and st.pools[CELL] == {}
    _changed_together(st, before, OFFER, CELL)
    run(game, "take(offer, 2, deck)")
    before, deck = st.version, list(st.decks[DECK])
    run(game, "put(card(2), deck, offer, 2)")
    deck.remove(("card", 2))                      # (its first card 2 leaves)
    assert st.decks[DECK] == deck and st.tracks[OFFER][2] == ("card", 2)
    _changed_together(st, before, OFFER, DECK)
    assert st.events[-1] == ("move", ("card", 2), DECK, OFFER, 1)


@pytest.mark.parametrize("text", ["put(card(1), deck, offer, 2)", "put(card(4), cell(tableau(0), 0, 0), offer, 2)",
                                  "take(offer, 1, cell(tableau(0), 0, 0))"])
def test_a_copy_keeps_its_zones(game, text):
    """A light copy shares the track, the pool and the deck until it changes them: each effect its first change."""
    run(game, "take(offer, 2, deck)")
    original = game.state
    zones = (list(original.tracks[OFFER]), dict(original.pools[CELL]), list(original.decks[DECK]))
    copy = original.clone(light=True)
    copy.unshare()
    game.state = copy
    run(game, text)
    assert (copy.tracks[OFFER], copy.pools[CELL], copy.decks[DECK]) != zones
    assert (original.tracks[OFFER], original.pools[CELL], original.decks[DECK]) == zones


@pytest.mark.parametrize("text, message", [
    ("put(card(1), cell(tableau(0), 0, 0), offer, 2)", "slot 2 of offer already holds 3"),
    ("take(offer, 2, deck)\nput(card(1), cell(tableau(0), 0, 0), offer, 2)",
     "cannot take 1 1 from tableau(red)[0,0]: it holds 0"),
    ("take(offer, 2, deck)\nput(card(9), deck, offer, 2)", "deck holds no 9"),
    ("take(offer, 4, deck)", "offer has no slot 4 (its slots: 0 to 3)"),
    ("take(offer, 2, deck)\ntake(offer, 2, deck)", "slot 2 of offer is empty"),
])
def test_what_cannot_be_done_fails_as_before(game, text, message):
    with pytest.raises(EvalError) as e:
        run(game, text)
    assert e.value.message == message
