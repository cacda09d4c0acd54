"""Distributed matches: the game pairs of `othello play` in batches (`othello play A B --pairs
START..END`) as tasks. The driver merges the pentanomial counts of the finished batches and,
after each, asks the binary for the statistics (`othello stats --penta ... --sprt ...`: Elo, LOS,
LLR and the decision are never recomputed here); when the SPRT decides, no further batch is
submitted and the pending ones are cancelled.

Pair `p` plays opening `p mod openings` (of the seeded order) twice, wherever it runs, so the
merged counts of disjoint batches equal those of one `othello play` over the same pairs for
engines whose play does not depend on the games they played before (every deterministic
engine; a `random` player's stream continues across its games, so its batches differ from one
long run's while staying as random).
"""

from __future__ import annotations

import json
import os
import tempfile
from typing import Any

from . import binary as bin_
from .units import EXECUTORS, Unit, content_hash

__all__ = ["plan", "play_batch", "merge", "stats"]

# Options passed through to `othello play` unchanged (the ones that change the games).
PASS_THROUGH = ("seed", "size", "tc", "st", "margin", "overhead", "adjudicate", "concurrency", "hang_timeout")


def plan(
    engine_a: str,
    engine_b: str,
    first: int,
    end: int,
    batch: int,
    options: dict[str, Any],
    openings: str | None = None,
) -> tuple[str, list[Unit]]:
    """The job key and the units: pairs first..end in batches of `batch`. `openings` is the text
    of an openings file (sent with each unit, so any node can play it)."""
    if batch < 1:
        raise ValueError(f"bad batch {batch}: expected at least 1 pair")
    if not 0 <= first < end:
        raise ValueError(f"bad pairs {first}..{end}: expected 0 <= START < END")
    common = {"engines": [engine_a, engine_b], "options": options, "openings": openings}
    units = [Unit("match", {**common, "pairs": [p, min(p + batch, end)]}) for p in range(first, end, batch)]
    job = content_hash({"kind": "match", **common, "pairs": [first, end], "batch": batch})
    return job, units


def play_batch(payload: dict[str, Any], binary: str) -> dict[str, Any]:
    """The executor: plays the unit's pairs; returns the pentanomial counts and the W/D/L."""
    lo, hi = payload["pairs"]
    a, b = payload["engines"]
    argv = [binary, "play", a, b, "--pairs", f"{lo}..{hi}", "--json", "--quiet"]
    for k in PASS_THROUGH:
        v = payload["options"].get(k)
        if v is not None:
            argv += [f"--{k.replace('_', '-')}", str(v)]
    path = None
    try:
        if payload.get("openings") is not None:
            fd, path = tempfile.mkstemp(suffix=".txt", prefix="othello-openings-")
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(payload["openings"])
            argv += ["--openings", path]
        r = bin_.run_checked(argv, "othello play")
    finally:
        if path is not None:
            os.unlink(path)
    try:
        summary = json.loads(r.stdout.strip().splitlines()[-1])
        counts = [int(c) for c in summary["pentanomial"]]
    except (ValueError, KeyError, IndexError, TypeError) as e:
        raise bin_.ChildFailed(f"othello play printed no summary: {e}") from e
    if len(counts) != 5 or sum(counts) != hi - lo:
        raise bin_.ChildFailed(f"othello play reported {sum(counts)} pairs for {hi - lo}")
    return {k: summary[k] for k in ("wins", "draws", "losses", "games", "flags", "forfeits")} | {"pentanomial": counts}


EXECUTORS["match"] = play_batch


def merge(results: list[dict[str, Any]]) -> dict[str, Any]:
    """The sum of batch results (counts only)."""
    total: dict[str, Any] = {"pentanomial": [0] * 5, "wins": 0, "draws": 0, "losses": 0, "games": 0, "flags": 0, "forfeits": 0}
    for r in results:
        total["pentanomial"] = [x + y for x, y in zip(total["pentanomial"], r["pentanomial"])]
        for k in ("wins", "draws", "losses", "games", "flags", "forfeits"):
            total[k] += int(r[k])
    return total


def stats(binary: str, penta: list[int], sprt: dict[str, Any] | None) -> dict[str, Any]:
    """`othello stats --json` of the counts: Elo, LOS and (with `sprt`: elo0, elo1, model,
    alpha, beta) the LLR and the decision."""
    argv = [binary, "stats", "--penta", ",".join(str(c) for c in penta), "--json"]
    if sprt is not None:
        argv += ["--sprt", f"{sprt['elo0']},{sprt['elo1']}", "--sprt-model", sprt["model"]]
        argv += ["--sprt-alpha", str(sprt["alpha"]), "--sprt-beta", str(sprt["beta"])]
    r = bin_.run_checked(argv, "othello stats", timeout=60)
    return bin_.json_lines(r, "othello stats")[-1]
