"""A board's spaces as bits, as the connection graph lays them out.

A mask is a set of spaces: bits in row-major order, with a spare column so
that shifting a mask by one never wraps into the next row. A set of
neighbouring spaces then grows by shifting and masking (`grow`), with no
space listed; the connection graph (graph.py) keeps its components so, and
the rules' connected(...) and component(...) reach through them. The sets
of spaces made from masks are kept by mask, and known by their mask to the
rules' union (lang/builtins.py MASKED), which joins them as masks.
"""

from __future__ import annotations

from ..lang.builtins import MASKED

_SETS_LIMIT = 1_000       # sets of spaces made from masks, kept (cleared when full: see lang/memo.py _MEMO)
_REACH_LIMIT = 1_000      # callers' last reaches kept (cleared when full)


class _Masks:
    """A board's spaces as bits: each space's bit, the bit order's spaces,
    the shift of one row, every space, the structures' spaces, each
    structure's (port faces, their bits), the sets of spaces (and their
    masks by the sets' ids) and the components made from masks so far, the
    last reach of each caller (see `reach`), the last frontier of each
    structure (graph.py Links._structure_frontier) and the structures that
    a component holding some port faces touches (graph.py Links._merge)."""

    __slots__ = ("bit", "space", "row", "valid", "free", "faces", "facing", "face_masks", "any_face", "spaces_of",
                 "comps_of", "reached", "fronts", "ids", "ones", "touching", "listed")

    def __init__(self, grid):
        width = 1 + max((c for _r, c in grid.spaces), default=0)
        self.row = width + 1                       # the spare column: no shift wraps
        self.bit = {s: 1 << (s[0] * self.row + s[1]) for s in grid.spaces}
        self.space = {b.bit_length() - 1: s for s, b in self.bit.items()}
        self.valid = _or(self.bit.values())
        self.ones = _ones(self.valid.bit_length())  # each bit as a mask, by its place (see _ones)
        self.free = self.valid & ~_or(self.bit[s] for s in grid.structure_at)
        self.faces = {sid: (tuple(f for f in (grid.port_faces[p] for p in ports) if f is not None),
                            _or(self.bit[f] for p in ports if (f := grid.port_faces[p]) is not None))
                      for sid, ports in grid.ports.items()}
        self.facing = tuple((sid, faces, fm) for sid, (faces, fm) in self.faces.items())
        self.face_masks = tuple((sid, fm) for sid, _faces, fm in self.facing)
        self.any_face = _or(fm for _sid, _faces, fm in self.facing)
        self.spaces_of: dict = {}                  # mask -> frozenset of its spaces
        self.comps_of: dict = {}                   # mask -> its component: spaces and the ports facing them
        self.reached: dict = {}                    # key -> (within, its reach from the key's seeds)
        self.fronts: dict = {}                     # structure -> (occ, halo, its frontier's mask, set): graph.py
        self.ids: dict = {}                        # id of a set in spaces_of -> its mask
        self.touching: dict = {}                   # port faces a component holds -> the structures it touches
        self.listed: dict = {}                     # mask -> its spaces, a list (`members`)

    def spaces(self, m, parts=None, like=None) -> frozenset:
        """The set of a mask's spaces: the same set for the same mask while
        it is kept, and known by its bits to the rules' union (see
        `bits_of`). Rather than listed bit by bit, it is made at C speed
        from `parts`, when given, sets whose union it is, or from `like`,
        (a mask, its set) that differs from it in a few spaces."""
        hit = self.spaces_of.get(m)
        if hit is None:
            if len(self.spaces_of) > _SETS_LIMIT:
                self.spaces_of.clear()
                self.ids.clear()
            if parts is not None:
                hit = frozenset().union(*parts)
            elif like is not None:
                hit, gone, came = like[1], like[0] & ~m, m & ~like[0]
                if gone:
                    hit = hit.difference(self.members(gone))
                if came:
                    hit = hit.union(self.members(came))
            else:
                hit = frozenset(self.members(m))
            self.spaces_of[m] = hit
            self.ids[id(hit)] = m
            MASKED[0] = self
        return hit

    def bits_of(self, s):
        """The mask of a set this layout made and keeps (spaces), or None.
        (`ids` holds numbers only, which the garbage collector never walks;
        each id is of a set `spaces_of` holds, so it is not reused while
        it is there.)"""
        m = self.ids.get(id(s))
        if m is not None and self.spaces_of.get(m) is s:
            return m
        return None

    def members(self, m) -> tuple:
        """The spaces of a mask, in the bits' order, which is the spaces'
        own (row, column) order: a tuple kept by mask (a player's pieces
        are listed again at every position another's move makes, as a
        search makes many)."""
        out = self.listed.get(m)
        if out is None:
            if len(self.listed) > _SETS_LIMIT:
                self.listed.clear()
            found = []
            space, ones, k = self.space, self.ones, m
            while k:                        # (highest bit first: see _ones)
                i = k.bit_length() - 1
                k ^= ones[i]
                found.append(space[i])
            found.reverse()
            out = self.listed[m] = tuple(found)
        return out

    def split(self, m) -> list:
        """The connected parts of a mask, lowest bit first."""
        out = []
        while m:
            c = self.grow(m & -m, m)
            m &= ~c
            out.append(c)
        return out

    def spread(self, m) -> int:
        """The spaces orthogonally next to those of a mask (and off-board
        bits, which callers mask away): a square board's; other geometries
        spread in the subclasses below."""
        row = self.row
        return (m << 1) | (m >> 1) | (m << row) | (m >> row)

    def grow(self, seed, within) -> int:
        """The connected part of `within` that holds `seed` (any bits): a
        square board's, its spread written in (a call a step costs a sixth
        of a step); other geometries grow by their spread (_grow_by)."""
        row = self.row
        c = seed
        while True:
            n = (c | c << 1 | c >> 1 | c << row | c >> row) & within
            if n == c:
                return c
            c = n

    def reach(self, seeds, within, key) -> int:
        """grow(seeds & within, within): the spaces of `within` linked to a
        seed, worked out from the last answer for the same seeds and `key`
        (which says what `within` stands for, such as one player's pieces)
        rather than from scratch. When `within` only gained spaces since,
        the old reach is part of the new one: it grows from there, a step
        or two for a piece placed. When it only lost spaces and none of the
        old reach, nothing changed (a component that lost none of its
        spaces stays whole, and one no seed touched gains none). Else it
        grows anew. Any answer kept is exact for its own `within`, so the
        states of many games and probes may share the memo."""
        reached = self.reached
        k = (seeds, key)
        last = reached.get(k)
        if last is not None:
            old, r = last
            if old == within:
                return r
            if not old & ~within:
                r = self.grow(r | (seeds & within), within)
            elif within & ~old or (old & ~within) & r:
                r = self.grow(seeds & within, within)
        else:
            if len(reached) > _REACH_LIMIT:
                reached.clear()
            r = self.grow(seeds & within, within)
        reached[k] = (within, r)
        return r


