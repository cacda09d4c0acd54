"""`othello-distributed`: perft and solving as Ray jobs, one subcommand per workload.

Exit codes follow the `othello` binary: 0 success, 1 a failed check (a unit that kept failing,
a solve that disagrees with the listed scores), 2 bad input (one line on stderr).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from . import binary as bin_
from . import perft as perft_mod
from . import solve as solve_mod
from .journal import Journal, JournalError

__all__ = ["main", "init_ray", "local_only"]


def local_only() -> None:
    """Makes a Ray started from this process listen on 127.0.0.1 only. Ray 2.60 replaces a
    loopback `_node_ip_address` by the machine's address and then binds its servers to every
    interface, unless clustering is switched off; this environment variable (read by Ray when
    imported, here and in the processes it starts) does that. Call it before importing ray;
    if ray is already imported, its constant is set too."""
    os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"
    if "ray" in sys.modules:
        from ray._private import ray_constants

        ray_constants.ENABLE_RAY_CLUSTER = False


def init_ray(address: str | None, num_cpus: int | None) -> None:
    """Connects to the cluster at `address` (or RAY_ADDRESS), else starts a local one bound
    to 127.0.0.1 without the dashboard."""
    addr = address or os.environ.get("RAY_ADDRESS")
    if not addr:
        local_only()
    import ray

    if ray.is_initialized():
        return
    if addr:
        import othello_distributed

        # The workers of another machine import this package from the job's runtime env.
        ray.init(address=addr, runtime_env={"py_modules": [othello_distributed]}, log_to_driver=False)
    else:
        ray.init(_node_ip_address="127.0.0.1", include_dashboard=False, num_cpus=num_cpus, log_to_driver=False)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--binary", help="the othello binary (a path, or a name on PATH; default: othello on PATH)")
    p.add_argument("--journal", help="journal file (default: OUTPUT.journal, or othello-KIND-JOB.journal)")
    p.add_argument("--retries", type=int, default=3, help="Ray retries per unit (default 3)")
    p.add_argument("--address", help="Ray cluster address (default: RAY_ADDRESS, else a local cluster)")
    p.add_argument("--num-cpus", type=int, help="CPUs of the local cluster (default: all)")
    p.add_argument("--output", help="write the result here (default: standard output)")


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="othello-distributed", description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    p = sub.add_parser("perft", help="perft split into units at a ply, counted as tasks, summed exactly")
    p.add_argument("--depth", "-d", type=int, required=True)
    p.add_argument("--split", type=int, default=None, help="split ply (default: min(depth, 5))")
    p.add_argument("--units", type=int, default=64, help="units to deal the split positions into (default 64)")
    p.add_argument("--position", help='root position "BOARD X" (default: the start)')
    p.add_argument("--moves", help="moves played from the root first")
    p.add_argument("--size", type=int, help="board size of the start position: 4, 6 or 8")
    p.add_argument("--threads", type=int, default=1, help="threads per task (default 1)")
    p.add_argument("--json", action="store_true", help="JSON output")
    _common(p)
    s = sub.add_parser("solve", help="an OBF file solved in shards; one JSON line per position, in input order")
    s.add_argument("file", help="OBF file")
    s.add_argument("--shard-size", type=int, default=1, help="positions per unit (default 1)")
    s.add_argument("--wld", action="store_true", help="win/loss/draw only")
    s.add_argument("--all-moves", action="store_true", help="score every legal move")
    s.add_argument("--threads", type=int, default=1, help="solver threads per task (default 1)")
    s.add_argument("--hash", type=int, help="transposition table MiB per task (default: the binary's)")
    _common(s)
    return ap


class UsageError(Exception):
    """Bad input: exit 2."""


def _journal_path(args: argparse.Namespace, kind: str, job: str) -> str:
    if args.journal:
        return args.journal
    if args.output:
        return args.output + ".journal"
    return f"othello-{kind}-{job[:12]}.journal"


def _report_failures(outcome) -> None:
    for key, why in sorted(outcome.failures.items()):
        print(f"unit {key} failed: {why}", file=sys.stderr)
    print(f"{len(outcome.failures)} units failed; rerun to retry them (finished units stay in the journal)", file=sys.stderr)


def _write(args: argparse.Namespace, text: str) -> None:
    if args.output:
        tmp = args.output + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, args.output)
    else:
        sys.stdout.write(text)
        sys.stdout.flush()


def _check_common(args: argparse.Namespace) -> None:
    if args.retries < 0:
        raise UsageError(f"bad --retries {args.retries}: expected 0 or more")
    if args.threads < 1:
        raise UsageError(f"bad --threads {args.threads}: expected 1 or more")
    if args.num_cpus is not None and args.num_cpus < 1:
        raise UsageError(f"bad --num-cpus {args.num_cpus}: expected 1 or more")


def run_perft(args: argparse.Namespace) -> int:
    _check_common(args)
    binary = bin_.resolve(args.binary)
    identity = bin_.identity(binary)
    if args.depth < 0:
        raise UsageError(f"bad --depth {args.depth}: expected 0 or more")
    split = min(args.depth, 5) if args.split is None else args.split
    try:
        plan = perft_mod.plan(binary, args.depth, split, args.units, args.position, args.moves, args.size, args.threads)
    except (ValueError, bin_.BadInput) as e:
        raise UsageError(str(e)) from e
    journal = Journal(_journal_path(args, "perft", plan.job), plan.job, identity, "perft")
    init_ray(args.address, args.num_cpus)
    from .runner import run_units

    try:
        outcome = run_units(
            plan.units, journal, args.binary and binary, identity, retries=args.retries, num_cpus=args.threads
        )
    finally:
        journal.close()
    if not outcome.complete:
        _report_failures(outcome)
        return 1
    n = perft_mod.total(plan, outcome.results)
    result: dict[str, Any] = {
        "depth": args.depth,
        "nodes": n,
        "split": split,
        "positions": len(plan.positions),
        "ended": plan.ended,
        "units": len(plan.units),
        "executed": outcome.executed,
        "resumed": outcome.resumed,
        "time_ms": round(outcome.seconds * 1e3, 3),
        "identity": identity,
    }
    if args.json or args.output:
        _write(args, json.dumps(result) + "\n")
    else:
        _write(
            args,
            f"perft {args.depth}: {n} leaves ({len(plan.positions)} positions at ply {split} in {len(plan.units)} units; "
            f"{outcome.executed} run, {outcome.resumed} from the journal; {outcome.seconds * 1e3:.1f} ms)\n",
        )
    return 0


def run_solve(args: argparse.Namespace) -> int:
    _check_common(args)
    binary = bin_.resolve(args.binary)
    identity = bin_.identity(binary)
    try:
        lines = solve_mod.read_obf(args.file)
    except (OSError, UnicodeDecodeError) as e:
        raise UsageError(f"cannot read {args.file}: {e}") from e
    if not lines:
        raise UsageError(f"{args.file}: no positions")
    options = {"wld": args.wld, "all_moves": args.all_moves, "threads": args.threads, "hash": args.hash}
    try:
        job, units = solve_mod.plan(lines, args.shard_size, options)
    except ValueError as e:
        raise UsageError(str(e)) from e
    journal = Journal(_journal_path(args, "solve", job), job, identity, "solve")
    init_ray(args.address, args.num_cpus)
    from .runner import run_units

    try:
        outcome = run_units(units, journal, args.binary and binary, identity, retries=args.retries, num_cpus=args.threads)
    finally:
        journal.close()
    if not outcome.complete:
        _report_failures(outcome)
        return 1
    rows = solve_mod.ordered(lines, units, outcome.results)
    _write(args, "".join(json.dumps(r) + "\n" for r in rows))
    mismatches = [r["index"] for r in rows if r.get("ok") is False]
    nodes = sum(int(r.get("nodes", 0)) for r in rows)
    print(
        f"solved {len(rows)} positions, {len(mismatches)} mismatches, {nodes} nodes, "
        f"{outcome.executed} units run, {outcome.resumed} from the journal, {outcome.seconds * 1e3:.1f} ms",
        file=sys.stderr,
    )
    if mismatches:
        print(f"positions {mismatches} do not match their listed scores", file=sys.stderr)
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        if args.command == "perft":
            return run_perft(args)
        return run_solve(args)
    except (UsageError, JournalError, bin_.BinaryError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
