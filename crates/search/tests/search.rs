//! Integration tests of the search crate: every pruning search against the plain references on
//! random positions from seeded random play, plus the rules every search must keep.

use othello_eval::Evaluator;
use othello_rules::hash::hash_pair;
use othello_rules::perft::perft;
use othello_rules::random::play_random;
use othello_rules::{BoardSize, Color, Move, Position, movegen};
use othello_search::ordering::{MovePicker, OrderingHints};
use othello_search::reference::{Horizon, minimax, minimax_with, negamax, negamax_root, negamax_with};
use othello_search::{Algorithm, Limits, SearchConfig, SearchResult, Searcher};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Disc difference x100: many equal values, so it exercises the tie rules.
struct Discs;
impl Evaluator for Discs {
    fn evaluate(&self, pos: &Position) -> i32 {
        pos.disc_difference() * 100
    }
}

/// A pseudo-random value of the side-relative discs: almost no ties, so a pruning mistake
/// shows as a wrong value. Unchanged by a colour swap, like any side-relative evaluation.
struct Noise;
impl Evaluator for Noise {
    fn evaluate(&self, pos: &Position) -> i32 {
        (hash_pair(pos.player().0, pos.opponent().0) % 4001) as i32 - 2000
    }
}

/// Mobility and corners, a plausible heuristic.
struct Mobility;
impl Evaluator for Mobility {
    fn evaluate(&self, pos: &Position) -> i32 {
        let corners = pos.size().corners();
        let c = (pos.player() & corners).count() as i32 - (pos.opponent() & corners).count() as i32;
        (pos.legal_moves().count() as i32 - pos.opponent_moves().count() as i32) * 100 + c * 300
    }
}

/// Positions reached by seeded random play: `count` of them, `plies` random moves each
/// (uniform in the range), passes included, finished games skipped.
fn random_positions(size: BoardSize, count: usize, plies: std::ops::Range<usize>, seed: u64) -> Vec<Position> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let n = rng.random_range(plies.clone());
        let pos = play_random(&Position::start_of(size), n, &mut rng);
        if !pos.is_game_over() {
            out.push(pos);
        }
    }
    out
}

/// Full-width: these tests compare with plain minimax (selective search has its own tests in
/// `selective.rs`).
fn config(algorithm: Algorithm, tt_mib: usize) -> SearchConfig {
    SearchConfig::default()
        .with_selectivity(othello_search::Selectivity::Off)
        .with_algorithm(algorithm)
        .with_tt_mib(tt_mib)
        .with_endgame_empties(0)
}

/// The best move by the tie rule: the highest value, then the lowest square index.
fn best_of(values: &[(Move, i32)]) -> (Move, i32) {
    let mut v = values.to_vec();
    v.sort_by_key(|&(m, s)| (-s, m.to_u8()));
    v[0]
}

/// Replays `pv` from `pos` (every move must be legal) and returns the final position and the
/// number of discs placed.
fn replay(pos: &Position, pv: &[Move]) -> (Position, u32) {
    let mut p = *pos;
    let mut placed = 0;
    for &m in pv {
        p = p.play(m).unwrap_or_else(|e| panic!("PV move {m} illegal: {e}"));
        placed += u32::from(m != Move::Pass);
    }
    (p, placed)
}

#[test]
fn pruning_searches_equal_negamax_and_minimax() {
    let mut positions = random_positions(BoardSize::Eight, 600, 0..50, 1);
    positions.extend(random_positions(BoardSize::Six, 400, 0..28, 2));
    let algorithms = [
        Algorithm::Minimax,
        Algorithm::Negamax,
        Algorithm::AlphaBeta,
        Algorithm::Pvs,
    ];
    let mut noise: Vec<Searcher<Noise>> = algorithms.iter().map(|&a| Searcher::new(Noise, config(a, 0))).collect();
    let mut discs: Vec<Searcher<Discs>> = algorithms.iter().map(|&a| Searcher::new(Discs, config(a, 0))).collect();
    for (i, pos) in positions.iter().enumerate() {
        for depth in 1..=4 {
            let use_discs = i % 3 == 0;
            let values = if use_discs {
                negamax_root(pos, depth, &Discs, Horizon::Static)
            } else {
                negamax_root(pos, depth, &Noise, Horizon::Static)
            };
            let (best, value) = best_of(&values);
            let mm = if use_discs {
                minimax(pos, depth, &Discs)
            } else {
                minimax(pos, depth, &Noise)
            };
            assert_eq!(
                mm,
                value * pos.side_to_move().sign(),
                "minimax vs negamax on {pos} depth {depth}"
            );
            for k in 0..algorithms.len() {
                let r = if use_discs {
                    discs[k].search(pos, &Limits::depth(depth), |_| {})
                } else {
                    noise[k].search(pos, &Limits::depth(depth), |_| {})
                };
                assert_eq!(
                    (r.score, r.best_move),
                    (value, best),
                    "{:?} on {pos} depth {depth}",
                    algorithms[k]
                );
                assert_eq!(r.score_black, r.score * pos.side_to_move().sign());
                assert_eq!(r.depth, depth.min(pos.empty_count()));
                assert_eq!(r.exact, depth >= pos.empty_count());
            }
        }
    }
}

#[test]
fn table_values_equal_tableless_values_at_every_depth() {
    let mut positions = random_positions(BoardSize::Eight, 60, 4..40, 3);
    positions.extend(random_positions(BoardSize::Six, 40, 0..20, 4));
    for algorithm in [Algorithm::AlphaBeta, Algorithm::Pvs] {
        // One table for every position and depth: entries of other searches, of other
        // depths and of other sizes are all around when each search runs.
        let mut with_table = Searcher::new(Noise, config(algorithm, 4));
        let mut without = Searcher::new(Noise, config(algorithm, 0));
        for pos in &positions {
            for depth in [6, 2, 5, 1, 3, 4] {
                let a = with_table.search(pos, &Limits::depth(depth), |_| {});
                let b = without.search(pos, &Limits::depth(depth), |_| {});
                assert_eq!(
                    (a.score, a.best_move),
                    (b.score, b.best_move),
                    "{algorithm:?} {pos} depth {depth}"
                );
                // Nodes of depth 3 and more use the table: from depth 4 on, some must have probed it.
                assert!(depth < 4 || a.stats.tt_probes > 0 || a.nodes < 100);
            }
        }
    }
}

