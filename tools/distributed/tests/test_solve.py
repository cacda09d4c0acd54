"""Distributed solving against the scores the FFO file lists."""

from __future__ import annotations

import pytest

from conftest import DATA
from othello_distributed import solve
from othello_distributed.journal import Journal
from othello_distributed.runner import run_units


def listed_best(line: str) -> int:
    """The best listed score of an OBF line ("board X; G8:+18; H1:+12;" -> 18), parsed here
    independently of the binary."""
    fields = [f.strip() for f in line.split(";")[1:] if f.strip()]
    return max(int(f.split(":")[1]) for f in fields)


def run_solve(othello_bin, identity, tmp_path, lines, shard, **options):
    job, units = solve.plan(lines, shard, options)
    journal = Journal(str(tmp_path / f"solve-{shard}.journal"), job, identity, "solve")
    outcome = run_units(units, journal, othello_bin, identity)
    journal.close()
    assert outcome.complete, outcome.failures
    return solve.ordered(lines, units, outcome.results)


@pytest.mark.parametrize("shard", [1, 4])
def test_ffo_1_to_19_in_input_order_with_known_scores(cluster, othello_bin, identity, tmp_path, shard):
    lines = solve.read_obf(str(DATA / "fforum-1-19.obf"))
    assert len(lines) == 19
    rows = run_solve(othello_bin, identity, tmp_path, lines, shard)
    assert [r["index"] for r in rows] == list(range(1, 20))
    for line, row in zip(lines, rows):
        assert row["position"] == line.split(";")[0].strip()
        assert row["score"] == listed_best(line)
        assert row["ok"] is True


def test_wld_and_a_disagreeing_listed_score(cluster, othello_bin, identity, tmp_path):
    lines = solve.read_obf(str(DATA / "fforum-1-19.obf"))[:3]
    rows = run_solve(othello_bin, identity, tmp_path, lines, 2, wld=True)
    assert [r["score"] for r in rows] == [1, 1, 1]
    # A wrong listed score is a result (ok false), not a failed unit.
    wrong = [lines[0].replace("G8:+18", "G8:+20")]
    rows = run_solve(othello_bin, identity, tmp_path, wrong, 1)
    assert rows[0]["ok"] is False and rows[0]["score"] == 18


def test_duplicate_lines_run_once_and_answer_twice(cluster, othello_bin, identity, tmp_path):
    lines = solve.read_obf(str(DATA / "fforum-1-19.obf"))[:2]
    job, units = solve.plan(lines + lines, 1)
    assert len({u.key for u in units}) == 2
    journal = Journal(str(tmp_path / "dup.journal"), job, identity, "solve")
    outcome = run_units(units, journal, othello_bin, identity)
    assert outcome.executed == 2
    rows = solve.ordered(lines + lines, units, outcome.results)
    assert [r["score"] for r in rows] == [18, 10, 18, 10]
