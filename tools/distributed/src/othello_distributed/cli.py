"""`othello-distributed`: perft, solving, pattern-training data, matches and opening books as Ray jobs, one subcommand per workload.

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
from . import book as book_mod
from . import match as match_mod
from . import perft as perft_mod
from . import selfplay as selfplay_mod
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


def _common(p: argparse.ArgumentParser, train: bool = False) -> None:
    if train:
        p.add_argument(
            "--binary",
            help="the othello-train binary (a path, or a name on PATH; default: othello-train on PATH)",
        )
    else:
        p.add_argument("--binary", help="the othello binary (a path, or a name on PATH; default: othello on PATH)")
    p.add_argument(
        "--journal", help="journal file (default: OUTPUT.journal, OUT.KIND-JOB.journal, or othello-KIND-JOB.journal)"
    )
    p.add_argument("--retries", type=int, default=3, help="Ray retries per unit (default 3)")
    p.add_argument("--address", help="Ray cluster address (default: RAY_ADDRESS, else a local cluster)")
    p.add_argument("--num-cpus", type=int, help="CPUs of the local cluster (default: all)")
    if not train:
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
    g = sub.add_parser("games", help="self-play games of othello-train in batches; the same file as its `games`")
    g.add_argument("--out", required=True, help="games file (JSON Lines); games already in it are not made again")
    g.add_argument("--games", type=int, default=100, help="games wanted, numbered from --first (default 100)")
    g.add_argument("--first", type=int, default=0, help="number of the first game (default 0)")
    g.add_argument("--seed", type=int, default=1, help="seed of every random choice (default 1)")
    g.add_argument("--depth", type=int, default=2, help="self-play search depth (default 2)")
    g.add_argument("--epsilon", type=float, default=0.1, help="chance of a random move per turn (default 0.1)")
    g.add_argument("--random-plies", type=int, default=10, help="random opening moves: 0 to this many (default 10)")
    g.add_argument("--eval", choices=["hand", "pattern"], help="self-play evaluation (default: othello-train's, hand)")
    g.add_argument("--weights", help="a pattern weights file for the self-play (the same path on every machine)")
    g.add_argument("--batch", type=int, default=50, help="games per unit (default 50)")
    _common(g, train=True)
    lb = sub.add_parser("labels", help="labels of othello-train (any mode) in shards of games; its `labels` file")
    lb.add_argument("--games", required=True, help="the games file")
    lb.add_argument("--out", required=True, help="labels file (JSON Lines); positions already in it are not solved again")
    lb.add_argument("--min-empties", type=int, default=1, help="fewest empties labelled (default 1)")
    lb.add_argument("--max-empties", type=int, default=20, help="most empties labelled (default 20)")
    lb.add_argument("--max-games", type=int, help="visit at most this many games (in game order)")
    lb.add_argument("--every", type=int, default=1, help="visit only the games numbered 0 mod this (default 1)")
    lb.add_argument("--tt", type=int, default=64, help="solver table MiB per task (default 64)")
    lb.add_argument("--mode", choices=["exact", "pv", "result", "search"], default="exact", help="othello-train's --mode (default exact)")
    lb.add_argument("--solve-empties", type=int, default=24, help="pv, result: empties of the solved position (default 24)")
    lb.add_argument("--ordering", choices=["pattern", "none"], default="pattern", help="the solver's ordering (default pattern)")
    lb.add_argument("--depth", type=int, default=8, help="search: depth (default 8)")
    lb.add_argument("--mean-of", type=int, default=1, help="search: mean of this many depths (default 1)")
    lb.add_argument("--selectivity", default="off", help="search: selectivity (default off)")
    lb.add_argument("--eval", default="pattern", help="search: hand or pattern (default pattern)")
    lb.add_argument("--weights", help="search: a pattern weights file (the same path on every machine)")
    lb.add_argument("--shard", type=int, default=10, help="games per unit (default 10)")
    _common(lb, train=True)
    m = sub.add_parser("match", help="othello play's game pairs in batches, merged, with an SPRT that stops early")
    m.add_argument("engine_a", help="engine A (results are A's)")
    m.add_argument("engine_b", help="engine B")
    m.add_argument("--games", type=int, default=10, help="games (even: pairs 0..GAMES/2; default 10)")
    m.add_argument("--pairs", help="pairs START..END of the opening order instead of --games")
    m.add_argument("--batch", type=int, default=10, help="pairs per unit (default 10)")
    m.add_argument("--openings", help="openings file (default: the binary's built-in set)")
    m.add_argument("--seed", type=int, help="seeded opening order (default: file order)")
    m.add_argument("--size", type=int, help="board size: 4, 6 or 8")
    m.add_argument("--tc", help="clock per side BASE[+INC] seconds")
    m.add_argument("--st", help="fixed seconds per move")
    m.add_argument("--margin", type=int, help="ms a move may exceed its time")
    m.add_argument("--overhead", type=int, help="ms an in-process engine keeps in hand")
    m.add_argument("--hang-timeout", type=float, help="seconds to wait for an external engine's move without clock")
    m.add_argument("--adjudicate", type=int, help="solver decides at this many empties")
    m.add_argument("--concurrency", type=int, help="games at once within a task (default 1)")
    m.add_argument("--sprt", help="stop when the SPRT for ELO0 < ELO1 decides, e.g. 0,10")
    m.add_argument("--sprt-model", default="logistic", help="logistic (default) or normalized")
    m.add_argument("--sprt-alpha", type=float, default=0.05)
    m.add_argument("--sprt-beta", type=float, default=0.05)
    m.add_argument("--json", action="store_true", help="JSON output")
    _common(m)
    b = sub.add_parser("book", help="othello book build in rounds: each round's leaf searches as tasks, added by the driver")
    b.add_argument("book", help="the book file (extended if it exists; rewritten after each round)")
    b.add_argument("--engine", default="pvs:depth=10", help="leaf search spec (default pvs:depth=10)")
    b.add_argument("--position", help='root position "BOARD X" (default: the start)')
    b.add_argument("--moves", help="moves played from the root first")
    b.add_argument("--depth", type=int, default=6, help="most moves from the root (default 6)")
    b.add_argument("--max-positions", type=int, default=10000, help="most entries (default 10000)")
    b.add_argument("--deviation", type=float, default=2.0, help="window in discs below the best (default 2)")
    b.add_argument("--seed", type=int, default=0, help="tie-break seed of the plan (default 0)")
    b.add_argument("--shard-size", type=int, default=16, help="positions per unit (default 16)")
    b.add_argument("--json", action="store_true", help="JSON output")
    _common(b)
    return ap


class UsageError(Exception):
    """Bad input: exit 2."""


def _journal_path(args: argparse.Namespace, kind: str, job: str) -> str:
    if args.journal:
        return args.journal
    if getattr(args, "out", None):  # several jobs append to one data file: one journal each
        return f"{args.out}.{kind}-{job[:12]}.journal"
    if args.output:
        return args.output + ".journal"
    return f"othello-{kind}-{job[:12]}.journal"


def _report_failures(outcome) -> None:
    for key, why in sorted(outcome.failures.items()):
        print(f"unit {key} failed: {why}", file=sys.stderr)
    print(f"{len(outcome.failures)} units failed; rerun to retry them (finished units stay in the journal)", file=sys.stderr)


def _journal(args: argparse.Namespace, kind: str, job: str, identity: str, path: str | None = None) -> Journal:
    """The journal of `job`: at `path`, else where `_journal_path` puts it."""
    return Journal(path or _journal_path(args, kind, job), job, identity, kind)


def _run_journaled(args: argparse.Namespace, journal: Journal, units, binary, identity: str, **run_options):
    """The one runner of every job: runs `units` on the cluster under `journal` (finished units
    are kept there and not run again; it is closed at the end); the outcome, or None once
    failed units are reported. Failures of units cancelled because `on_result` stopped the job
    (a decided SPRT) are not reported: the job has its answer."""
    init_ray(args.address, args.num_cpus)
    from .runner import run_units

    try:
        outcome = run_units(units, journal, binary, identity, retries=args.retries, **run_options)
    finally:
        journal.close()
    if not outcome.complete and not outcome.stopped:
        _report_failures(outcome)
        return None
    return outcome


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
    if getattr(args, "threads", 1) < 1:
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
    journal = _journal(args, "perft", plan.job, identity)
    outcome = _run_journaled(args, journal, plan.units, args.binary and binary, identity, num_cpus=args.threads)
    if outcome is None:
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
    journal = _journal(args, "solve", job, identity)
    outcome = _run_journaled(args, journal, units, args.binary and binary, identity, num_cpus=args.threads)
    if outcome is None:
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


def _append(path: str, lines: list[str]) -> None:
    """Appends lines to a JSON Lines file (completing a last line left without its newline)."""
    with open(path, "a+", encoding="utf-8") as f:
        f.seek(0, os.SEEK_END)
        if f.tell() > 0:
            f.seek(f.tell() - 1)
            if f.read(1) != "\n":
                f.write("\n")
        f.write("".join(line + "\n" for line in lines))


def _train_binary(args: argparse.Namespace) -> tuple[str, str, str]:
    """(name or path the workers run, local path, identity) of othello-train."""
    name = args.binary or selfplay_mod.DEFAULT_BINARY
    path = bin_.resolve(name)
    return (path if args.binary else name), path, selfplay_mod.identity(path)


def _read_existing(path: str) -> list[str]:
    try:
        return selfplay_mod.read_lines(path)
    except (OSError, UnicodeDecodeError) as e:
        raise UsageError(f"cannot read {path}: {e}") from e


def _check_weights(args: argparse.Namespace) -> None:
    """A `--weights` file, when given, must exist (on this machine: every machine needs it at
    the same path)."""
    if args.weights is not None and not os.path.exists(args.weights):
        raise UsageError(f"no weights file {args.weights}")


def run_games(args: argparse.Namespace) -> int:
    _check_common(args)
    worker_bin, _, identity = _train_binary(args)
    if args.depth < 0 or args.random_plies < 0 or not 0.0 <= args.epsilon <= 1.0:
        raise UsageError("bad --depth/--random-plies/--epsilon: expected depth, plies >= 0 and 0 <= epsilon <= 1")
    done = set()
    for n, line in enumerate(_read_existing(args.out), 1):
        try:
            done.add(int(json.loads(line)["game"]))
        except (ValueError, KeyError, TypeError) as e:
            raise UsageError(f"{args.out} line {n}: not a game ({e})") from e
    _check_weights(args)
    options = {"seed": args.seed, "depth": args.depth, "epsilon": args.epsilon, "random_plies": args.random_plies}
    # Only given options join the job key (a hand-feature run's key stays what it was).
    if args.eval is not None:
        options["eval"] = args.eval
    if args.weights is not None:
        options["weights"] = os.path.abspath(args.weights)
    try:
        job, units = selfplay_mod.games_plan(args.first, args.games, args.batch, options, done)
    except ValueError as e:
        raise UsageError(str(e)) from e
    outcome = _run_journaled(args, _journal(args, "games", job, identity), units, worker_bin, identity)
    if outcome is None:
        return 1
    lines = selfplay_mod.games_ordered(units, outcome.results)
    _append(args.out, lines)
    print(
        f"{len(lines)} games made ({len(units)} units: {outcome.executed} run, {outcome.resumed} from the journal; "
        f"{outcome.seconds * 1e3:.1f} ms)",
        file=sys.stderr,
    )
    return 0


def run_labels(args: argparse.Namespace) -> int:
    _check_common(args)
    worker_bin, _, identity = _train_binary(args)
    if not 0 <= args.min_empties <= args.max_empties <= 60 or args.every < 1 or args.tt < 1:
        raise UsageError("bad --min-empties/--max-empties/--every/--tt: expected 0 <= min <= max <= 60, every and tt >= 1")
    if not os.path.exists(args.games):
        raise UsageError(f"no games file {args.games}")
    try:
        games = selfplay_mod.select_games(_read_existing(args.games), args.every, args.max_games)
    except ValueError as e:
        raise UsageError(f"{args.games}: {e}") from e
    existing = _read_existing(args.out)
    if not 0 <= args.solve_empties <= 60 or not 1 <= args.depth <= 30 or not 1 <= args.mean_of <= args.depth:
        raise UsageError("bad --solve-empties/--depth/--mean-of: expected 0-60, 1-30 and 1 to --depth")
    _check_weights(args)
    options = {"min_empties": args.min_empties, "max_empties": args.max_empties, "tt": args.tt}
    if args.mode != "exact" or args.ordering != "pattern":
        # Only options that change the labels (an exact run's job key stays what it was).
        options.update({"mode": args.mode, "ordering": args.ordering})
        if args.mode in ("pv", "result"):
            options["solve_empties"] = args.solve_empties
        if args.mode == "search":
            options.update({"depth": args.depth, "mean_of": args.mean_of, "selectivity": args.selectivity, "eval": args.eval})
            if args.weights is not None:
                options["weights"] = os.path.abspath(args.weights)
    try:
        job, units = selfplay_mod.labels_plan(games, args.shard, options)
        selfplay_mod.labels_merge([], {}, existing)
    except (ValueError, KeyError, TypeError) as e:
        raise UsageError(f"{args.out}: {e}") from e
    outcome = _run_journaled(args, _journal(args, "labels", job, identity), units, worker_bin, identity)
    if outcome is None:
        return 1
    lines = selfplay_mod.labels_merge(units, outcome.results, existing)
    _append(args.out, lines)
    print(
        f"{len(lines)} positions labelled from {len(games)} games ({len(units)} units: {outcome.executed} run, "
        f"{outcome.resumed} from the journal; {outcome.seconds * 1e3:.1f} ms)",
        file=sys.stderr,
    )
    return 0


def _pair_range(args: argparse.Namespace) -> tuple[int, int]:
    if args.pairs is not None:
        lo, sep, hi = args.pairs.partition("..")
        try:
            a, b = int(lo), int(hi)
        except ValueError:
            a, b = -1, -1
        if not sep or not 0 <= a < b:
            raise UsageError(f"bad --pairs {args.pairs!r}: expected START..END with START < END, e.g. 0..50")
        return a, b
    if args.games < 2 or args.games % 2:
        raise UsageError(f"bad --games {args.games}: expected an even number of at least 2")
    return 0, args.games // 2


def run_match(args: argparse.Namespace) -> int:
    _check_common(args)
    binary = bin_.resolve(args.binary)
    identity = bin_.identity(binary)
    first, end = _pair_range(args)
    sprt = None
    if args.sprt is not None:
        e0, sep, e1 = args.sprt.partition(",")
        try:
            sprt = {"elo0": float(e0), "elo1": float(e1)}
        except ValueError:
            sep = ""
        if not sep:
            raise UsageError(f"bad --sprt {args.sprt!r}: expected ELO0,ELO1, e.g. 0,10")
        sprt |= {"model": args.sprt_model, "alpha": args.sprt_alpha, "beta": args.sprt_beta}
    openings = None
    if args.openings is not None:
        try:
            with open(args.openings, encoding="utf-8") as f:
                openings = f.read()
        except (OSError, UnicodeDecodeError) as e:
            raise UsageError(f"cannot read {args.openings}: {e}") from e
    options = {k: getattr(args, k) for k in match_mod.PASS_THROUGH}
    try:
        job, units = match_mod.plan(args.engine_a, args.engine_b, first, end, args.batch, options, openings)
    except ValueError as e:
        raise UsageError(str(e)) from e
    # Bad SPRT options or engine specs are found by the binary before any task runs.
    match_mod.stats(binary, [0] * 5, sprt)
    journal = _journal(args, "match", job, identity)
    counted = [journal.done[u.key] for u in units if u.key in journal.done]
    state = {"stats": match_mod.stats(binary, match_mod.merge(counted)["pentanomial"], sprt)}

    def decided() -> bool:
        return sprt is not None and state["stats"]["sprt"] != "continue"

    def on_result(_unit, result) -> bool:
        counted.append(result)
        state["stats"] = match_mod.stats(binary, match_mod.merge(counted)["pentanomial"], sprt)
        return decided()

    outcome = None
    if not decided():
        outcome = _run_journaled(args, journal, units, args.binary and binary, identity, on_result=on_result)
        if outcome is None:
            return 1
    else:
        journal.close()
    total = match_mod.merge(counted)
    st = state["stats"]
    result: dict[str, Any] = {
        **{k: total[k] for k in ("games", "wins", "draws", "losses", "flags", "forfeits")},
        **st,
        "pair_range": [first, end],
        "batches": len(counted),
        "units": len(units),
        "executed": outcome.executed if outcome else 0,
        "resumed": len(counted) - (outcome.executed if outcome else 0),
        "stopped_early": len(counted) < len(units),
        "identity": identity,
    }
    if args.json or args.output:
        _write(args, json.dumps(result) + "\n")
    else:
        line = (
            f"A vs B: +{total['wins']} ={total['draws']} -{total['losses']} of {total['games']} games, "
            f"score {st['score']:.3f}, Elo {st['elo']} +/- {st['elo_error']}, LOS {100 * st['los']:.1f}%, "
            f"pentanomial {st['pentanomial']}"
        )
        if sprt is not None:
            lo, hi = st["llr_bounds"]
            line += f", SPRT {st['sprt']} LLR {st['llr']:.2f} ({lo:.2f}, {hi:.2f})"
        _write(args, line + f" ({len(counted)} of {len(units)} batches)\n")
    return 0


def run_book(args: argparse.Namespace) -> int:
    _check_common(args)
    binary = bin_.resolve(args.binary)
    identity = bin_.identity(binary)
    walk = {
        "position": args.position,
        "moves": args.moves,
        "depth": args.depth,
        "max_positions": args.max_positions,
        "deviation": args.deviation,
        "seed": args.seed,
    }
    book_mod.check_engine(binary, args.engine)
    rounds, searched, executed, resumed, seconds = 0, 0, 0, 0, 0.0
    summary = ""
    while True:
        positions = book_mod.plan_round(binary, args.book, walk)
        if not positions:
            break
        try:
            job, units = book_mod.plan(positions, args.engine, args.shard_size)
        except ValueError as e:
            raise UsageError(str(e)) from e
        # One journal per round: a round cut short resumes without searching its units again.
        path = f"{args.journal}.{job[:12]}" if args.journal else f"{args.book}.{job[:12]}.journal"
        outcome = _run_journaled(args, _journal(args, "book", job, identity, path), units, args.binary and binary, identity)
        if outcome is None:
            return 1
        summary = book_mod.add(binary, args.book, units, outcome.results)
        if os.path.exists(path):
            os.unlink(path)
        rounds += 1
        searched += len(positions)
        executed += outcome.executed
        resumed += outcome.resumed
        seconds += outcome.seconds
        print(f"round {rounds}: {len(positions)} positions in {len(units)} units; {summary}", file=sys.stderr)
    result = {
        "book": args.book,
        "rounds": rounds,
        "searched": searched,
        "executed": executed,
        "resumed": resumed,
        "time_ms": round(seconds * 1e3, 3),
        "identity": identity,
    }
    if args.json:
        _write(args, json.dumps(result) + "\n")
    else:
        _write(args, f"book {args.book}: {rounds} rounds, {searched} positions searched ({executed} units run, {resumed} from journals); {summary}\n")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        if args.command == "perft":
            return run_perft(args)
        if args.command == "games":
            return run_games(args)
        if args.command == "labels":
            return run_labels(args)
        if args.command == "match":
            return run_match(args)
        if args.command == "book":
            return run_book(args)
        return run_solve(args)
    except (UsageError, JournalError, bin_.BinaryError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
