"""Distributed matches: merged pentanomial counts against one `othello play`, resume, and the
SPRT stopping the job early."""

from __future__ import annotations

import json
import subprocess

from othello_distributed import match
from othello_distributed.cli import main


def single(othello_bin, *argv):
    out = subprocess.run([othello_bin, "play", *argv, "--json", "--quiet"], check=True, capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def distributed(othello_bin, capsys, *argv):
    capsys.readouterr()
    assert main(["match", *argv, "--json", "--binary", othello_bin]) == 0
    return json.loads(capsys.readouterr().out.strip().splitlines()[-1])


ENGINES = ["pvs:depth=1", "pvs:depth=2"]


def test_merged_counts_equal_one_play_run_and_resume(cluster, othello_bin, tmp_path, capsys):
    one = single(othello_bin, *ENGINES, "--games", "14", "--seed", "3")
    journal = str(tmp_path / "m.journal")
    got = distributed(othello_bin, capsys, *ENGINES, "--games", "14", "--seed", "3", "--batch", "3", "--journal", journal)
    assert got["units"] == 3 and got["executed"] == 3 and not got["stopped_early"]
    for k in ("pentanomial", "pairs", "games", "wins", "draws", "losses", "elo", "elo_error", "los", "nelo"):
        assert got[k] == one[k], k
    assert got["sprt"] is None
    # The rerun takes every batch from the journal.
    again = distributed(othello_bin, capsys, *ENGINES, "--games", "14", "--seed", "3", "--batch", "3", "--journal", journal)
    assert again["executed"] == 0 and again["resumed"] == 3
    assert again["pentanomial"] == one["pentanomial"]
    # A pair range is the same pairs as `othello play --pairs`.
    part = single(othello_bin, *ENGINES, "--pairs", "2..6", "--seed", "3")
    range_journal = str(tmp_path / "r.journal")
    got = distributed(othello_bin, capsys, *ENGINES, "--pairs", "2..6", "--seed", "3", "--batch", "2", "--journal", range_journal)
    assert got["pentanomial"] == part["pentanomial"] and got["pair_range"] == [2, 6]


def test_sprt_stops_early_and_the_decision_is_the_binarys(cluster, othello_bin, tmp_path, capsys):
    journal = str(tmp_path / "s.journal")
    argv = ["pvs:depth=3", "random:seed=1", "--pairs", "0..200", "--batch", "1", "--seed", "1", "--journal", journal]
    argv += ["--sprt", "0,100", "--sprt-alpha", "0.2", "--sprt-beta", "0.2", "--num-cpus", "2"]
    got = distributed(othello_bin, capsys, *argv)
    assert got["sprt"] == "H1"
    assert got["stopped_early"] and got["batches"] < 200
    assert got["pairs"] == got["batches"] == sum(got["pentanomial"])
    assert got["llr"] >= got["llr_bounds"][1]
    # The same counts given to the binary decide the same, with the same LLR.
    st = match.stats(othello_bin, got["pentanomial"], {"elo0": 0, "elo1": 100, "model": "logistic", "alpha": 0.2, "beta": 0.2})
    assert st["sprt"] == "H1" and st["llr"] == got["llr"]
    # A rerun decides from the journal alone and plays nothing.
    again = distributed(othello_bin, capsys, *argv)
    assert again["executed"] == 0 and again["pentanomial"] == got["pentanomial"]


def test_bad_match_input_exits_2(cluster, othello_bin, capsys):
    for argv in (
        ["match", "random", "random", "--games", "3"],
        ["match", "random", "random", "--pairs", "4..2"],
        ["match", "random", "random", "--sprt", "10,0"],
        ["match", "random", "random", "--batch", "0"],
    ):
        assert main([*argv, "--binary", othello_bin]) == 2, argv
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 4 and all(e.startswith("error: ") for e in err)
