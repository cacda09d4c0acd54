"""The command line: output, exit codes, and refusing another build's journal."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from conftest import DATA, PUBLISHED


def cli(args, cluster, cwd=None):
    env = dict(os.environ, RAY_ADDRESS=cluster)
    return subprocess.run(
        [sys.executable, "-m", "othello_distributed", *args],
        capture_output=True, text=True, env=env, cwd=cwd, timeout=300,
    )


def test_solve_writes_ordered_json_lines_and_resumes(cluster, othello_bin, tmp_path):
    out = tmp_path / "ffo.jsonl"
    args = ["solve", str(DATA / "fforum-1-19.obf"), "--binary", othello_bin, "--output", str(out), "--shard-size", "3"]
    r = cli(args, cluster)
    assert r.returncode == 0, r.stderr
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [row["index"] for row in rows] == list(range(1, 20))
    assert rows[0]["score"] == 18 and rows[1]["score"] == 10 and rows[2]["score"] == 2
    assert "solved 19 positions, 0 mismatches" in r.stderr
    journal = out.with_name(out.name + ".journal")
    assert len(journal.read_text().splitlines()) == 1 + 7
    # A rerun runs nothing and writes the same results.
    r = cli(args, cluster)
    assert r.returncode == 0 and "0 units run, 7 from the journal" in r.stderr
    assert [json.loads(line)["score"] for line in out.read_text().splitlines()] == [row["score"] for row in rows]


def test_perft_json_and_exit_codes(cluster, othello_bin, tmp_path):
    r = cli(["perft", "-d", "8", "--split", "3", "--binary", othello_bin, "--json"], cluster, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["nodes"] == PUBLISHED[8]
    for bad in (["-d", "3", "--split", "4"], ["-d", "-1"], ["-d", "5", "--units", "0"], ["-d", "5", "--moves", "a1"],
                ["-d", "5", "--retries", "-1"], ["-d", "5", "--threads", "0"]):
        r = cli(["perft", *bad, "--binary", othello_bin], cluster, cwd=tmp_path)
        assert r.returncode == 2, (bad, r.stderr)
        assert r.stderr.strip().startswith("error:") and len(r.stderr.strip().splitlines()) == 1, r.stderr
    r = cli(["perft", "-d", "5", "--binary", str(tmp_path / "nothing")], cluster)
    assert r.returncode == 2 and "no executable" in r.stderr
    r = cli(["solve", str(tmp_path / "missing.obf"), "--binary", othello_bin], cluster)
    assert r.returncode == 2 and "cannot read" in r.stderr


def test_a_journal_of_another_build_is_refused(cluster, othello_bin, tmp_path):
    journal = tmp_path / "j"
    args = ["perft", "-d", "7", "--split", "2", "--binary", othello_bin, "--journal", str(journal), "--json"]
    assert cli(args, cluster).returncode == 0
    lines = journal.read_text().splitlines()
    header = json.loads(lines[0])
    header["identity"] = header["identity"].replace("inputs ", "inputs f")
    journal.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    r = cli(args, cluster)
    assert r.returncode == 2 and "refusing to mix builds" in r.stderr
