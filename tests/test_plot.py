"""`nord simulate --plot`: charts drawn with matplotlib, as SVG and PNG, the
same bytes for the same games, round ticks, titles that say the configuration."""

import re
import struct
import subprocess
import sys

import pytest

from nordlang.cli import main
from nordlang.sim.plot import bin_edges

pytest.importorskip("matplotlib")

CHARTS = ["points", "sources", "length", "margin"]


def test_bins_of_whole_numbers_start_at_round_numbers():
    assert bin_edges([3, 5, 4]) == [2.5, 3.5, 4.5, 5.5]                  # one bin per value
    assert bin_edges([15, 93]) == [14.5 + 5 * k for k in range(17)]     # 79 values apart: bins of 5
    assert bin_edges([0, 250]) == [-0.5 + 10 * k for k in range(27)]     # (250 is in the last: 249.5 to 259.5)
    assert bin_edges([1.5, 1.5]) == [1.0, 2.0]
    assert bin_edges([0.0, 0.25, 3.0]) == pytest.approx([0.1 * k for k in range(31)])


def _simulate(folder, capsys):
    assert main(["simulate", "-n", "6", "--players", "2", "--seed", "3", "--plot", str(folder), "--no-progress",
                 "--jobs", "1"]) == 0
    return capsys.readouterr().out


def _texts(svg: str) -> list:
    """The texts of a matplotlib SVG (drawn as paths, each preceded by its text in a comment)."""
    return re.findall(r"<!-- (.*?) -->", svg)


def test_plots_are_svg_and_png_and_the_same_bytes_each_time(tmp_path, capsys):
    out = _simulate(tmp_path / "a", capsys)
    _simulate(tmp_path / "b", capsys)
    names = sorted(f"{c}.{fmt}" for c in CHARTS for fmt in ("svg", "png"))
    assert sorted(p.name for p in (tmp_path / "a").iterdir()) == names
    assert out.count("plot written to ") == 8
    for name in names:
        a, b = (tmp_path / "a" / name).read_bytes(), (tmp_path / "b" / name).read_bytes()
        assert a == b, name
        if name.endswith(".png"):
            assert a[:8] == b"\x89PNG\r\n\x1a\n"
            assert struct.unpack(">I", a[16:20])[0] == 800            # 8 inches at 100 dpi
        else:
            assert b"<svg" in a and b"<dc:date>" not in a


def test_points_have_a_panel_per_seat_round_ticks_and_say_the_configuration(tmp_path, capsys):
    _simulate(tmp_path, capsys)
    texts = _texts((tmp_path / "points.svg").read_text())
    assert "Final points by seat (6 games)" in texts
    assert "Nord, 2 players, agents random, seed 3" in texts
    panels = [t for t in texts if t.startswith("seat ")]
    assert [p.split(":")[0] for p in panels] == ["seat 1 (red)", "seat 2 (blue)"]     # (each in its colour)
    assert all(p.endswith(", 6 values") for p in panels)
    numbers = [int(t) for t in texts if re.fullmatch(r"-?\d+", t)]
    assert numbers and all(n % 5 == 0 or n < 5 for n in numbers)     # (round ticks: no 17, 30, 43)
    length = _texts((tmp_path / "length.svg").read_text())
    assert "Game length (6 games)" in length and any(t.startswith("turns: mean ") for t in length)


def test_missing_matplotlib_is_a_clear_error_before_any_game(tmp_path):
    folder = tmp_path / "plots"
    code = ("import sys; sys.modules['matplotlib'] = None\n"
            "from nordlang.cli import main\n"
            f"sys.exit(main(['simulate', '-n', '2', '--plot', {str(folder)!r}, '--no-progress', '--jobs', '1']))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr.splitlines() == ["error: --plot draws its charts with matplotlib, which is not installed",
                                        "    hint: pip install 'nordlang[plot]' (or leave out --plot)"]
    assert done.stdout == "" and not folder.exists()
