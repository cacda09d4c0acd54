"""Distributed perft against the published table and the single-process count."""

from __future__ import annotations

import json
import subprocess

import pytest

from conftest import PUBLISHED
from othello_distributed import perft
from othello_distributed.journal import Journal
from othello_distributed.runner import run_units


def run_perft(othello_bin, identity, tmp_path, depth, split, units, **root):
    plan = perft.plan(othello_bin, depth, split, units, **root)
    journal = Journal(str(tmp_path / f"perft-{depth}-{split}.journal"), plan.job, identity, "perft")
    outcome = run_units(plan.units, journal, othello_bin, identity)
    journal.close()
    assert outcome.complete, outcome.failures
    assert outcome.executed == len(plan.units) and outcome.resumed == 0
    return plan, perft.total(plan, outcome.results)


@pytest.mark.parametrize("depth,split", [(9, 3), (10, 4), (11, 5)])
def test_start_position_matches_published_table(cluster, othello_bin, identity, tmp_path, depth, split):
    plan, n = run_perft(othello_bin, identity, tmp_path, depth, split, units=16)
    assert n == PUBLISHED[depth]
    # The split merged symmetric positions and kept every path.
    assert sum(m for _, m in plan.positions) + plan.ended == PUBLISHED[split]
    assert len(plan.positions) < PUBLISHED[split]


def test_games_ending_above_the_split_count_as_leaves(cluster, othello_bin, identity, tmp_path):
    plan, n = run_perft(othello_bin, identity, tmp_path, 12, 11, units=8, size=4)
    assert plan.ended > 0
    assert n == 57436  # 4x4, depth 12 (published)


def test_equals_the_single_process_count_from_another_root(cluster, othello_bin, identity, tmp_path):
    single = subprocess.run(
        [othello_bin, "perft", "-d", "9", "--leaf-only", "--json", "--moves", "f5d6c3"],
        capture_output=True, text=True, check=True,
    )
    _, n = run_perft(othello_bin, identity, tmp_path, 9, 3, units=5, moves="f5d6c3")
    assert n == json.loads(single.stdout)["nodes"]


def test_split_equal_to_depth_and_zero(cluster, othello_bin, identity, tmp_path):
    assert run_perft(othello_bin, identity, tmp_path, 6, 6, units=3)[1] == PUBLISHED[6]
    assert run_perft(othello_bin, identity, tmp_path, 7, 0, units=3)[1] == PUBLISHED[7]


def test_bad_plans_are_refused(othello_bin):
    with pytest.raises(ValueError):
        perft.plan(othello_bin, 5, 6, 4)
    with pytest.raises(ValueError):
        perft.plan(othello_bin, 5, 2, 0)
    from othello_distributed.binary import BadInput

    with pytest.raises(BadInput):
        perft.plan(othello_bin, 5, 2, 4, moves="a1")
