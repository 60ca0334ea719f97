"""Start-up stays light: `import nordlang` and `nord --help` load none of the
heavy dependencies (the compiler's lark, jsonschema, networkx) nor the
engine; they come when a rulebook is first loaded (lark and jsonschema only
when it is read, not when the compiled-rulebook cache serves it). (What this saves is
measured by bench/all.py --only startup; no test here times anything.)"""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("lark", "jsonschema", "networkx", "nordlang.engine.flow", "nordlang.rules.model")


def _loaded(code: str) -> set:
    probe = code + f"\nimport sys\nprint(' '.join(m for m in {HEAVY!r} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    return set(out.split())


def test_import_nordlang_loads_no_heavy_module():
    assert _loaded("import nordlang") == set()


def test_nord_help_loads_no_heavy_module():
    code = ("import contextlib, io\nfrom nordlang.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            "    try:\n        main(['--help'])\n    except SystemExit:\n        pass")
    assert _loaded(code) == set()
    for command in ("play", "replay", "render", "validate", "simulate", "test"):
        assert _loaded(code.replace("['--help']", f"[{command!r}, '--help']")) == set(), command


def test_the_engine_comes_when_first_asked_for():
    assert _loaded("import nordlang\nnordlang.Game") >= {"nordlang.engine.flow"}
    # lark and jsonschema come when a rulebook is read (not served by the compiled-rulebook cache:
    # tests/test_rulebook_cache.py checks that a warm load imports neither)
    code = "import os\nos.environ['NORDLANG_CACHE'] = 'off'\nimport nordlang\nnordlang.load('tictactoe')"
    assert _loaded(code) >= set(HEAVY) - {"networkx"}