def _grow_by(self, seed, within) -> int:
    """_Masks.grow by the board's own spread."""
    spread = self.spread
    c = seed
    while True:
        n = (c | spread(c)) & within
        if n == c:
            return c
        c = n


class _ShiftMasks(_Masks):
    """A board whose neighbours lie at fixed bit offsets other than the
    square's (square8: ±1, ±row, ±(row±1); hex: ±1, ±row, ±(row-1)): with
    the spare column none of them wraps into a space of another row."""

    # `spread` is a slot here: each board's own function, the shifts written in (_shifter),
    # which `grow` and callers call as they call the square board's method
    __slots__ = ("shifts", "spread")

    def __init__(self, grid, shifts):
        super().__init__(grid)
        self.shifts = shifts(self.row)
        self.spread = _shifter(self.shifts)

    grow = _grow_by


def _shifter(shifts):
    """A function spreading a mask by fixed shifts, the shifts written into
    it (a board's spread runs at every reach: a loop over three shifts
    costs a third more)."""
    if len(shifts) == 3:
        a, b, c = shifts
        return lambda m: (m << a) | (m >> a) | (m << b) | (m >> b) | (m << c) | (m >> c)
    if len(shifts) == 4:
        a, b, c, d = shifts
        return lambda m: (m << a) | (m >> a) | (m << b) | (m >> b) | (m << c) | (m >> c) | (m << d) | (m >> d)

    def spread(m):
        out = 0
        for k in shifts:
            out |= (m << k) | (m >> k)
        return out
    return spread


class _TableMasks(_Masks):
    """A board given as a graph: each bit's neighbours come from a table."""

    __slots__ = ("near",)

    def __init__(self, grid):
        super().__init__(grid)
        self.near = {b.bit_length() - 1: _or(self.bit[n] for n in grid.orth[s]) for s, b in self.bit.items()}

    grow = _grow_by

    def spread(self, m) -> int:
        out = 0
        near = self.near
        while m:
            b = m & -m
            m ^= b
            out |= near[b.bit_length() - 1]
        return out


_ONES: list = [1]


def _ones(n) -> list:
    """1 << i for each i below n at least. Loops over a mask's bits take
    the highest one (its bit_length) and clear it with this table: taking
    the lowest (m & -m) makes and masks a negative number, the cost of
    such a loop's step twice over. (Where the order matters, the bits
    found come out reversed.)"""
    if len(_ONES) < n:
        _ONES.extend(1 << i for i in range(len(_ONES), n))
    return _ONES


def _or(bits) -> int:
    m = 0
    for b in bits:
        m |= b
    return m


def _masks(grid) -> _Masks:
    m = grid.memo.get("link_masks")
    if m is None:
        geo = grid.geometry
        if geo.kind == "square":
            m = _Masks(grid)
        elif geo.shifts(2) is None:
            m = _TableMasks(grid)
        else:
            m = _ShiftMasks(grid, geo.shifts)
        grid.memo["link_masks"] = m
    return m


def bit_layout(grid) -> _Masks:
    """The board's spaces as bits, as the connection graph lays them out
    (`bit`, `free`: other modules' masks can then meet its `occ`)."""
    return _masks(grid)
