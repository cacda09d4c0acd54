//! The optional ordering evaluation ([`SolverConfig::with_ordering`]): it never changes a
//! score, and without one the solver searches exactly the tree it searched before it existed.

use othello_endgame::{SolveMode, Solver, SolverConfig, Techniques};
use othello_eval::Evaluator;
use othello_pattern::PatternEval;
use othello_rules::Position;
use othello_rules::random::play_random_until;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use std::sync::Arc;

/// A position reached by random play from the start, with `empties` empty squares or the
/// game over first.
fn random_position(rng: &mut SmallRng, empties: u32) -> Position {
    play_random_until(&Position::start(), rng, |p| p.empty_count() <= empties)
}

fn config() -> SolverConfig {
    SolverConfig::default().with_tt_mib(16).with_threads(1)
}

/// Node counts of the solver without an ordering evaluation (64 MiB, one thread, a fresh
/// solver per position, as `othello solve` counts them one position at a time). Updated
/// 2026-11-30 when the shallow layer became 6 empties (from 7), the thread's cache 8-10
/// empties (from 8-12) in 2^15 slots (from 2^16) and the last-square count lazy (fail-soft
/// bounds): docs/endgame.md. On 2026-11-30 too: the root's aspiration windows put
/// the move that reached the last window first (fewer nodes on two of the five). On
/// 2026-12-01: enhanced transposition cut-offs from 11 empties (from 13).
#[test]
fn no_ordering_keeps_the_node_counts() {
    let cases = [
        (
            "-OXXOO--XXXXOOOOXXXOXX--XOXOXXX-XXOOOXOOXXOXOX--XOOX-O--OOOOOOO- X",
            22,
            21_551,
        ),
        (
            "--XXXXXX--XOOOXX--XOXXXXOXXXXXXXXXXOXXXO-XOXX-X--OXXXOXXOOOOO-X- X",
            -12,
            6_499,
        ),
        (
            "---OOO-OOOOXOOOOXOXOXOXOXXOOOOOOXXOOOXOOX--XXOXO-OOOXX-O-X--X-OO X",
            4,
            24_719,
        ),
        (
            "--XXXOX---XXOOX--OXXOOXX-OXOXOX--OXOOXXXOOXOOO-X-OO-OOXXOOOO---X X",
            -2,
            493_687,
        ),
        (
            "------XO--XXXXXXX--XXXX-XXOXXOO-OOOOXO--OOOXXXOX-OOXXXXO-OXXXXXX X",
            4,
            450_770,
        ),
    ];
    let mut got = Vec::new();
    for (text, _, _) in cases {
        let pos: Position = text.parse().unwrap();
        let s = Solver::new(SolverConfig::default()).solve(&pos, SolveMode::Exact);
        got.push((s.score, s.nodes));
    }
    let want: Vec<(i32, u64)> = cases.iter().map(|&(_, s, n)| (s, n)).collect();
    assert_eq!(got, want);
}

