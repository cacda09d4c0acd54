//! Selective search (multi-ProbCut and late-move reductions): with an infinite confidence it
//! is the full-width search exactly (values and nodes), it cuts with a real one, exact solves
//! stay exact, the caller's position is untouched and single-threaded results are
//! deterministic; the reductions change nothing where the search is full-width.

use othello_eval::{CutModel, CutTable, Evaluator, WeightedEval};
use othello_rules::random::play_random;
use othello_rules::{BoardSize, Position};
use othello_search::reference::{Horizon, negamax_with};
use othello_search::{Algorithm, Limits, SearchConfig, SearchResult, Searcher, Selectivity, probcut};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// The hand features with a cut table (an evaluation that supports selective search).
struct WithCuts(WeightedEval, CutTable);

impl Evaluator for WithCuts {
    fn evaluate(&self, pos: &Position) -> i32 {
        self.0.evaluate(pos)
    }
    fn cut_table(&self) -> Option<&CutTable> {
        Some(&self.1)
    }
}

/// Every usual pair (and the multi-ProbCut ones) up to depth 10, with a slope a little off 1,
/// an intercept and sigma 150 centi-discs (different in the two phases), so that the bound
/// arithmetic is exercised away from the identity.
fn eval() -> WithCuts {
    let models = vec![
        CutModel {
            a: 1000,
            b: 20,
            sigma: 150,
            samples: 0,
        },
        CutModel {
            a: 1100,
            b: -30,
            sigma: 250,
            samples: 0,
        },
    ];
    let pairs = probcut::default_pairs(10, true)
        .into_iter()
        .map(|(d, s)| (d as u8, s as u8, models.clone()))
        .collect();
    WithCuts(WeightedEval::default(), CutTable::new(2, pairs).unwrap())
}

fn positions(count: usize, seed: u64) -> Vec<Position> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let plies = rng.random_range(4..44);
        let pos = play_random(&Position::start(), plies, &mut rng);
        if !pos.is_game_over() {
            out.push(pos);
        }
    }
    out
}

fn search(eval: &WithCuts, config: SearchConfig, pos: &Position, depth: u32) -> SearchResult {
    Searcher::new(eval, config.with_endgame_empties(0)).search(pos, &Limits::depth(depth), |_| {})
}

fn key(r: &SearchResult) -> (othello_rules::Move, i32, u64, Vec<othello_rules::Move>, bool) {
    (r.best_move, r.score, r.nodes, r.pv.clone(), r.exact)
}

/// With an infinite confidence no shallow search is ever tried and no cut taken: the values,
/// moves, PVs and node counts are the full-width search's, for PVS and alpha-beta, with and
/// without quiescence. A sign or rounding error in the bounds would cut (or search) somewhere.
#[test]
fn infinite_confidence_is_the_full_width_search() {
    let e = eval();
    for (i, pos) in positions(24, 1).iter().enumerate() {
        let algorithm = if i % 3 == 0 {
            Algorithm::AlphaBeta
        } else {
            Algorithm::Pvs
        };
        // Late-move reductions are part of a selective search whatever its confidence: off
        // here, where the question is the cut bounds (they have tests of their own below).
        let base = SearchConfig::default()
            .with_algorithm(algorithm)
            .with_quiescence(i % 2 == 0)
            .with_reductions(false);
        let depth = 5 + i as u32 % 4;
        let off = search(&e, base.clone().with_selectivity(Selectivity::Off), pos, depth);
        let inf = search(&e, base.with_selectivity(Selectivity::Confidence(u32::MAX)), pos, depth);
        assert_eq!(key(&inf), key(&off), "{pos} depth {depth}");
        assert_eq!(inf.stats.probcut_tries, 0);
        assert_eq!(off.selectivity, Selectivity::Off);
        let deep_enough = depth < pos.empty_count();
        assert_eq!(
            inf.selectivity,
            if deep_enough {
                Selectivity::Confidence(u32::MAX)
            } else {
                Selectivity::Off
            }
        );
    }
}

