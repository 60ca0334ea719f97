"""Nord, written by hand in plain Python: a speed reference for nordlang.

Why this exists: the project wants to say how much the rules-as-data
engine costs against a plain engine for the same game. This module is that
plain engine: the rules of ../../rulebook/nord/*.yaml (with their RULINGs, see
shared/RULINGS.md) written directly as Python, the way one would write
them for this one game in a day: dicts, sets and lists, breadth-first
searches for connectivity, groups grown one space at a time. It is not
part of nordlang, of its tests or of CI, and it imports nothing from
nordlang; bench/handwritten/compare.py times it against nordlang.

It plays the bundled standard islands for 2, 3 and 4 players (the maps
below are those of rulebook/nord/islands.yaml; compare.py and check.py check
them against nordlang's boards).
Random play chooses uniformly among all legal options at each decision,
as nordlang's random play does: the options are listed in full, with the
same lookahead (a treasure tile, a negotiator move or the choice of turn A
is offered only when a placement can follow it).
"""

from __future__ import annotations

import random
from collections import Counter

# ---------------------------------------------------------------- the board
# The standard islands of rulebook/nord/islands.yaml: m mountain, f forest,
# k karst, * karst with a stone pile, ~ sea, A-H settlements (on mountain),
# X the small dragon boat (on the sea). Rows top to bottom, columns a-k.
ISLANDS = {
    2: """\
~~~~~~~~~~~
~~~~~~~~~~~
~~mmffBffE~
~~A*kfmfmk~
~~km~Xmkm*~
~~*m~~k*mk~
~~Dm*kmm~~~
~~ffkffC~~~
~~mff*~~~~~
~~mFfk~~~~~
~~~~~~~~~~~""",
    3: """\
~~~~~~~~~~~
~~~~~~~~~~~
~~mmffBffE~
~~A*kfmfmk~
~~km~Xmkm*~
~~*m~~k*mk~
~~Dm*kmmk*~
~~ffkffCmm~
~~mff*~~fm~
~~mFfk~~fG~
~~~~~~~~~~~""",
    4: """\
~~~~~~~~~~~
~~ffHk~~~~~
~~mm*k~~~~~
~~AmffBfff~
~~k*kfmfmE~
~~km~Xmkm*~
~~*m~~k*mk~
~~Dm*kmmk*~
~~ffkffCmm~
~~mff*~~fm~
~~mFfk~~fG~
~~~~~~~~~~~""",
}
SEATINGS = {2: "DF", 3: "FCD", 4: "DGAC"}     # each player's starting settlement, in turn order


def _orth(s):
    r, c = s
    return [(r - 1, c), (r, c + 1), (r + 1, c), (r, c - 1)]


class Island:
    """One standard island's geometry, read from its map."""

    def __init__(self, players):
        self.seats = SEATINGS[players]
        self.terrain = {}                # space (row, col) -> "m", "f", "k" or "~" (structures excluded)
        self.stone_piles = []            # karst spaces showing a stone pile
        self.settlement_at = {}          # settlement name -> its space
        for r, line in enumerate(ISLANDS[players].splitlines()):
            for c, ch in enumerate(line):
                if ch == "*":
                    self.terrain[(r, c)] = "k"
                    self.stone_piles.append((r, c))
                elif ch in "mfk~":
                    self.terrain[(r, c)] = ch
                elif ch == "X":
                    self.dragon_at = (r, c)
                else:
                    self.settlement_at[ch] = (r, c)
        terrain = self.terrain
        self.settlements = sorted(self.settlement_at)
        self.land = frozenset(s for s, t in terrain.items() if t != "~")
        self.sea = frozenset(s for s, t in terrain.items() if t == "~")   # the small dragon boat's space excepted
        # Orthogonal neighbours a worker may stand on (structures are not spaces for workers).
        self.neigh = {s: [n for n in _orth(s) if n in terrain] for s in terrain}
        # The spaces the 4 gates of each settlement (and the 4 sides of the dragon boat) face.
        self.faces = {x: [n for n in _orth(at) if n in terrain] for x, at in self.settlement_at.items()}
        self.faces["X"] = [n for n in _orth(self.dragon_at) if n in terrain]
        # A settlement's surroundings: the up to 8 spaces around it.
        self.around = {x: [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                           if (dr or dc) and (r + dr, c + dc) in terrain]
                       for x, (r, c) in self.settlement_at.items()}
        self.region = self._regions()

    def _regions(self):
        """Land regions: maximal orthogonally connected same-terrain land spaces
        (settlements split them). RULING: all sea spaces are one region."""
        region = {s: "sea" for s in self.sea}
        n = 0
        for s in sorted(self.land):
            if s in region:
                continue
            region[s] = n
            stack = [s]
            while stack:
                x = stack.pop()
                for y in self.neigh[x]:
                    if y not in region and self.terrain[y] == self.terrain[s]:
                        region[y] = n
                        stack.append(y)
            n += 1
        return region


