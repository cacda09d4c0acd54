"""othello_toolkit against rust-reversi (PyPI), each library's fastest public call on the same work.

    pip install ./bindings/python rust-reversi==1.4.4
    python bindings/python/bench/compare.py [--quick] [--threads K] [--no-solves]

Prints a Markdown table: the work, each library's call, its time (the best of a few
repetitions, the two libraries alternated) and the ratio. "none" where rust-reversi has no
equivalent call. Also the batch calls against a Python loop of single calls (pattern
evaluations on 1 and k threads, CPU and wall time), and batched solves on k threads against
one. Timings on a loaded machine are noisy: compare the ratios of one run. Single-threaded
rows are timed in CPU time of the process; the threaded ones in wall time beside CPU time.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from typing import Callable, List, Tuple

import numpy as np

import othello_toolkit as ot

try:
    import rust_reversi as rr
except ImportError:  # the comparison rows then say so
    rr = None


def best_of(fn: Callable[[], object], repeat: int) -> float:
    """The shortest of `repeat` timings of `fn`, in seconds of this process's CPU time: every
    call timed this way runs on the calling thread, and CPU time is far less disturbed than
    wall time by other work on the machine."""
    best = float("inf")
    for _ in range(repeat):
        t = time.process_time()
        fn()
        best = min(best, time.process_time() - t)
    return best


def alternated(ours: Callable[[], object], theirs: Callable[[], object], repeat: int) -> Tuple[float, float]:
    """Best times of the two calls, run alternately so that both see the same machine load."""
    a = b = float("inf")
    for _ in range(repeat):
        a = min(a, best_of(ours, 1))
        b = min(b, best_of(theirs, 1))
    return a, b


def random_game_positions(games: int, seed: int) -> List[ot.Position]:
    """Every position met in `games` random games from the start (a side that must pass passes)."""
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        p = ot.Position()
        while not p.is_game_over():
            out.append(p)
            p = p.play(rng.choice(p.moves()))
    return out


rows: List[Tuple[str, str, str, str, str, str]] = []


def row(work: str, ours_call: str, ours_s: float, theirs_call: str, theirs_s: float, unit: str = "") -> None:
    ratio = f"{theirs_s / ours_s:.1f}x" if theirs_s == theirs_s and theirs_s > 0 else "-"
    theirs_txt = f"{theirs_s * 1e3:.3g} ms" if theirs_s == theirs_s else "none"
    rows.append((work, ours_call, f"{ours_s * 1e3:.3g} ms{unit}", theirs_call, theirs_txt, ratio))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller workloads (a smoke run)")
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1,
                        help="k for the batched evaluations and solves")
    parser.add_argument("--no-solves", action="store_true",
                        help="leave out the exact solves (the longest part of the run)")
    args = parser.parse_args()
    quick = args.quick
    repeat = 3 if quick else 5
    nan = float("nan")
    load_start = os.getloadavg()

    positions = random_game_positions(200, seed=1)
    rng = random.Random(2)
    sample = [positions[rng.randrange(len(positions))] for _ in range(10_000)]
    array = ot.positions_to_array(sample)
    pairs = [(int(r[0]), int(r[1])) for r in array]

    # 1. Legal moves of 10 000 positions.
    expected = [p.legal_moves for p in sample]
    assert ot.legal_moves_batch(array).tolist() == expected
    if rr is not None:
        board = rr.Board()
        black = rr.Turn.BLACK

        def theirs_legal():
            out = []
            for p, o in pairs:
                board.set_board(p, o, black)
                out.append(board.get_legal_moves())
            return out

        assert theirs_legal() == expected
    else:
        theirs_legal = None
    ours_batch, theirs = alternated(lambda: ot.legal_moves_batch(array), theirs_legal or (lambda: None), repeat)
    row("legal-move masks of 10 000 positions", "`legal_moves_batch(array)`", ours_batch,
        "`set_board` + `get_legal_moves` loop", theirs if rr else nan)
    ours_loop = best_of(lambda: [p.legal_moves for p in sample], repeat)
    row("legal-move masks of 10 000 positions", "`p.legal_moves` loop", ours_loop,
        "`set_board` + `get_legal_moves` loop", theirs if rr else nan)

    # 2. Random games played through from the start, one move call at a time from Python.
    games = 100 if quick else 300

    def ours_games():
        g = random.Random(3)
        moves = 0
        for _ in range(games):
            p = ot.Position()
            while not p.is_game_over():
                p = p.play(g.choice(p.move_indices()))
                moves += 1
        return moves

    def theirs_games():
        # Their fastest loop measured: `get_random_move` raises ValueError on a forced pass,
        # cheaper than asking `is_pass` at every move (passes are rare).
        moves = 0
        for _ in range(games):
            b = rr.Board()
            while not b.is_game_over():
                try:
                    b.do_move(b.get_random_move())
                except ValueError:
                    b.do_pass()
                moves += 1
        return moves

    # The fastest calls of each library for the same games: ours with the package's seeded
    # generator (`Rng`), a mutable `Board` (one call a move), an immutable `Position` (two),
    # or every game in one call; rust-reversi's own random move (four calls a move).
    def ours_board():
        rng = ot.Rng(3)
        moves = 0
        for _ in range(games):
            b = ot.Board()
            while b.play_random(rng) is not None:
                moves += 1
        return moves

    def ours_position():
        rng = ot.Rng(3)
        moves = 0
        for _ in range(games):
            p = ot.Position()
            while not p.is_game_over():
                p = p.play_random(rng)
                moves += 1
        return moves

    def ours_batch_games():
        return int(ot.random_games(games, seed=3)[1].sum())

    # The same games through each of our calls (the same seed draws the same moves).
    assert ours_board() == ours_position() == ours_batch_games()
    for call, fn in (
        ("`Board.play_random(rng)`, one call a move", ours_board),
        ("`is_game_over` + `Position.play_random(rng)`", ours_position),
        ("`random_games(n, seed)`, one call for every game", ours_batch_games),
        ("`move_indices()` + `random.choice` + `play`", ours_games),
    ):
        a, b = alternated(fn, theirs_games if rr else (lambda: None), repeat)
        row(f"{games} random games to the end", call, a,
            "`is_game_over` + `get_random_move` + `do_move` (`do_pass` on its ValueError)", b if rr else nan)

    # The same games with the random choice made by Python's `random` for both libraries.
    def theirs_games_choice():
        g = random.Random(3)
        moves = 0
        for _ in range(games):
            b = rr.Board()
            while not b.is_game_over():
                if b.is_pass():
                    b.do_pass()
                else:
                    b.do_move(g.choice(b.get_legal_moves_vec()))
                moves += 1
        return moves

    a, b = alternated(ours_games, theirs_games_choice if rr else (lambda: None), repeat)
    row(f"{games} random games, a Python call per move, `random.choice` for both",
        "`move_indices()` + `random.choice` + `play`", a,
        "`get_legal_moves_vec` + `random.choice` + `do_move`", b if rr else nan)

    # 3. Random playouts per second (the whole game in one call where the library has one).
    playouts = 2_000 if quick else 20_000
    start = ot.Position()
    ours_p = best_of(lambda: ot.random_playouts(start, playouts, seed=4), repeat)
    theirs_p = nan
    if rr is not None:
        per_game = best_of(theirs_games, 1) / games
        theirs_p = per_game * playouts
    row(f"{playouts} random playouts from the start", "`random_playouts`", ours_p,
        "(no playout call: the game loop above, scaled)", theirs_p)

    # 4. Depth-limited search, the same evaluation (disc count) and depth, midgame positions.
    depth = 5 if quick else 6
    mid = [p for p in positions if 30 <= p.empty_count <= 44 and p.legal_moves][:: 97][:12]
    ours_engine = ot.Engine(f"pvs:depth={depth},eval=discs,quiescence=off,tt=4")

    def ours_search():
        for p in mid:
            ours_engine.new_game()
            ours_engine.think(p)

    def theirs_search():
        search = rr.AlphaBetaSearch(rr.PieceEvaluator(), depth, 1 << 20)
        b = rr.Board()
        for p in mid:
            b.set_board(p.player, p.opponent, rr.Turn.BLACK if p.side == "X" else rr.Turn.WHITE)
            search.get_move(b)

    a, b = alternated(ours_search, theirs_search if rr else (lambda: None), 3)
    row(f"depth-{depth} search of {len(mid)} midgame positions (disc-count evaluation)",
        f"`Engine('pvs:depth={depth},eval=discs,quiescence=off,tt=4').think`", a,
        "`AlphaBetaSearch(PieceEvaluator(), depth).get_move`", b if rr else nan)
    pattern_engine = ot.Engine(f"pvs:depth={depth},eval=pattern,tt=4")

    def ours_pattern():
        for p in mid:
            pattern_engine.new_game()
            pattern_engine.think(p)

    row(f"depth-{depth} search of {len(mid)} midgame positions, pattern evaluation",
        f"`Engine('pvs:depth={depth},eval=pattern,tt=4').think`", best_of(ours_pattern, 3), "none", nan)

    # 5. MCTS with the same playout budget from the start.
    budget = 2_000 if quick else 20_000
    ours_mcts = ot.Engine(f"mcts:playouts={budget},seed=5")

    def theirs_mcts():
        rr.MctsSearch(budget, 1.0, 10).get_move(rr.Board())

    def ours_mcts_move():
        ours_mcts.new_game()
        ours_mcts.think(ot.Position())

    a, b = alternated(ours_mcts_move, theirs_mcts if rr else (lambda: None), 3)
    row(f"MCTS move from the start, {budget} playouts", "`Engine('mcts:playouts=N').think`", a,
        "`MctsSearch(N, 1.0, 10).get_move`", b if rr else nan)

    # 6. Exact solving: rust-reversi has no solver.
    twenty = [p for p in positions if p.empty_count == 20 and p.legal_moves][:: 3][: 8 if quick else 24]
    twenty_array = ot.positions_to_array(twenty)
    if not args.no_solves:
        t = time.process_time()
        ot.solve_batch(twenty_array[:4], threads=1, ordering="pattern")
        row("exact solves of 4 20-empty positions, 1 thread", "`solve_batch(..., threads=1)`",
            time.process_time() - t, "none", nan)

    print("| work | othello_toolkit call | time | rust-reversi call | time | rust-reversi / ours |")
    print("| --- | --- | --- | --- | --- | --- |")
    for r in rows:
        print("| " + " | ".join(r) + " |")

    # Batch against a Python loop of single calls (10 000 positions).
    ev = ot.PatternEval()
    loop_eval = best_of(lambda: [ev.evaluate(p) for p in sample], repeat)
    batch_legal_list = best_of(lambda: ot.legal_moves_batch(sample), repeat)
    expected_values = [ev.evaluate(p) for p in sample]
    k = max(1, args.threads)
    for t in (1, k):
        assert ot.evaluate_batch(array, threads=t).tolist() == expected_values
    print()
    print("| 10 000 positions | Python loop of single calls | batch, NumPy array in | ratio | batch, list of Position in | ratio |")
    print("| --- | --- | --- | --- | --- | --- |")
    print(f"| legal-move masks | {ours_loop * 1e3:.2f} ms | {ours_batch * 1e3:.3f} ms | {ours_loop / ours_batch:.0f}x "
          f"| {batch_legal_list * 1e3:.2f} ms | {ours_loop / batch_legal_list:.1f}x |")
    # Pattern evaluations on 1 and k threads: CPU time (every thread's) and wall time, the
    # loop and the batches alternated, best of many runs.
    loop_cpu = loop_wall = float("inf")
    cpu = {1: float("inf"), k: float("inf")}
    wall = {1: float("inf"), k: float("inf")}
    list_cpu = float("inf")
    # One position 10 000 times: one phase's tables, hot in cache (the evaluation's own cost).
    same = np.ascontiguousarray(np.repeat(array[:1], len(array), axis=0))
    same_cpu = float("inf")
    for _ in range(repeat * 4):
        t, c = time.perf_counter(), time.process_time()
        [ev.evaluate(p) for p in sample]
        loop_wall, loop_cpu = min(loop_wall, time.perf_counter() - t), min(loop_cpu, time.process_time() - c)
        for threads in (1, k):
            t, c = time.perf_counter(), time.process_time()
            ot.evaluate_batch(array, threads=threads)
            wall[threads] = min(wall[threads], time.perf_counter() - t)
            cpu[threads] = min(cpu[threads], time.process_time() - c)
        c = time.process_time()
        ot.evaluate_batch(sample, threads=1)
        list_cpu = min(list_cpu, time.process_time() - c)
        c = time.process_time()
        ot.evaluate_batch(same, threads=1)
        same_cpu = min(same_cpu, time.process_time() - c)
    print()
    print("| 10 000 pattern evaluations | CPU | wall | loop / batch, CPU | loop / batch, wall |")
    print("| --- | --- | --- | --- | --- |")
    print(f"| Python loop of `ev.evaluate(p)` | {loop_cpu * 1e3:.3f} ms | {loop_wall * 1e3:.3f} ms | 1 | 1 |")
    for threads in sorted(cpu):
        print(f"| `evaluate_batch(array, threads={threads})` | {cpu[threads] * 1e3:.3f} ms | {wall[threads] * 1e3:.3f} ms "
              f"| {loop_cpu / cpu[threads]:.1f}x | {loop_wall / wall[threads]:.1f}x |")
    print(f"| `evaluate_batch(list of Position, threads=1)` | {list_cpu * 1e3:.3f} ms | - | {loop_cpu / list_cpu:.1f}x | - |")
    print(f"| `evaluate_batch(array, threads=1)`, one position 10 000 times | {same_cpu * 1e3:.3f} ms | - "
          f"| {loop_cpu / same_cpu:.1f}x | - |")

    # Batched solves on k threads against one.
    if not args.no_solves:
        solves(twenty, twenty_array, k, quick)
    print()
    print(f"rust-reversi: {'installed' if rr else 'not installed'}; numpy {np.__version__}; "
          f"load average at the start {load_start[0]:.1f}, at the end {os.getloadavg()[0]:.1f} "
          f"({os.cpu_count()} CPUs)")


def solves(twenty: List[ot.Position], twenty_array: np.ndarray, k: int, quick: bool) -> None:
    """Batched exact solves on k threads against one, and the scheduling bound."""
    t1, tk = float("inf"), float("inf")
    cpu_1 = cpu_k = 0.0
    scores1 = scoresk = None
    for _ in range(1 if quick else 2):
        t, c = time.perf_counter(), time.process_time()
        scores1, _ = ot.solve_batch(twenty_array, threads=1, ordering="pattern")
        if time.perf_counter() - t < t1:
            t1, cpu_1 = time.perf_counter() - t, time.process_time() - c
        t, c = time.perf_counter(), time.process_time()
        scoresk, _ = ot.solve_batch(twenty_array, threads=k, ordering="pattern")
        if time.perf_counter() - t < tk:
            tk, cpu_k = time.perf_counter() - t, time.process_time() - c
    assert (scores1 == scoresk).all()
    print()
    print("| batched exact solves | 1 thread: wall, CPU | k threads: wall, CPU | k | wall speed-up | per thread "
          "| CPU with k / CPU with 1 | CPUs the process got with k |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    print(f"| {len(twenty)} positions of 20 empties | {t1:.2f} s, {cpu_1:.2f} s | {tk:.2f} s, {cpu_k:.2f} s | {k} "
          f"| {t1 / tk:.2f}x | {t1 / tk / k:.2f} | {cpu_k / cpu_1:.2f} | {cpu_k / tk:.2f} |")
    # What k threads would give on an idle machine: each position's CPU time alone, handed out
    # in order to the first free thread, as solve_batch does.
    times = []
    for p in twenty:
        c = time.process_time()
        ot.solve(p, ordering="pattern")
        times.append(time.process_time() - c)
    free = [0.0] * k
    for t in times:
        i = free.index(min(free))
        free[i] += t
    print(f"\nScheduling bound from each position's CPU time alone: {sum(times):.2f} s of work, "
          f"{max(free):.2f} s on {k} threads: {sum(times) / max(free):.2f}x "
          f"(longest position {max(times):.2f} s)")


if __name__ == "__main__":
    main()