/// A real confidence tries shallow searches and cuts, searches fewer nodes over the set, and
/// stays near the full-width value; it reports its level in the result and every iteration.
#[test]
fn a_level_cuts_and_reports_itself() {
    let e = eval();
    let (mut off_nodes, mut sel_nodes, mut cuts, mut differ) = (0, 0, 0, 0);
    for pos in positions(16, 2) {
        let depth = 8.min(pos.empty_count() - 1);
        let off = search(
            &e,
            SearchConfig::default().with_selectivity(Selectivity::Off),
            &pos,
            depth,
        );
        let mut levels = Vec::new();
        let sel = Searcher::new(
            &e,
            SearchConfig::default()
                .with_endgame_empties(0)
                .with_selectivity(Selectivity::Level(1)),
        )
        .search(&pos, &Limits::depth(depth), |it| levels.push(it.selectivity));
        assert!(pos.is_legal(sel.best_move));
        assert_eq!(sel.selectivity, Selectivity::Level(1));
        // Every iteration ran to depth 6, then every second depth (`skip_depths`).
        let iterations = if depth <= 6 { depth } else { 6 + (depth - 5) / 2 };
        assert!(levels.iter().all(|&l| l == Selectivity::Level(1)) && levels.len() == iterations as usize);
        off_nodes += off.nodes;
        sel_nodes += sel.nodes;
        cuts += sel.stats.probcuts;
        differ += u32::from(sel.score != off.score);
        assert!(sel.stats.probcuts <= sel.stats.probcut_tries);
    }
    assert!(cuts > 0, "no cut taken");
    assert!(sel_nodes < off_nodes, "{sel_nodes} vs {off_nodes}");
    assert!(differ > 0 || cuts > 0);
}

/// Searches that reach the end of the game are exact at every level: no cut is tried at a
/// node whose depth reaches every end, so the value is the full-width solve's.
#[test]
fn exact_solves_stay_exact() {
    let e = eval();
    for pos in positions(40, 3).into_iter().filter(|p| p.empty_count() <= 11).take(8) {
        let depth = pos.empty_count();
        let off = search(
            &e,
            SearchConfig::default().with_selectivity(Selectivity::Off),
            &pos,
            depth,
        );
        let sel = search(
            &e,
            SearchConfig::default().with_selectivity(Selectivity::Level(0)),
            &pos,
            depth,
        );
        assert!(off.exact && sel.exact);
        assert_eq!(sel.stats.probcut_tries, 0);
        assert_eq!((sel.score, sel.best_move), (off.score, off.best_move), "{pos}");
        assert_eq!(sel.selectivity, Selectivity::Off, "an exact result is full-width");
    }
}

/// The caller's position is unchanged, and two single-threaded selective searches (fresh, or
/// after `new_game`) give the same move, score, PV and node count.
#[test]
fn selective_search_is_deterministic_and_keeps_the_position() {
    let e = eval();
    let config = SearchConfig::default().with_selectivity(Selectivity::Level(0));
    let mut again = Searcher::new(&e, config.clone().with_endgame_empties(0));
    for pos in positions(8, 4) {
        let copy = pos;
        let a = search(&e, config.clone(), &pos, 8);
        let b = search(&e, config.clone(), &pos, 8);
        again.new_game();
        let c = again.search(&pos, &Limits::depth(8), |_| {});
        assert_eq!(pos, copy);
        assert_eq!(key(&a), key(&b));
        assert_eq!(key(&a), key(&c));
    }
}

/// Without a cut table (hand features), on 6x6, and with the reference algorithms, every level
/// searches full-width and reports `Off`.
#[test]
fn no_cut_table_means_full_width() {
    let pos = positions(1, 5)[0];
    let sel = SearchConfig::default()
        .with_selectivity(Selectivity::Level(0))
        .with_endgame_empties(0);
    let off = SearchConfig::default()
        .with_selectivity(Selectivity::Off)
        .with_endgame_empties(0);
    let hand = WeightedEval::default();
    let a = Searcher::new(&hand, sel.clone()).search(&pos, &Limits::depth(6), |_| {});
    let b = Searcher::new(&hand, off.clone()).search(&pos, &Limits::depth(6), |_| {});
    assert_eq!(key(&a), key(&b));
    assert_eq!(a.selectivity, Selectivity::Off);
    let six = Position::start_of(BoardSize::Six);
    let e = eval();
    let a = Searcher::new(&e, sel.clone()).search(&six, &Limits::depth(7), |_| {});
    let b = Searcher::new(&e, off).search(&six, &Limits::depth(7), |_| {});
    assert_eq!(key(&a), key(&b));
    assert_eq!(a.selectivity, Selectivity::Off);
    let m = Searcher::new(&e, sel.with_algorithm(Algorithm::Negamax)).search(&pos, &Limits::depth(4), |_| {});
    assert_eq!(m.selectivity, Selectivity::Off);
}

