"""The YAML files under tests/ are the Python tests' own material (broken on
purpose, or run by the tests that name them): nordlang's pytest plugin does
not collect them as scenarios, so `pytest` collects what it always did.

The compiled-rulebook cache (nordlang/rules/cache.py) goes to a temporary
folder for the test session (each worker its own), so that tests never
write to the home folder; the commands tests run in subprocesses inherit it.
The browser tests' fixtures (`server`, `browser`) are in browser_support.py."""

import atexit
import os
import shutil
import tempfile

collect_ignore_glob = ["*.yaml", "*.yml"]
pytest_plugins = ["browser_support"]      # (the page's server and a browser: fixtures of the browser tests)

_CACHE = tempfile.mkdtemp(prefix="nordlang-test-cache-")
os.environ["NORDLANG_CACHE"] = _CACHE
atexit.register(shutil.rmtree, _CACHE, ignore_errors=True)
