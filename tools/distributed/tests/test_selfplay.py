"""Distributed games and labels against the single-process othello-train on a tiny budget."""

from __future__ import annotations

import json
import pathlib
import subprocess

from othello_distributed import selfplay
from othello_distributed.cli import main
from othello_distributed.units import Unit


def single(binary, *argv):
    subprocess.run([binary, *argv, "--quiet"], check=True, capture_output=True)


def without_nodes(path):
    """The label lines in file order with the solver-work field removed (it depends on the
    table's history; everything else must be equal). A pv line's labels after its solved
    position and result labels have none."""
    rows = []
    for line in open(path, encoding="utf-8"):
        obj = json.loads(line)
        assert isinstance(obj.pop("nodes", 0), int)
        rows.append(json.dumps(obj, sort_keys=True))
    return rows


GAMES = ["--games", "12", "--first", "3", "--seed", "7"]
# A committed labels file, to fit a small weights file from.
LABELS = pathlib.Path(__file__).resolve().parents[2] / "train" / "data" / "heldout-14-20.jsonl"


def label_both_ways(train_bin, games, tmp_path, name, opts, shard):
    """The labels of `opts` by the single process and by the driver in shards of `shard`
    games, each into its own new file: the two files' paths, the driver's exit code checked."""
    one = tmp_path / f"one-{name}.jsonl"
    single(train_bin, "labels", "--games", str(games), "--out", str(one), *opts)
    dist = tmp_path / f"dist-{name}.jsonl"
    argv = ["labels", "--games", str(games), "--out", str(dist), *opts, "--shard", str(shard), "--binary", train_bin]
    assert main(argv) == 0
    return one, dist, argv


def test_games_are_byte_for_byte_the_single_process_file(cluster, train_bin, tmp_path, capsys):
    one = tmp_path / "one.jsonl"
    single(train_bin, "games", "--out", str(one), *GAMES)
    dist = tmp_path / "dist.jsonl"
    assert main(["games", "--out", str(dist), *GAMES, "--batch", "5", "--binary", train_bin]) == 0
    assert "3 units: 3 run" in capsys.readouterr().err
    assert dist.read_bytes() == one.read_bytes()
    assert [json.loads(line)["game"] for line in open(dist)] == list(range(3, 15))
    # A file holding some of the games: only the missing ones are made, appended in order, as
    # the single-process command does.
    part_one = tmp_path / "part-one.jsonl"
    part_dist = tmp_path / "part-dist.jsonl"
    head = "".join(one.read_text().splitlines(keepends=True)[:4])
    part_one.write_text(head)
    part_dist.write_text(head)
    more = ["--games", "16", "--first", "3", "--seed", "7"]
    single(train_bin, "games", "--out", str(part_one), *more)
    assert main(["games", "--out", str(part_dist), *more, "--batch", "5", "--binary", train_bin]) == 0
    assert part_dist.read_bytes() == part_one.read_bytes()
    assert len(part_dist.read_text().splitlines()) == 16


def test_games_pass_the_evaluation_and_weights_on(cluster, train_bin, tmp_path, capsys):
    """`--eval pattern` and `--weights` reach every unit: the single process's file byte for
    byte, and other games than the hand-feature default's."""
    opts = ["--games", "6", "--first", "2", "--seed", "9", "--depth", "2"]
    hand = tmp_path / "hand.jsonl"
    single(train_bin, "games", "--out", str(hand), *opts)
    weights = tmp_path / "w.bin"
    single(train_bin, "fit", "--model", "pattern", "--labels", str(LABELS), "--out", str(weights), "--phases", "2",
           "--bootstrap-depth", "0", "--iterations", "5")
    for name, extra in [("pattern", ["--eval", "pattern"]), ("weights", ["--eval", "pattern", "--weights", str(weights)])]:
        one = tmp_path / f"one-{name}.jsonl"
        single(train_bin, "games", "--out", str(one), *opts, *extra)
        dist = tmp_path / f"dist-{name}.jsonl"
        assert main(["games", "--out", str(dist), *opts, *extra, "--batch", "4", "--binary", train_bin]) == 0
        assert dist.read_bytes() == one.read_bytes(), name
        assert dist.read_bytes() != hand.read_bytes(), name
        assert all("eval=pattern" in json.loads(line)["player"] for line in open(dist)), name
    assert (tmp_path / "one-pattern.jsonl").read_bytes() != (tmp_path / "one-weights.jsonl").read_bytes()
    capsys.readouterr()
    assert main(["games", "--out", str(tmp_path / "g"), "--weights", str(tmp_path / "none.bin"), "--binary", train_bin]) == 2
    assert "no weights file" in capsys.readouterr().err