#[test]
fn exact_endgame_values_with_and_without_table() {
    // 10 to 14 empties, solved to the end by the search itself.
    let positions = random_positions(BoardSize::Eight, 12, 46..51, 5);
    let mut with_table = Searcher::new(Mobility, config(Algorithm::Pvs, 16));
    let mut without = Searcher::new(Mobility, config(Algorithm::AlphaBeta, 0));
    for pos in &positions {
        let a = with_table.search(pos, &Limits::default(), |_| {});
        let b = without.search(pos, &Limits::default(), |_| {});
        assert!(a.exact && b.exact);
        assert_eq!(a.depth, pos.empty_count());
        assert_eq!((a.score, a.best_move), (b.score, b.best_move), "{pos}");
        assert_eq!(a.score % 100, 0);
        // The PV of an exact search plays out to the end of the game with its score.
        let (end, _) = replay(pos, &a.pv);
        assert!(end.is_game_over(), "PV {:?} does not reach the end", a.pv);
        assert_eq!(end.final_score_black() * 100, a.score_black);
    }
    // Small endgames also against the plain negamax reference.
    for pos in random_positions(BoardSize::Eight, 6, 52..54, 6) {
        let r = with_table.search(&pos, &Limits::default(), |_| {});
        assert_eq!(r.score, negamax(&pos, 64, &Mobility), "{pos}");
        assert!(r.exact);
    }
}

#[test]
fn colour_swap_keeps_negamax_and_negates_black_minus_white() {
    let mut positions = random_positions(BoardSize::Eight, 150, 0..50, 7);
    positions.extend(random_positions(BoardSize::Six, 100, 0..28, 8));
    let mut searcher = Searcher::new(Mobility, config(Algorithm::Pvs, 1));
    for pos in &positions {
        let swapped = pos.color_swapped();
        for depth in 1..=3 {
            assert_eq!(negamax(pos, depth, &Mobility), negamax(&swapped, depth, &Mobility));
            assert_eq!(minimax(pos, depth, &Mobility), -minimax(&swapped, depth, &Mobility));
            let a = searcher.search(pos, &Limits::depth(depth), |_| {});
            let b = searcher.search(&swapped, &Limits::depth(depth), |_| {});
            assert_eq!((a.score, a.best_move), (b.score, b.best_move));
            assert_eq!(a.score_black, -b.score_black);
            assert_eq!(a.score_black, minimax(pos, depth, &Mobility));
        }
    }
}

#[test]
fn four_by_four_pass_then_wipe_out() {
    // White must pass; black plays a1 and the board is full: 16-0.
    let pos: Position = ".OXXXXXXXXXXXXXX O".parse().unwrap();
    assert!(pos.must_pass());
    for algorithm in [
        Algorithm::Minimax,
        Algorithm::Negamax,
        Algorithm::AlphaBeta,
        Algorithm::Pvs,
    ] {
        for tt in [0, 1] {
            let mut s = Searcher::new(Discs, config(algorithm, tt));
            let r = s.search(&pos, &Limits::depth(1), |_| {});
            assert_eq!(r.best_move, Move::Pass);
            assert_eq!(r.score_black, 1600, "{algorithm:?}");
            assert_eq!(r.score, -1600);
            assert!(r.exact);
            assert_eq!(r.pv, vec![Move::Pass, "a1".parse().unwrap()]);
        }
    }
    assert_eq!(minimax(&pos, 1, &Discs), 1600);
    assert_eq!(negamax(&pos, 1, &Discs), -1600);
    // A full black board: the game is over, black has 16.
    let full: Position = "XXXXXXXXXXXXXXXX O".parse().unwrap();
    let mut s = Searcher::new(Discs, SearchConfig::default());
    let r = s.search(&full, &Limits::depth(3), |_| {});
    assert_eq!(
        (r.best_move, r.score_black, r.score, r.exact),
        (Move::Pass, 1600, -1600, true)
    );
    assert_eq!(minimax(&full, 1, &Discs), 1600);
}

fn signature(r: &SearchResult) -> (Move, i32, u64, Vec<Move>) {
    (r.best_move, r.score, r.nodes, r.pv.clone())
}

#[test]
fn single_thread_search_is_deterministic() {
    let positions = random_positions(BoardSize::Eight, 6, 10..30, 9);
    for pos in &positions {
        let run = || Searcher::new(Mobility, SearchConfig::default()).search(pos, &Limits::depth(7), |_| {});
        let first = run();
        assert_eq!(signature(&first), signature(&run()));
        let mut reused = Searcher::new(Mobility, SearchConfig::default());
        reused.search(&Position::start(), &Limits::depth(6), |_| {});
        reused.new_game();
        assert_eq!(
            signature(&first),
            signature(&reused.search(pos, &Limits::depth(7), |_| {}))
        );
    }
}

/// Perft by the rules crate's convention, iterating the legal squares through a picker with
/// random hints (table moves and killers that are often illegal, random history).
fn picker_perft(p: u64, o: u64, mask: u64, depth: u32, rng: &mut SmallRng) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = movegen::legal_moves(p, o) & mask;
    if moves == 0 {
        if movegen::legal_moves(o, p) & mask == 0 {
            return 1;
        }
        return picker_perft(o, p, mask, depth - 1, rng);
    }
    let mut history = [0u32; 64];
    for h in history.iter_mut() {
        *h = rng.random_range(0..4);
    }
    let ordering = OrderingHints {
        table_move: rng.random_bool(0.7).then(|| rng.random_range(0..64)),
        killers: [
            rng.random_bool(0.7).then(|| rng.random_range(0..64)),
            rng.random_bool(0.5).then(|| rng.random_range(0..64)),
        ],
        history: rng.random_bool(0.5).then_some(&history),
        mobility: rng.random_bool(0.5),
    };
    let mut seen = 0u64;
    let mut n = 0;
    for sq in MovePicker::new(p, o, mask, moves, ordering) {
        let bit = 1u64 << sq;
        assert!(moves & bit != 0, "illegal square {sq}");
        assert!(seen & bit == 0, "square {sq} given twice");
        seen |= bit;
        let f = movegen::flips(p, o, u32::from(sq));
        n += picker_perft(o ^ f, p ^ f ^ bit, mask, depth - 1, rng);
    }
    assert_eq!(seen, moves, "a legal square was never given");
    n
}

