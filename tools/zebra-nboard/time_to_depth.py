#!/usr/bin/env python3
"""Time to depth: Zebra (through its driver) against `othello search`, on the same positions.

    python3 time_to_depth.py --othello target/release/othello --positions positions-mid.txt \
        --depths 12,14,16 --engine pvs --engine pvs:skipdepths=off \
        -- /path/to/zebra-driver /path/to/zebra-src

For each depth, every position is searched afresh: the driver gets `new` (its hash table
cleared) and then `BOARD64 SIDE DEPTH 0` (midgame depth DEPTH, no exact solve: the driver
protocol of README.md), and each engine spec runs as one `othello search POS --depth DEPTH
--engine SPEC --json` process. Printed per depth and engine: the total wall time of the searches
(Zebra's as seen through the pipe, ours as the search reports it), the total nodes, and the
ratio of ours to Zebra's time. `--runs N` repeats the whole set N times, alternating the
engines, and prints medians. Positions are lines `BOARD64 SIDE` (`#` starts a comment).

Standard library only; nothing here links Zebra (the driver is built outside the repository).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

# The adapter beside this script speaks the driver's protocol: its `Driver` is used here.
sys.path.insert(0, str(Path(__file__).resolve().parent))
from zebra_nboard import Driver  # noqa: E402


class UsageError(Exception):
    """Bad input: reported on stderr with exit code 2."""


def read_positions(path: str) -> list[str]:
    """The positions of a file, `BOARD64 SIDE` per line (blank lines and `#` comments skipped)."""
    out = []
    with open(path, encoding="utf-8") as f:
        for number, raw in enumerate(f, 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            parts = line.split()
            if (
                len(parts) != 2
                or len(parts[0]) != 64
                or set(parts[0]) - set("XO-")
                or parts[1] not in ("X", "O")
            ):
                raise UsageError(f"{path}:{number}: not a position 'BOARD64 SIDE': {line!r}")
            out.append(f"{parts[0]} {parts[1]}")
    if not out:
        raise UsageError(f"{path}: no positions")
    return out


def parse_depths(text: str) -> list[int]:
    """`12,14,16` as depths 1 to 60."""
    try:
        depths = [int(x) for x in text.split(",")]
    except ValueError:
        raise UsageError(f"--depths: not a list of integers: {text!r}") from None
    if not depths or any(d < 1 or d > 60 for d in depths):
        raise UsageError(f"--depths: each depth must be 1 to 60: {text!r}")
    return depths


def parse_driver_answer(line: str) -> int:
    """The node count of a driver answer `MOVE SCORE NODES KIND`."""
    parts = line.split()
    if len(parts) != 4:
        raise RuntimeError(f"the driver answered {line.strip()!r}, not 'MOVE SCORE NODES KIND'")
    return int(float(parts[2]))


def zebra(driver: Driver, position: str, depth: int) -> tuple[float, int]:
    """Seconds (wall, through the pipe) and nodes of a fresh depth-`depth` search by the
    driver (the adapter's `Driver`: it raises on a refusal or a driver that exits)."""
    if driver.ask("new") != "ok":
        raise RuntimeError("the driver did not answer 'ok' to 'new'")
    start = time.perf_counter()
    answer = driver.ask(f"{position} {depth} 0")
    return time.perf_counter() - start, parse_driver_answer(answer)


def ours(othello: str, spec: str, position: str, depth: int) -> tuple[float, int]:
    """Seconds and nodes of `othello search POS --depth D --engine SPEC --json` (its last line)."""
    done = subprocess.run(
        [othello, "search", position, "--depth", str(depth), "--engine", spec, "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"othello search failed ({done.returncode}): {done.stderr.strip()}")
    last = json.loads(done.stdout.strip().splitlines()[-1])
    return last["time_ms"] / 1000.0, int(last["nodes"])


def measure(positions, depths, engines, search_ours, search_zebra, runs=1):
    """Totals per (depth, name): a list of (seconds, nodes), one per run. `engines` are
    specs; Zebra is the name `zebra` (absent when `search_zebra` is None)."""
    names = (["zebra"] if search_zebra else []) + list(engines)
    totals = {}
    for run in range(runs):
        order = names if run % 2 == 0 else list(reversed(names))
        for depth in depths:
            for name in order:
                seconds = nodes = 0
                for pos in positions:
                    if name == "zebra":
                        s, n = search_zebra(pos, depth)
                    else:
                        s, n = search_ours(name, pos, depth)
                    seconds += s
                    nodes += n
                totals.setdefault((depth, name), []).append((seconds, nodes))
    return names, totals


def report(names, totals, depths) -> str:
    """One line per depth and name: median seconds, nodes, ratio of time to Zebra's (or to the
    first engine's without Zebra)."""
    lines = [f"{'depth':>5} {'engine':<32} {'time (s)':>10} {'nodes':>14} {'ratio':>7}"]
    for depth in depths:
        base = statistics.median(s for s, _ in totals[(depth, names[0])])
        for name in names:
            rows = totals[(depth, name)]
            seconds = statistics.median(s for s, _ in rows)
            nodes = int(statistics.median(n for _, n in rows))
            ratio = seconds / base if base > 0 else float("nan")
            lines.append(f"{depth:>5} {name:<32} {seconds:>10.3f} {nodes:>14} {ratio:>7.3f}")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--othello", required=True, help="the othello binary")
    parser.add_argument("--positions", required=True, help="file of 'BOARD64 SIDE' lines")
    parser.add_argument("--depths", default="12,14,16", help="comma-separated depths")
    parser.add_argument("--engine", action="append", default=[], help="an engine spec (repeatable)")
    parser.add_argument("--runs", type=int, default=1, help="repeat the set, alternating")
    parser.add_argument("driver", nargs="*", help="the Zebra driver command (after --)")
    args = parser.parse_args(argv)
    try:
        positions = read_positions(args.positions)
        depths = parse_depths(args.depths)
        if args.runs < 1:
            raise UsageError("--runs must be at least 1")
        engines = args.engine or ["pvs"]
    except (UsageError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    driver = Driver(args.driver) if args.driver else None
    try:
        names, totals = measure(
            positions,
            depths,
            engines,
            lambda spec, pos, d: ours(args.othello, spec, pos, d),
            (lambda pos, d: zebra(driver, pos, d)) if driver else None,
            args.runs,
        )
    except (RuntimeError, OSError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    finally:
        if driver:
            driver.close()
    print(report(names, totals, depths))
    return 0


if __name__ == "__main__":
    sys.exit(main())
