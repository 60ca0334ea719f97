"""Connected sets of spaces of given sizes, found by growing them from
their anchors over bit masks of the board."""

from __future__ import annotations

from bisect import bisect_left
from functools import reduce
from operator import or_

from ...board.masks import _ones
from ...errors import EvalError
from ...lang.budget import SMALL


def _board_masks(orth, region_of, memo, bits=None):
    """Per board: the space of each bit, each space's bit, and by bit its
    neighbours' bits, its region's bit and the bits of its region's spaces;
    the sets of spaces made from masks so far, the masks of collections of
    spaces seen lately, and the sets found so far by part of the board (see
    _by_parts); all kept in the board's memo when there is one.

    `bits` gives each space's bit (the connection graph's layout, so that its
    masks serve here too); by default, spaces in sorted order. Either way
    bits follow the spaces' order, so masks compare as the sets' lowest
    spaces do, and groups come in the same order."""
    pre = memo.get("masks") if memo is not None else None
    if pre is None:
        if bits is None:
            bits = {s: 1 << i for i, s in enumerate(sorted(orth))}
        index = {s: b.bit_length() - 1 for s, b in bits.items() if s in orth}
        size = max(index.values(), default=-1) + 1
        spaces = [None] * size
        nbr, reg, within = [0] * size, [0] * size, [0] * size
        rid: dict = {}
        members: dict = {}
        for s, i in index.items():
            spaces[i] = s
            nbr[i] = sum(bits[n] for n in orth[s] if n in index)
            reg[i] = r = 1 << rid.setdefault(region_of.get(s), len(rid))
            members[r] = members.get(r, 0) | (1 << i)
        for i in index.values():
            within[i] = members[reg[i]]
        bit = {s: 1 << i for s, i in index.items()}
        pre = (spaces, bit, nbr, reg, within, _MaskSets(spaces), {}, {})
        if memo is not None:
            memo["masks"] = pre
    return pre


class _MaskSets(dict):
    """mask -> the frozenset of its spaces, made when first asked for; also
    by a sized mask, (size << shift) | mask (see _by_parts), the same set."""

    def __init__(self, spaces):
        super().__init__()
        self.spaces = spaces
        self.shift = len(spaces)
        self.low = (1 << self.shift) - 1
        self.ones = _ones(self.shift)

    def __missing__(self, g):
        if len(self) > 100_000:
            self.clear()
        m = g & self.low
        if m != g:
            group = self[g] = self[m]
            return group
        members = []
        ones, spaces = self.ones, self.spaces
        while m:                        # (highest bit first: see _ones)
            i = m.bit_length() - 1
            m ^= ones[i]
            members.append(spaces[i])
        group = self[g] = frozenset(members)
        return group


def _mask(bit, spaces) -> int:
    """The bits of the spaces (anything else in the collection is ignored)."""
    try:
        return reduce(or_, map(bit.__getitem__, spaces), 0)
    except (KeyError, TypeError):
        return reduce(or_, [bit[s] for s in spaces if s in bit], 0)


GROUPS_LIMIT = 100_000      # sets of one size a call of groups() may find: beyond, a rulebook asks too much


def connected_subsets(orth, region_of, allowed, lo, hi, anchors=None, max_regions=None, memo=None,
                      bits=None, budget=None) -> tuple:
    """Every orthogonally connected subset of `allowed` with lo..hi members that
    holds an anchor and lies in at most max_regions regions, size by size,
    each size in bit-mask order.

    Each subset is found exactly once, from its lowest anchor (the root):
    a search state is a set, the spaces next to it that it may still take
    (its extension) and the spaces it must not take (lower roots, and the
    extension spaces an earlier branch already took). Taking a space adds
    its free neighbours to the extension; leaving it excludes it from the
    later branches. So no subset is built twice and none needs a lookup to
    be kept once. Sets are bit masks over the board's spaces (see
    _board_masks for `bits`) and become sets of spaces at the end; `memo`
    (the board's) keeps the masks and those sets from call to call; the
    sets found are charged to `budget` (lang/budget.py), when given.
    """
    if hi < 1 or not allowed:
        return ()
    pre = _board_masks(orth, region_of, memo, bits)
    return _subsets(pre, _mask(pre[1], allowed), lo, hi, anchors, max_regions, budget)


def _subsets(pre, ok, lo, hi, anchors, max_regions, budget=None, anchor_bits=None) -> tuple:
    """connected_subsets of the spaces of the mask `ok` (the anchors' mask
    is `anchor_bits` when the caller knows it)."""
    if not ok:
        return ()
    spaces, bit, nbr, reg, within, sets, _known, parts = pre
    roots = ok if anchors is None else (_mask(bit, anchors) if anchor_bits is None else anchor_bits) & ok
    limit = len(spaces) + 1 if max_regions is None else max_regions
    if limit == 1:
        sized = _by_parts(roots, ok, nbr, reg, within, hi, parts, sets.shift)
        if sized is not None:
            if budget is not None and len(sized) > SMALL:
                budget.charge(len(sized))
            cut = bisect_left(sized, max(lo, 1) << sets.shift) if lo > 1 else 0
            return tuple(map(sets.__getitem__, sized[cut:] if cut else sized))
    # (or a search near the limit: the whole one checks it as it goes)
    by_size = _grow(roots, ok, nbr, reg, within, hi, limit)
    if by_size is None:
        raise EvalError(f"groups(...) of up to {hi} spaces finds more than {GROUPS_LIMIT} sets of one size "
                        f"here", hint="lower its largest size, or give it fewer spaces or anchors")
    if budget is not None:
        found = sum(map(len, by_size))
        if found > SMALL:
            budget.charge(found)
    out = []
    for found in by_size[max(lo, 1):]:
        found.sort()
        out.extend(map(sets.__getitem__, found))
    return tuple(out)