/// With mobility ordering alone, the picker gives the moves fewest opponent replies first,
/// the lowest square among equals (the replies counted here through `Position`).
#[test]
fn the_picker_orders_by_fewest_replies() {
    let mut positions = random_positions(BoardSize::Eight, 40, 6..54, 13);
    positions.extend(random_positions(BoardSize::Six, 10, 4..26, 14));
    let mut keyed = 0;
    for pos in &positions {
        let moves = pos.legal_moves();
        let ordering = OrderingHints {
            mobility: true,
            ..OrderingHints::default()
        };
        let got: Vec<u8> =
            MovePicker::new(pos.player().0, pos.opponent().0, pos.size().mask().0, moves.0, ordering).collect();
        let mut want: Vec<(u32, u8)> = moves
            .into_iter()
            .map(|sq| {
                let child = pos.play_unchecked(Move::Place(sq));
                (child.legal_moves().0.count_ones(), sq.index() as u8)
            })
            .collect();
        want.sort_unstable();
        keyed += usize::from(want.windows(2).any(|w| w[0].0 != w[1].0 && w[0].1 > w[1].1));
        assert_eq!(got, want.iter().map(|w| w.1).collect::<Vec<_>>(), "{pos}");
    }
    assert!(
        keyed > 20,
        "the order differs from square order in {keyed} positions only"
    );
}

/// Without keys (no table move, killers, history or mobility), the picker gives the moves by
/// square class (`BoardSize::square_classes`, the static square order), then by square index,
/// on every board size.
#[test]
fn the_picker_orders_by_class_without_keys() {
    let mut positions = random_positions(BoardSize::Eight, 40, 6..54, 15);
    positions.extend(random_positions(BoardSize::Six, 10, 4..26, 16));
    positions.extend(random_positions(BoardSize::Four, 10, 1..8, 17));
    let mut reordered = 0;
    for pos in &positions {
        let moves = pos.legal_moves();
        let got: Vec<u8> = MovePicker::new(
            pos.player().0,
            pos.opponent().0,
            pos.size().mask().0,
            moves.0,
            OrderingHints::default(),
        )
        .collect();
        let classes = pos.size().square_classes();
        let mut want: Vec<(usize, u8)> = moves
            .into_iter()
            .map(|sq| {
                let class = classes.iter().position(|c| c.contains(sq)).expect("a class");
                (class, sq.index() as u8)
            })
            .collect();
        want.sort_unstable();
        reordered += usize::from(want.windows(2).any(|w| w[0].1 > w[1].1));
        assert_eq!(got, want.iter().map(|w| w.1).collect::<Vec<_>>(), "{pos}");
    }
    assert!(
        reordered > 20,
        "the order differs from square order in {reordered} positions only"
    );
    // A mask of no board size: one class, so square order.
    let pos = &positions[0];
    let mask = 0x00ff_ffff_ffff_ff00;
    let moves = pos.legal_moves().0 & mask;
    let got: Vec<u8> =
        MovePicker::new(pos.player().0, pos.opponent().0, mask, moves, OrderingHints::default()).collect();
    let want: Vec<u8> = othello_rules::Bitboard(moves)
        .into_iter()
        .map(|sq| sq.index() as u8)
        .collect();
    assert!(want.len() > 1, "{pos}");
    assert_eq!(got, want, "{pos}");
}

#[test]
fn move_picker_perft_equals_rules_perft() {
    let mut rng = SmallRng::seed_from_u64(10);
    let mut positions = vec![Position::start(), Position::start_of(BoardSize::Six)];
    positions.extend(random_positions(BoardSize::Eight, 8, 10..50, 11));
    positions.extend(random_positions(BoardSize::Six, 6, 4..26, 12));
    for pos in &positions {
        let depth = 4;
        let got = picker_perft(pos.player().0, pos.opponent().0, pos.size().mask().0, depth, &mut rng);
        assert_eq!(got, perft(pos, depth), "{pos}");
    }
    assert_eq!(
        picker_perft(
            Position::start().player().0,
            Position::start().opponent().0,
            u64::MAX,
            6,
            &mut rng
        ),
        8200
    );
}

#[test]
fn quiescence_searches_equal_quiescence_references() {
    // Late positions, where corner moves are common.
    let mut positions = random_positions(BoardSize::Eight, 120, 20..54, 13);
    positions.extend(random_positions(BoardSize::Six, 80, 8..28, 14));
    let algorithms = [
        Algorithm::Minimax,
        Algorithm::Negamax,
        Algorithm::AlphaBeta,
        Algorithm::Pvs,
    ];
    let mut searchers: Vec<Searcher<Noise>> = algorithms
        .iter()
        .flat_map(|&a| [0, 2].map(|tt| Searcher::new(Noise, config(a, tt).with_quiescence(true))))
        .collect();
    let mut extended = 0;
    let mut quiescence_nodes = 0;
    for pos in &positions {
        for depth in 1..=3 {
            let values = negamax_root(pos, depth, &Noise, Horizon::Quiescence);
            let (best, value) = best_of(&values);
            assert_eq!(
                minimax_with(pos, depth, &Noise, Horizon::Quiescence),
                value * pos.side_to_move().sign()
            );
            if value != negamax_with(pos, depth, &Noise, Horizon::Static) {
                extended += 1;
            }
            for s in &mut searchers {
                let r = s.search(pos, &Limits::depth(depth), |_| {});
                assert_eq!((r.score, r.best_move), (value, best), "{:?} {pos} {depth}", s.config());
                assert!(r.stats.quiescence_nodes <= r.nodes);
                quiescence_nodes += r.stats.quiescence_nodes;
            }
        }
    }
    // The experiment must actually change some values, or the test proves nothing.
    assert!(extended > 20, "quiescence changed only {extended} values");
    assert!(quiescence_nodes > 0);
}

