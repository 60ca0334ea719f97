"""The compiled-rulebook cache (nordlang/rules/cache.py): a warm load reads
no YAML and imports neither lark nor jsonschema, gives the same games as a
cold one, and is never served from an entry made of other files, another
variant, include, parameter, player count or engine; a broken entry or an
unwritable folder is no error, and NORDLANG_CACHE=off turns it off. (No
test times anything: bench/all.py --only startup does.)"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import nordlang
from nordlang.engine.record import state_digest
from nordlang.errors import NordError
from nordlang.rules import build, cache

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """A cache folder of this test's own, and no rules kept in memory between loads."""
    where = tmp_path / "cache"
    monkeypatch.setenv("NORDLANG_CACHE", str(where))
    monkeypatch.setattr(build, "_CACHE", {})
    return where


def load(*args, **kw):
    build._CACHE.clear()            # (the in-process memo: each load here asks the disk)
    return nordlang.load_rules(*args, **kw)


def entries(where: Path) -> list:
    return sorted((where / "rules").glob("*.pickle")) if (where / "rules").is_dir() else []


def random_games(rules, seeds=(1, 2, 3), most=400) -> list:
    out = []
    for seed in seeds:
        game = nordlang.Game(rules, seed)
        rng = random.Random(seed)
        record = []
        while not game.over and len(record) < most:
            moves = game.legal_moves()
            move = moves[rng.randrange(len(moves))]
            game.play(move)
            record.append((str(move), state_digest(game.state)))
        out.append((record, game.points()))
    return out


def test_a_warm_load_imports_neither_lark_nor_jsonschema(folder):
    probe = ("import sys, nordlang\nr = nordlang.load_rules({game!r})\n"
             "print(r.from_cache, *(m for m in ('lark', 'jsonschema', 'yaml') if m in sys.modules))")
    env = dict(os.environ, NORDLANG_CACHE=str(folder))
    for game in ("tictactoe", "nord"):
        runs = [subprocess.run([sys.executable, "-c", probe.format(game=game)], capture_output=True, text=True,
                               env=env, check=True).stdout.split() for _ in range(2)]
        assert runs[0][0] == "False" and {"lark", "jsonschema"} <= set(runs[0][1:]), runs[0]
        assert runs[1] == ["True"], runs[1]          # (nor pyyaml: no file is read as YAML)


@pytest.mark.parametrize("game", ["tictactoe", "hex", "nord", "goofspiel"])
def test_a_warm_load_plays_the_same_games_as_a_cold_one(folder, monkeypatch, game):
    cold = load(game)
    warm = load(game)
    assert not cold.from_cache and warm.from_cache
    monkeypatch.setenv("NORDLANG_CACHE", "off")
    uncached = load(game)
    assert not uncached.from_cache
    assert warm.digest == cold.digest == uncached.digest
    assert warm.data == uncached.data
    assert random_games(warm) == random_games(uncached)


@pytest.fixture
def book(tmp_path):
    """A copy of tic-tac-toe with an include and a variant of its own."""
    where = tmp_path / "ttt"
    where.mkdir()
    text = (ROOT / "rulebook" / "tictactoe" / "tictactoe.yaml").read_text(encoding="utf-8")
    text = text.replace("players: {min: 2, max: 2,", "players: {min: 2, max: 3,")
    text = text.replace("colors: [red, blue]}", "colors: [red, blue, green]}")
    text = text.replace("\nterrains:", "\ninclude: [extra.yaml]\n\nterrains:")
    (where / "ttt.yaml").write_text(text, encoding="utf-8")
    (where / "extra.yaml").write_text("messages:\n  hello: 'hello one'\n", encoding="utf-8")
    (where / "longer.yaml").write_text("description: Four in a row.\nextends: ttt.yaml\npatch:\n"
                                       "  constants: {line: 4}\n", encoding="utf-8")
    return where


def test_a_changed_rulebook_is_never_served_stale(folder, book):
    main = book / "ttt.yaml"
    assert not load(main).from_cache
    assert load(main).from_cache
    main.write_text(main.read_text().replace("name: Tic-tac-toe", "name: Tic-tac-two"))
    fresh = load(main)
    assert not fresh.from_cache and fresh.name == "Tic-tac-two"
    again = load(main)
    assert again.from_cache and again.name == "Tic-tac-two"


def test_a_changed_include_is_never_served_stale(folder, book):
    assert load(book / "ttt.yaml").messages["hello"] == "hello one"
    assert load(book / "ttt.yaml").from_cache
    (book / "extra.yaml").write_text("messages:\n  hello: 'hello two'\n", encoding="utf-8")
    fresh = load(book / "ttt.yaml")
    assert not fresh.from_cache and fresh.messages["hello"] == "hello two"
    (book / "extra.yaml").unlink()
    with pytest.raises(NordError, match="no such file"):
        load(book / "ttt.yaml")


