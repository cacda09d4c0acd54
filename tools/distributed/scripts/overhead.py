"""Measures the distributed runner against the single-process command on this machine: a local
Ray (its start-up and a warm-up job not counted), runs alternated, medians reported.

Perft has two single-machine baselines: `plain`, one `othello perft --depth D` (no
transposition merging), and `same`, the distributed algorithm on one machine: `othello perft
--split S` and then `othello perft --positions FILE --depth D-S` over the split's positions
(the distributed run's work without Ray); both ratios are printed.

    python scripts/overhead.py perft --binary target/release/othello --depth 13 --split 6 --runs 3
    python scripts/overhead.py perft --binary target/release/othello --depth 13 --split 6 --units 16 --no-plain
    python scripts/overhead.py solve --binary target/release/othello --file crates/endgame/data/fforum-40-49.obf --runs 1
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import tempfile
import time
from typing import Any

from othello_distributed.cli import local_only

local_only()  # before ray is imported: the local cluster listens on 127.0.0.1 only
# Ray runs its workers at a niceness 15 above the driver's by default; the single-process side
# runs at the driver's level, so give the workers the same for a fair comparison.
os.environ.setdefault("RAY_worker_niceness", "0")

import ray  # noqa: E402

from othello_distributed import binary as bin_
from othello_distributed import perft, solve
from othello_distributed.journal import Journal
from othello_distributed.runner import run_units


def single(argv: list[str]) -> tuple[float, str]:
    t = time.monotonic()
    r = subprocess.run(argv, capture_output=True, text=True, check=False)
    if r.returncode not in (0, 1):
        raise SystemExit(f"{argv}: exit {r.returncode}: {r.stderr}")
    return time.monotonic() - t, r.stdout


def same_perft(b: str, depth: int, split: int, threads: int) -> tuple[float, int]:
    """The distributed algorithm on one machine: split, then count the split's positions."""
    t = time.monotonic()
    _, out = single([b, "perft", "--split", str(split), "--json"])
    lines = [json.loads(line) for line in out.splitlines() if line.strip()]
    summary, positions = lines[-1], lines[:-1]
    with tempfile.NamedTemporaryFile("w", suffix=".txt") as f:
        f.write("".join(o["position"] + "\n" for o in positions))
        f.flush()
        argv = [b, "perft", "--positions", f.name, "--depth", str(depth - split), "--threads", str(threads), "--json"]
        _, out = single(argv)
    counts = [json.loads(line)["nodes"] for line in out.splitlines() if line.strip()]
    n = summary["ended"] + sum(o["count"] * c for o, c in zip(positions, counts))
    return time.monotonic() - t, n


def distributed_perft(b: str, ident: str, depth: int, split: int, units: int) -> tuple[float, int]:
    t = time.monotonic()
    p = perft.plan(b, depth, split, units)
    with tempfile.TemporaryDirectory() as d:
        j = Journal(os.path.join(d, "j"), p.job, ident, "perft")
        out = run_units(p.units, j, b, ident)
        j.close()
    assert out.complete, out.failures
    counted = sum(sum(out.results[u.key]) for u in p.units)
    print(f"  perft: {len(p.positions)} positions at ply {split}, leaves counted by the units {counted}", flush=True)
    return time.monotonic() - t, perft.total(p, out.results)


def distributed_solve(b: str, ident: str, file: str, threads: int) -> tuple[float, list[int]]:
    t = time.monotonic()
    lines = solve.read_obf(file)
    job, units = solve.plan(lines, 1, {"threads": threads})
    with tempfile.TemporaryDirectory() as d:
        j = Journal(os.path.join(d, "j"), job, ident, "solve")
        out = run_units(units, j, b, ident)
        j.close()
    assert out.complete, out.failures
    rows = solve.ordered(lines, units, out.results)
    return time.monotonic() - t, [r["score"] for r in rows]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("workload", choices=["perft", "solve"])
    ap.add_argument("--binary", required=True)
    ap.add_argument("--depth", type=int, default=13)
    ap.add_argument("--split", type=int, default=6)
    ap.add_argument("--units", type=int, default=64)
    ap.add_argument("--file")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--cpus", type=int, default=2)
    ap.add_argument("--no-plain", action="store_true", help="perft: only the `same` baseline (quicker A/B runs)")
    a = ap.parse_args()
    b = bin_.resolve(a.binary)
    ident = bin_.identity(b)
    ray.init(_node_ip_address="127.0.0.1", include_dashboard=False, num_cpus=a.cpus, log_to_driver=False)
    distributed_perft(b, ident, 8, 2, 2 * a.cpus)  # warm-up: start the workers
    times: dict[str, list[float]] = {}
    for i in range(a.runs):
        load = os.getloadavg()[0]
        got: dict[str, float] = {}
        answers: dict[str, Any] = {}
        # Alternated: odd runs start with the single-machine side, even runs with the distributed one.
        for side in ("single", "distributed") if i % 2 == 0 else ("distributed", "single"):
            if side == "distributed" and a.workload == "perft":
                got["distributed"], answers["distributed"] = distributed_perft(b, ident, a.depth, a.split, a.units)
            elif side == "distributed":
                got["distributed"], answers["distributed"] = distributed_solve(b, ident, a.file, 1)
            elif a.workload == "perft":
                if not a.no_plain:
                    argv = [b, "perft", "--depth", str(a.depth), "--threads", str(a.cpus), "--leaf-only", "--json"]
                    got["plain"], out = single(argv)
                    answers["plain"] = json.loads(out)["nodes"]
                got["same"], answers["same"] = same_perft(b, a.depth, a.split, a.cpus)
            else:
                got["single"], out = single([b, "solve", a.file, "--threads", str(a.cpus), "--json", "--quiet"])
                answers["single"] = [json.loads(line)["score"] for line in out.splitlines() if '"position"' in line]
        assert len({json.dumps(v) for v in answers.values()}) == 1, answers
        for k, v in got.items():
            times.setdefault(k, []).append(v)
        shown = ", ".join(f"{k} {v:.2f} s" for k, v in got.items())
        ratios = ", ".join(f"{got['distributed'] / v:.3f}x {k}" for k, v in got.items() if k != "distributed")
        print(f"run {i + 1}: {shown}; distributed {ratios} (load {load:.1f})", flush=True)
    med = {k: statistics.median(v) for k, v in times.items()}
    shown = ", ".join(f"{k} {v:.2f} s" for k, v in med.items())
    ratios = ", ".join(f"{med['distributed'] / v:.3f}x {k}" for k, v in med.items() if k != "distributed")
    print(f"median of {a.runs}: {shown}; distributed {ratios}")
    ray.shutdown()


if __name__ == "__main__":
    main()
