"""Random play (`Rng`, `Position.random_move`/`play_random`, `Board`, `random_games`) against the
slow reference: every move legal, passes only when forced, games ending exactly when neither side
can move, the same games for the same seed through every call."""

import numpy as np
import pytest

import othello_toolkit as ot
from reference import flips, legal_moves

START = (1 << 28) | (1 << 35), (1 << 27) | (1 << 36)


def reference_final(player, opponent, squares=64):
    """The final score from `player`'s side: the disc difference, empties to the winner."""
    mine, theirs = bin(player).count("1"), bin(opponent).count("1")
    empties = squares - mine - theirs
    diff = mine - theirs
    return diff + empties if diff > 0 else diff - empties if diff < 0 else 0


def replay(start, moves, n=8):
    """Replays a game's move indices with the reference: asserts each move is legal (a pass only
    when forced) and that the game ends exactly after the last; returns the positions before
    each move and the final one, side-relative, and the final score from the start's side."""
    p, o = start
    seen = [(p, o)]
    for m in moves:
        mine = legal_moves(p, o, n)
        if m == 64:
            assert mine == 0 and legal_moves(o, p, n) != 0, "a pass that was not forced"
            p, o = o, p
        else:
            assert mine >> m & 1, f"illegal move {m}"
            f = flips(p, o, m, n)
            p, o = o ^ f, p | f | (1 << m)
        seen.append((p, o))
    assert legal_moves(p, o, n) == 0 and legal_moves(o, p, n) == 0, "the game did not end"
    score = reference_final(p, o, n * n)
    return seen, score if len(moves) % 2 == 0 else -score


def test_random_games_are_legal_complete_games_with_right_scores():
    moves, lengths, scores, boards = ot.random_games(60, seed=11, positions=True)
    longest = int(lengths.max())
    assert moves.shape == (60, longest) and moves.dtype == np.uint8
    assert lengths.dtype == np.int32 and scores.dtype == np.int32
    assert boards.shape == (60, longest + 1, 2) and boards.dtype == np.uint64
    passes = 0
    for g in range(60):
        n = int(lengths[g])
        game = moves[g, :n].tolist()
        assert (moves[g, n:] == 255).all() and (boards[g, n + 1:] == 0).all()
        seen, score = replay(START, game)
        assert [tuple(r) for r in boards[g, : n + 1].tolist()] == seen
        assert scores[g] == score
        passes += game.count(64)
    # Sixty games hold a forced pass or more (seed 11 gives some), so passes were exercised.
    assert passes > 0
    assert (lengths >= 58).all() and len(set(scores.tolist())) > 5


def test_the_same_seed_gives_the_same_games_through_every_call():
    moves, lengths, scores = ot.random_games(20, seed=5)
    again = ot.random_games(20, seed=5)
    assert (again[0] == moves).all() and (again[1] == lengths).all() and (again[2] == scores).all()
    other = ot.random_games(20, seed=6)
    assert not (other[0][:, :10] == moves[:, :10]).all()
    # Board.play_random with Rng(seed), game after game.
    rng = ot.Rng(5)
    for g in range(20):
        b = ot.Board()
        played = []
        while (m := b.play_random(rng)) is not None:
            played.append(m)
        assert played == moves[g, : lengths[g]].tolist()
        assert b.is_game_over() and b.position.final_score() * (1 if len(played) % 2 == 0 else -1) == scores[g]
    # Position.play_random and random_move + play draw the same moves from the same stream.
    rng_a, rng_b = ot.Rng(5), ot.Rng(5)
    for g in range(20):
        a = b = ot.Position()
        played = []
        while not a.is_game_over():
            m = b.random_move(rng_b)
            played.append(m)
            a, b = a.play_random(rng_a), b.play(m)
            assert a == b
        assert played == moves[g, : lengths[g]].tolist()


def test_random_moves_are_uniform_and_cover_every_legal_move():
    rng = ot.Rng(1)
    p = ot.Position.from_moves("f5d6c3")
    legal = p.move_indices()
    draws = [p.random_move(rng) for _ in range(4000)]
    counts = {m: draws.count(m) for m in legal}
    assert set(draws) == set(legal)
    expected = 4000 / len(legal)
    assert all(abs(c - expected) < 0.2 * expected for c in counts.values()), counts
    assert all(0 <= rng.below(7) < 7 for _ in range(100))
    assert {rng.below(3) for _ in range(100)} == {0, 1, 2}


def test_forced_passes_and_finished_games():
    # White to move with no square while black has one: a forced pass.
    forced = ot.Position("X" * 61 + "OO- O")
    assert forced.must_pass()
    rng = ot.Rng(0)
    assert forced.random_move(rng) == 64
    assert forced.play_random(rng) == forced.pass_turn()
    b = ot.Board(forced)
    assert b.play_random(rng) == 64 and b.position == forced.pass_turn()
    over = ot.Position("X" * 64 + " O")
    assert over.is_game_over()
    with pytest.raises(ValueError, match="the game is over"):
        over.random_move(rng)
    with pytest.raises(ValueError, match="the game is over"):
        over.play_random(rng)
    b = ot.Board(over)
    assert b.play_random(rng) is None and b.position == over
    moves, lengths, scores = ot.random_games(3, start=over)
    assert moves.shape == (3, 0) and lengths.tolist() == [0, 0, 0]
    assert scores.tolist() == [over.final_score()] * 3
    assert ot.random_games(0)[0].shape == (0, 0)


def test_random_games_from_another_start_and_size():
    # White to move: the scores are from white's side, the start's side to move.
    start = ot.Position.from_moves("f5")
    moves, lengths, scores, boards = ot.random_games(10, seed=2, start=start, positions=True)
    for g in range(10):
        _, score = replay((start.player, start.opponent), moves[g, : lengths[g]].tolist())
        assert scores[g] == score
    six = ot.Position.start(6)
    moves, lengths, scores = ot.random_games(10, seed=3, start=six)
    for g in range(10):
        _, score = replay((six.player, six.opponent), moves[g, : lengths[g]].tolist(), n=6)
        assert scores[g] == score
    assert (lengths <= 2 * 32 + 1).all()


def test_board_play_and_errors():
    b = ot.Board()
    b.play("f5")
    b.play(43)
    assert b.position == ot.Position.from_moves("f5d6")
    assert b.legal_moves == b.position.legal_moves
    assert b.move_indices() == b.position.move_indices()
    with pytest.raises(ValueError, match="illegal"):
        b.play("a1")
    assert b.position == ot.Position.from_moves("f5d6")
    assert repr(b) == f"Board('{b.position}')"
    with pytest.raises(ValueError, match="bad bound 0"):
        ot.Rng(1).below(0)
    with pytest.raises(OverflowError):
        ot.Rng(-1)
    with pytest.raises(TypeError):
        ot.Position().play_random(3)