ISLAND_OF = {n: Island(n) for n in ISLANDS}
# The 4-player island's names, as module globals (the first version drew only that one).
_FOUR = ISLAND_OF[4]
ISLAND, SEATS = ISLANDS[4], _FOUR.seats
TERRAIN, STONE_PILES, SETTLEMENT_AT, DRAGON_AT = _FOUR.terrain, _FOUR.stone_piles, _FOUR.settlement_at, _FOUR.dragon_at
SETTLEMENTS, LAND, SEA, NEIGH, FACES, AROUND, REGION = (_FOUR.settlements, _FOUR.land, _FOUR.sea, _FOUR.neigh,
                                                        _FOUR.faces, _FOUR.around, _FOUR.region)

# ---------------------------------------------------------------- the numbers
MEN = 25
BOAT_VALUES = [2, 4, 6, 8, 10, 12, 14, 16, 18, 20]        # the large dragon boat's 10 spaces
SYMBOLS = ["axe", "gold", "hammer", "helmet", "goblet", "sword"]
ACTION = {"goblet": "two_regions", "axe": "two_regions", "helmet": "many_men", "sword": "many_men",
          "gold": "negotiator", "hammer": "negotiator"}
ACTIONS = ["negotiator", "two_regions", "many_men"]
# (land workers, sea workers, land regions) a placement may have, by the tile played.
LIMITS = {None: (3, 2, 1), "negotiator": (3, 2, 1), "two_regions": (3, 2, 2), "many_men": (5, 3, 1)}
LADDER = ["dies", "goal", "start", "dies", "either", "home"]   # the n-th attacker's fate; the last holds on
SCORING_ORDER = ["resources", "warriors", "resources", "warriors", "treasures"]
DIFFERENT = [0, 1, 2, 3, 5, 10, 15]
SAME = [0, 0, 0, 9, 16, 25, 36]
PALETTE = 4                           # coloured jarls in the box
NEUTRAL = -1                          # the owner of a neutral jarl


