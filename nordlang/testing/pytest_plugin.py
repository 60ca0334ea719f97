"""pytest plugin: scenario files collected and run as tests, as `nord test` runs them.

Registered through the `pytest11` entry point, so `pytest variants` collects
every scenario under it: one item per scenario, or per branch of a file with
`branches` (`file.yaml::name`, as `nord test` names it). `-k`, `--junitxml`
and pytest-xdist's `-n` work as for any test: each item loads its file and
plays on its own copy of the position, so items are independent.

A YAML file is collected when it is a scenario (not a rulebook or a
variant, by its keys) and either lies under a folder named `scenarios` or
names its game (`game:`/`rulebook:`) and has a script or an expectation;
a file under `scenarios` that is no YAML mapping at all is collected too,
so that its load error is reported rather than the file silently passed
over. Without the entry point (a nordlang not installed): `-p
nordlang.testing.pytest_plugin`; to switch it off: `-p
no:nordlang.testing.pytest_plugin`.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from ..cli.test import error_text, result_text, scenario_runs
from ..errors import NordError

_SUFFIXES = (".yaml", ".yml")
_SCRIPT = ("moves", "expect", "branches")


def pytest_collect_file(file_path: Path, parent):
    if file_path.suffix in _SUFFIXES and is_scenario_file(file_path):
        return ScenarioFile.from_parent(parent, path=file_path)
    return None


def is_scenario_file(path: Path) -> bool:
    """Is this YAML file a scenario to collect (see the module's docstring)?"""
    from ..rules.loader import file_kind
    from ..rules.yamlpos import load_yaml
    in_scenarios = "scenarios" in Path(path).parent.parts
    try:
        data = load_yaml(path)[0]
    except NordError:
        return in_scenarios
    if not isinstance(data, dict):
        return in_scenarios and data is not None
    if file_kind(data) != "scenario":
        return False
    return in_scenarios or bool({"game", "rulebook"} & set(data) and set(_SCRIPT) & set(data))


class ScenarioFile(pytest.File):
    """A scenario file: one item, or one per branch (read from the YAML alone:
    the rules are loaded when an item runs)."""

    def collect(self):
        from ..rules.yamlpos import load_yaml
        try:
            data = load_yaml(self.path)[0]
        except NordError:
            data = None
        branches = data.get("branches") if isinstance(data, dict) else None
        if isinstance(branches, dict) and branches:
            for name in branches:
                yield ScenarioItem.from_parent(self, name=str(name), branch=str(name))
        else:
            yield ScenarioItem.from_parent(self, name=self.path.stem, branch=None)


class ScenarioFailed(Exception):
    """A scenario ran and an expectation failed (or a move could not be played)."""


class ScenarioItem(pytest.Item):
    """One scenario, or one branch of a file, run as `nord test` runs it."""

    def __init__(self, *, branch: str | None, **kw):
        super().__init__(**kw)
        self.branch = branch

    def _label(self) -> str:
        return _shown(self.path) + (f"::{self.branch}" if self.branch is not None else "")

    def runtest(self):
        try:
            sc = _load(self.path)
            runs = scenario_runs(sc, self.branch) if self.branch is not None or sc.branches else [sc.copy()]
            failures = []
            for one in runs:        # (a file whose branches appeared after collection: each is run)
                rep = one.run()
                if not rep.passed:
                    failures.append(result_text(_shown(self.path) + one.name[len(one.path):], rep))
        except NordError as e:
            raise ScenarioFailed(error_text(self._label(), e)) from None
        if failures:
            raise ScenarioFailed("\n".join(failures))

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, ScenarioFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, None, f"scenario {self._label()}"


_cache: dict = {}


def _load(path: Path):
    """The file loaded at its position (the last file loaded is kept: a file's
    items run one after another, and each plays on a copy)."""
    from ..scenario import load_scenario
    key = (str(path), path.stat().st_mtime_ns)
    if key not in _cache:
        _cache.clear()
        _cache[key] = load_scenario(_shown(path))       # (failures name the file as `nord test` does)
    return _cache[key]


def _shown(path: Path) -> str:
    """The path as `nord test` shows it when run from here (relative where it can be)."""
    try:
        return os.path.relpath(path)
    except ValueError:
        return str(path)