/// A searcher switched from a level to full width clears its table (and the table's depth
/// byte marks selective entries anyway): the full-width search then returns the full-width
/// value, never a selective one.
#[test]
fn a_selective_table_never_serves_a_full_width_search() {
    let e = eval();
    let mut s = Searcher::new(
        &e,
        SearchConfig::default()
            .with_endgame_empties(0)
            .with_selectivity(Selectivity::Level(0)),
    );
    for pos in positions(10, 6) {
        let depth = 8.min(pos.empty_count() - 1);
        s.config_mut().selectivity = Selectivity::Level(0);
        let _ = s.search(&pos, &Limits::depth(depth), |_| {});
        s.config_mut().selectivity = Selectivity::Off;
        let full = s.search(&pos, &Limits::depth(depth), |_| {});
        let fresh = search(
            &e,
            SearchConfig::default().with_selectivity(Selectivity::Off),
            &pos,
            depth,
        );
        assert_eq!((full.score, full.best_move), (fresh.score, fresh.best_move), "{pos}");
    }
}

/// `collect` keeps every depth's full-width value (equal to a fresh search at that depth) and
/// `fit` fits a table on them that the search accepts.
#[test]
fn collect_and_fit() {
    let hand = WeightedEval::default();
    let pos = positions(6, 7);
    let config = SearchConfig::default().with_quiescence(true);
    let samples = probcut::collect(&hand, &pos, 6, &config, |_| {});
    assert_eq!(samples.len(), pos.len());
    for (s, p) in samples.iter().zip(&pos) {
        assert_eq!(s.empties, p.empty_count());
        assert_eq!(s.values.len() as u32, 6.min(p.empty_count() - 1));
        for d in [1, 4, 6] {
            if let Some(v) = s.value(d) {
                let r =
                    Searcher::new(&hand, config.clone().with_endgame_empties(0)).search(p, &Limits::depth(d), |_| {});
                assert_eq!(v, r.score, "{p} depth {d}");
            }
        }
    }
    // The horizon's value (depth 0) with the configuration's horizon rule: quiescence here,
    // the evaluation alone without it (the two differ where a corner can be taken).
    let more = positions(60, 8);
    let quiet = probcut::collect(&hand, &more, 1, &config, |_| {});
    let plain = probcut::collect(&hand, &more, 1, &config.clone().with_quiescence(false), |_| {});
    assert_eq!((quiet.len(), plain.len()), (60, 60));
    let mut differ = 0;
    for ((s, t), p) in quiet.iter().zip(&plain).zip(&more) {
        assert_eq!(s.value(0), Some(negamax_with(p, 0, &hand, Horizon::Quiescence)), "{p}");
        assert_eq!(t.value(0), Some(negamax_with(p, 0, &hand, Horizon::Static)), "{p}");
        differ += usize::from(s.value(0) != t.value(0));
    }
    assert!(differ > 0);
    let table = probcut::fit(&samples, &probcut::default_pairs(6, false), 2, 4).unwrap();
    assert_eq!(
        table.pairs().map(|(d, s, _)| (d, s)).collect::<Vec<_>>(),
        [(3, 1), (4, 2), (5, 3), (6, 2)]
    );
    let horizon = probcut::fit(&samples, &probcut::HORIZON_PAIRS, 2, 4).unwrap();
    assert_eq!(
        horizon.pairs().map(|(d, s, _)| (d, s)).collect::<Vec<_>>(),
        [(1, 0), (2, 0)]
    );
    assert!(
        table
            .pairs()
            .all(|(_, _, m)| m.iter().all(|m| m.samples >= 4 && m.a > 0))
    );
}

/// Full-width plies (`@N`): a pair is tried only where `ply + shallow >= N`. Every shallow
/// depth is at least 1 and every non-root node at least at ply 1, so `@1` and `@2` are the
/// level itself (values, moves and node counts); `@3` leaves out the pairs of shallow depth 1
/// at the root's children, so it tries other shallow searches somewhere (not always fewer:
/// a node not cut searches its subtree, with its own tries); with `N` beyond every node's
/// `ply + shallow` no cut is tried and the search is the full-width one exactly. Each reports
/// its selectivity.
#[test]
fn full_width_plies_keep_the_first_plies_uncut() {
    let e = eval();
    let (mut differs_at_3, mut differs_at_6) = (0, 0);
    for (i, pos) in positions(16, 5).iter().enumerate() {
        let depth = (4 + i as u32 % 4).min(pos.empty_count() - 1);
        let run = |s: Selectivity| search(&e, SearchConfig::default().with_selectivity(s), pos, depth);
        let level = run(Selectivity::Level(1));
        for n in [1, 2] {
            let r = run(Selectivity::LevelFrom(1, n));
            assert_eq!(key(&r), key(&level), "{pos} depth {depth} @{n}");
            assert_eq!(r.stats.probcut_tries, level.stats.probcut_tries);
            assert_eq!(r.selectivity, Selectivity::LevelFrom(1, n));
        }
        let three = run(Selectivity::LevelFrom(1, 3));
        differs_at_3 += u32::from(three.stats.probcut_tries != level.stats.probcut_tries);
        let six = run(Selectivity::LevelFrom(1, 6));
        differs_at_6 += u32::from(key(&six) != key(&level));
        // Beyond reach: the full-width search, exactly, at any confidence.
        let off = run(Selectivity::Off);
        for s in [Selectivity::LevelFrom(0, 60), Selectivity::ConfidenceFrom(0, 20)] {
            let r = run(s);
            assert_eq!(key(&r), key(&off), "{pos} depth {depth} {s}");
            assert_eq!(r.stats.probcut_tries, 0);
        }
    }
    assert!(differs_at_3 > 0 && differs_at_6 > 0, "{differs_at_3} {differs_at_6}");
}

