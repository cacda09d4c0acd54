"""Distributed solving: the positions of an OBF file in shards, each shard solved by
`othello solve SHARD --json` as a task; the driver writes one JSON line per position, in input
order. Positions whose listed scores disagree with the solve are reported (as the binary does)."""

from __future__ import annotations

import os
import tempfile
from typing import Any

from . import binary as bin_
from .units import EXECUTORS, Unit, content_hash

__all__ = ["read_obf", "plan", "solve_shard", "ordered"]


def read_obf(path: str) -> list[str]:
    """The position lines of an OBF file (blank lines and lines starting with # or % skipped,
    as the binary does)."""
    with open(path, encoding="utf-8") as f:
        lines = [line.strip() for line in f]
    return [line for line in lines if line and not line.startswith(("#", "%"))]


def plan(lines: list[str], shard_size: int = 1, options: dict[str, Any] | None = None) -> tuple[str, list[Unit]]:
    """The job key and the units: consecutive shards of `shard_size` lines."""
    if shard_size < 1:
        raise ValueError(f"bad shard size {shard_size}: expected at least 1")
    options = dict(options or {})
    units = [Unit("solve", {"lines": lines[i : i + shard_size], "options": options}) for i in range(0, len(lines), shard_size)]
    job = content_hash({"kind": "solve", "lines": lines, "shard": shard_size, "options": options})
    return job, units


def solve_shard(payload: dict[str, Any], binary: str) -> list[dict[str, Any]]:
    """The executor: the binary's JSON object for each line of the shard, in order."""
    opts = payload.get("options", {})
    lines = payload["lines"]
    fd, path = tempfile.mkstemp(suffix=".obf", prefix="othello-shard-")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write("".join(line + "\n" for line in lines))
        argv = [binary, "solve", path, "--json", "--quiet"]
        if opts.get("wld"):
            argv.append("--wld")
        if opts.get("all_moves"):
            argv.append("--all-moves")
        for k in ("threads", "hash"):
            if opts.get(k) is not None:
                argv += [f"--{k}", str(opts[k])]
        # Exit 1 is a solve that disagrees with the listed scores: a result, reported per position.
        r = bin_.run_checked(argv, "othello solve", accept=(0, 1))
    finally:
        os.unlink(path)
    out = bin_.json_lines(r, "othello solve")
    per_position = [o for o in out if "position" in o]
    if len(per_position) != len(lines):
        raise bin_.ChildFailed(f"othello solve printed {len(per_position)} results for {len(lines)} positions")
    return per_position


EXECUTORS["solve"] = solve_shard


def ordered(lines: list[str], units: list[Unit], results: dict[str, Any]) -> list[dict[str, Any]]:
    """One result per input line, in input order, each with its 1-based `index`."""
    out: list[dict[str, Any]] = []
    for u in units:
        for obj in results[u.key]:
            out.append({"index": len(out) + 1, **obj})
    assert len(out) == len(lines)
    return out
