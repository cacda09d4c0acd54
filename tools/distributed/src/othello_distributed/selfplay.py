"""Distributed data generation for the pattern evaluation: the `games` and `labels` steps of
`othello-train` as Ray tasks, writing the files the single-machine commands write.

- games: units are ranges of game numbers (`games --first F --games N`); every game has its own
  random stream derived from the seed and its number, so a range gives the same lines wherever it
  runs. The driver appends the missing games in game order: the file is byte for byte the one
  `othello-train games` writes with the same options.
- labels (every mode of `othello-train labels`: exact, pv, result, search): units are shards
  of consecutive games (in game order, after `--every` and `--max-games`); each is labelled by
  `labels` on its own. The binary labels each game as a function of that game alone, minus
  the positions labelled before, so the driver keeps the first label of a position or of any
  of its symmetric twins (by canonical key, in game order, in each game the binary's order),
  skips positions the output file already has, and appends. The lines equal the
  single-process run's except their `nodes` field: the solver's work depends on what its
  table holds from earlier games of the same process, the score does not. (One exception: a
  single `pv` run skips the games whose solved position its file already held when it
  started, as a resumed run does; the driver cannot see which games those are, so into such
  a file it may add a few more labels of their lines, all exact.)

The binary (`othello-train`) prints no commit, so its build identity is its version line
plus a SHA-256 of the executable; every task checks it.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from typing import Any

from . import binary as bin_
from .units import EXECUTORS, IDENTITIES, Unit, content_hash

__all__ = ["identity", "games_plan", "games_ordered", "labels_plan", "labels_merge", "read_lines"]

DEFAULT_BINARY = "othello-train"


def identity(binary: str) -> str:
    """`othello-train --version` plus the SHA-256 (first 16 hex digits) of the binary."""
    r = bin_.run([binary, "--version"], timeout=60)
    line = r.stdout.strip().splitlines()[0] if r.stdout.strip() else ""
    if r.returncode != 0 or not line:
        raise bin_.BinaryError(f"{binary} --version printed nothing: {r.stderr.strip()!r}")
    h = hashlib.sha256()
    with open(binary, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return f"{line} (binary {h.hexdigest()[:16]})"


def read_lines(path: str) -> list[str]:
    """The non-blank lines of a JSON Lines file ([] if it does not exist)."""
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        return [line.rstrip("\n") for line in f if line.strip()]


def _games_unit(payload: dict[str, Any], binary: str) -> list[str]:
    """The executor: the lines of games first..first+count."""
    o = payload["options"]
    d = tempfile.mkdtemp(prefix="othello-games-")
    try:
        out = os.path.join(d, "games.jsonl")
        argv = [binary, "games", "--out", out, "--first", str(payload["first"]), "--games", str(payload["count"])]
        argv += ["--seed", str(o["seed"]), "--depth", str(o["depth"]), "--epsilon", repr(float(o["epsilon"]))]
        argv += ["--random-plies", str(o["random_plies"]), "--strict"]
        for key in ("eval", "weights"):
            if key in o:
                argv += ["--" + key, str(o[key])]
        bin_.run_checked(argv, "othello-train games")
        lines = read_lines(out)
    finally:
        shutil.rmtree(d, ignore_errors=True)
    if len(lines) != payload["count"]:
        raise bin_.ChildFailed(f"othello-train games wrote {len(lines)} games, not {payload['count']}")
    return lines


def _labels_unit(payload: dict[str, Any], binary: str) -> list[str]:
    """The executor: the label lines of a shard of game lines."""
    o = payload["options"]
    d = tempfile.mkdtemp(prefix="othello-labels-")
    try:
        games = os.path.join(d, "games.jsonl")
        with open(games, "w", encoding="utf-8") as f:
            f.write("".join(line + "\n" for line in payload["games"]))
        out = os.path.join(d, "labels.jsonl")
        argv = [binary, "labels", "--games", games, "--out", out, "--strict"]
        argv += ["--min-empties", str(o["min_empties"]), "--max-empties", str(o["max_empties"]), "--tt", str(o["tt"])]
        for key in ("mode", "ordering", "solve_empties", "depth", "mean_of", "selectivity", "eval", "weights"):
            if key in o:
                argv += ["--" + key.replace("_", "-"), str(o[key])]
        bin_.run_checked(argv, "othello-train labels")
        return read_lines(out)
    finally:
        shutil.rmtree(d, ignore_errors=True)


EXECUTORS["games"] = _games_unit
EXECUTORS["labels"] = _labels_unit
IDENTITIES["games"] = identity
IDENTITIES["labels"] = identity


def games_plan(
    first: int, count: int, batch: int, options: dict[str, Any], done: set[int] | None = None
) -> tuple[str, list[Unit]]:
    """The job key and the units: ranges of at most `batch` consecutive game numbers missing
    from `done` (the games already in the output file)."""
    if batch < 1:
        raise ValueError(f"bad batch {batch}: expected at least 1")
    if count < 0 or first < 0 or first + count > 2**32 - 1:
        raise ValueError(f"bad --first {first} / --games {count}: game numbers must fit in 32 bits")
    done = done or set()
    units: list[Unit] = []
    start = None
    for i in range(first, first + count + 1):
        missing = i < first + count and i not in done
        if missing and start is None:
            start = i
        if start is not None and (not missing or i - start == batch):
            units.append(Unit("games", {"first": start, "count": i - start, "options": options}))
            start = i if missing else None
    job = content_hash({"kind": "games", "first": first, "count": count, "batch": batch, "options": options})
    return job, units


def games_ordered(units: list[Unit], results: dict[str, Any]) -> list[str]:
    """The new game lines in game order."""
    return [line for u in sorted(units, key=lambda u: u.payload["first"]) for line in results[u.key]]


def _mirror(rows: list[str]) -> list[str]:
    return [r[::-1] for r in rows]


def _transpose(rows: list[str]) -> list[str]:
    return ["".join(col) for col in zip(*rows)]


def position_key(text: str) -> str:
    """The canonical key of a position `BOARD SIDE` (8x8): its side-relative board (`P` the
    side to move, `Q` the other) smallest among the eight symmetric images, so symmetric twins
    and the same discs with the other colour to move share it, as `othello_train::data::key`.
    Text that is not such a position is its own key."""
    parts = text.split()
    if len(parts) != 2 or len(parts[0]) != 64 or parts[1] not in ("X", "O"):
        return text
    me = parts[1]
    board = "".join("P" if c == me else "-" if c in "-." else "Q" for c in parts[0])
    rows = [board[i : i + 8] for i in range(0, 64, 8)]
    images = []
    for r in (rows, _transpose(rows)):
        for img in (r, r[::-1], _mirror(r), _mirror(r[::-1])):
            images.append("".join(img))
    return min(images)


def select_games(lines: list[str], every: int, max_games: int | None) -> list[str]:
    """The games `labels` visits: sorted by number, those numbered 0 mod `every`, at most
    `max_games` of them. Malformed lines are an error (ValueError)."""
    games = []
    for n, line in enumerate(lines, 1):
        try:
            obj = json.loads(line)
            seed = obj.get("seed")
            games.append((int(obj["game"]), -1 if seed is None else int(seed), line))
        except (ValueError, KeyError, TypeError) as e:
            raise ValueError(f"games line {n}: no game number ({e})") from e
    games.sort(key=lambda g: (g[0], g[1]))  # stable, as the binary's sort by (game, seed)
    chosen = [line for g, _, line in games if g % max(every, 1) == 0]
    return chosen[:max_games] if max_games is not None else chosen


def labels_plan(games: list[str], shard: int, options: dict[str, Any]) -> tuple[str, list[Unit]]:
    """The job key and the units: consecutive shards of `shard` selected game lines."""
    if shard < 1:
        raise ValueError(f"bad shard size {shard}: expected at least 1")
    units = [Unit("labels", {"games": games[i : i + shard], "options": options}) for i in range(0, len(games), shard)]
    job = content_hash({"kind": "labels", "games": games, "shard": shard, "options": options})
    return job, units


def labels_merge(units: list[Unit], results: dict[str, Any], existing: list[str]) -> list[str]:
    """The new label lines: shard by shard in order, the first label of each position (by
    canonical key: twins count as the same position) not in `existing`."""
    seen = {position_key(json.loads(line)["position"]) for line in existing}
    out = []
    for u in units:
        for line in results[u.key]:
            key = position_key(json.loads(line)["position"])
            if key not in seen:
                seen.add(key)
                out.append(line)
    return out