/// Level `base` from ply `from` (`@N`), with level `guard` over the first `plies` plies, on
/// one side or both (`Selectivity::Guarded`).
fn guarded(base: u8, from: u8, guard: u8, plies: u8, one_sided: bool) -> Selectivity {
    use othello_search::Confidence;
    Selectivity::Guarded {
        base: Confidence::Level(base),
        from,
        guard: Confidence::Level(guard),
        plies,
        one_sided,
    }
}

/// A guard near the root (`/G:K`) changes only the confidence within its plies: a guard at
/// the base's own confidence is the base exactly (values, moves, node counts and tries, with
/// and without `@N`); a guard that covers every ply is the guard's level everywhere, except
/// for the search's reported selectivity; a stricter guard over the first plies gives
/// another search somewhere. Each reports its selectivity.
#[test]
fn a_guard_changes_the_confidence_within_its_plies() {
    let e = eval();
    let mut differs = 0;
    for (i, pos) in positions(16, 6).iter().enumerate() {
        let depth = (4 + i as u32 % 4).min(pos.empty_count() - 1);
        let run = |s: Selectivity| search(&e, SearchConfig::default().with_selectivity(s), pos, depth);
        let guarded = |base, from, guard, plies| guarded(base, from, guard, plies, false);
        for (plain, from) in [(Selectivity::Level(0), 0), (Selectivity::LevelFrom(0, 3), 3)] {
            let base = run(plain);
            let same = run(guarded(0, from, 0, 3));
            assert_eq!(key(&same), key(&base), "{pos} depth {depth} {plain}");
            assert_eq!(same.stats.probcut_tries, base.stats.probcut_tries);
            assert_eq!(same.selectivity, guarded(0, from, 0, 3));
        }
        let two = run(Selectivity::Level(2));
        let all = run(guarded(0, 0, 2, 60));
        assert_eq!(key(&all), key(&two), "{pos} depth {depth}");
        assert_eq!(all.stats.probcut_tries, two.stats.probcut_tries);
        let first = run(guarded(0, 0, 4, 2));
        differs += u32::from(first.stats.probcut_tries != run(Selectivity::Level(0)).stats.probcut_tries);
    }
    assert!(differs > 0, "{differs}");
}

/// A one-sided guard (`/G:Kr`) at the base's own confidence is the base exactly (values,
/// moves, node counts and tries, with and without `@N`); a stricter one gives a search that
/// differs somewhere from the base and somewhere from the two-sided guard of the same
/// numbers; each reports its selectivity.
#[test]
fn a_one_sided_guard_is_neither_the_base_nor_the_guard() {
    let e = eval();
    let (mut from_base, mut from_guard) = (0, 0);
    for (i, pos) in positions(16, 6).iter().enumerate() {
        let depth = (5 + i as u32 % 4).min(pos.empty_count() - 1);
        let run = |s: Selectivity| search(&e, SearchConfig::default().with_selectivity(s), pos, depth);
        for (plain, from) in [(Selectivity::Level(0), 0), (Selectivity::LevelFrom(0, 3), 3)] {
            let base = run(plain);
            let same = run(guarded(0, from, 0, 4, true));
            assert_eq!(key(&same), key(&base), "{pos} depth {depth} {plain}");
            assert_eq!(same.stats.probcut_tries, base.stats.probcut_tries);
            assert_eq!(same.selectivity, guarded(0, from, 0, 4, true));
        }
        let base = run(Selectivity::Level(0));
        let two = run(guarded(0, 0, 4, 3, false));
        let one = run(guarded(0, 0, 4, 3, true));
        assert_eq!(one.selectivity.to_string(), "0/4:3r");
        from_base += u32::from(key(&one) != key(&base));
        from_guard += u32::from(key(&one) != key(&two));
    }
    assert!(from_base > 0 && from_guard > 0, "{from_base} {from_guard}");
}

