import os

import pytest

import othello_toolkit as ot
from conftest import DATA


def ffo(n):
    files = {range(1, 20): "fforum-1-19.obf", range(20, 40): "fforum-20-39.obf"}
    for numbers, name in files.items():
        if n in numbers:
            with open(os.path.join(DATA, name)) as f:
                lines = [l for l in f if l.strip() and not l.startswith("%")]
            return ot.parse_obf(lines[n - numbers.start])
    raise KeyError(n)


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
def test_ffo_scores_and_best_moves(n):
    pos, scores = ffo(n)
    best = max(s for _, s in scores)
    solution = ot.solve(pos)
    assert solution.score == best
    assert (solution.best_move, best) in scores
    assert solution.pv[0] == solution.best_move and solution.nodes > 0
    # Playing the principal variation ends the game with the solved score.
    end = pos
    for mv in solution.pv:
        end = end.play(mv)
    assert end.is_game_over()
    sign = 1 if len(solution.pv) % 2 == 0 else -1
    assert sign * end.final_score() == solution.score
    wld = ot.solve(pos, mode="wld").score
    assert wld == (best > 0) - (best < 0)


def test_solver_reuse_threads_ordering_and_score_moves():
    pos, scores = ffo(1)
    solver = ot.Solver(tt_mib=8, threads=2, ordering="pattern")
    assert solver.solve(pos).score == 18
    assert solver.solve(pos).score == 18
    listed = solver.score_moves(pos)
    assert sorted(m for m, _ in listed) == sorted(pos.moves())
    assert [s for _, s in listed] == sorted((s for _, s in listed), reverse=True)
    for mv, score in scores:
        assert dict(listed)[mv] == score
    solver.new_game()
    assert solver.solve(pos, mode="wld").score == 1


def test_solve_forced_pass_and_finished_game():
    over = ot.Position.from_discs(0b111, 1 << 63)
    s = ot.solve(over)
    assert (s.best_move, s.score, s.pv) == ("pass", 62, [])
    four = ot.Position.start(4)
    assert ot.solve(four).score == -10
    assert ot.Solver(tt_mib=1).score_moves(over) == []


def test_solve_gives_up_at_its_time_limit():
    assert ot.solve(ot.Position(), time=0.01) is None
    pos, _ = ffo(1)
    assert ot.solve(pos, time=60).score == 18


def test_solver_errors():
    with pytest.raises(ValueError, match="bad solve mode 'fast'"):
        ot.solve(ot.Position(), mode="fast")
    with pytest.raises(ValueError, match="bad thread count 0"):
        ot.Solver(threads=0)
    with pytest.raises(ValueError, match="bad table size"):
        ot.Solver(tt_mib=1 << 40)
    with pytest.raises(ValueError, match="bad ordering"):
        ot.Solver(ordering="mobility")
    with pytest.raises(ValueError, match="bad time -1"):
        ot.solve(ot.Position(), time=-1)
    with pytest.raises(ValueError, match="(?i)bad time nan"):
        ot.solve(ot.Position(), time=float("nan"))


def test_engine_spec_search():
    e = ot.Engine("pvs:depth=6,eval=mobility*10")
    p = ot.Position.from_moves("f5d6")
    r = e.think(p)
    assert p == ot.Position.from_moves("f5d6")
    assert p.is_legal(r.best_move) and r.depth == 6 and r.nodes > 0
    assert r.pv[0] == r.best_move and isinstance(r.score, int)
    assert e.name == "pvs" and e.spec == "pvs:depth=6,eval=mobility*10"
    assert repr(e) == "Engine('pvs:depth=6,eval=mobility*10')"
    # The same question gives the same answer and node count from a fresh engine.
    r2 = ot.Engine("pvs:depth=6,eval=mobility*10").think(p)
    assert (r2.best_move, r2.score, r2.nodes) == (r.best_move, r.score, r.nodes)
    assert e.think(p, depth=3).depth == 3
    multi = ot.Engine("pvs:depth=4").think(p, multi_pv=True)
    assert sorted(m for m, _ in multi.root_moves) == sorted(p.moves())


def test_engine_search_near_the_end_is_the_exact_score():
    pos, scores = ffo(1)
    # 14 empties deep: pvs with depth past the end solves exactly (centi-discs).
    after = pos.play("g8")
    solved = ot.solve(after)
    r = ot.Engine("pvs:depth=30,selectivity=off").think(after)
    assert r.exact and r.score == 100 * solved.score


def test_engine_selectivity_and_pattern_spec():
    r = ot.Engine("pvs:depth=8,selectivity=3,eval=pattern").think(ot.Position())
    assert r.best_move in ot.Position().moves() and r.selectivity != "off"


def test_mcts_through_the_spec():
    e = ot.Engine("mcts:playouts=500,seed=3")
    p = ot.Position()
    r = e.think(p)
    assert r.best_move in p.moves() and r.nodes == 500 and r.playouts is not None
    assert 0.0 <= r.mean_result <= 1.0
    again = ot.Engine("mcts:playouts=500,seed=3").think(p)
    assert again.best_move == r.best_move
    assert e.think(p, nodes=100).nodes == 100
    e.observe(r.best_move)
    e.new_game()
    assert ot.Engine("random:seed=1").think(p).best_move in p.moves()


def test_random_playouts():
    scores = ot.random_playouts(ot.Position(), 200, seed=5)
    assert scores.shape == (200,) and scores.dtype.name == "int32"
    assert all(-64 <= s <= 64 for s in scores) and len(set(scores.tolist())) > 5
    assert (ot.random_playouts(ot.Position(), 200, seed=5) == scores).all()
    over = ot.Position.from_discs(0b111, 1 << 63)
    assert ot.random_playouts(over, 3).tolist() == [62, 62, 62]


@pytest.mark.parametrize(
    "spec, message",
    [
        ("pvs:depth=0", "bad value '0' for key 'depth' of engine 'pvs': expected 1 to 64"),
        ("chess", "unknown engine 'chess'"),
        ("pvs:colour=red", "colour"),
        ("pvs:eval=nonsense", "nonsense"),
    ],
)
def test_bad_specs_raise_the_cli_message(spec, message):
    with pytest.raises(ValueError, match=message):
        ot.Engine(spec)


def test_engine_argument_errors():
    e = ot.Engine("pvs:depth=2")
    with pytest.raises(ValueError, match="bad depth 0"):
        e.think(ot.Position(), depth=0)
    with pytest.raises(ValueError, match="bad node count 0"):
        e.think(ot.Position(), nodes=0)
    with pytest.raises(ValueError, match="bad time 0"):
        e.think(ot.Position(), time=0)
    with pytest.raises(ValueError):
        ot.Engine("pvs:eval=pattern").think(ot.Position.start(6))