#[test]
fn multi_pv_scores_every_root_move() {
    let mut positions = random_positions(BoardSize::Eight, 80, 0..50, 15);
    positions.extend(random_positions(BoardSize::Six, 60, 0..28, 16));
    for algorithm in [Algorithm::Negamax, Algorithm::AlphaBeta, Algorithm::Pvs] {
        let mut s = Searcher::new(Discs, config(algorithm, 1).with_multi_pv(true));
        for pos in &positions {
            for depth in 1..=3 {
                let mut expected = negamax_root(pos, depth, &Discs, Horizon::Static);
                expected.sort_by_key(|&(m, v)| (-v, m.to_u8()));
                let r = s.search(pos, &Limits::depth(depth), |_| {});
                assert_eq!(r.root_moves, expected, "{algorithm:?} {pos} {depth}");
                assert_eq!((r.best_move, r.score), expected[0]);
            }
        }
    }
}

#[test]
fn lazy_smp_returns_the_single_thread_move_and_score() {
    // Two and three threads split the work (busy marks from depth 4 on): the moves searched
    // first differ between runs, the result must not.
    let positions = random_positions(BoardSize::Eight, 16, 8..40, 17);
    let mut one = Searcher::new(Mobility, SearchConfig::default());
    let mut two = Searcher::new(Mobility, SearchConfig::default().with_threads(2));
    let mut three = Searcher::new(Mobility, SearchConfig::default().with_threads(3));
    for (i, pos) in positions.iter().enumerate() {
        let depth = 7 + (i as u32 % 2);
        let a = one.search(pos, &Limits::depth(depth), |_| {});
        for many in [&mut two, &mut three] {
            let b = many.search(pos, &Limits::depth(depth), |_| {});
            assert_eq!(
                (a.score, a.best_move, a.depth),
                (b.score, b.best_move, b.depth),
                "{pos}"
            );
            replay(pos, &b.pv);
        }
    }
}

#[test]
fn iterations_report_in_order_with_legal_honest_pvs() {
    let positions = random_positions(BoardSize::Eight, 20, 0..45, 18);
    for tt in [0, 4] {
        let mut s = Searcher::new(Noise, config(Algorithm::Pvs, tt));
        for pos in &positions {
            let mut its = Vec::new();
            let r = s.search(pos, &Limits::depth(6), |it| its.push(it.clone()));
            let depths: Vec<u32> = its.iter().map(|it| it.depth).collect();
            let expected: Vec<u32> = (1..=6.min(pos.empty_count())).collect();
            assert_eq!(depths, expected);
            let last = its.last().unwrap();
            assert_eq!((last.score, &last.pv, last.exact), (r.score, &r.pv, r.exact));
            assert!(
                its.windows(2)
                    .all(|w| w[0].nodes <= w[1].nodes && w[0].time <= w[1].time)
            );
            assert_eq!(r.pv[0], r.best_move);
            // The PV leads to the position whose value is the score.
            for it in &its {
                let (end, placed) = replay(pos, &it.pv);
                let leaf = if end.is_game_over() {
                    end.final_score() * 100
                } else {
                    assert_eq!(placed, it.depth, "PV {:?} is short", it.pv);
                    Noise.evaluate(&end)
                };
                let sign = if end.side_to_move() == pos.side_to_move() {
                    1
                } else {
                    -1
                };
                assert_eq!(leaf * sign, it.score, "PV {:?} of {pos}", it.pv);
            }
            assert_eq!(r.nodes, r.stats.nodes);
            assert!(r.stats.leaf_evals <= r.nodes);
            assert!(r.stats.first_move_cutoffs <= r.stats.beta_cutoffs);
            assert!(r.stats.tt_hits <= r.stats.tt_probes);
            assert_eq!(r.stats.quiescence_nodes, 0);
        }
    }
}

#[test]
fn skipped_depths_change_the_iterations_and_nodes_not_the_values() {
    // Full width (no cut table): the value of a depth is the same question whichever
    // iterations led to it. With `skip_depths` the iterations from 6 on go by two towards the
    // last depth (the parity of the last depth decides where the step of one falls).
    let positions = random_positions(BoardSize::Eight, 12, 8..30, 27);
    let (mut fewer, mut total) = (0, 0);
    for depth in [7u32, 8, 9] {
        let path: Vec<u32> = (1..=6)
            .chain((6 + depth % 2..=depth).step_by(2).filter(|&d| d > 6))
            .collect();
        for pos in &positions {
            let mut on = Searcher::new(Mobility, config(Algorithm::Pvs, 4));
            let mut off = Searcher::new(Mobility, config(Algorithm::Pvs, 4).with_skip_depths(false));
            let (mut a, mut b) = (Vec::new(), Vec::new());
            let ra = on.search(pos, &Limits::depth(depth), |it| a.push(it.depth));
            let rb = off.search(pos, &Limits::depth(depth), |it| b.push(it.depth));
            assert_eq!(a, path, "{pos} to depth {depth}");
            assert_eq!(b, (1..=depth).collect::<Vec<_>>());
            assert_eq!(
                (ra.best_move, ra.score, ra.depth),
                (rb.best_move, rb.score, rb.depth),
                "{pos}"
            );
            let (pv, placed) = replay(pos, &ra.pv);
            assert!(pv.is_game_over() || placed == depth, "PV {:?} of {pos}", ra.pv);
            if depth == 7 {
                // Nothing skipped: the same search.
                assert_eq!(ra.nodes, rb.nodes);
            } else {
                total += 1;
                fewer += usize::from(ra.nodes < rb.nodes);
            }
        }
    }
    // Skipping an iteration saves its nodes in most searches.
    assert!(fewer * 4 >= total * 3, "{fewer} of {total} searches took fewer nodes");
    assert!(SearchConfig::default().skip_depths);
}

#[test]
fn limits_always_return_a_legal_move() {
    let positions = random_positions(BoardSize::Eight, 10, 0..40, 19);
    let mut s = Searcher::new(Mobility, SearchConfig::default());
    for pos in &positions {
        let before = *pos;
        let r = s.search(
            pos,
            &Limits::time(Duration::from_millis(20), Duration::from_millis(40)),
            |_| {},
        );
        assert!(pos.is_legal(r.best_move) && r.depth >= 1);
        let r = s.search(pos, &Limits::nodes(500), |_| {});
        assert!(pos.is_legal(r.best_move) && r.depth >= 1);
        let stop = Arc::new(AtomicBool::new(true));
        let limits = Limits::default().with_stop(stop);
        let r = s.search(pos, &limits, |_| {});
        assert!(pos.is_legal(r.best_move));
        assert_eq!(r.depth, 1, "a stopped search still completes its first iteration");
        assert_eq!(*pos, before, "the caller's position changed");
    }
    // A timed search of a long game returns about on time (loose bound: the machine is shared).
    let start = Instant::now();
    let r = s.search(
        &Position::start(),
        &Limits::time(Duration::from_millis(100), Duration::from_millis(200)),
        |_| {},
    );
    assert!(start.elapsed() < Duration::from_secs(5));
    assert!(Position::start().is_legal(r.best_move));
}