/// Late-move reductions belong to selective search: with selectivity off, without a cut table,
/// on 6x6 and in searches that reach the end of the game, a search with them is the one
/// without them exactly (values, moves, PVs and node counts), and none is counted.
#[test]
fn reductions_change_nothing_where_the_search_is_full_width() {
    let e = eval();
    let hand = WeightedEval::default();
    for (i, pos) in positions(12, 8).iter().enumerate() {
        let depth = 5 + i as u32 % 3;
        let on = SearchConfig::default().with_reductions(true);
        let off = SearchConfig::default().with_reductions(false);
        let full = |c: &SearchConfig| c.clone().with_selectivity(Selectivity::Off);
        let a = search(&e, full(&on), pos, depth);
        assert_eq!(key(&a), key(&search(&e, full(&off), pos, depth)), "{pos}");
        assert_eq!(a.stats.reductions, 0);
        let level = |c: &SearchConfig| {
            c.clone()
                .with_selectivity(Selectivity::Level(0))
                .with_endgame_empties(0)
        };
        let b = Searcher::new(&hand, level(&on)).search(pos, &Limits::depth(depth), |_| {});
        let c = Searcher::new(&hand, level(&off)).search(pos, &Limits::depth(depth), |_| {});
        assert_eq!(key(&b), key(&c), "{pos}");
        assert_eq!(b.stats.reductions, 0);
    }
    for pos in positions(40, 9).into_iter().filter(|p| p.empty_count() <= 11).take(6) {
        let depth = pos.empty_count();
        let level = SearchConfig::default().with_selectivity(Selectivity::Level(0));
        let a = search(&e, level.clone().with_reductions(true), &pos, depth);
        let b = search(&e, level.with_reductions(false), &pos, depth);
        assert!(a.exact);
        assert_eq!(key(&a), key(&b), "{pos}");
        assert_eq!(a.stats.reductions, 0);
    }
    let six = Position::start_of(BoardSize::Six);
    let level = SearchConfig::default().with_selectivity(Selectivity::Level(0));
    let a = search(&e, level.clone().with_reductions(true), &six, 7);
    assert_eq!(key(&a), key(&search(&e, level.with_reductions(false), &six, 7)));
    assert_eq!(a.stats.reductions, 0);
}

/// At a level, the reductions reduce late moves, search some of them again, and search fewer
/// nodes over the set than the same level without them; a searcher switched between the two
/// clears its table, so each search equals a fresh searcher's.
#[test]
fn reductions_reduce_and_a_switch_clears_the_table() {
    let e = eval();
    // No killers or history, which a searcher carries from one search to the next: the
    // switched searcher then differs from a fresh one only by what its table holds.
    let level = SearchConfig::default()
        .with_selectivity(Selectivity::Level(1))
        .with_endgame_empties(0)
        .with_killers(false)
        .with_history(false);
    let (mut with, mut without, mut reduced, mut again) = (0, 0, 0, 0);
    let mut switched = Searcher::new(&e, level.clone());
    for (i, pos) in positions(16, 10).iter().enumerate() {
        let depth = 8.min(pos.empty_count() - 1);
        let a = search(&e, level.clone().with_reductions(true), pos, depth);
        let b = search(&e, level.clone().with_reductions(false), pos, depth);
        assert!(pos.is_legal(a.best_move));
        assert_eq!(b.stats.reductions, 0);
        assert!(a.stats.reduction_researches <= a.stats.reductions);
        with += a.nodes;
        without += b.nodes;
        reduced += a.stats.reductions;
        again += a.stats.reduction_researches;
        // The switched searcher's table holds the other setting's entries of this position.
        let (first, second, want) = if i % 2 == 0 {
            (false, true, &a)
        } else {
            (true, false, &b)
        };
        switched.config_mut().reductions = first;
        switched.search(pos, &Limits::depth(depth), |_| {});
        switched.config_mut().reductions = second;
        let got = switched.search(pos, &Limits::depth(depth), |_| {});
        assert_eq!(
            (got.best_move, got.score, got.pv.clone()),
            (want.best_move, want.score, want.pv.clone()),
            "{pos}"
        );
    }
    assert!(again > 0 && reduced > again, "{reduced} {again}");
    assert!(with < without, "{with} vs {without}");
}
