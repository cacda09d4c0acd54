"""Long calls release the interpreter lock: Python code in another thread keeps running."""

import threading

import numpy as np
import pytest

import othello_toolkit as ot


def ticks_during(call):
    """How many times the main thread's loop ran while `call` ran in a worker thread."""
    counter = [0]
    seen = {}

    def worker():
        before = counter[0]
        call()
        seen["ticks"] = counter[0] - before

    t = threading.Thread(target=worker)
    t.start()
    while t.is_alive():
        counter[0] += 1
    t.join()
    return seen["ticks"]


ARRAY = np.repeat(ot.positions_to_array([ot.Position.from_moves("f5d6c3")]), 2_000_000, axis=0)


@pytest.mark.parametrize(
    "name, call",
    [
        ("random_playouts", lambda: ot.random_playouts(ot.Position(), 30_000)),
        ("random_games", lambda: ot.random_games(30_000)),
        ("perft", lambda: ot.perft(ot.Position(), 10)),
        ("legal_moves_batch", lambda: ot.legal_moves_batch(ARRAY)),
        ("evaluate_batch", lambda: ot.evaluate_batch(ARRAY[:500_000])),
        ("engine", lambda: ot.Engine("pvs:depth=9,eval=pattern").think(ot.Position())),
        ("solve", lambda: ot.solve(ot.Position(), time=0.3)),
    ],
)
def test_long_calls_release_the_interpreter_lock(name, call):
    assert ticks_during(call) > 100, name


def test_threads_share_positions_and_get_single_thread_results():
    positions = [ot.Position.from_moves(m) for m in ("f5d6", "f5f6", "f5f4", "d3c3")]
    expected = [ot.Engine("pvs:depth=5").think(p).best_move for p in positions]
    results = [None] * len(positions)

    def work(i):
        results[i] = ot.Engine("pvs:depth=5").think(positions[i]).best_move

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(positions))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == expected