#[test]
fn forced_moves_under_a_clock_return_at_once_but_keep_their_score_otherwise() {
    let mut rng = SmallRng::seed_from_u64(20);
    let mut single = None;
    let mut pass = None;
    while single.is_none() || pass.is_none() {
        let pos = random_positions(BoardSize::Eight, 1, 20..58, rng.random()).remove(0);
        match pos.moves().as_slice() {
            [Move::Pass] => pass = Some(pos),
            [_] => single = Some(pos),
            _ => {}
        }
    }
    let mut s = Searcher::new(Mobility, SearchConfig::default());
    let clock = Limits::time(Duration::from_secs(30), Duration::from_secs(60));
    for pos in [single.unwrap(), pass.unwrap()] {
        let only = pos.moves()[0];
        let r = s.search(&pos, &clock, |_| {});
        assert_eq!((r.best_move, r.depth), (only, 1), "{pos}");
        assert_eq!(r.score, negamax(&pos, 1, &Mobility));
        // With a depth limit the forced move is still searched to that depth.
        let r = s.search(&pos, &Limits::depth(4), |_| {});
        assert_eq!(r.best_move, only);
        assert_eq!(r.depth, 4.min(pos.empty_count()));
        assert_eq!(r.score, negamax(&pos, 4, &Mobility));
    }
}

#[test]
fn depth_zero_is_depth_one_and_game_over_is_a_pass() {
    let pos = Position::start();
    let mut s = Searcher::new(Discs, SearchConfig::default());
    let r = s.search(&pos, &Limits::depth(0), |_| {});
    assert_eq!(r.depth, 1);
    assert_eq!(r.score, negamax(&pos, 1, &Discs));
    // 63 black discs and one empty square: nobody can move, black wins 64-0.
    let over: Position = format!("{}- O", "X".repeat(63)).parse().unwrap();
    assert!(over.is_game_over());
    let r = s.search(&over, &Limits::default(), |_| {});
    assert_eq!(
        (r.best_move, r.score, r.score_black, r.exact),
        (Move::Pass, -6400, 6400, true)
    );
    assert_eq!((r.depth, r.pv.len()), (0, 0));
    assert_eq!(Color::White, over.side_to_move());
}

#[test]
fn endgame_solver_agrees_with_the_search_solving_itself() {
    let positions = random_positions(BoardSize::Eight, 10, 48..52, 21);
    let mut solver_side = Searcher::new(Mobility, SearchConfig::default());
    let mut search_side = Searcher::new(Mobility, config(Algorithm::Pvs, 16));
    let mut multi = Searcher::new(Mobility, SearchConfig::default().with_multi_pv(true));
    let mut multi_search = Searcher::new(Mobility, config(Algorithm::Pvs, 16).with_multi_pv(true));
    for pos in &positions {
        assert!(pos.empty_count() <= SearchConfig::default().endgame_empties);
        let mut reports = 0;
        let a = solver_side.search(pos, &Limits::default(), |it| {
            reports += 1;
            assert!(it.exact);
        });
        let b = search_side.search(pos, &Limits::default(), |_| {});
        assert_eq!(reports, 1);
        assert!(a.exact && b.exact);
        assert_eq!(
            (a.score, a.best_move, a.depth),
            (b.score, b.best_move, b.depth),
            "{pos}"
        );
        let (end, _) = replay(pos, &a.pv);
        assert!(end.is_game_over());
        assert_eq!(end.final_score_black() * 100, a.score_black);
        // Under a (generous) clock the answer is the same.
        let timed = solver_side.search(
            pos,
            &Limits::time(Duration::from_secs(60), Duration::from_secs(60)),
            |_| {},
        );
        if pos.moves().len() > 1 {
            assert_eq!((timed.score, timed.best_move), (a.score, a.best_move));
        }
        // A depth-limited question below the empties is answered by the depth-limited search.
        let shallow = solver_side.search(pos, &Limits::depth(3), |_| {});
        assert_eq!(shallow.score, negamax(pos, 3, &Mobility));
        let m = multi.search(pos, &Limits::default(), |_| {});
        let n = multi_search.search(pos, &Limits::default(), |_| {});
        assert_eq!(m.root_moves, n.root_moves, "{pos}");
        assert_eq!((m.best_move, m.score), n.root_moves[0]);
    }
}

/// A solve that a stop flag (or a clock) may interrupt comes after a short search to depth 6:
/// its iterations are reported first, a finished solve then answers exactly (its nodes include
/// the short search's), and a stop before the solve leaves the short search's answer, not a
/// depth-1 one.
#[test]
fn an_interruptible_solve_comes_after_a_short_search() {
    use std::sync::atomic::{AtomicBool, Ordering};
    let positions = random_positions(BoardSize::Eight, 6, 48..52, 22);
    for pos in &positions {
        let empties = pos.empty_count();
        assert!(empties <= SearchConfig::default().endgame_empties);
        let plain = Searcher::new(Mobility, SearchConfig::default()).search(pos, &Limits::default(), |_| {});
        // A stop flag that is never raised changes nothing: the same solve, the same nodes.
        let flagged = Searcher::new(Mobility, SearchConfig::default()).search(
            pos,
            &Limits::default().with_stop(Arc::new(AtomicBool::new(false))),
            |_| {},
        );
        assert_eq!(
            (flagged.score, flagged.best_move, flagged.exact, flagged.nodes),
            (plain.score, plain.best_move, true, plain.nodes),
            "{pos}"
        );
        // A time limit (an hour: never reached here) makes the solve interruptible.
        let hour = std::time::Duration::from_secs(3600);
        let timed = || Limits::time(hour, hour);
        let stop = Arc::new(AtomicBool::new(false));
        let mut reports = Vec::new();
        let r = Searcher::new(Mobility, SearchConfig::default()).search(pos, &timed().with_stop(stop.clone()), |it| {
            reports.push((it.depth, it.exact, it.nodes))
        });
        assert_eq!(
            (r.score, r.best_move, r.exact, r.depth),
            (plain.score, plain.best_move, true, empties)
        );
        let short: Vec<u32> = reports[..reports.len() - 1].iter().map(|r| r.0).collect();
        assert_eq!(short, (1..=6.min(empties)).collect::<Vec<_>>(), "{pos}");
        assert_eq!(reports.last().map(|r| (r.0, r.1)), Some((empties, true)));
        let short_nodes = reports[reports.len() - 2].2;
        assert_eq!(r.nodes, plain.nodes + short_nodes, "{pos}");
        // Stopped when the short search ends: its answer, not the solver's nor a depth-1 one.
        let stop = Arc::new(AtomicBool::new(false));
        let r = Searcher::new(Mobility, SearchConfig::default()).search(pos, &timed().with_stop(stop.clone()), |it| {
            if it.depth == 6 {
                stop.store(true, Ordering::Relaxed);
            }
        });
        assert_eq!((r.depth, r.exact), (6, false), "{pos}");
        let d6 = Searcher::new(Mobility, SearchConfig::default()).search(pos, &Limits::depth(6), |_| {});
        assert_eq!((r.score, r.best_move), (d6.score, d6.best_move), "{pos}");
    }
}

