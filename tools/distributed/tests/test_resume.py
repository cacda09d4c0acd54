"""Resuming: after a half-written journal, and after the driver itself was killed."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

from conftest import PUBLISHED
from othello_distributed import perft
from othello_distributed.journal import Journal
from othello_distributed.runner import run_units

PERFT_12 = 1939886636  # published


def test_resume_from_a_half_written_journal(cluster, othello_bin, identity, tmp_path):
    plan = perft.plan(othello_bin, 10, 4, 12)
    path = str(tmp_path / "p.journal")
    j = Journal(path, plan.job, identity, "perft")
    full = run_units(plan.units, j, othello_bin, identity)
    j.close()
    assert perft.total(plan, full.results) == PUBLISHED[10]
    lines = open(path).read().splitlines()
    assert len(lines) == 1 + len(plan.units)
    # Interrupted after 5 units, in the middle of writing the 6th.
    with open(path, "w") as f:
        f.write("\n".join(lines[:6]) + "\n" + lines[6][: len(lines[6]) // 2])
    j = Journal(path, plan.job, identity, "perft")
    again = run_units(plan.units, j, othello_bin, identity)
    j.close()
    assert again.resumed == 5 and again.executed == len(plan.units) - 5
    assert perft.total(plan, again.results) == PUBLISHED[10]
    recs = [json.loads(line) for line in open(path).read().splitlines()[1:]]
    assert sorted(r["unit"] for r in recs) == sorted(u.key for u in plan.units)
    # A complete journal: nothing runs, the same total.
    j = Journal(path, plan.job, identity, "perft")
    third = run_units(plan.units, j, othello_bin, identity)
    assert third.executed == 0 and perft.total(plan, third.results) == PUBLISHED[10]


def cli(args, env):
    return subprocess.Popen(
        [sys.executable, "-m", "othello_distributed", *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )


def test_driver_killed_then_rerun(cluster, othello_bin, tmp_path):
    env = dict(os.environ, RAY_ADDRESS=cluster)
    journal = tmp_path / "killed.journal"
    args = ["perft", "--depth", "12", "--split", "4", "--units", "40", "--binary", othello_bin,
            "--journal", str(journal), "--json"]
    first = cli(args, env)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if journal.exists() and len(journal.read_text().splitlines()) >= 4:
            break
        assert first.poll() is None, first.communicate()
        time.sleep(0.01)
    first.send_signal(signal.SIGKILL)
    first.wait()
    done_before = len(journal.read_text().splitlines()) - 1
    assert 3 <= done_before < 40
    second = cli(args, env)
    out, err = second.communicate(timeout=300)
    assert second.returncode == 0, err
    result = json.loads(out)
    assert result["nodes"] == PERFT_12
    assert result["resumed"] >= done_before and result["resumed"] + result["executed"] == result["units"]
    keys = [json.loads(line)["unit"] for line in journal.read_text().splitlines()[1:]]
    assert len(keys) == len(set(keys)) == result["units"]
