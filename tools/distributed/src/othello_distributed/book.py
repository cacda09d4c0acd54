"""Distributed opening-book building: the driver runs the build's rounds; in each, `othello book
plan` lists the positions the walk would search next, they are dealt into units of
`shard_size` positions, each unit searched by `othello book search FILE --engine SPEC` as a task
(every move's value, one JSON line per position), and the driver adds the lines of all units to
the book with `othello book add` (which propagates the values). The rounds end when the plan is
empty. The book is the same file `othello book build` makes with the same settings: its leaf
searches clear their tables before each position, so a value does not depend on where it was
searched."""

from __future__ import annotations

import json
import os
import tempfile
from typing import Any

from . import binary as bin_
from .units import EXECUTORS, Unit, content_hash

__all__ = ["check_engine", "plan_round", "plan", "search_shard", "add"]


def check_engine(binary: str, engine: str) -> None:
    """Refuses a leaf spec the binary refuses (`othello book search` over no position), before
    any round: bad input, not a failed unit."""
    argv = [binary, "book", "search", "-", "--engine", engine]
    bin_.run_checked(argv, "othello book search", stdin="", failed=bin_.BadInput)


def _walk_argv(walk: dict[str, Any]) -> list[str]:
    argv: list[str] = []
    if walk.get("position"):
        argv.append(walk["position"])
    for key in ("moves", "depth", "max_positions", "deviation", "seed"):
        if walk.get(key) is not None:
            argv += [f"--{key.replace('_', '-')}", str(walk[key])]
    return argv


def plan_round(binary: str, book: str, walk: dict[str, Any]) -> list[str]:
    """The positions the next round searches (`othello book plan`), in the binary's order."""
    argv = [binary, "book", "plan", *_walk_argv(walk)]
    if os.path.exists(book):
        argv += ["--book", book]
    r = bin_.run_checked(argv, "othello book plan")
    return [line.strip() for line in r.stdout.splitlines() if line.strip()]


def plan(positions: list[str], engine: str, shard_size: int = 16) -> tuple[str, list[Unit]]:
    """The job key of a round and its units: consecutive shards of `shard_size` positions."""
    if shard_size < 1:
        raise ValueError(f"bad shard size {shard_size}: expected at least 1")
    units = [
        Unit("book", {"positions": positions[i : i + shard_size], "engine": engine})
        for i in range(0, len(positions), shard_size)
    ]
    job = content_hash({"kind": "book", "positions": positions, "engine": engine, "shard": shard_size})
    return job, units


def search_shard(payload: dict[str, Any], binary: str) -> list[dict[str, Any]]:
    """The executor: `othello book search` over the shard's positions; its JSON lines (a
    position that must pass gives two: itself and the position after the pass)."""
    fd, path = tempfile.mkstemp(suffix=".txt", prefix="othello-book-")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write("".join(p + "\n" for p in payload["positions"]))
        r = bin_.run_checked([binary, "book", "search", path, "--engine", payload["engine"]], "othello book search")
    finally:
        os.unlink(path)
    out = bin_.json_lines(r, "othello book search")
    if len(out) < len(payload["positions"]):
        raise bin_.ChildFailed(f"othello book search printed {len(out)} lines for {len(payload['positions'])} positions")
    return out


EXECUTORS["book"] = search_shard


def add(binary: str, book: str, units: list[Unit], results: dict[str, Any]) -> str:
    """Adds every unit's lines to `book` (created when absent) with `othello book add`; its
    summary line."""
    fd, path = tempfile.mkstemp(suffix=".jsonl", prefix="othello-book-leaves-")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            for u in units:
                for obj in results[u.key]:
                    f.write(json.dumps(obj) + "\n")
        argv = [binary, "book", "add", path, "-o", book]
        if os.path.exists(book):
            argv += ["--book", book]
        r = bin_.run_checked(argv, "othello book add", failed=bin_.BadInput)
    finally:
        os.unlink(path)
    return r.stdout.strip()
