//! The whole pipeline on a tiny budget, through the library functions the subcommands call.

use crate::bootstrap::{self, Store};
use crate::data::{self, Source, key};
use crate::jsonl::OnBad;
use crate::labelling::{self, LabelsConfig, Mode};
use crate::report::errors;
use crate::selfplay::{self, GamesConfig, PlayEval};
use crate::{TrainError, fit_features, fit_pattern};
use ahash::AHashSet;
use othello_pattern::PatternEval;

/// A scratch directory for one test, removed when dropped (also when the test fails).
pub(crate) struct Dir(std::path::PathBuf);

impl Dir {
    pub(crate) fn new(name: &str) -> Dir {
        let d = std::env::temp_dir().join(format!("othello-train-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        Dir(d)
    }

    pub(crate) fn path(&self, n: &str) -> String {
        self.0.join(n).to_string_lossy().into_owned()
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Games, labels (exact, then pv), both fits with the bootstrap, weights file; each step run
/// twice (the second run resumes and must add nothing), a damaged line reported. The fits must
/// predict the held-out labels far better than the zero model, and the pattern fit's written
/// file must score as the fit did.
#[test]
fn end_to_end_on_a_tiny_budget() {
    let dir = Dir::new("e2e");
    let (games_p, labels_p, boot_p, out_p) = (
        dir.path("g.jsonl"),
        dir.path("l.jsonl"),
        dir.path("b.jsonl"),
        dir.path("w.bin"),
    );
    let gc = GamesConfig {
        games: 40,
        seed: 3,
        depth: 1,
        ..GamesConfig::default()
    };
    assert_eq!(selfplay::run(&gc, &games_p, OnBad::Fatal, |_| {}).unwrap(), 40);
    let text = std::fs::read_to_string(&games_p).unwrap();
    // Resume: nothing to do; a game cut in the middle of its line is made again, the same.
    assert_eq!(selfplay::run(&gc, &games_p, OnBad::Fatal, |_| {}).unwrap(), 0);
    std::fs::write(&games_p, &text[..text.len() - 20]).unwrap();
    assert_eq!(selfplay::run(&gc, &games_p, OnBad::Fatal, |_| {}).unwrap(), 1);
    assert_eq!(std::fs::read_to_string(&games_p).unwrap(), text);
    // Another seed in the same file: new games, the same numbers.
    let other = GamesConfig {
        seed: 4,
        games: 2,
        ..gc.clone()
    };
    assert_eq!(selfplay::run(&other, &games_p, OnBad::Fatal, |_| {}).unwrap(), 2);

    let lc = LabelsConfig {
        mode: Mode::Exact,
        min_empties: 1,
        max_empties: 10,
        max_games: Some(6),
        every: 1,
        tt_mib: 1,
        ordering: true,
    };
    let first = labelling::run(&lc, &games_p, &labels_p, OnBad::Fatal, |_| {}).unwrap();
    assert!(first.labels >= 6 * 8);
    let all = LabelsConfig {
        max_games: None,
        ..lc.clone()
    };
    let second = labelling::run(&all, &games_p, &labels_p, OnBad::Fatal, |_| {}).unwrap();
    assert!(second.labels > 0);
    assert_eq!(
        labelling::run(&all, &games_p, &labels_p, OnBad::Fatal, |_| {})
            .unwrap()
            .labels,
        0
    );
    // pv labels of the same games into the same file: only positions not there yet.
    let pv = LabelsConfig {
        mode: Mode::Pv { solve_empties: 14 },
        min_empties: 11,
        max_empties: 14,
        ..all.clone()
    };
    let third = labelling::run(&pv, &games_p, &labels_p, OnBad::Fatal, |_| {}).unwrap();
    assert!(third.labels > 40 && third.solves <= 42);
    // Run again: every game's solved position is in the file, so nothing is solved.
    let fourth = labelling::run(&pv, &games_p, &labels_p, OnBad::Fatal, |_| {}).unwrap();
    assert_eq!((fourth.labels, fourth.solves), (0, 0));
    assert_eq!(fourth.games, third.games);
    let ls = labelling::read(&labels_p, false, OnBad::Fatal).unwrap();
    assert_eq!(ls.len(), first.labels + second.labels + third.labels);
    let keys: AHashSet<_> = ls.iter().map(|l| key(&l.pos)).collect();
    assert_eq!(keys.len(), ls.len(), "no label twice, no twin labelled");
    assert!(
        ls.iter()
            .all(|l| l.source == Source::Exact && l.seed.is_some() && l.game.is_some())
    );
    // Exact labels agree with a full-depth search.
    for l in ls.iter().step_by(40) {
        let mut s = othello_search::Searcher::new(othello_eval::WeightedEval::default(), Default::default());
        let r = s.search(&l.pos, &othello_search::Limits::depth(l.pos.empty_count()), |_| {});
        assert_eq!(r.score, l.centi, "{}", l.pos);
    }
    // A damaged line: reported and skipped, or fatal with file and line.
    let mut damaged = std::fs::read_to_string(&labels_p).unwrap();
    damaged.insert_str(0, "{\"game\":1,\"position\":\"oops\"}\n");
    std::fs::write(&labels_p, damaged).unwrap();
    let err = labelling::read(&labels_p, false, OnBad::Fatal).unwrap_err();
    assert!(matches!(&err, TrainError::Line { line: 1, .. }), "{err}");
    assert!(err.to_string().contains("l.jsonl line 1"), "{err}");
    assert_eq!(labelling::read(&labels_p, false, OnBad::Skip).unwrap().len(), ls.len());

    let (rows, _) = data::rows(&ls, 4);
    let test = || rows.iter().filter(|r| r.test).map(|r| (&r.pos, r.target));
    let zero_rms = {
        let t: Vec<f64> = test().map(|(_, y)| y / 100.0).collect();
        (t.iter().map(|y| y * y).sum::<f64>() / t.len() as f64).sqrt()
    };
    assert!(
        test().count() > 40 && zero_rms > 5.0,
        "{} held out, RMS {zero_rms}",
        test().count()
    );

    // The pattern fit, with a bootstrap of the phases beyond 14 empties.
    let games = selfplay::read(&games_p, false, OnBad::Fatal).unwrap();
    let candidates = bootstrap::candidates(&games);
    let fc = fit_pattern::FitConfig {
        phases: 6,
        test_every: 4,
        ridge: 3.0,
        iterations: 30,
        margin: 2,
        bootstrap_depth: 1,
        bootstrap_positions: 10,
        prior_previous: true,
        prior_weights: None,
        prior_strength: 0.0,
        seed: 1,
    };
    let mut store = Store::open(&boot_p, OnBad::Fatal).unwrap();
    let fitted = fit_pattern::run(&fc, &rows, &candidates, &mut store, |_| {}).unwrap();
    drop(store);
    assert_eq!(fitted.report.len(), 6);
    assert!(fitted.report[0].3.n > 0, "held-out positions in the first phase");
    assert_eq!(fitted.report[5].2, "search:depth=1");
    let boot = labelling::read(&boot_p, false, OnBad::Fatal).unwrap();
    assert!(!boot.is_empty() && boot.iter().all(|l| l.source == Source::search(1, 1)));
    // A second fit reuses the bootstrap labels and gives the same weights.
    let mut store = Store::open(&boot_p, OnBad::Fatal).unwrap();
    let again = fit_pattern::run(&fc, &rows, &candidates, &mut store, |_| {}).unwrap();
    assert_eq!(labelling::read(&boot_p, false, OnBad::Fatal).unwrap().len(), boot.len());
    assert_eq!(again.weights, fitted.weights);
    fitted.weights.write(&out_p).unwrap();
    let eval = PatternEval::from_path(&out_p).unwrap();
    let pattern_rms = errors(&eval, test()).rms;
    assert!(
        pattern_rms < 0.75 * zero_rms,
        "pattern fit held-out RMS {pattern_rms} against the zero model's {zero_rms}"
    );

    // The hand-feature fit on the same rows, with its bootstrap.
    let ff = fit_features::FitConfig {
        test_every: 4,
        bootstrap_depth: 1,
        bootstrap_positions: 20,
        ..fit_features::FitConfig::default()
    };
    let mut points = fit_features::points(&rows);
    let mut store = Store::memory();
    let bands = fit_features::bootstrap(&candidates, &mut store, &mut points, &ff, |_| {}).unwrap();
    assert_eq!(bands.first().map(|b| b.lo), Some(15));
    assert!(bands.iter().map(|b| b.searched).sum::<usize>() > 20);
    let hand = fit_features::fit(&points, &ff).unwrap().eval();
    let hand_rms = errors(&hand, test()).rms;
    assert!(
        hand_rms < 0.75 * zero_rms,
        "features fit held-out RMS {hand_rms} against the zero model's {zero_rms}"
    );
    eprintln!("held-out RMS: zero {zero_rms:.2}, pattern {pattern_rms:.2}, features {hand_rms:.2}");
}

/// `--weights FILE` plays with that file: the embedded default's bytes in a file give the
/// embedded default's games; all-zero weights give other games; a bad file is a typed error.
#[test]
fn self_play_with_any_weights_file() {
    let dir = Dir::new("weights");
    let same = dir.path("same.bin");
    std::fs::write(&same, othello_pattern::DEFAULT_WEIGHTS).unwrap();
    let zero = dir.path("zero.bin");
    let l = othello_pattern::layout();
    othello_pattern::Weights::new(2, 100, vec![0; 2 * l.per_phase])
        .unwrap()
        .write(&zero)
        .unwrap();
    let config = |eval| GamesConfig {
        games: 1,
        epsilon: 0.0,
        random_plies: 2,
        eval,
        ..GamesConfig::default()
    };
    let play = |eval: PlayEval| {
        let c = config(eval.clone());
        let mut s = selfplay::searcher(&eval).unwrap();
        (0..4)
            .map(|i| selfplay::play_game(&c, i, &mut s).moves)
            .collect::<Vec<_>>()
    };
    let embedded = play(PlayEval::Pattern);
    assert_eq!(play(PlayEval::Weights(same)), embedded);
    assert_ne!(play(PlayEval::Weights(zero)), embedded);
    let bad = dir.path("bad.bin");
    std::fs::write(&bad, b"nope").unwrap();
    assert!(matches!(
        selfplay::searcher(&PlayEval::Weights(bad)),
        Err(TrainError::Weights { .. })
    ));
}

/// A committed frozen held-out file, read whole: exact labels at `empties` empties, each with
/// a game number, and no two twins (each label its own row).
fn frozen_file(name: &str, empties: std::ops::RangeInclusive<u32>) -> Vec<data::Label> {
    let path = format!("{}/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let ls = labelling::read(&path, false, OnBad::Fatal).unwrap();
    assert!(
        ls.iter()
            .all(|l| l.source == Source::Exact && empties.contains(&l.pos.empty_count()) && l.game.is_some())
    );
    let (rows, merged) = data::rows(&ls, 1);
    assert_eq!((rows.len(), merged.duplicates), (ls.len(), 0), "{name}");
    ls
}

/// The first frozen file: at least 300 labels, each with its seed.
#[test]
fn the_frozen_held_out_file_is_whole() {
    let ls = frozen_file("heldout-14-20.jsonl", 14..=20);
    assert!(ls.len() >= 300, "{} labels", ls.len());
    assert!(ls.iter().all(|l| l.seed.is_some()));
}

/// The frozen file of engine positions: 799 games of two matches (games 1-400 and
/// 1001-1400), at most 14 labels a game (a pass gives a count a second position).
#[test]
fn the_engine_positions_held_out_file_is_whole() {
    let ls = frozen_file("heldout-14-20-engine.jsonl", 14..=20);
    let mut games = std::collections::BTreeMap::new();
    for l in &ls {
        let game = l.game.expect("a game number");
        assert!((1..=400).contains(&game) || (1001..=1400).contains(&game), "{game}");
        *games.entry(game).or_insert(0) += 1;
    }
    assert_eq!(games.len(), 799);
    assert!(games.values().all(|&n| n <= 14), "{games:?}");
    assert!(ls.len() >= 5500, "{} labels", ls.len());
}

/// The frozen file of engine positions at 20-24 empties: every position where the default
/// was to move in five depth-16 runs against Zebra (games numbered run x 1000 + game, runs
/// 1-5, games 1-400), exact, each once, at least 400 at each count.
#[test]
fn the_engine_positions_20_24_held_out_file_is_whole() {
    let ls = frozen_file("heldout-20-24-engine.jsonl", 20..=24);
    let mut per_count = [0usize; 25];
    for l in &ls {
        let game = l.game.expect("a game number");
        assert!(
            (1..=5).contains(&(game / 1000)) && (1..=400).contains(&(game % 1000)),
            "{game}"
        );
        per_count[l.pos.empty_count() as usize] += 1;
    }
    assert_eq!(ls.len(), 2301);
    assert!(per_count[20..=24].iter().all(|&n| n >= 400), "{per_count:?}");
}

/// The larger frozen file: one label per game, at 14 + (game mod 7) empties, of seed
/// 20261204, at least 500 labels at each count from 14 to 20.
#[test]
fn the_one_position_a_game_held_out_file_is_whole() {
    let ls = frozen_file("heldout-14-20-games.jsonl", 14..=20);
    let mut games = std::collections::BTreeSet::new();
    let mut per_count = [0usize; 21];
    for l in &ls {
        let game = l.game.expect("a game number");
        let empties = l.pos.empty_count();
        assert_eq!((l.seed, empties), (Some(20261204), 14 + game % 7));
        assert!(games.insert(game), "game {game} twice");
        per_count[empties as usize] += 1;
    }
    assert!(per_count[14..=20].iter().all(|&n| n >= 500), "{per_count:?}");
}
