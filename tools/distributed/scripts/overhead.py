"""Measures the distributed runner against the single-process command on this machine: a local
Ray (its start-up and a warm-up job not counted), runs alternated, medians reported.

Wall times, and CPU times (user + system): of the local Ray's whole process tree (daemons,
workers, their children) for the distributed side, of the `othello` children for the other;
the CPU ratio is less sensitive to other work on a shared machine.

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
import resource
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


def tree_cpu() -> float:
    """CPU seconds (user + system) of this process and every live descendant, each with its
    reaped children: the local Ray's daemons, its workers and the workers' `othello` children.
    Linux (/proc); 0 elsewhere."""
    if not os.path.exists("/proc/self/stat"):
        return 0.0
    stats: dict[int, tuple[int, float]] = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    rest = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            stats[int(d)] = (int(rest[1]), sum(int(x) for x in rest[11:15]) / os.sysconf("SC_CLK_TCK"))
    mine, total, grew = {os.getpid()}, 0.0, True
    while grew:
        grew = False
        for pid, (ppid, _) in stats.items():
            if ppid in mine and pid not in mine:
                mine.add(pid)
                grew = True
    for pid in mine:
        total += stats.get(pid, (0, 0.0))[1]
    return total


def children_cpu() -> float:
    """CPU seconds of this process's reaped children."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


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


def ratios(t: dict[str, float]) -> str:
    """The distributed time over each baseline's; its CPU time over the baseline's that does the
    same work (`same` for perft, the solve for solve)."""
    out = [f"{t['distributed'] / v:.3f}x {k}" for k, v in t.items() if k != "distributed" and "cpu" not in k]
    base = t.get("same cpu") or t.get("single cpu")
    if base:
        out.append(f"CPU {t['distributed cpu'] / base:.3f}x")
    return ", ".join(out)


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
            if side == "distributed":
                # CPU of the whole local Ray tree: daemons, workers and their children.
                c0 = tree_cpu()
                if a.workload == "perft":
                    got["distributed"], answers["distributed"] = distributed_perft(b, ident, a.depth, a.split, a.units)
                else:
                    got["distributed"], answers["distributed"] = distributed_solve(b, ident, a.file, 1)
                got["distributed cpu"] = tree_cpu() - c0
            elif a.workload == "perft":
                if not a.no_plain:
                    argv = [b, "perft", "--depth", str(a.depth), "--threads", str(a.cpus), "--leaf-only", "--json"]
                    got["plain"], out = single(argv)
                    answers["plain"] = json.loads(out)["nodes"]
                k0 = children_cpu()
                got["same"], answers["same"] = same_perft(b, a.depth, a.split, a.cpus)
                got["same cpu"] = children_cpu() - k0
            else:
                k0 = children_cpu()
                got["single"], out = single([b, "solve", a.file, "--threads", str(a.cpus), "--json", "--quiet"])
                answers["single"] = [json.loads(line)["score"] for line in out.splitlines() if '"position"' in line]
                got["single cpu"] = children_cpu() - k0
        assert len({json.dumps(v) for v in answers.values()}) == 1, answers
        for k, v in got.items():
            times.setdefault(k, []).append(v)
        shown = ", ".join(f"{k} {v:.2f} s" for k, v in got.items())
        print(f"run {i + 1}: {shown}; distributed {ratios(got)} (load {load:.1f})", flush=True)
    med = {k: statistics.median(v) for k, v in times.items()}
    shown = ", ".join(f"{k} {v:.2f} s" for k, v in med.items())
    print(f"median of {a.runs}: {shown}; distributed {ratios(med)}")
    ray.shutdown()


if __name__ == "__main__":
    main()