/// Scores with a cheap evaluation (disc difference), a misleading one (its opposite) and the
/// pattern evaluation equal those without, on random positions of 10 to 18 empty squares;
/// the evaluations do change the search (the node counts differ somewhere).
#[test]
fn ordering_never_changes_a_score() {
    let pattern = Arc::new(PatternEval::default());
    let evals: [(&str, SolverConfig); 3] = [
        (
            "discs",
            config().with_ordering(|p: &Position| 100 * p.disc_difference()),
        ),
        (
            "anti",
            config().with_ordering(|p: &Position| -100 * p.disc_difference()),
        ),
        ("pattern", {
            let pattern = Arc::clone(&pattern);
            config().with_ordering(move |p: &Position| pattern.evaluate(p))
        }),
    ];
    let mut rng = SmallRng::seed_from_u64(1111);
    let mut plain = Solver::new(config());
    let mut with: Vec<(&str, Solver)> = evals.into_iter().map(|(n, c)| (n, Solver::new(c))).collect();
    let mut differ = [false; 3];
    for i in 0..18 {
        let pos = random_position(&mut rng, 10 + (i % 9));
        plain.new_game();
        let want = plain.solve(&pos, SolveMode::Exact);
        for (k, (name, solver)) in with.iter_mut().enumerate() {
            if *name == "anti" && pos.empty_count() > 15 {
                // A misleading ordering is slow far from the end: keep the test short.
                continue;
            }
            solver.new_game();
            let got = solver.solve(&pos, SolveMode::Exact);
            assert_eq!(
                (got.score, got.best_move),
                (want.score, want.best_move),
                "{name} on {pos}"
            );
            differ[k] |= got.nodes != want.nodes;
            if i % 4 == 0 {
                let wld = solver.solve(&pos, SolveMode::WinLossDraw).score;
                assert_eq!(wld, want.score.signum(), "{name} wld on {pos}");
                assert_eq!(
                    solver.solve_window(&pos, -1, 1).clamp(-1, 1),
                    want.score.signum().clamp(-1, 1)
                );
            }
        }
    }
    assert_eq!(differ, [true; 3], "each evaluation changes the search");
}

/// The setters: equal configurations share the same evaluation object.
#[test]
fn config_equality_follows_the_evaluation_object() {
    let a = config().with_ordering(|p: &Position| p.disc_difference());
    assert_eq!(a.clone(), a);
    assert_ne!(a, config());
    assert_ne!(a, config().with_ordering(|p: &Position| p.disc_difference()));
    assert_eq!(a.clone().with_ordering_eval(None), config());
    assert!(format!("{a:?}").contains("OrderingEval"));
}

/// Node counts with a fixed ordering evaluation on FFO #1-#3, #13 and #14 (disc difference
/// plus mobility, not the pattern tables, which are retrained): they move with the ordering
/// searches' depths and weight and the root's evaluation order (FFO #13/#14 have ordering
/// searches below the root; the random 12-empty line has none), and with nothing else. Since
/// 2026-12-01: ordering by the evaluation from 13 empties (0 plies at 13, a weight
/// of 250) and cut-offs by the table from 11 empties.
#[test]
fn ordering_searches_keep_their_node_counts() {
    let eval = |p: &Position| 100 * p.disc_difference() + 30 * (p.moves().len() as i32);
    let cases = [
        (
            "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X",
            18,
            57_903,
        ),
        (
            "-XXXXXX---XOOOO--XOXXOOX-OOOOOOOOOOOXXOOOOOXXOOX--XXOO----XXXXX- X",
            10,
            30_289,
        ),
        (
            "----OX----OOXX---OOOXX-XOOXXOOOOOXXOXXOOOXXXOOOOOXXXXOXO--OOOOOX X",
            2,
            123_126,
        ),
        (
            "--XXXXX--OOOXX---OOOXXXX-OXOXOXXOXXXOXXX--XOXOXX--OXOOO--OOOOO-- X",
            14,
            231_727,
        ),
        (
            "--XXXXX---OOOX---XOOXXXX-OOOOOOOOOOXXXOOOOOXXOOX--XXOO----XXXXX- X",
            18,
            199_471,
        ),
        // 12 empty squares: no ordering search, at the root either.
        (
            "-OXXOO--XXXXOOOOXXXOXX--XOXOXXX-XXOOOXOOXXOXOX--XOOX-O--OOOOOOO- X",
            22,
            21_551,
        ),
    ];
    let mut got = Vec::new();
    for (text, _, _) in cases {
        let pos: Position = text.parse().unwrap();
        let s = Solver::new(SolverConfig::default().with_threads(1).with_ordering(eval)).solve(&pos, SolveMode::Exact);
        got.push((s.score, s.nodes));
    }
    let want: Vec<(i32, u64)> = cases.iter().map(|&(_, s, n)| (s, n)).collect();
    assert_eq!(got, want);
}