class Nord:
    """One game of Nord on the standard island of 2, 3 or 4 players, played by random choices.

    `choose(what, options)` is the one place a decision is taken (uniformly
    at random here); it also counts decisions and options in `stats`.
    """

    def __init__(self, seed, players=4):
        assert players in ISLAND_OF, "the standard islands are for 2, 3 and 4 players"
        isl = self.island = ISLAND_OF[players]
        self.terrain, self.stone_piles, self.settlements = isl.terrain, isl.stone_piles, isl.settlements
        self.land, self.sea, self.neigh, self.faces = isl.land, isl.sea, isl.neigh, isl.faces
        self.around, self.region = isl.around, isl.region
        self.rng = random.Random(seed)
        self.n = players
        self.stats = Counter()
        self.workers = {}                           # space -> owner of the worker on it
        self.supply = [MEN - 2] * players           # one man scores, one is the first warrior
        self.fleet = players + 4                    # fishing boats in the general supply
        self.warriors = {x: [0] * players for x in self.settlements}
        self.jarl = dict.fromkeys(self.settlements, NEUTRAL)   # settlement -> its jarl's owner (absent: none)
        self.boat = []                              # the large dragon boat: ("man", p) or ("jarl", owner)
        self.points = [0] * players
        self.hand = [[] for _ in range(players)]    # treasure symbols held
        self.treasure_at = {}                       # stone-pile space -> the tile lying there
        self.played = []
        self.scorings = 0
        self.turns = 0
        self.player = 0
        self.over = False
        self._graph = None                          # (component of each worker, members, structures' components)
        for p, x in enumerate(self.island.seats):
            self.jarl[x] = p
            self.warriors[x][p] = 1
        # the coloured jarls of no player start on the large dragon boat (none with 4 players)
        self.boat = [("jarl", c) for c in range(players, PALETTE)]
        self.deck = [s for s in SYMBOLS for _ in range(6)]
        self.rng.shuffle(self.deck)
        for p in range(players):                    # RULING: one tile of each action, drawn at random
            for a in ACTIONS:
                tile = next(t for t in self.deck if ACTION[t] == a)
                self.deck.remove(tile)
                self.hand[p].append(tile)
        for s in self.stone_piles:
            self.treasure_at[s] = self.deck.pop()

    # ------------------------------------------------------------ decisions
    def choose(self, what, options):
        """Pick one of the legal options uniformly (a single one is taken at once)."""
        if len(options) == 1:
            return options[0]
        self.stats["decisions"] += 1
        self.stats[what] += 1
        self.stats[what + " options"] += len(options)
        return options[self.rng.randrange(len(options))]

    # ------------------------------------------------------------ connections
    def graph(self):
        """Components of the workers (orthogonal links, whoever owns them)
        and, for each settlement and the dragon boat, the components its
        gates touch. Recomputed after the board changed."""
        if self._graph is None:
            comp, members = {}, []
            for s in self.workers:
                if s in comp:
                    continue
                i = len(members)
                comp[s] = i
                group, stack = [s], [s]
                while stack:
                    x = stack.pop()
                    for y in self.neigh[x]:
                        if y in self.workers and y not in comp:
                            comp[y] = i
                            group.append(y)
                            stack.append(y)
                members.append(group)
            touch = {x: {comp[f] for f in faces if f in comp} for x, faces in self.faces.items()}
            self._graph = comp, members, touch
        return self._graph

    def connected_pairs(self):
        """Ordered pairs of different settlements that one component links."""
        touch = self.graph()[2]
        at = {}                                   # component -> the settlements at its gates
        for x in self.settlements:
            for c in touch[x]:
                at.setdefault(c, []).append(x)
        return {(a, b) for xs in at.values() for a in xs for b in xs if a != b}

    def put(self, s, p):
        self.workers[s] = p
        if s in self.sea:
            self.fleet -= 1                       # a sea worker sits in a fishing boat
        self._graph = None

    def lift(self, s):
        """Take the worker off space s (its fishing boat goes back); return its owner."""
        p = self.workers.pop(s)
        if s in self.sea:
            self.fleet += 1
        self._graph = None
        return p

    def send_home(self, s):
        self.supply[self.lift(s)] += 1

    def die(self, s):
        """A dead man takes the next space of the large dragon boat; when it is full he goes home."""
        if len(self.boat) < len(BOAT_VALUES):
            self.boat.append(("man", self.lift(s)))
        else:
            self.send_home(s)

    # ------------------------------------------------------------ placement
    def reach(self, p):
        """Open spaces where a new worker links to a settlement in which p has
        a warrior: its free gates and the spaces next to the components at its gates."""
        _comp, members, touch = self.graph()
        out, seen = set(), set()
        for x in self.settlements:
            if self.warriors[x][p]:
                out.update(self.faces[x])
                for c in touch[x] - seen:
                    seen.add(c)
                    for w in members[c]:
                        out.update(self.neigh[w])
        return out.difference(self.workers)

    def can_place_now(self, p):
        """Does some placement exist (a man left and an open space of reach
        that takes a worker: land, or sea while a fishing boat is left)?"""
        if not self.supply[p]:
            return False
        reach = self.reach(p)
        return bool(reach) and (self.fleet > 0 or any(s in self.land for s in reach))

    def can_place_after(self, p, a, b):
        """Would a placement exist after the negotiator moves p's warrior from a to b?"""
        w = self.warriors
        w[a][p] -= 1
        w[b][p] += 1
        ok = self.can_place_now(p)
        w[a][p] += 1
        w[b][p] -= 1
        return ok

    def negotiations(self, p):
        """Warrior moves (a, b) along a connection, after which a placement exists."""
        return [(a, b) for a, b in sorted(self.connected_pairs())
                if self.warriors[a][p] and self.can_place_after(p, a, b)]

    def groups(self, seeds, allowed, size, max_regions=None):
        """Every orthogonally connected set of 1..size spaces of `allowed`
        holding at least one seed (and lying in at most max_regions regions),
        grown one neighbour at a time, by size."""
        out = []
        layer = {frozenset([s]) for s in seeds}
        for k in range(1, size + 1):
            out.extend(layer)
            if k == size:
                break
            bigger = set()
            for g in layer:
                for x in g:
                    for y in self.neigh[x]:
                        if y in allowed and y not in g:
                            ng = g | {y}
                            if max_regions is None or len({self.region[z] for z in ng}) <= max_regions:
                                bigger.add(ng)
            layer = bigger
        return out

    def placements(self, p, tile):
        """The legal placements: 1-3 land workers in one region (or as the
        tile allows), or 1-2 sea workers (one fishing boat each), as a
        connected group of open spaces of which one at least is in reach."""
        land, sea, regions = LIMITS[ACTION[tile] if tile else None]
        reach = self.reach(p)
        men = self.supply[p]
        open_land = {s for s in self.land if s not in self.workers}
        open_sea = {s for s in self.sea if s not in self.workers}
        out = self.groups(reach & open_land, open_land, min(land, men), regions)
        n = min(sea, men, self.fleet)
        if n > 0:
            out += self.groups(reach & open_sea, open_sea, n)
        return out

    # ------------------------------------------------------------ attacks
    def shortest_paths(self, a, b):
        """Every shortest chain of workers from a space at a gate of a to one at
        a gate of b, in order from a (breadth-first, then walked back)."""
        dist = {s: 0 for s in self.faces[a] if s in self.workers}
        goal = {s for s in self.faces[b] if s in self.workers}
        layer = list(dist)
        while layer and not goal.intersection(layer):
            nxt = []
            for x in layer:
                for y in self.neigh[x]:
                    if y in self.workers and y not in dist:
                        dist[y] = dist[x] + 1
                        nxt.append(y)
            layer = nxt
        paths = []

        def back(chain):
            x = chain[-1]
            if dist[x] == 0:
                paths.append(tuple(reversed(chain)))
                return
            for y in self.neigh[x]:
                if dist.get(y) == dist[x] - 1:
                    back(chain + [y])

        for end in goal.intersection(layer):
            back([end])
        return sorted(paths)

    def attack(self, p, a, b):
        path = self.choose("path", self.shortest_paths(a, b))
        fighters = [s for s in path if self.workers.get(s) == p]
        self.stats["attacks"] += 1
        for i, s in enumerate(fighters):
            fate = LADDER[min(i, len(LADDER) - 1)]
            if fate == "either":
                fate = "goal" if self.choose("post", [a, b]) == b else "start"
            if fate == "dies":
                self.die(s)
            elif fate == "goal":
                self.lift(s)
                self.warriors[b][p] += 1
            elif fate == "start":
                self.lift(s)
                self.warriors[a][p] += 1
            else:
                self.send_home(s)

    # ------------------------------------------------------------ turns
    def challenge_targets(self, p):
        """Settlements with a foreign jarl where p has 2+ warriors, strictly more
        than every other player, connected to the small dragon boat."""
        touch = self.graph()[2]
        out = []
        for x in self.settlements:
            w = self.warriors[x]
            if (w[p] >= 2 and all(w[p] > w[q] for q in range(self.n) if q != p)
                    and x in self.jarl and self.jarl[x] != p and touch[x] & touch["X"]):
                out.append(x)
        return out

    def play_turn(self):
        """One player's turn: A or B as judged at its start (with lookahead),
        or, when neither is possible, the next scoring."""
        p = self.player
        self.turns += 1
        placeable = self.can_place_now(p)
        placing = placeable or (self.supply[p] > 0 and any(ACTION[t] == "negotiator" for t in self.hand[p])
                                and self.negotiations(p))
        targets = self.challenge_targets(p)
        actions = (["place"] if placing else []) + (["challenge"] if targets else [])
        if not actions:
            self.stats["stuck"] += 1
            self.scoring()
        elif self.choose("action", actions) == "place":
            self.turn_a(p, placeable)
        else:
            self.turn_b(p, targets)
        self.player = (p + 1) % self.n

    def turn_a(self, p, placeable):
        """Turn A; `placeable`: a placement exists without a negotiator move."""
        before = self.connected_pairs()            # (the tile step moves no worker)
        # A0: play one tile held before the turn, only if a placement can follow.
        held = sorted(set(self.hand[p]))
        # the Negotiator is a move, not an allowance: playable only when a move exists (no "move nobody")
        moves = self.negotiations(p) if any(ACTION[t] == "negotiator" for t in held) else []
        if placeable:
            tiles = [None] + [t for t in held if ACTION[t] != "negotiator" or moves]
        else:                                      # only a negotiator move opens a placement
            tiles = [t for t in held if ACTION[t] == "negotiator"]
        tile = self.choose("tile", tiles)
        if tile and ACTION[tile] == "negotiator":
            a, b = self.choose("negotiate", moves)
            self.warriors[a][p] -= 1
            self.warriors[b][p] += 1
        # A1: place the workers; claim the treasures under them.
        group = self.choose("place", self.placements(p, tile))
        if tile:
            self.hand[p].remove(tile)
            self.played.append(tile)
        for s in group:
            self.supply[p] -= 1
            self.put(s, p)
            if s in self.treasure_at:
                self.hand[p].append(self.treasure_at.pop(s))
        # A2: attack while a newly connected pair (A with p's warrior, B without) exists.
        while True:
            pairs = sorted((a, b) for a, b in self.connected_pairs() - before
                           if self.warriors[a][p] and not self.warriors[b][p])
            if not pairs:
                break
            a, b = self.choose("attack", pairs)
            self.attack(p, a, b)
        # A3: a full boat triggers the next scoring.
        if len(self.boat) == len(BOAT_VALUES):
            self.scoring()

    def turn_b(self, p, targets):
        x = self.choose("challenge", targets)
        self.points[p] += BOAT_VALUES[len(self.boat)]
        self.boat.append(("jarl", self.jarl.pop(x)))
        self.stats["challenges"] += 1
        if len(self.boat) == len(BOAT_VALUES):
            self.scoring()

    # ------------------------------------------------------------ scorings
    def scoring(self):
        kind = SCORING_ORDER[self.scorings]
        if kind == "resources":
            self.resource_scoring()
        elif kind == "warriors":
            self.warrior_scoring()
        # empty the large dragon boat: men go home, jarls slide down
        for what, who in self.boat:
            if what == "man":
                self.supply[who] += 1
        self.boat = [m for m in self.boat if m[0] == "jarl"]
        # a new tile on every stone pile with neither a tile nor a worker
        for s in self.stone_piles:
            if s not in self.workers and s not in self.treasure_at:
                if not self.deck:
                    self.deck, self.played = self.played, []
                    self.rng.shuffle(self.deck)
                if self.deck:
                    self.treasure_at[s] = self.deck.pop()
        self.scorings += 1
        if SCORING_ORDER[self.scorings] == "treasures":
            for p in range(self.n):
                held = Counter(self.hand[p])
                self.points[p] += DIFFERENT[len(held)] + sum(SAME[min(k, 6)] for k in held.values())
            self.over = True

    def resource_scoring(self):
        """Each player with warriors in S who has not the fewest there scores
        1 per forest region and 1 per mountain worker of his connected to S;
        then every mountain worker that delivered goes home (cave-in)."""
        comp, _members, touch = self.graph()
        due, caved = [], set()
        for x in self.settlements:
            w = self.warriors[x]
            present = [k for k in w if k]
            if not present:
                continue
            for p in range(self.n):
                if w[p] and (w[p] == max(present) or w[p] > min(present)):
                    mine = [s for s, q in self.workers.items() if q == p and comp[s] in touch[x]]
                    forests = {self.region[s] for s in mine if self.terrain[s] == "f"}
                    mountains = [s for s in mine if self.terrain[s] == "m"]
                    due.append((p, len(forests) + len(mountains)))
                    caved.update(mountains)
        for p, k in due:
            self.points[p] += k
        for s in caved:
            self.send_home(s)

    def warrior_scoring(self):
        """Warriors beyond a settlement's food go home; the rest score the
        square of their number; then every sea worker goes home (storm)."""
        comp, _members, touch = self.graph()
        for x in self.settlements:
            near = [s for s in self.around[x] if s in self.workers and comp[s] in touch[x]]
            forests = {self.region[s] for s in near if self.terrain[s] == "f"}
            food = 1 + len(forests) + sum(1 for s in near if s in self.sea)
            w = self.warriors[x]
            for p in range(self.n):
                if w[p] > food:
                    self.supply[p] += w[p] - food
                    w[p] = food
                self.points[p] += w[p] * w[p]
        for s in [s for s in self.workers if s in self.sea]:
            self.send_home(s)

    # ------------------------------------------------------------ the game
    def play(self):
        while not self.over:
            self.play_turn()
        return self

    def winners(self):
        """Most points; a tie goes to most treasure tiles; still tied: shared."""
        best = max((self.points[p], len(self.hand[p])) for p in range(self.n))
        return [p for p in range(self.n) if (self.points[p], len(self.hand[p])) == best]


def random_game(seed, players=4):
    """A complete random game."""
    return Nord(seed, players).play()


if __name__ == "__main__":
    import sys
    import time

    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    players = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    t = time.perf_counter()
    games = [random_game(i, players) for i in range(n)]
    secs = time.perf_counter() - t
    stats = sum((g.stats for g in games), Counter())
    print(f"{n / secs:.1f} games/s; {sum(g.turns for g in games) / n:.1f} turns/game; "
          f"{stats['place options'] / stats['place']:.1f} options per placement decision")