def test_a_changed_variant_is_never_served_stale(folder, book):
    variant = book / "longer.yaml"
    plain = load(book / "ttt.yaml")
    first = load(book / "ttt.yaml", variants=[variant])
    assert not first.from_cache and first.data["constants"]["line"] == 4
    assert load(book / "ttt.yaml", variants=[variant]).from_cache
    assert load(book / "ttt.yaml").digest == plain.digest
    variant.write_text(variant.read_text().replace("line: 4", "line: 2"))
    fresh = load(book / "ttt.yaml", variants=[variant])
    assert not fresh.from_cache and fresh.data["constants"]["line"] == 2


def test_params_and_player_counts_have_entries_of_their_own(folder, book):
    main = book / "ttt.yaml"
    assert load(main, params={"line": 2}).data["constants"]["line"] == 2
    assert not load(main, params={"line": 4}).from_cache
    four = load(main, params={"line": 4})
    assert four.from_cache and four.data["constants"]["line"] == 4
    assert load(main).data["constants"]["line"] == 3
    assert load(main, players=2).num_players == 2
    three = load(main, players=3)
    assert not three.from_cache and three.num_players == 3
    assert load(main, players=3).from_cache


def test_another_engine_is_never_served_an_old_entry(folder, book, monkeypatch):
    main = book / "ttt.yaml"
    load(main)
    assert load(main).from_cache
    monkeypatch.setattr(cache, "engine_digest", lambda: "a changed engine")
    assert not load(main).from_cache
    assert load(main).from_cache
    assert len(entries(folder)) == 2


def test_the_engine_digest_reads_the_package_sources(tmp_path):
    """A copy of the package has the same digest; a changed source file, another."""
    copy = tmp_path / "nordlang"
    shutil.copytree(ROOT / "nordlang", copy, ignore=shutil.ignore_patterns("__pycache__", "_bundled"))
    code = "from nordlang.rules.cache import engine_digest\nprint(engine_digest())"

    def digest(where):
        env = dict(os.environ, PYTHONPATH=str(where))
        return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=where,
                              check=True).stdout.strip()
    here = digest(tmp_path)
    assert here == cache.engine_digest() == digest(ROOT)
    with open(copy / "engine" / "flow.py", "a", encoding="utf-8") as f:
        f.write("\n# changed\n")
    assert digest(tmp_path) != here


def test_the_same_files_elsewhere_are_entries_of_their_own(folder, book, tmp_path):
    """The positions a rulebook's messages give name its own files."""
    other = tmp_path / "other"
    shutil.copytree(book, other)
    assert load(book / "ttt.yaml").doc.files[0] == str(book / "ttt.yaml")
    assert not load(other / "ttt.yaml").from_cache
    assert load(other / "ttt.yaml").doc.files == [str(other / "ttt.yaml"), str(other / "extra.yaml")]


def test_a_corrupt_entry_is_ignored_and_replaced(folder, book):
    main = book / "ttt.yaml"
    load(main)
    (entry,) = entries(folder)
    for junk in (b"", b"not a pickle", entry.read_bytes()[:40], b"\x80\x05N."):
        entry.write_bytes(junk)
        assert not load(main).from_cache
        assert load(main).from_cache


def test_an_unwritable_folder_is_not_used(tmp_path, monkeypatch, book):
    monkeypatch.setattr(build, "_CACHE", {})
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("NORDLANG_CACHE", str(blocker / "cache"))
    for _ in range(2):
        assert not load(book / "ttt.yaml").from_cache


def test_off_turns_it_off(folder, book, monkeypatch):
    monkeypatch.setenv("NORDLANG_CACHE", "off")
    for _ in range(2):
        assert not load(book / "ttt.yaml").from_cache
    assert not folder.exists()


def test_the_default_folder(monkeypatch, tmp_path):
    monkeypatch.delenv("NORDLANG_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache.folder() == tmp_path / "nordlang" / "rules"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/ignored")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache.folder() == tmp_path / "home" / ".cache" / "nordlang" / "rules"


def _error(*args, **kw) -> str:
    try:
        load(*args, **kw)
    except NordError as e:
        return str(e)
    raise AssertionError("no error")


def test_errors_are_the_same_with_and_without_the_cache(folder, book, monkeypatch):
    """An error is never cached: a rulebook that fails leaves no entry, and what a
    user reads is the same with the cache on or off, warm or cold."""
    main = book / "ttt.yaml"
    load(main)                      # (an entry for the rulebook as it is)
    cases = [((main,), {"players": 4}), ((main,), {"params": {"line": "three"}}),
             ((main,), {"params": {"nope": 1}})]
    for args, kw in cases:
        on = _error(*args, **kw)
        monkeypatch.setenv("NORDLANG_CACHE", "off")
        assert _error(*args, **kw) == on
        monkeypatch.setenv("NORDLANG_CACHE", str(folder))
    text = main.read_text()
    for broken in (text.replace("'len(open_spaces(spaces)) == 0'", "'len(open_spaces(spaces) == 0'"),
                   text.replace("rank: ['points(p)']", "rank: ['pointz(p)']"),
                   text.replace("line: 3", "line: [3")):
        main.write_text(broken)
        on = [_error(main) for _ in range(2)]
        monkeypatch.setenv("NORDLANG_CACHE", "off")
        assert on == [_error(main)] * 2
        monkeypatch.setenv("NORDLANG_CACHE", str(folder))
    assert len(entries(folder)) == 1