_PARTS_LIMIT = 20_000       # parts' sets kept per board (cleared when full)


def _by_parts(roots, ok, nbr, reg, within, hi, memo, shift) -> list | None:
    """The sets of _grow with a limit of one region, put together region by
    region: such a set lies in one region, so each region's sets depend
    only on its allowed spaces and roots, and are kept in `memo` by them. A
    piece placed or lifted then searches again only its own region.
    (Without the limit, keeping parts costs more than the searches, which
    are small: they run whole.)

    Each set comes as a sized mask, (size << shift) | mask, so one sort puts
    them in the order of the answer (by size, then by mask) and each part
    adds one sorted run. None past GROUPS_LIMIT sets in all (the caller
    searches whole: it checks each size)."""
    if len(memo) > _PARTS_LIMIT:
        memo.clear()
    sized: list = []
    while roots:
        part = within[roots.bit_length() - 1]       # (the highest root's region: any order, all are sorted)
        mine = roots & part
        roots ^= mine
        key = (ok & part, mine, hi)
        hit = memo.get(key)
        if hit is None:
            found = _grow(key[1], key[0], nbr, reg, within, hi, 1)
            if found is None:
                return None
            hit = memo[key] = tuple(sorted([(size << shift) | g for size, sets in enumerate(found) for g in sets]))
        sized += hit
    if len(sized) > GROUPS_LIMIT:
        return None
    sized.sort()
    return sized


def _grow(roots, ok, nbr, reg, within, hi, limit) -> list | None:
    """The connected sets within `ok` holding a root, lists by size
    (unsorted): see connected_subsets. With a limit of one region, each
    root's search keeps to its region's spaces (so none is tried and
    refused). None past GROUPS_LIMIT sets of one size (checked
    per set grown from, not per set found)."""
    if limit > len(nbr):
        return _grow_free(roots, ok, nbr, hi)
    by_size = [[] for _ in range(hi + 1)]
    ones = _ones(len(nbr))
    done = 0                     # roots already searched: later sets never hold one
    while roots:
        i = roots.bit_length() - 1      # (highest first: each set is found from its highest root)
        r = ones[i]
        roots ^= r
        done |= r
        by_size[1].append(r)
        if hi == 1:
            continue
        okr = ok & within[i] if limit == 1 else ok
        stack = [(r, 1, reg[i], nbr[i] & okr & ~done, done)]
        while stack:
            g, size, regs, ext, excl = stack.pop()
            grown = by_size[size + 1]
            if len(grown) > GROUPS_LIMIT:
                return None
            while ext:
                j = ext.bit_length() - 1
                b = ones[j]
                ext ^= b
                nregs = regs | reg[j]
                if nregs == regs or nregs.bit_count() <= limit:
                    ng = g | b
                    grown.append(ng)
                    if size + 1 < hi:
                        stack.append((ng, size + 1, nregs, (ext | nbr[j]) & okr & ~excl & ~ng, excl))
                excl |= b
    return by_size


def _grow_free(roots, ok, nbr, hi) -> list | None:
    """_grow with no limit of regions: the same search with no regions
    counted, and the sets of the largest size added as they are found
    (nothing grows from them)."""
    by_size = [[] for _ in range(hi + 1)]
    by_size[1] = sizes_one = []
    ones = _ones(len(nbr))
    done = 0
    while roots:
        i = roots.bit_length() - 1
        r = ones[i]
        roots ^= r
        done |= r
        sizes_one.append(r)
        if hi == 1:
            continue
        if hi == 2:                 # (pairs: the root and each free neighbour, no search)
            pairs = by_size[2]
            if len(pairs) > GROUPS_LIMIT:
                return None
            ext = nbr[i] & ok & ~done
            while ext:
                b = ones[ext.bit_length() - 1]
                ext ^= b
                pairs.append(r | b)
            continue
        stack = [(r, 1, nbr[i] & ok & ~done, done)]
        while stack:
            g, size, ext, excl = stack.pop()
            grown = by_size[size + 1]
            if len(grown) > GROUPS_LIMIT:
                return None
            if size + 1 == hi:
                while ext:
                    b = ones[ext.bit_length() - 1]
                    ext ^= b
                    grown.append(g | b)
                continue
            while ext:
                j = ext.bit_length() - 1
                b = ones[j]
                ext ^= b
                ng = g | b
                grown.append(ng)
                stack.append((ng, size + 1, (ext | nbr[j]) & ok & ~excl & ~ng, excl))
                excl |= b
    return by_size
