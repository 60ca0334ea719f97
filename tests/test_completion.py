"""Shell completion (`nord completion SHELL`, argcomplete): commands, options,
the bundled games after --game and the variants of the game named before
--variant; asked as the shell asks (a real bash where it can), and never
loaded on the normal path."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from nordlang.cli import main
from nordlang.rules.games import bundled_games

ROOT = Path(__file__).resolve().parent.parent
NORD = "import sys\nfrom nordlang.cli import main\nsys.exit(main())"


def _env(**more):
    env = {k: v for k, v in os.environ.items() if k != "_ARGCOMPLETE"}
    return {**env, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""), **more}


def _complete(line: str, tmp_path) -> list:
    """What the completion offers for the command line `line` (the cursor at its end), by argcomplete's protocol."""
    out = tmp_path / "completions"
    subprocess.run([sys.executable, "-c", NORD], check=True, timeout=60, stdin=subprocess.DEVNULL,
                   env=_env(_ARGCOMPLETE="1", _ARGCOMPLETE_SHELL="bash", COMP_LINE=line, COMP_POINT=str(len(line)),
                            _ARGCOMPLETE_STDOUT_FILENAME=str(out)))
    return [word.strip() for word in out.read_text().split("\013") if word.strip()]


def test_game_completes_with_the_bundled_games(tmp_path):
    games = _complete("nord play --game ", tmp_path)
    assert games == list(bundled_games())
    assert {"hex", "nord", "vikings", "tictactoe"} <= set(games)
    assert _complete("nord simulate --game vi", tmp_path) == ["vikings"]


def test_variant_completes_with_the_variants_of_the_game_named_before(tmp_path):
    assert _complete("nord play --game hex --variant ", tmp_path) == ["7x7", "9x9", "swap"]
    assert _complete("nord compare --game vikings --variant-b ", tmp_path) == ["progress"]
    nord = _complete("nord simulate --variant ", tmp_path)        # no game named: nord's, the default
    assert nord[:2] == ["blood-feud", "chosen-starts"] and "no-storm" in nord and len(nord) == 10
    assert _complete("nord play --game pig --variant ", tmp_path) == []


def test_commands_and_options_complete(tmp_path):
    assert _complete("nord comp", tmp_path) == ["compare", "completion"]
    assert _complete("nord play --ga", tmp_path) == ["--game"]
    assert _complete("nord completion ", tmp_path)[-3:] == ["bash", "zsh", "fish"]


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash")
def test_the_bash_script_completes_in_bash(tmp_path):
    """The printed script, sourced in a real bash, fills COMPREPLY by running `nord`."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "nord").write_text(f"#!/bin/sh\nexec {sys.executable} -c '{NORD}' \"$@\"\n")
    (bin_dir / "nord").chmod(0o755)
    script = subprocess.run([sys.executable, "-c", NORD, "completion", "bash"], env=_env(), check=True,
                            capture_output=True, text=True).stdout
    (tmp_path / "nord.bash").write_text(script)
    ask = ('source "$1"; COMP_LINE="nord play --game hex --variant "; COMP_POINT=${#COMP_LINE}; '
           'COMP_WORDS=(nord play --game hex --variant ""); COMP_CWORD=5; '
           '_python_argcomplete nord "" --variant; printf "%s\\n" "${COMPREPLY[@]}"')
    out = subprocess.run(["bash", "-c", ask, "bash", str(tmp_path / "nord.bash")], capture_output=True, text=True,
                         timeout=60, env=_env(PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}"))
    assert out.stdout.split() == ["7x7", "9x9", "swap"], out.stderr


def test_each_shell_gets_its_own_script(capsys):
    for shell, mark in (("bash", "complete -o nospace -o default -o bashdefault -F _python_argcomplete nord"),
                        ("zsh", "#compdef nord"), ("fish", "complete --command nord")):
        assert main(["completion", shell]) == 0
        assert mark in capsys.readouterr().out, shell
    with pytest.raises(SystemExit):
        main(["completion", "tcsh"])
    assert "invalid choice: 'tcsh'" in capsys.readouterr().err


def test_without_argcomplete_the_command_says_what_to_install(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "argcomplete", None)        # (an import of it fails)
    assert main(["completion", "bash"]) == 2
    err = capsys.readouterr().err
    assert "shell completion needs the argcomplete package" in err
    assert "pip install 'nordlang[completion]'" in err


def test_the_normal_path_loads_no_completion_library_nor_the_json_printer():
    code = ("import contextlib, io, sys\nfrom nordlang.cli import main\n"
            "for argv in (['--help'], ['play', '--help'], ['games']):\n"
            "    with contextlib.redirect_stdout(io.StringIO()):\n"
            "        try:\n            main(argv)\n        except SystemExit:\n            pass\n"
            "print('argcomplete' in sys.modules, 'nordlang.cli.json_output' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], env=_env(), capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False False"
