"""time_to_depth.py against the fake driver (tests/fake_driver.py) and a fake `othello`."""

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
SCRIPT = HERE.parent / "time_to_depth.py"
FAKE = HERE / "fake_driver.py"
POSITIONS = HERE.parent / "positions-mid.txt"

spec = importlib.util.spec_from_file_location("time_to_depth", SCRIPT)
ttd = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ttd)

START = "-" * 27 + "OX" + "-" * 6 + "XO" + "-" * 27


def fake_othello(tmp_path):
    """A stand-in for `othello search POS --depth D --engine SPEC --json`: one JSON line whose
    nodes are the depth times 10 (plus 1 for a spec with `off`), 2 ms a search; exits 2 for
    the spec `bad`."""
    path = tmp_path / "othello"
    path.write_text(
        f"#!{sys.executable}\n"
        "import json, sys\n"
        "a = sys.argv[1:]\n"
        "spec = a[a.index('--engine') + 1]\n"
        "if spec == 'bad':\n"
        "    print('error: bad spec', file=sys.stderr); sys.exit(2)\n"
        "d = int(a[a.index('--depth') + 1])\n"
        "print(json.dumps({'depth': d, 'nodes': 1, 'time_ms': 0.1}))\n"
        "print(json.dumps({'best_move': 'd3', 'nodes': 10 * d + ('off' in spec), 'time_ms': 2.0}))\n"
    )
    path.chmod(0o755)
    return str(path)


def test_the_committed_positions_read_as_fifty_middle_game_positions():
    positions = ttd.read_positions(str(POSITIONS))
    assert len(positions) == 50
    assert len(set(positions)) == 50
    for p in positions:
        empties = p.split()[0].count("-")
        assert 32 <= empties <= 44, p


def test_bad_positions_and_depths_are_usage_errors(tmp_path):
    bad = tmp_path / "bad.txt"
    for text in [f"{START}\n", f"{START} Y\n", f"{START[:63]} X\n", f"{START[:-1]}Z X\n", "# only\n"]:
        bad.write_text(text)
        with pytest.raises(ttd.UsageError):
            ttd.read_positions(str(bad))
    for text in ["", "a", "0", "61", "12,,14"]:
        with pytest.raises(ttd.UsageError):
            ttd.parse_depths(text)
    assert ttd.parse_depths("12,14") == [12, 14]


def test_driver_answers_give_their_node_count():
    assert ttd.parse_driver_answer("d3 1.25 12345 mid\n") == 12345
    assert ttd.parse_driver_answer("PA 0.00 0 pass") == 0
    with pytest.raises(RuntimeError):
        ttd.parse_driver_answer("error bad line")


def test_a_run_against_the_fake_driver_and_engine(tmp_path):
    positions = tmp_path / "p.txt"
    positions.write_text(f"# two\n{START} X\n{START} O # the same board, white to move\n")
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--othello", fake_othello(tmp_path), "--positions",
         str(positions), "--depths", "3,5", "--engine", "a", "--engine", "a:off", "--runs", "2",
         "--", sys.executable, str(FAKE)],
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 0, done.stderr
    rows = [line.split() for line in done.stdout.splitlines()[1:]]
    # Per depth: zebra, then each engine; the fake driver counts 100 nodes a search.
    assert [(r[0], r[1], r[3]) for r in rows] == [
        ("3", "zebra", "200"), ("3", "a", "60"), ("3", "a:off", "62"),
        ("5", "zebra", "200"), ("5", "a", "100"), ("5", "a:off", "102"),
    ]
    # Ours: two searches of 2 ms each; the ratio is to Zebra's time.
    assert [r[2] for r in rows if r[1] != "zebra"] == ["0.004"] * 4
    assert all(r[4] == "1.000" for r in rows if r[1] == "zebra")


def test_without_a_driver_the_ratio_is_to_the_first_engine(tmp_path):
    names, totals = ttd.measure(
        ["p"], [4], ["x", "y"], lambda s, p, d: (0.002 if s == "x" else 0.001, d), None, runs=3
    )
    assert names == ["x", "y"]
    assert totals[(4, "x")] == [(0.002, 4)] * 3
    lines = ttd.report(names, totals, [4]).splitlines()
    assert lines[1].split()[-1] == "1.000" and lines[2].split()[-1] == "0.500"


def test_failures_exit_with_a_message(tmp_path):
    positions = tmp_path / "p.txt"
    positions.write_text(f"{START} X\n")
    base = [sys.executable, str(SCRIPT), "--othello", fake_othello(tmp_path)]
    missing = subprocess.run(base + ["--positions", str(tmp_path / "none.txt")],
                             capture_output=True, text=True, timeout=30)
    assert missing.returncode == 2 and "error:" in missing.stderr and "Traceback" not in missing.stderr
    depths = subprocess.run(base + ["--positions", str(positions), "--depths", "x"],
                            capture_output=True, text=True, timeout=30)
    assert depths.returncode == 2 and "--depths" in depths.stderr
    engine = subprocess.run(base + ["--positions", str(positions), "--engine", "bad"],
                            capture_output=True, text=True, timeout=30)
    assert engine.returncode == 1 and "bad spec" in engine.stderr and "Traceback" not in engine.stderr