/// Under a time limit a root with more empties than `endgame_empties` goes to the solver when
/// the solve fits the time left: with an hour, as soon as the deepening has reached depth 6
/// and measured its speed. The answer is the solver's (score, move), reported as one exact
/// iteration after the short ones (which skip every second depth from 6: an hour leaves room
/// for the next-but-one); the iterations between never run. A depth limit below the empties,
/// a node limit or `endgame=0` keep the plain deepening, which reaches the end (through every
/// depth without `skip_depths`).
#[test]
fn a_timed_search_hands_larger_endgames_to_the_solver() {
    use othello_endgame::{SolveMode, Solver, SolverConfig};
    let hour = Duration::from_secs(3600);
    let positions = random_positions(BoardSize::Eight, 6, 44..46, 23);
    for pos in &positions {
        let empties = pos.empty_count();
        if pos.moves().len() < 2 {
            continue;
        }
        assert!(empties > SearchConfig::default().endgame_empties, "{pos}");
        let exact = Solver::new(SolverConfig::default()).solve(pos, SolveMode::Exact);
        let mut reports = Vec::new();
        let r = Searcher::new(Mobility, SearchConfig::default()).search(pos, &Limits::time(hour, hour), |it| {
            reports.push((it.depth, it.exact, it.nodes))
        });
        assert_eq!(
            (r.score, r.best_move, r.exact, r.depth),
            (exact.score * 100, exact.best_move, true, empties),
            "{pos}"
        );
        let (last, short) = reports.split_last().unwrap();
        assert_eq!((last.0, last.1), (empties, true));
        let depths: Vec<u32> = short.iter().map(|r| r.0).collect();
        assert!(
            depths.len() >= 6 && depths.len() + 1 < empties as usize,
            "{pos}: {depths:?}"
        );
        let skipping: Vec<u32> = (1..=6).chain((8..).step_by(2)).take(depths.len()).collect();
        assert_eq!(depths, skipping);
        assert!(short.iter().all(|r| !r.1));
        // With an hour, the solve starts after the first iteration from depth 6 whose search
        // has measured its speed (20 000 nodes, the rule's `MIN_MEASURED_NODES`).
        let measured = |i: usize| short[i].2 >= 20_000;
        let k = short.len();
        assert!(measured(k - 1) && (k == 6 || !measured(k - 2)), "{pos}: {short:?}");
        // The solver's nodes come on top of the short search's.
        assert!(r.nodes > short[k - 1].2);
        // Without the hand-off the deepening goes through every depth to the end.
        let through_every_depth = |config: SearchConfig, limits: Limits| {
            let mut depths = Vec::new();
            let r = Searcher::new(Mobility, config.clone().with_skip_depths(false))
                .search(pos, &limits, |it| depths.push(it.depth));
            assert_eq!(depths, (1..=r.depth).collect::<Vec<_>>(), "{pos}");
            // Skipping depths reaches the same end.
            let skipped = Searcher::new(Mobility, config).search(pos, &limits, |_| {});
            assert_eq!(
                (skipped.score, skipped.exact, skipped.depth),
                (r.score, r.exact, r.depth)
            );
            r
        };
        let off = through_every_depth(
            SearchConfig::default().with_endgame_empties(0),
            Limits::time(hour, hour),
        );
        assert_eq!((off.score, off.exact, off.depth), (r.score, true, empties));
        let shallow = through_every_depth(
            SearchConfig::default(),
            Limits::time(hour, hour).with_depth(empties - 1),
        );
        assert_eq!((shallow.exact, shallow.depth), (false, empties - 1));
        let counted = through_every_depth(SearchConfig::default(), Limits::time(hour, hour).with_nodes(u64::MAX));
        assert_eq!((counted.score, counted.exact, counted.depth), (r.score, true, empties));
    }
}

/// With helper threads a timed search solves as a single-threaded one does: at or below
/// `endgame_empties` after its short search, and beyond it by the hand-off. The main thread's
/// signal that stops its helpers when its deepening ends is not an interruption of the solve
/// (before 2026-12-05 it was, and such a search answered with its depth-6 move).
#[test]
fn a_timed_search_with_helper_threads_still_solves() {
    use othello_endgame::{SolveMode, Solver, SolverConfig};
    let hour = Duration::from_secs(3600);
    let mut positions = random_positions(BoardSize::Eight, 4, 46..51, 33);
    positions.extend(random_positions(BoardSize::Eight, 3, 44..45, 34));
    let solver = || Solver::new(SolverConfig::default());
    for pos in &positions {
        let empties = pos.empty_count();
        if pos.moves().len() < 2 {
            continue;
        }
        let exact = solver().solve(pos, SolveMode::Exact);
        for threads in [2, 3] {
            let config = SearchConfig::default().with_threads(threads);
            let r = Searcher::new(Mobility, config).search(pos, &Limits::time(hour, hour), |_| {});
            assert_eq!(
                (r.score, r.exact, r.depth),
                (exact.score * 100, true, empties),
                "{pos}, {threads} threads"
            );
            // The move is one of the best (the solver's own tie rule is not the search's).
            let after = solver().solve(&pos.play_unchecked(r.best_move), SolveMode::Exact);
            assert_eq!(-after.score, exact.score, "{pos}, {threads} threads");
        }
    }
}

