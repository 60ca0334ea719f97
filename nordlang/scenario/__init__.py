"""Scenario files: a board drawn as a map, a position on it, scripted
moves, and expectations that are checked like a test.

A position is built the way a player would set up the table: the
rulebook's own setup runs first, then each location the scenario lists
gets exactly the pieces it names: one a listed place held, else one from
its home (a piece without a home: from a zone left unlisted), else one made
for the scenario. That position is the baseline pieces are conserved from.
"""

from .check import Failure, Report, Scenario
from .names import item_names
from .position import load_scenario

__all__ = ["Failure", "Report", "Scenario", "item_names", "load_scenario"]