def test_labels_equal_the_single_process_file_but_for_nodes(cluster, train_bin, tmp_path, capsys):
    games = tmp_path / "games.jsonl"
    single(train_bin, "games", "--out", str(games), "--games", "7", "--seed", "5")
    for extra in ([], ["--every", "2", "--max-games", "3"]):
        opts = ["--min-empties", "1", "--max-empties", "6", "--tt", "1", *extra]
        one, dist, argv = label_both_ways(train_bin, games, tmp_path, str(len(extra)), opts, 2)
        rows = without_nodes(one)
        assert len(rows) > 10
        assert len({json.loads(r)["game"] for r in rows}) > 2
        assert without_nodes(dist) == rows
        # A rerun resumes every unit from the journal and adds nothing: the positions are there.
        capsys.readouterr()
        assert main(argv) == 0
        assert "0 positions labelled" in capsys.readouterr().err
        assert without_nodes(dist) == rows
    # The second band appends to the first, as the single-process command does.
    one, dist = tmp_path / "one-0.jsonl", tmp_path / "dist-0.jsonl"
    single(train_bin, "labels", "--games", str(games), "--out", str(one), "--min-empties", "7", "--max-empties", "8")
    argv = ["labels", "--games", str(games), "--out", str(dist), "--min-empties", "7", "--max-empties", "8"]
    assert main([*argv, "--shard", "4", "--binary", train_bin]) == 0
    assert without_nodes(dist) == without_nodes(one)


def test_every_mode_equals_the_single_process_file_but_for_nodes(cluster, train_bin, tmp_path, capsys):
    games = tmp_path / "games.jsonl"
    single(train_bin, "games", "--out", str(games), "--games", "8", "--seed", "11")
    # Game 7 repeats game 1 under another number: its positions are labelled already.
    lines = games.read_text().splitlines()
    copy = json.loads(lines[1])
    copy["game"] = 7
    lines[7] = json.dumps(copy)
    games.write_text("".join(line + "\n" for line in lines))
    modes = {
        "pv": ["--mode", "pv", "--solve-empties", "14", "--min-empties", "1", "--max-empties", "14"],
        "result": ["--mode", "result", "--solve-empties", "10", "--min-empties", "8", "--max-empties", "24"],
        "search": ["--mode", "search", "--depth", "3", "--mean-of", "2", "--min-empties", "30", "--max-empties", "34"],
        "exact-none": ["--ordering", "none", "--min-empties", "1", "--max-empties", "6"],
    }
    for name, opts in modes.items():
        one, dist, _ = label_both_ways(train_bin, games, tmp_path, name, [*opts, "--tt", "1"], 3)
        rows = without_nodes(one)
        assert len(rows) > 15, name
        assert len({json.loads(r)["game"] for r in rows}) > 3, name
        assert without_nodes(dist) == rows, name
        sources = {json.loads(r)["source"] for r in rows}
        assert sources == {"pv": {"exact"}, "result": {"exact", "result"}, "search": {"search"}, "exact-none": {"exact"}}[name]
    capsys.readouterr()
    bad = ["labels", "--games", str(games), "--out", str(tmp_path / "x"), "--mode", "search", "--depth", "0", "--binary", train_bin]
    assert main(bad) == 2
    assert main([*bad[:-4], "--weights", str(tmp_path / "missing.bin"), "--binary", train_bin]) == 2
    err = capsys.readouterr().err
    assert "bad --solve-empties/--depth/--mean-of" in err and "no weights file" in err


def test_merge_keeps_the_first_label_of_a_position():
    def label(game, pos):
        return json.dumps({"game": game, "position": pos, "score": 0, "nodes": 1})

    a = Unit("labels", {"games": ["a"], "options": {}})
    b = Unit("labels", {"games": ["b"], "options": {}})
    results = {a.key: [label(1, "P"), label(1, "Q")], b.key: [label(2, "Q"), label(2, "R")]}
    got = selfplay.labels_merge([a, b], results, [label(0, "R")])
    assert [json.loads(line)["game"] for line in got] == [1, 1]
    assert [json.loads(line)["position"] for line in got] == ["P", "Q"]
    # A symmetric twin (mirror image, other colour to move) counts as the same position.
    p = "XXO-----" + "-" * 48 + "-------O X"
    mirror = "-----OXX" + "-" * 48 + "O------- X"
    swapped = p[:64].translate(str.maketrans("XO", "OX")) + " O"
    assert selfplay.position_key(p) == selfplay.position_key(mirror) == selfplay.position_key(swapped)
    assert selfplay.position_key(p) != selfplay.position_key(p[:64] + " O")
    got = selfplay.labels_merge([a], {a.key: [label(1, mirror), label(1, swapped), label(1, p[:64] + " O")]}, [label(0, p)])
    assert [json.loads(line)["position"] for line in got] == [p[:64] + " O"]


def test_game_ranges_skip_the_games_present():
    _, units = selfplay.games_plan(0, 7, 3, {}, done={1, 5})
    assert [(u.payload["first"], u.payload["count"]) for u in units] == [(0, 1), (2, 3), (6, 1)]


def test_bad_input_exits_2(cluster, train_bin, tmp_path, capsys):
    assert main(["games", "--out", str(tmp_path / "g"), "--batch", "0", "--binary", train_bin]) == 2
    assert main(["labels", "--games", str(tmp_path / "none"), "--out", str(tmp_path / "l"), "--binary", train_bin]) == 2
    assert main(["games", "--out", str(tmp_path / "g"), "--binary", str(tmp_path / "missing")]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 3 and all(e.startswith("error: ") for e in err)