/// The soft bound stops the deepening after an iteration, never before the first: with a soft
/// bound of zero and an hour to the hard bound, one iteration answers, at every number of
/// empties (the solver's hand-off included: it needs depth 6 first).
#[test]
fn a_soft_bound_of_zero_leaves_one_iteration() {
    let hour = Duration::from_secs(3600);
    for pos in random_positions(BoardSize::Eight, 8, 10..46, 26) {
        if pos.moves().len() < 2 {
            continue;
        }
        let r =
            Searcher::new(Mobility, SearchConfig::default()).search(&pos, &Limits::time(Duration::ZERO, hour), |_| {});
        let d1 = Searcher::new(Mobility, SearchConfig::default()).search(&pos, &Limits::depth(1), |_| {});
        assert_eq!((r.depth, r.score, r.best_move), (1, d1.score, d1.best_move), "{pos}");
    }
}

/// The solver a search hands its root to orders by [`SearchConfig::solver_ordering`] on 8x8
/// (other node counts, the same answers) and by its built-in ordering on smaller boards.
#[test]
fn the_solver_ordering_changes_nodes_not_answers() {
    let ordering = othello_search::OrderingEval::new(|p: &Position| Mobility.evaluate(p));
    let ordered = || SearchConfig::default().with_solver_ordering(Some(ordering.clone()));
    let mut differ = 0;
    for pos in random_positions(BoardSize::Eight, 12, 46..49, 24) {
        assert!(pos.empty_count() <= SearchConfig::default().endgame_empties);
        let a = Searcher::new(Mobility, SearchConfig::default()).search(&pos, &Limits::default(), |_| {});
        let b = Searcher::new(Mobility, ordered()).search(&pos, &Limits::default(), |_| {});
        assert_eq!(
            (a.score, a.best_move, a.exact),
            (b.score, b.best_move, b.exact),
            "{pos}"
        );
        differ += usize::from(a.nodes != b.nodes);
    }
    assert!(differ > 0, "the ordering evaluation was not used");
    for pos in random_positions(BoardSize::Six, 12, 18..19, 25) {
        let a = Searcher::new(Mobility, SearchConfig::default()).search(&pos, &Limits::default(), |_| {});
        // After `new_game`, which makes the 8x8 solver ahead of the first move.
        let mut searcher = Searcher::new(Mobility, ordered());
        searcher.new_game();
        let b = searcher.search(&pos, &Limits::default(), |_| {});
        assert_eq!(
            (a.score, a.best_move, a.nodes),
            (b.score, b.best_move, b.nodes),
            "{pos}"
        );
    }
}

#[test]
fn the_searcher_is_a_player_reporting_its_search() {
    use othello_search::Player;
    let pos = Position::start().play("f5".parse().unwrap()).unwrap();
    let mut s = Searcher::new(Mobility, SearchConfig::default());
    let r = s.search(&pos, &Limits::depth(4), |_| {});
    s.new_game();
    let reply = Player::think(&mut s, &pos, &Limits::depth(4));
    assert_eq!(
        (reply.best_move, reply.score, reply.depth, reply.nodes),
        (r.best_move, Some(r.score), 4, r.nodes)
    );
    assert_eq!((reply.exact, reply.pv.clone()), (r.exact, r.pv));
    assert_eq!(s.name(), "pvs");
    // A game clock gives a time limit: a search under it completes at least one iteration.
    let clock = Limits::none().with_clock(othello_search::GameClock::new(
        std::time::Duration::from_millis(200),
        std::time::Duration::ZERO,
    ));
    let reply = s.think(&pos, &clock);
    assert!(pos.is_legal(reply.best_move) && reply.depth >= 1);
    assert!(reply.time < std::time::Duration::from_millis(190), "{:?}", reply.time);
}

#[test]
fn think_with_reports_each_completed_iteration_once_in_increasing_depth() {
    use othello_search::{Iteration, Player, Progress};
    let pos = othello_rules::text::play_sequence(&Position::start(), "f5d6c3").unwrap();
    for algorithm in [Algorithm::Pvs, Algorithm::AlphaBeta, Algorithm::Negamax] {
        let config = SearchConfig::default().with_algorithm(algorithm).with_multi_pv(true);
        let mut iterations: Vec<Iteration> = Vec::new();
        let r =
            Searcher::new(Mobility, config.clone()).search(&pos, &Limits::depth(5), |it| iterations.push(it.clone()));
        let mut seen: Vec<Progress> = Vec::new();
        let reply = Searcher::new(Mobility, config).think_with(&pos, &Limits::depth(5), &mut |p| seen.push(p.clone()));
        assert_eq!(
            seen.iter().map(|p| p.depth).collect::<Vec<_>>(),
            [1, 2, 3, 4, 5],
            "{algorithm:?}"
        );
        for (p, it) in seen.iter().zip(&iterations) {
            assert_eq!(
                (p.depth, p.score, p.exact, p.nodes),
                (it.depth, it.score, it.exact, it.nodes)
            );
            assert_eq!(p.pv, it.pv);
        }
        assert_eq!(seen.len(), iterations.len());
        // The last iteration is the answer; the reply carries the scored root moves.
        let last = seen.last().unwrap();
        assert_eq!(
            (reply.best_move, reply.score, reply.depth),
            (r.best_move, Some(last.score), 5)
        );
        assert_eq!((reply.nodes, last.nodes), (r.nodes, r.nodes));
        assert_eq!(reply.root_moves, r.root_moves);
        assert_eq!(reply.root_moves.len(), pos.moves().len());
        assert_eq!(reply.mcts, None);
    }
}