/// The selective pre-solve (`Techniques::presolve`, on by default with an ordering
/// evaluation) only picks the exact search's first window: scores and best moves equal those
/// without it on random positions of 18 to 22 empty squares. The biased evaluation (the
/// pattern evaluation plus 20 discs for the side to move) orders the moves as the pattern
/// evaluation does but makes the selective search cut wrongly and disagree with itself: its
/// table entries and guesses must still never reach an exact score.
#[test]
fn presolve_never_changes_a_score() {
    let pattern = Arc::new(PatternEval::default());
    let with = |bias: i32, presolve: bool| {
        let pattern = Arc::clone(&pattern);
        let config = config().with_ordering(move |p: &Position| pattern.evaluate(p) + bias);
        Solver::with_techniques(config, Techniques::default().with_presolve(presolve))
    };
    let mut off = with(0, false);
    let mut on = with(0, true);
    let mut biased = with(2000, true);
    let mut rng = SmallRng::seed_from_u64(7777);
    let (mut fewer, mut differ) = (0, false);
    for i in 0..8 {
        let pos = random_position(&mut rng, 18 + (i % 5));
        let want = off.solve(&pos, SolveMode::Exact);
        let got = on.solve(&pos, SolveMode::Exact);
        assert_eq!((got.score, got.best_move), (want.score, want.best_move), "{pos}");
        fewer += usize::from(got.nodes < want.nodes);
        let bad = biased.solve(&pos, SolveMode::Exact);
        assert_eq!(
            (bad.score, bad.best_move),
            (want.score, want.best_move),
            "biased on {pos}"
        );
        differ |= bad.nodes != got.nodes;
        // The exact search of the same solver afterwards (its table now holds selective entries).
        assert_eq!(
            biased.solve_window(&pos, want.score - 1, want.score + 1),
            want.score,
            "{pos}"
        );
        if i % 5 == 0 {
            let listed = biased.score_moves(&pos, SolveMode::Exact);
            assert_eq!(listed, off.score_moves(&pos, SolveMode::Exact), "{pos}");
        }
    }
    assert!(fewer >= 4, "the pre-solve saves nodes on most positions ({fewer} of 8)");
    assert!(differ, "the bias changes the pre-solve");
}

/// Node counts with the pattern evaluation and the pre-solve on two random positions (one
/// thread, 16 MiB, a fresh solver each): they pin the pre-solve's probable cut-offs (depths,
/// margins, levels). They change with the pattern weights or any change of the search;
/// updated 2026-12-01 when the pre-solve was added, and again the same day when the
/// evaluation's ordering started at 13 empties (0 plies there) with weight 250 and the
/// enhanced transposition cut-offs at 11 empties (both lines fewer nodes), and on 2026-12-02
/// for the refined default weights (fewer nodes: 1 142 604 and 35 599 773 before).
#[test]
fn presolve_keeps_the_node_counts() {
    let pattern = Arc::new(PatternEval::default());
    let mut rng = SmallRng::seed_from_u64(31);
    let mut got = Vec::new();
    for empties in [20, 19] {
        let pos = random_position(&mut rng, empties);
        let pattern = Arc::clone(&pattern);
        let mut solver = Solver::new(config().with_ordering(move |p: &Position| pattern.evaluate(p)));
        let s = solver.solve(&pos, SolveMode::Exact);
        got.push((pos.to_string(), s.score, s.nodes));
    }
    let want: Vec<(String, i32, u64)> = vec![
        (
            "-X-X----OXOX----XXOO-XXXXXOOOOO-XXXXOOO-XXOXOO---OOOXO--O-OOOOO- X".to_string(),
            48,
            1_095_934,
        ),
        (
            "X--XXOO--XOXXXO--OXXOOOO-OOOXX----OOXXOOOOOXXXOO-OOOOOO--XO----- O".to_string(),
            -36,
            32_315_682,
        ),
    ];
    assert_eq!(got, want);
}
