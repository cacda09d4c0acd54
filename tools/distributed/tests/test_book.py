"""Distributed book building: the rounds on a local cluster give the same file as
`othello book build` with the same settings, and a second run over a finished book adds
nothing."""

from __future__ import annotations

import subprocess

from othello_distributed import book
from othello_distributed.cli import main


def test_the_distributed_book_is_the_binary_build(cluster, othello_bin, tmp_path):
    local = tmp_path / "local.bin"
    subprocess.run(
        [othello_bin, "book", "build", "--depth", "3", "--engine", "pvs:depth=4", "-o", str(local), "-q"],
        check=True,
        capture_output=True,
    )
    dist = tmp_path / "dist.bin"
    argv = ["book", str(dist), "--engine", "pvs:depth=4", "--depth", "3", "--shard-size", "3", "--binary", othello_bin]
    assert main(argv) == 0
    assert dist.read_bytes() == local.read_bytes()
    assert not list(tmp_path.glob("*.journal")), "the round journals are removed once added"
    # Nothing left to plan: a second run adds no round.
    assert book.plan_round(othello_bin, str(dist), {"depth": 3}) == []
    out = tmp_path / "out.json"
    assert main([*argv, "--json", "--output", str(out)]) == 0
    assert '"rounds": 0' in out.read_text()


def test_units_are_shards_of_the_plan_and_bad_input_is_refused(othello_bin, tmp_path):
    positions = book.plan_round(othello_bin, str(tmp_path / "none.bin"), {"depth": 1})
    assert positions == ["---------------------------OX------XO--------------------------- X"]
    job, units = book.plan(positions * 5, "pvs:depth=2", 2)
    assert [len(u.payload["positions"]) for u in units] == [2, 2, 1]
    assert job == book.plan(positions * 5, "pvs:depth=2", 2)[0]
    assert job != book.plan(positions * 5, "pvs:depth=3", 2)[0]
    rows = book.search_shard(units[0].payload, othello_bin)
    assert len(rows) == 2 and len(rows[0]["values"]) == 4
    assert main(["book", str(tmp_path / "b.bin"), "--engine", "mcts", "--binary", othello_bin]) == 2
