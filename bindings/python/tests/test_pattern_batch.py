import numpy as np
import pytest

import othello_toolkit as ot
from reference import legal_moves, random_positions


@pytest.fixture(scope="module")
def positions():
    pairs = random_positions(40, seed=3)
    return [ot.Position.from_bitboards(p, o) for p, o in pairs]


def test_pattern_value_is_invariant_under_symmetries(positions):
    ev = ot.PatternEval()
    for p in positions[::25]:
        values = {ev.evaluate(s) for s in p.symmetries()}
        assert len(values) == 1
    assert abs(ev.evaluate(ot.Position())) < 1000


def test_feature_indices(positions):
    f = ot.feature_indices(ot.Position())
    assert f.shape == (ot.FEATURES,) and f.dtype == np.uint32
    assert f[0] == 0 and ot.PATTERN_SET_ID == 2
    batch = ot.feature_indices_batch(positions[:50])
    assert batch.shape == (50, ot.FEATURES)
    for i in range(50):
        assert (batch[i] == ot.feature_indices(positions[i])).all()
    # Different positions have different features.
    assert not (batch[10] == batch[11]).all()


def test_batches_equal_single_calls_from_lists_and_arrays(positions):
    array = ot.positions_to_array(positions)
    assert array.shape == (len(positions), 2) and array.dtype == np.uint64
    masks = ot.legal_moves_batch(positions)
    assert (masks == ot.legal_moves_batch(array)).all()
    assert masks.tolist() == [p.legal_moves for p in positions]
    assert (ot.legal_moves_batch(tuple(positions)) == masks).all()
    assert masks.tolist()[:300] == [legal_moves(p.player, p.opponent) for p in positions[:300]]
    ev = ot.PatternEval()
    values = ot.evaluate_batch(positions)
    assert values.dtype == np.int32
    assert values.tolist() == [ev.evaluate(p) for p in positions]
    assert (ev.evaluate_batch(array) == values).all()
    back = ot.positions_from_array(array)
    assert [(p.player, p.opponent) for p in back] == [(p.player, p.opponent) for p in positions]
    assert ot.positions_from_array(array[:1], side="O")[0].side == "O"
    # Arrays that are not C-contiguous take the strided path with the same results.
    fortran = np.asfortranarray(array)
    assert not fortran.flags.c_contiguous
    assert (ot.legal_moves_batch(fortran) == masks).all()
    wide = np.zeros((len(positions), 4), dtype=np.uint64)
    wide[:, ::2] = array
    assert (ot.legal_moves_batch(wide[:, ::2]) == masks).all()
    empty = np.zeros((0, 2), dtype=np.uint64)
    assert ot.legal_moves_batch(empty).shape == (0,)
    assert ot.solve_batch([])[0].shape == (0,)


def test_evaluate_batch_is_the_same_on_any_thread_count(positions):
    # Enough rows that three threads each get a share (a thread takes 2048 rows at least),
    # shuffled so that the rows' phases are mixed: the batch reorders rows by phase and must
    # put every value back in its row.
    rng = np.random.default_rng(4)
    array = ot.positions_to_array(positions)
    big = array[rng.integers(0, len(array), size=9000)]
    ev = ot.PatternEval()
    singles = [ev.evaluate(ot.Position.from_bitboards(int(p), int(o))) for p, o in big]
    for threads in (1, 2, 3, None):
        assert ot.evaluate_batch(big, threads=threads).tolist() == singles, threads
        assert ev.evaluate_batch(big, threads=threads).tolist() == singles, threads
    listed = [ot.Position.from_bitboards(int(p), int(o)) for p, o in big[:5000]]
    assert ot.evaluate_batch(listed, threads=3).tolist() == singles[:5000]
    with pytest.raises(ValueError, match="bad thread count 0"):
        ot.evaluate_batch(big, threads=0)
    bad = big.copy()
    bad[7000, 1] |= bad[7000, 0]
    with pytest.raises(ValueError, match="row 7000: "):
        ot.evaluate_batch(bad, threads=2)


def test_solve_batch_equals_single_solves_on_any_thread_count(positions):
    late = [p for p in positions if 8 <= p.empty_count <= 12][:24]
    assert len(late) == 24
    singles = [ot.solve(p) for p in late]
    for threads in (1, 2, 3):
        scores, moves = ot.solve_batch(late, threads=threads, tt_mib=4)
        assert scores.tolist() == [s.score for s in singles]
        assert [ot.square_name(m) for m in moves.tolist()] == [s.best_move for s in singles]
    wld, _ = ot.solve_batch(ot.positions_to_array(late), mode="wld", threads=2, tt_mib=4)
    assert wld.tolist() == [(s.score > 0) - (s.score < 0) for s in singles]


def test_batch_errors():
    with pytest.raises(ValueError, match="row 1: square a1 holds both"):
        ot.legal_moves_batch(np.array([[1, 2], [1, 1]], dtype=np.uint64))
    with pytest.raises(ValueError, match="expected \\(n, 2\\)"):
        ot.legal_moves_batch(np.zeros((3, 3), dtype=np.uint64))
    with pytest.raises(ValueError, match="position 1: .*6x6"):
        ot.evaluate_batch([ot.Position(), ot.Position.start(6)])
    with pytest.raises(ValueError, match="6x6"):
        ot.feature_indices(ot.Position.start(6))
    with pytest.raises(TypeError, match="uint64"):
        ot.legal_moves_batch(np.zeros((3, 2), dtype=np.float64))
    with pytest.raises(TypeError, match="two-dimensional"):
        ot.legal_moves_batch(np.zeros(4, dtype=np.uint64))
    with pytest.raises(TypeError, match="sequence of Position"):
        ot.legal_moves_batch(42)
    with pytest.raises(TypeError, match="sequence of Position"):
        ot.legal_moves_batch([ot.Position(), "not a position"])
    with pytest.raises(TypeError, match="sequence of Position"):
        ot.legal_moves_batch((ot.Position(), 3))
    with pytest.raises(ValueError, match="bad thread count 0"):
        ot.solve_batch([ot.Position()], threads=0)
    with pytest.raises(ValueError, match="weights"):
        ot.PatternEval("/nonexistent/weights.bin")
