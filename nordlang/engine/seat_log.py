"""What one seat saw of a game, as a log: `nord play --log-for SEAT`.

A replay (`--log`, engine/record.py) is the referee's record: every move,
the seed, the final state's digest; it is the whole truth, and replaying it
checks the game. A seat's log is what one player saw, written as the game
went: each decision as he saw it then (another's secret choice as '?'
until it was shown), the game's notes and scorings with items he could not
see face down, the position as he saw it at each of his own decisions (his
observation), and the result. It has no seed (the seed would tell the
hidden order of things) and no digest: it cannot be replayed, and `nord
replay` says so when given one.

JSON lines: a header {"format": "nordlang-seat-log/1", "record": "seat",
"seat": colour, "player": number, game, rulebook, variants, players,
agents}; then {"turn", "player", "move"[, "forced"]} for a decision,
{"event": text} for a note, a scoring or a secret choice shown, {"turn",
"observation": text} before each of the seat's decisions; last {"turns",
"points", "winners"[, "draw"]} or {"turns", "unfinished": true}.
"""

from __future__ import annotations

import json

from .record import SEAT_LOG_FORMAT, describe
from .views import seen_events


class SeatLog:
    """Collects what `seat` sees while a game is played: call take(game)
    at the start and after each decision, lines(game) at the end."""

    def __init__(self, game, seat: int, header: dict):
        rules = game.rules
        self.rules, self.seat = rules, seat
        head = {k: v for k, v in header.items() if k != "seed"}
        self.head = {"format": SEAT_LOG_FORMAT, "record": "seat", "seat": rules.color(seat), "player": seat, **head}
        self.body: list[dict] = []
        self.at = 0

    def take(self, game) -> None:
        """What the seat has seen since the last call; his observation when he is to decide."""
        st, rules = game.state, self.rules
        for ev in seen_events(st, self.seat, self.at):
            if ev[0] == "choice":
                rec = {"turn": ev[5] if len(ev) > 5 else st.turn, "player": ev[1], "move": f"{ev[2]} {ev[3]}"}
                if ev[4]:
                    rec["forced"] = True
                self.body.append(rec)
            else:
                line = describe(rules, ev)
                if line:
                    self.body.append({"event": line.strip()})
        self.at = len(st.events)
        if game.to_move == self.seat:
            self.body.append({"turn": st.turn, "observation": game.observation(self.seat)})

    def lines(self, game) -> list[str]:
        st = game.state
        res = game.result
        last: dict = {"turns": st.turn}
        if res is None:
            last["unfinished"] = True
        else:
            last["points"], last["winners"] = list(res.points), list(res.winners)
            if res.draw:
                last["draw"] = True
        return [json.dumps(r, sort_keys=True) for r in [self.head, *self.body, last]]
