"""A loop's steps in a running flow: its head and back edge bind the next
item or count the pass, in the frame's loop slot (see program.py Loop; the
flow's machine, flow.py, runs them)."""

from __future__ import annotations

from ..errors import RulesError
from .options import _bind, _collection
from .program import While


def loop_step(fr, ins, ctx) -> None:
    """A loop's head or back edge: bind the next item or count the pass,
    else leave the loop (its head jumps past it, its back edge falls through)."""
    step, slot = ins.step, ins.slot
    loops = fr.loops
    if loops is None:
        loops = fr.loops = {}
    if type(step) is While:
        if not step.cond(ctx):
            loops.pop(slot, None)
            if not ins.again:
                fr.pc = ins.to
            return
        if ins.again:
            count = loops[slot]
            if count >= step.limit:
                raise RulesError(f"a 'while' loop ran {step.limit} times without ending", step.pos,
                                 hint="raise its 'limit' if this is intended")
            loops[slot] = count + 1
        else:
            loops[slot] = 1
    else:
        if ins.again:
            items, i = loops[slot]
        else:
            items, i = tuple(_collection(step.iter(ctx), step, "for")), 0
        if i >= len(items):
            loops.pop(slot, None)
            if not ins.again:
                fr.pc = ins.to
            return
        _bind(fr.vars, step.target, items[i])
        loops[slot] = (items, i + 1)
    if ins.again:
        fr.pc = ins.to
