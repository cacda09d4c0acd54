"""Distributed perft: the binary splits the tree `split` plies below the root into distinct
positions (symmetric images merged, each with its multiplicity); units of positions are counted
by `othello perft --positions - --depth D-split` as tasks; the driver sums
`ended + sum(multiplicity * count)` exactly (Python integers do not overflow)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import binary as bin_
from .units import EXECUTORS, Unit, content_hash

__all__ = ["PerftPlan", "plan", "count_positions", "total"]


@dataclass
class PerftPlan:
    """A perft job: the root, the depths, the split positions and the units."""

    root: dict[str, Any]
    depth: int
    split: int
    positions: list[tuple[str, int]]  # (position, multiplicity), in the binary's order
    ended: int
    units: list[Unit]

    @property
    def job(self) -> str:
        return content_hash(
            {"kind": "perft", "root": self.root, "depth": self.depth, "split": self.split, "units": [u.key for u in self.units]}
        )


def root_args(position: str | None, moves: str | None, size: int | None) -> list[str]:
    args: list[str] = []
    if position is not None:
        args += ["--position", position]
    if moves is not None:
        args += ["--moves", moves]
    if size is not None:
        args += ["--size", str(size)]
    return args


def plan(
    binary: str,
    depth: int,
    split: int,
    units: int,
    position: str | None = None,
    moves: str | None = None,
    size: int | None = None,
    threads: int = 1,
) -> PerftPlan:
    """Asks the binary for the positions `split` plies below the root and deals them round-robin
    into at most `units` units (neighbours in the binary's order are often alike in size)."""
    if not 0 <= split <= depth:
        raise ValueError(f"bad split ply {split}: expected 0 to the depth {depth}")
    if units < 1:
        raise ValueError(f"bad unit count {units}: expected at least 1")
    what = "othello perft --split"
    argv = [binary, "perft", "--json", "--split", str(split), *root_args(position, moves, size)]
    lines = bin_.json_lines(bin_.run_checked(argv, what, failed=bin_.BadInput), what)
    summary = lines[-1]
    positions = [(o["position"], int(o["count"])) for o in lines[:-1]]
    ended = int(summary["ended"])
    if summary.get("split") != split or len(positions) != summary["positions"]:
        raise bin_.ChildFailed("othello perft --split printed an inconsistent summary")
    if ended + sum(m for _, m in positions) != summary["paths"]:
        raise bin_.ChildFailed("othello perft --split: multiplicities do not add up to its path count")
    n = min(units, len(positions)) or 1
    groups = [[p for p, _ in positions[i::n]] for i in range(n)]
    remaining = depth - split
    unit_list = [
        Unit("perft", {"depth": remaining, "positions": g, "threads": threads}) for g in groups if g
    ]
    root = {"position": position, "moves": moves, "size": size}
    return PerftPlan(root, depth, split, positions, ended, unit_list)


def count_positions(payload: dict[str, Any], binary: str) -> list[int]:
    """The executor: the perft count of each position of the unit, in order."""
    text = "".join(p + "\n" for p in payload["positions"])
    argv = [binary, "perft", "--positions", "-", "--json", "--depth", str(payload["depth"])]
    if payload.get("threads", 1) > 1:
        argv += ["--threads", str(payload["threads"])]
    out = bin_.json_lines(bin_.run_checked(argv, "othello perft", stdin=text), "othello perft")
    try:
        counts = [int(o["nodes"]) for o in out]
        ok = len(out) == len(payload["positions"]) and all(
            o["position"] == p and o["depth"] == payload["depth"] for o, p in zip(out, payload["positions"])
        )
    except (ValueError, KeyError, TypeError) as e:
        raise bin_.ChildFailed(f"othello perft printed unreadable output: {e}") from e
    if not ok:
        raise bin_.ChildFailed("othello perft printed counts for other positions than asked")
    return counts


EXECUTORS["perft"] = count_positions


def total(p: PerftPlan, results: dict[str, Any]) -> int:
    """The exact perft count from the units' results."""
    counts: dict[str, int] = {}
    for u in p.units:
        for pos, n in zip(u.payload["positions"], results[u.key]):
            counts[pos] = n
    return p.ended + sum(m * counts[pos] for pos, m in p.positions)