#[test]
fn the_disc_evaluator_scores_a_three_disc_gain_as_three_hundred() {
    // Every evaluator returns centi-discs: +3 discs after any opening move is +300, and the
    // text form's bare `discs` is the same evaluator.
    let start = Position::start();
    let mut s = Searcher::new(othello_eval::Discs, SearchConfig::default());
    assert_eq!(s.search(&start, &Limits::depth(1), |_| {}).score, 300);
    let bare: othello_eval::WeightedEval = "discs".parse().unwrap();
    let mut s = Searcher::new(bare, SearchConfig::default());
    assert_eq!(s.search(&start, &Limits::depth(1), |_| {}).score, 300);
    // A sure one-disc win (100) now outranks any raw feature count of a leaf.
    let mut s = Searcher::new(othello_eval::Mobility, SearchConfig::default());
    let r = s.search(&start, &Limits::depth(2), |_| {});
    assert_eq!(r.score % 100, 0, "mobility scores whole moves of 100 centi-discs");
}

#[test]
fn one_table_serves_every_board_size_and_any_table_type() {
    use othello_table::LocalTable;
    // A searcher alternating 6x6 and 8x8 positions keeps its table (the size is part of the
    // key): every result equals a fresh searcher's; the LocalTable searcher gives the same
    // move, score and node count as the shared-table one on one thread.
    let mut rng = SmallRng::seed_from_u64(61);
    let mut reused = Searcher::new(Mobility, config(Algorithm::Pvs, 1));
    let mut local: Searcher<Mobility, LocalTable> = Searcher::with_table_type(Mobility, config(Algorithm::Pvs, 1));
    for i in 0..24 {
        let size = [BoardSize::Six, BoardSize::Eight][i % 2];
        let plies = rng.random_range(0..12);
        let pos = play_random(&Position::start_of(size), plies, &mut rng);
        if pos.is_game_over() {
            continue;
        }
        let limits = Limits::depth(4);
        let fresh = Searcher::new(Mobility, config(Algorithm::Pvs, 1)).search(&pos, &limits, |_| {});
        let r = reused.search(&pos, &limits, |_| {});
        assert_eq!(
            (r.best_move, r.score, r.depth),
            (fresh.best_move, fresh.score, fresh.depth),
            "{pos}"
        );
        local.new_game();
        let l = local.search(&pos, &limits, |_| {});
        assert_eq!(
            (l.best_move, l.score, l.nodes),
            (fresh.best_move, fresh.score, fresh.nodes),
            "{pos}"
        );
    }
}

#[test]
fn node_counts_are_reproducible_and_consistent() {
    // Single-threaded: the same search gives the same count on a fresh searcher, after
    // `new_game`, and twice in a row from fresh; the last iteration's count is the result's.
    let positions = random_positions(BoardSize::Eight, 6, 10..30, 91);
    for pos in &positions {
        for limits in [Limits::depth(6), Limits::nodes(5_000)] {
            let run = |s: &mut Searcher<Mobility>| {
                let mut last = 0;
                let r = s.search(pos, &limits, |it| last = it.nodes);
                (r, last)
            };
            let mut a = Searcher::new(Mobility, SearchConfig::default());
            let (first, last) = run(&mut a);
            assert!(first.nodes > 0);
            assert_eq!(first.nodes, first.stats.nodes);
            if limits.nodes.is_none() {
                assert_eq!(last, first.nodes, "{pos}: the last iteration counts every node");
            }
            a.new_game();
            let (again, _) = run(&mut a);
            assert_eq!(
                (again.nodes, again.score, again.best_move),
                (first.nodes, first.score, first.best_move),
                "{pos}: after new_game"
            );
            // The evaluation cache outlives the game: the same evaluations, more of them
            // answered from the cache (with the same values, as the equal results show).
            assert_eq!(again.stats.leaf_evals, first.stats.leaf_evals, "{pos}");
            assert!(first.stats.cached_evals <= first.stats.leaf_evals, "{pos}");
            assert!(again.stats.cached_evals > first.stats.cached_evals, "{pos}");
            let mut b = Searcher::new(Mobility, SearchConfig::default());
            assert_eq!(run(&mut b).0.nodes, first.nodes, "{pos}: a fresh searcher");
        }
    }
    // With helpers, iteration counts include them (flushed) and never exceed the total.
    let mut two = Searcher::new(Mobility, SearchConfig::default().with_threads(2));
    let mut counts = Vec::new();
    let r = two.search(&positions[0], &Limits::depth(8), |it| counts.push(it.nodes));
    assert!(counts.windows(2).all(|w| w[0] <= w[1]));
    assert!(*counts.last().unwrap() <= r.nodes);
    // The solver path counts its nodes, in the multi-PV listing too.
    let end = random_positions(BoardSize::Eight, 8, 48..52, 92);
    let solved: Vec<&Position> = end
        .iter()
        .filter(|p| !p.is_game_over() && p.empty_count() <= 14)
        .collect();
    assert!(!solved.is_empty());
    for pos in solved {
        let mut m = Searcher::new(Mobility, SearchConfig::default().with_multi_pv(true));
        let mut reported = 0;
        let r = m.search(pos, &Limits::none(), |it| reported = it.nodes);
        assert!(r.exact && r.nodes > 0, "{pos}");
        assert_eq!((reported, r.stats.nodes), (r.nodes, r.nodes));
        let mut again = Searcher::new(Mobility, SearchConfig::default().with_multi_pv(true));
        assert_eq!(again.search(pos, &Limits::none(), |_| {}).nodes, r.nodes);
    }
}

#[test]
fn a_local_table_searcher_solves_endgames_on_one_thread() {
    // The searcher's endgame solver has a table of the searcher's type: with the
    // single-thread LocalTable, two configured threads solve on one, so the result and the
    // node count are the default searcher's on one thread (helper threads would add nodes).
    use othello_table::LocalTable;
    let config = SearchConfig::default().with_tt_mib(4);
    let mut local: Searcher<Mobility, LocalTable> = Searcher::with_table_type(Mobility, config.clone().with_threads(2));
    let mut shared = Searcher::new(Mobility, config.with_threads(1));
    for pos in &random_positions(BoardSize::Eight, 6, 48..52, 33) {
        assert!(pos.empty_count() <= SearchConfig::default().endgame_empties);
        let a = local.search(pos, &Limits::default(), |_| {});
        let b = shared.search(pos, &Limits::default(), |_| {});
        assert!(a.exact, "{pos}");
        assert_eq!(signature(&a), signature(&b), "{pos}");
    }
}
