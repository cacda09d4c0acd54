//! Labels of the games' positions, in four modes:
//!
//! - [`Mode::Exact`]: every position with `min..=max` empties solved exactly (`Solver::solve`,
//!   one thread), latest first so the table helps the earlier ones of the same game.
//! - [`Mode::Pv`]: one exact solve per game, of its position at `solve_empties` empties (22-26
//!   is the cheap range); the solver's principal variation is a line of best play, so every
//!   position on it has the same value (from the side to move: the same score, or its
//!   negation after an odd number of side changes): each is labelled `exact` too, for one solve.
//!   Each solve starts from an empty table, so a game's line (which follows the table's moves
//!   among equal ones) depends on that game alone.
//! - [`Mode::Result`]: one exact solve per game at `solve_empties`; the game's earlier
//!   positions with `min..=max` empties get the final result under perfect play from there
//!   (`result`: a noisy label, since the moves before were not perfect; the solved position
//!   itself is `exact`).
//! - [`Mode::Search`]: every position with `min..=max` empties labelled by a search of the
//!   given depth (`search`, with its depth) with the evaluation asked for; with `mean_of` K >
//!   1, by the mean of the values of its last K iterations (depths `depth - K + 1..=depth` of
//!   the same iterative-deepening search, so no extra search), which cancels the evaluation's
//!   odd/even swing (docs/pattern.md).
//!
//! A position is labelled once per output file (by canonical key, so its twins are not
//! labelled again), however many games reach it. A resumed run skips what the file holds, so an
//! interrupted run loses at most the solve in progress.
//!
//! Every mode labels a game as a function of that game alone, minus the positions labelled
//! before: the labels of games split into shards and labelled apart, merged in game order
//! keeping the first label of each key, are those of one run over all the games (only the
//! `nodes` field differs, with the solver's table). `tools/distributed` relies on this. (A
//! `pv` run that resumes skips the games whose solved position the file held when it
//! started, instead of solving them again.)
//!
//! The solver orders its moves by the embedded pattern evaluation when
//! [`LabelsConfig::ordering`] is set (as `othello solve --eval auto`): the same values in
//! fewer nodes from about 16 empties.

use crate::data::{Game, Key, Label, Source, key};
use crate::error::{TrainError, TrainResult};
use crate::jsonl::{self, OnBad};
use crate::selfplay::{self, PlayEval, SelfPlayEval};
use ahash::AHashSet;
use othello_endgame::{SolveMode, Solver, SolverConfig};
use othello_eval::Evaluator;
use othello_rules::Position;
use othello_search::{Limits, Searcher, Selectivity};
use std::sync::{Mutex, PoisonError};

/// How the labels are made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Solve every position in range.
    Exact,
    /// Solve the position at this many empties; label it and its principal variation.
    Pv {
        /// Empties of the solved position.
        solve_empties: u32,
    },
    /// Solve the position at this many empties; label the earlier positions by the result.
    Result {
        /// Empties of the solved position.
        solve_empties: u32,
    },
    /// A search of this depth with this evaluation.
    Search {
        /// Depth in discs placed.
        depth: u32,
        /// The label is the mean of the values of this many consecutive depths ending at
        /// `depth` (1: the depth-`depth` value), from the one search's iterations.
        mean_of: u32,
        /// The evaluation.
        eval: PlayEval,
        /// The search's selectivity (`Off`: full width). A selective level needs an
        /// evaluation with a cut table (checked by [`Labeller::new`]).
        selectivity: Selectivity,
    },
}

/// Settings of the labels step.
#[derive(Clone, Debug)]
pub struct LabelsConfig {
    /// How the labels are made.
    pub mode: Mode,
    /// Fewest empties labelled.
    pub min_empties: u32,
    /// Most empties labelled.
    pub max_empties: u32,
    /// Stop after this many games have been visited (`None`: all of them).
    pub max_games: Option<usize>,
    /// Visit only the games whose number is a multiple of this (1: all).
    pub every: u32,
    /// Solver table size in MiB.
    pub tt_mib: usize,
    /// Order the solver's moves by the embedded pattern evaluation (the same labels, fewer
    /// nodes; `false`: the solver's built-in ordering).
    pub ordering: bool,
}

/// Reads a labels file (this format or an old one).
pub fn read(path: &str, missing_ok: bool, on_bad: OnBad) -> TrainResult<Vec<Label>> {
    Ok(jsonl::read(path, missing_ok, on_bad, Label::from_line)?.0)
}

/// What a labels run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LabelStats {
    /// Labels written by this run.
    pub labels: usize,
    /// Exact solves or searches run.
    pub solves: usize,
    /// Solver or search nodes of this run.
    pub nodes: u64,
    /// Games visited.
    pub games: usize,
}

/// The index of the first position of `positions` with at most `k` empties.
fn at_empties(positions: &[Position], k: u32) -> Option<usize> {
    positions.iter().position(|p| p.empty_count() <= k)
}

/// The labels of one game (only positions whose key `done` lacks; `done` is updated).
pub struct Labeller {
    config: LabelsConfig,
    solver: Solver,
    searcher: Option<othello_search::Searcher<selfplay::SelfPlayEval>>,
    /// [`Mode::Pv`]: games whose solved position has one of these keys are skipped (what a
    /// resumed run's file held when it started).
    skip_roots: AHashSet<Key>,
}

impl Labeller {
    /// A labeller (a solver, and the searcher of [`Mode::Search`] with its evaluation loaded).
    pub fn new(config: &LabelsConfig) -> TrainResult<Labeller> {
        let searcher = match &config.mode {
            Mode::Search { eval, selectivity, .. } => Some(label_searcher(eval.load()?, &eval.name(), *selectivity)?),
            _ => None,
        };
        let ordering = if config.ordering {
            PlayEval::Pattern.load()?.solver_ordering()
        } else {
            None
        };
        Ok(Labeller {
            config: config.clone(),
            solver: Solver::new(
                SolverConfig::default()
                    .with_tt_mib(config.tt_mib.max(1))
                    .with_threads(1)
                    .with_ordering_eval(ordering),
            ),
            searcher,
            skip_roots: AHashSet::new(),
        })
    }

    /// [`Mode::Pv`]: skip the games whose solved position (or a twin) has one of `keys`, as
    /// [`run`] does with the keys of the file it resumes.
    pub fn skip_roots(&mut self, keys: AHashSet<Key>) {
        self.skip_roots = keys;
    }

    fn in_range(&self, pos: &Position) -> bool {
        (self.config.min_empties..=self.config.max_empties).contains(&pos.empty_count())
    }

    /// Labels `game`, calling `emit` with each new label (in the order written).
    pub fn game(
        &mut self,
        game: &Game,
        done: &mut AHashSet<Key>,
        stats: &mut LabelStats,
        mut emit: impl FnMut(Label) -> TrainResult<()>,
    ) -> TrainResult<()> {
        let positions = game.positions();
        let label = |pos: Position, centi: i32, source: Source, nodes: Option<u64>| Label {
            pos,
            centi,
            source,
            game: Some(game.game),
            seed: game.seed,
            nodes,
        };
        match self.config.mode.clone() {
            Mode::Exact => {
                // Latest positions first: their results are in the table when the earlier
                // (larger) positions of the same game reach them.
                for pos in positions.iter().rev() {
                    if !self.in_range(pos) || !done.insert(key(pos)) {
                        continue;
                    }
                    let s = self.solver.solve(pos, SolveMode::Exact);
                    stats.solves += 1;
                    stats.nodes += s.nodes;
                    emit(label(*pos, s.score * 100, Source::Exact, Some(s.nodes)))?;
                    stats.labels += 1;
                }
            }
            Mode::Pv { solve_empties } => {
                let Some(i) = at_empties(&positions, solve_empties) else {
                    return Ok(());
                };
                let root = positions[i];
                if self.skip_roots.contains(&key(&root)) {
                    stats.games += 1;
                    return Ok(());
                }
                // An empty table: the line follows the table's moves among equal ones.
                self.solver.new_game();
                let s = self.solver.solve(&root, SolveMode::Exact);
                stats.solves += 1;
                stats.nodes += s.nodes;
                let mut pos = root;
                let mut line = vec![root];
                for &mv in &s.pv {
                    pos = pos.play_unchecked(mv);
                    if pos.is_game_over() {
                        break;
                    }
                    line.push(pos);
                }
                for (j, pos) in line.into_iter().enumerate() {
                    if !self.in_range(&pos) || !done.insert(key(&pos)) {
                        continue;
                    }
                    let sign = if pos.side_to_move() == root.side_to_move() {
                        1
                    } else {
                        -1
                    };
                    let nodes = (j == 0).then_some(s.nodes);
                    emit(label(pos, sign * s.score * 100, Source::Exact, nodes))?;
                    stats.labels += 1;
                }
            }
            Mode::Result { solve_empties } => {
                let i = at_empties(&positions, solve_empties).unwrap_or(positions.len());
                // Nothing new to label (a resumed run): no solve.
                let wanted = |p: &Position| self.in_range(p) && !done.contains(&key(p));
                if !positions[..i].iter().any(wanted) && positions.get(i).is_none_or(|r| !wanted(r)) {
                    stats.games += 1;
                    return Ok(());
                }
                let (i, root, score) = match positions.get(i) {
                    Some(&root) => {
                        let s = self.solver.solve(&root, SolveMode::Exact);
                        stats.solves += 1;
                        stats.nodes += s.nodes;
                        if self.in_range(&root) && done.insert(key(&root)) {
                            emit(label(root, s.score * 100, Source::Exact, Some(s.nodes)))?;
                            stats.labels += 1;
                        }
                        (i, root, s.score)
                    }
                    // The game ended before: its final result.
                    None => {
                        let end = game.final_position();
                        (positions.len(), end, end.final_score())
                    }
                };
                for pos in positions[..i].iter().rev() {
                    if !self.in_range(pos) || !done.insert(key(pos)) {
                        continue;
                    }
                    let sign = if pos.side_to_move() == root.side_to_move() {
                        1
                    } else {
                        -1
                    };
                    emit(label(*pos, sign * score * 100, Source::Result, None))?;
                    stats.labels += 1;
                }
            }
            Mode::Search {
                depth,
                mean_of,
                selectivity,
                ..
            } => {
                let searcher = self.searcher.as_mut().expect("made with the mode");
                let mean_of = mean_of.clamp(1, depth);
                for pos in positions.iter().rev() {
                    if !(self.config.min_empties..=self.config.max_empties).contains(&pos.empty_count())
                        || !done.insert(key(pos))
                    {
                        continue;
                    }
                    let (centi, nodes) = search_label(searcher, pos, depth, mean_of);
                    stats.solves += 1;
                    stats.nodes += nodes;
                    let source = Source::Search {
                        depth,
                        mean_of,
                        selectivity,
                    };
                    emit(label(*pos, centi, source, Some(nodes)))?;
                    stats.labels += 1;
                }
            }
        }
        stats.games += 1;
        Ok(())
    }
}

/// The searcher of search labels (and of [`SearchedEval`]): `eval` (named `name` in errors)
/// at `selectivity`, with the settings of [`selfplay::searcher`]. A selective level needs an
/// evaluation with a cut table: an error names the evaluation otherwise.
pub fn label_searcher(eval: SelfPlayEval, name: &str, selectivity: Selectivity) -> TrainResult<Searcher<SelfPlayEval>> {
    let mut searcher = selfplay::searcher_of(eval);
    if !selectivity.is_off() && searcher.evaluator().cut_table().is_none() {
        return Err(TrainError::Input(format!(
            "selectivity {selectivity} needs a pattern evaluation with a cut table; {name} has none"
        )));
    }
    searcher.config_mut().selectivity = selectivity;
    Ok(searcher)
}

/// The search label of `pos`: the value of a fresh `depth` search with `searcher` (its table
/// cleared first, so the value does not depend on earlier searches), or with `mean_of` K > 1
/// the mean of its last K iterations' values, in centi-discs clamped to a disc count; and the
/// search's nodes. The searcher is set to iterate every depth (`skip_depths` off), so that
/// each of those iterations runs and the labels do not move with the search's default.
pub fn search_label(searcher: &mut Searcher<SelfPlayEval>, pos: &Position, depth: u32, mean_of: u32) -> (i32, u64) {
    let mean_of = mean_of.clamp(1, depth.max(1));
    let first = depth + 1 - mean_of;
    searcher.config_mut().skip_depths = false;
    searcher.new_game();
    let mut by_depth = Vec::new();
    let r = searcher.search(pos, &Limits::depth(depth), |it| {
        if it.depth >= first {
            by_depth.push((it.depth, it.score));
        }
    });
    let centi = mean_over_depths(&by_depth, first..=depth, r.score).clamp(-6400, 6400);
    (centi, r.nodes)
}

/// An evaluation whose value is a search label ([`search_label`] with its searcher): the
/// error of a depth-D search, not only of the static evaluation, scored like one
/// (`othello-train errors --depth`). Searches run one at a time (behind a lock).
pub struct SearchedEval {
    searcher: Mutex<Searcher<SelfPlayEval>>,
    depth: u32,
    mean_of: u32,
}

impl SearchedEval {
    /// Search labels of `depth` (the mean of the last `mean_of` depths) with `searcher`
    /// (from [`label_searcher`]).
    pub fn new(searcher: Searcher<SelfPlayEval>, depth: u32, mean_of: u32) -> SearchedEval {
        SearchedEval {
            searcher: Mutex::new(searcher),
            depth,
            mean_of,
        }
    }
}

impl Evaluator for SearchedEval {
    fn evaluate(&self, pos: &Position) -> i32 {
        let mut searcher = self.searcher.lock().unwrap_or_else(PoisonError::into_inner);
        search_label(&mut searcher, pos, self.depth, self.mean_of).0
    }
}

/// The mean of a search's values at the depths of `window`, in centi-discs rounded half away
/// from zero. `iterations` are the search's `(depth, score)` reports; a depth of the window
/// that has none (the search proved the exact value before reaching it and stopped) takes
/// `last`, the search's final score, which is the value at every deeper depth then.
fn mean_over_depths(iterations: &[(u32, i32)], window: std::ops::RangeInclusive<u32>, last: i32) -> i32 {
    let n = window.clone().count();
    let sum: i64 = window
        .map(|d| {
            let v = iterations
                .iter()
                .rev()
                .find(|&&(id, _)| id == d)
                .map_or(last, |&(_, s)| s);
            i64::from(v)
        })
        .sum();
    (sum as f64 / n as f64).round() as i32
}

/// Labels the positions of the games in `games_path` that `labels_path` lacks, appending.
pub fn run(
    config: &LabelsConfig,
    games_path: &str,
    labels_path: &str,
    on_bad: OnBad,
    mut progress: impl FnMut(&LabelStats),
) -> TrainResult<LabelStats> {
    let mut games: Vec<Game> = selfplay::read(games_path, false, on_bad)?;
    games.sort_by_key(|g| (g.game, g.seed));
    let mut labeller = Labeller::new(config)?;
    // Cut a line left partial by an interruption first, then read what is there.
    let mut out = jsonl::append(labels_path)?;
    let mut done: AHashSet<Key> = read(labels_path, true, on_bad)?.iter().map(|l| key(&l.pos)).collect();
    if matches!(config.mode, Mode::Pv { .. }) {
        labeller.skip_roots(done.clone());
    }
    let mut stats = LabelStats::default();
    let every = config.every.max(1);
    for game in games
        .iter()
        .filter(|g| g.game.is_multiple_of(every))
        .take(config.max_games.unwrap_or(usize::MAX))
    {
        labeller.game(game, &mut done, &mut stats, |l| {
            jsonl::write_line(&mut out, labels_path, &l.to_line())
        })?;
        progress(&stats);
    }
    Ok(stats)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::selfplay::{GamesConfig, play_game, searcher};

    fn games(n: u32) -> Vec<Game> {
        let config = GamesConfig {
            seed: 9,
            depth: 1,
            ..GamesConfig::default()
        };
        let mut s = searcher(&PlayEval::Hand).unwrap();
        (0..n).map(|i| play_game(&config, i, &mut s)).collect()
    }

    /// The settings of a search-label run on every game, with a 1 MiB solver table.
    fn search_config(
        depth: u32,
        mean_of: u32,
        eval: PlayEval,
        selectivity: Selectivity,
        empties: std::ops::RangeInclusive<u32>,
    ) -> LabelsConfig {
        LabelsConfig {
            mode: Mode::Search {
                depth,
                mean_of,
                eval,
                selectivity,
            },
            min_empties: *empties.start(),
            max_empties: *empties.end(),
            max_games: None,
            every: 1,
            tt_mib: 1,
            ordering: false,
        }
    }

    fn labels_of(config: &LabelsConfig, games: &[Game]) -> (Vec<Label>, LabelStats) {
        let mut l = Labeller::new(config).unwrap();
        let (mut out, mut stats, mut done) = (Vec::new(), LabelStats::default(), AHashSet::new());
        for g in games {
            l.game(g, &mut done, &mut stats, |x| {
                out.push(x);
                Ok(())
            })
            .unwrap();
        }
        (out, stats)
    }

    fn solve(pos: &Position) -> i32 {
        Solver::new(SolverConfig::default().with_tt_mib(1).with_threads(1))
            .solve(pos, SolveMode::Exact)
            .score
    }

    /// Every position on a solve's principal variation is labelled with its own exact value
    /// (checked by solving it alone), twins are labelled once, and one solve per game is run.
    #[test]
    fn pv_labels_are_exact() {
        let config = LabelsConfig {
            mode: Mode::Pv { solve_empties: 12 },
            min_empties: 2,
            max_empties: 12,
            max_games: None,
            every: 1,
            tt_mib: 1,
            ordering: false,
        };
        let gs = games(4);
        let (labels, stats) = labels_of(&config, &gs);
        assert_eq!(stats.solves, 4);
        assert!(labels.len() > 4 * 6, "{} labels", labels.len());
        let keys: AHashSet<Key> = labels.iter().map(|l| key(&l.pos)).collect();
        assert_eq!(keys.len(), labels.len());
        for l in &labels {
            assert_eq!(l.source, Source::Exact);
            assert!((2..=12).contains(&l.pos.empty_count()) && !l.pos.is_game_over());
            assert_eq!(l.centi, solve(&l.pos) * 100, "{}", l.pos);
        }
        // The solved position of each game is the first with 12 empties.
        for g in &gs {
            let root = g.positions().into_iter().find(|p| p.empty_count() <= 12).unwrap();
            assert!(labels.iter().any(|l| l.pos == root && l.nodes.is_some()));
        }
    }

    /// Games split into shards, each labelled apart, and merged in game order keeping the first
    /// label of each key, give the labels of one run over all the games (the `nodes` field
    /// aside), in every mode; the games include copies of earlier ones (under other numbers),
    /// whose positions are all labelled already.
    #[test]
    fn shards_merged_in_game_order_are_one_run() {
        let mut gs = games(6);
        for i in 0..3 {
            gs.push(Game {
                game: 100 + i,
                ..gs[2 * i as usize].clone()
            });
        }
        gs.swap(1, 6);
        let strip = |ls: Vec<Label>| -> Vec<(Position, i32, Source, Option<u32>)> {
            ls.into_iter().map(|l| (l.pos, l.centi, l.source, l.game)).collect()
        };
        let base = LabelsConfig {
            mode: Mode::Exact,
            min_empties: 2,
            max_empties: 12,
            max_games: None,
            every: 1,
            tt_mib: 1,
            ordering: true,
        };
        let configs = [
            LabelsConfig {
                max_empties: 9,
                ..base.clone()
            },
            LabelsConfig {
                mode: Mode::Pv { solve_empties: 14 },
                ..base.clone()
            },
            LabelsConfig {
                mode: Mode::Result { solve_empties: 10 },
                max_empties: 20,
                ..base.clone()
            },
            search_config(3, 2, PlayEval::Pattern, Selectivity::Off, 20..=30),
        ];
        for config in &configs {
            let (whole, _) = labels_of(config, &gs);
            assert!(whole.len() > 20, "{:?}: {} labels", config.mode, whole.len());
            for shard in [1, 2, 4] {
                let mut seen = AHashSet::new();
                let mut merged = Vec::new();
                for chunk in gs.chunks(shard) {
                    let (labels, _) = labels_of(config, chunk);
                    merged.extend(labels.into_iter().filter(|l| seen.insert(key(&l.pos))));
                }
                assert_eq!(
                    strip(merged),
                    strip(whole.clone()),
                    "{:?}, shards of {shard}",
                    config.mode
                );
            }
        }
    }

    /// A pv game's labels do not depend on the games labelled before it by the same labeller
    /// (its solver's table is emptied first): the same as a fresh labeller's.
    #[test]
    fn pv_lines_do_not_depend_on_earlier_games() {
        let config = LabelsConfig {
            mode: Mode::Pv { solve_empties: 16 },
            min_empties: 1,
            max_empties: 16,
            max_games: None,
            every: 1,
            tt_mib: 4,
            ordering: false,
        };
        let gs = games(6);
        let mut warm = Labeller::new(&config).unwrap();
        for (i, g) in gs.iter().enumerate() {
            let run = |l: &mut Labeller| {
                let (mut out, mut done) = (Vec::new(), AHashSet::new());
                l.game(g, &mut done, &mut LabelStats::default(), |x| {
                    out.push((x.pos, x.centi));
                    Ok(())
                })
                .unwrap();
                out
            };
            // The warm labeller has solved every earlier game; then it solves this one again.
            let got = run(&mut warm);
            let fresh = run(&mut Labeller::new(&config).unwrap());
            assert_eq!(got, fresh, "game {i}");
            let again = run(&mut warm);
            assert_eq!(again, fresh, "game {i} again");
        }
    }

    /// The pattern ordering changes the solver's nodes, not the labels' values; pv lines with
    /// it are lines of best play too (every label exact).
    #[test]
    fn the_ordering_changes_nodes_not_values() {
        let exact = |ordering| LabelsConfig {
            mode: Mode::Exact,
            min_empties: 14,
            max_empties: 16,
            max_games: None,
            every: 1,
            tt_mib: 4,
            ordering,
        };
        let gs = games(3);
        let (with, s_with) = labels_of(&exact(true), &gs);
        let (without, s_without) = labels_of(&exact(false), &gs);
        let values = |ls: &[Label]| ls.iter().map(|l| (l.pos, l.centi)).collect::<Vec<_>>();
        assert_eq!(values(&with), values(&without));
        assert!(with.len() >= 9);
        assert_ne!(s_with.nodes, s_without.nodes);
        let pv = LabelsConfig {
            mode: Mode::Pv { solve_empties: 16 },
            min_empties: 6,
            ..exact(true)
        };
        let (labels, stats) = labels_of(&pv, &gs);
        assert_eq!(stats.solves, 3);
        for l in &labels {
            assert_eq!(l.centi, solve(&l.pos) * 100, "{}", l.pos);
        }
    }

    /// Result labels: the solved position is exact; each earlier position in range gets the
    /// solved score from its own side; a game that ends early gives its final score.
    #[test]
    fn result_labels_carry_the_perfect_play_result() {
        let config = LabelsConfig {
            mode: Mode::Result { solve_empties: 10 },
            min_empties: 8,
            max_empties: 30,
            max_games: None,
            every: 1,
            tt_mib: 1,
            ordering: false,
        };
        let gs = games(3);
        let (labels, stats) = labels_of(&config, &gs);
        assert_eq!(stats.solves, 3);
        for g in &gs {
            let ps = g.positions();
            let i = ps.iter().position(|p| p.empty_count() <= 10).unwrap();
            let score = solve(&ps[i]);
            let mine: Vec<&Label> = labels.iter().filter(|l| ps.contains(&l.pos)).collect();
            assert!(mine.len() >= 15);
            for l in mine {
                if l.pos == ps[i] {
                    assert_eq!((l.source, l.centi), (Source::Exact, score * 100));
                } else {
                    assert_eq!(l.source, Source::Result);
                    assert!((11..=30).contains(&l.pos.empty_count()));
                    let sign = if l.pos.side_to_move() == ps[i].side_to_move() {
                        1
                    } else {
                        -1
                    };
                    assert_eq!(l.centi, sign * score * 100);
                }
            }
        }
        // Run again with what was labelled: nothing new, no solve.
        let mut l = Labeller::new(&config).unwrap();
        let mut done: AHashSet<Key> = labels.iter().map(|x| key(&x.pos)).collect();
        let mut again = LabelStats::default();
        for g in &gs {
            l.game(g, &mut done, &mut again, |_| panic!("a label made twice"))
                .unwrap();
        }
        assert_eq!((again.solves, again.labels, again.games), (0, 0, 3));
        // No position with 0 empties before the end: the played game's final result.
        let config = LabelsConfig {
            mode: Mode::Result { solve_empties: 0 },
            min_empties: 0,
            max_empties: 60,
            ..config
        };
        let (labels, stats) = labels_of(&config, &gs[..1]);
        assert_eq!(stats.solves, 0);
        let end = gs[0].final_position();
        assert_eq!(labels.len(), gs[0].positions().len());
        for l in &labels {
            let sign = if l.pos.side_to_move() == end.side_to_move() {
                1
            } else {
                -1
            };
            assert_eq!((l.source, l.centi), (Source::Result, sign * end.final_score() * 100));
        }
    }

    /// Search labels equal a fresh search of the same depth, with the depth recorded.
    #[test]
    fn search_labels_are_the_search_value() {
        let config = search_config(3, 1, PlayEval::Hand, Selectivity::Off, 30..=34);
        let (labels, stats) = labels_of(&config, &games(2));
        assert_eq!(stats.solves, labels.len());
        assert!(labels.len() >= 8);
        let mut s = searcher(&PlayEval::Hand).unwrap();
        for l in &labels {
            assert_eq!(l.source, Source::search(3, 1));
            s.new_game();
            assert_eq!(l.centi, s.search(&l.pos, &Limits::depth(3), |_| {}).score);
        }
    }

    /// A [`SearchedEval`] answers each position with its search label, whatever order the
    /// positions come in (its table is cleared for each), so `errors --depth` scores the labels
    /// of the same depth, mean and level at zero; its values are not the static evaluation's,
    /// nor another depth's; its searcher refuses a level without a cut table.
    #[test]
    fn searched_eval_is_the_search_label() {
        let config = search_config(6, 2, PlayEval::Pattern, Selectivity::Level(2), 26..=44);
        let (labels, _) = labels_of(&config, &games(3));
        assert!(labels.len() >= 40);
        let searched = |depth, mean_of| {
            let s = label_searcher(PlayEval::Pattern.load().unwrap(), "pattern", Selectivity::Level(2)).unwrap();
            SearchedEval::new(s, depth, mean_of)
        };
        let eval = searched(6, 2);
        for l in labels.iter().rev() {
            assert_eq!(eval.evaluate(&l.pos), l.centi, "{}", l.pos);
        }
        let rows = || labels.iter().map(|l| (&l.pos, f64::from(l.centi)));
        let e = crate::report::errors(&eval, rows());
        assert_eq!((e.n, e.rms), (labels.len(), 0.0));
        for other in [searched(6, 1), searched(5, 2)] {
            assert!(crate::report::errors(&other, rows()).rms > 0.0);
        }
        let static_eval = PlayEval::Pattern.load().unwrap();
        assert!(crate::report::errors(&static_eval, rows()).rms > 0.0);
        let hand = PlayEval::Hand.load().unwrap();
        let refused = label_searcher(hand, "hand", Selectivity::Level(2)).map(|_| ());
        assert!(matches!(refused, Err(TrainError::Input(m)) if m.contains("hand has none")));
    }

    /// Selective labels equal a fresh search at the same level (the evaluation's cut table
    /// in use: they differ from full width on some positions), and say their level; a level
    /// without a cut table is refused.
    #[test]
    fn selective_labels_are_the_selective_search_value() {
        let depth = 8;
        let config = search_config(depth, 2, PlayEval::Pattern, Selectivity::Level(0), 24..=50);
        let (labels, _) = labels_of(&config, &games(3));
        assert!(labels.len() >= 40);
        let mut s = searcher(&PlayEval::Pattern).unwrap();
        // Fresh searches of depths 7 and 8 through every depth, as the labeller's iterations
        // run (a selective value depends on the iterations' windows).
        s.config_mut().skip_depths = false;
        let mut differs = 0;
        let mut mean = |pos: &Position, sel: Selectivity| {
            s.config_mut().selectivity = sel;
            let sum: i32 = (depth - 1..=depth)
                .map(|d| {
                    s.new_game();
                    s.search(pos, &Limits::depth(d), |_| {}).score
                })
                .sum();
            (f64::from(sum) / 2.0).round() as i32
        };
        for l in &labels {
            assert_eq!(
                l.source,
                Source::Search {
                    depth,
                    mean_of: 2,
                    selectivity: Selectivity::Level(0)
                }
            );
            assert_eq!(l.centi, mean(&l.pos, Selectivity::Level(0)), "{}", l.pos);
            differs += usize::from(l.centi != mean(&l.pos, Selectivity::Off));
        }
        assert!(differs > 0, "no label differs from full width: the level was not used");
        let hand = LabelsConfig {
            mode: Mode::Search {
                depth,
                mean_of: 1,
                eval: PlayEval::Hand,
                selectivity: Selectivity::Level(2),
            },
            ..config
        };
        assert!(matches!(Labeller::new(&hand), Err(TrainError::Input(_))));
    }

    /// Mean-of labels equal the rounded mean of fresh searches of each depth of the window
    /// (iteration d of the deeper search is the depth-d search), and say so.
    #[test]
    fn mean_of_labels_are_the_mean_of_fresh_searches() {
        for (depth, mean_of, eval) in [
            (3, 2, PlayEval::Hand),
            (4, 3, PlayEval::Hand),
            (3, 2, PlayEval::Pattern),
        ] {
            let config = search_config(depth, mean_of, eval.clone(), Selectivity::Off, 1..=40);
            let (labels, _) = labels_of(&config, &games(2));
            assert!(labels.len() >= 40);
            let mut s = searcher(&eval).unwrap();
            let mut odd_sums = 0;
            for l in &labels {
                assert_eq!(l.source, Source::search(depth, mean_of));
                let values: Vec<i32> = (depth + 1 - mean_of..=depth)
                    .map(|d| {
                        s.new_game();
                        s.search(&l.pos, &Limits::depth(d), |_| {}).score
                    })
                    .collect();
                let sum: i32 = values.iter().sum();
                odd_sums += usize::from(sum % mean_of as i32 != 0);
                let mean = f64::from(sum) / f64::from(mean_of);
                assert_eq!(
                    l.centi,
                    (mean.round() as i32).clamp(-6400, 6400),
                    "{} {values:?}",
                    l.pos
                );
                let back = Label::from_line(&l.to_line()).unwrap().unwrap();
                assert_eq!(back.source, l.source);
            }
            // The rounding is exercised, and the positions near the end (solved before the
            // last depth) too.
            assert!(odd_sums > 0);
            assert!(labels.iter().any(|l| l.pos.empty_count() <= depth));
        }
    }

    #[test]
    fn mean_over_depths_rounds_half_away_and_fills_solved_depths() {
        assert_eq!(mean_over_depths(&[(8, 101), (9, 200)], 8..=9, 200), 151);
        assert_eq!(mean_over_depths(&[(8, -101), (9, -200)], 8..=9, -200), -151);
        assert_eq!(mean_over_depths(&[(8, 100), (9, 201)], 8..=9, 201), 151);
        assert_eq!(mean_over_depths(&[(7, 0), (8, 300)], 7..=9, 900), 400);
        assert_eq!(mean_over_depths(&[(5, 7)], 5..=5, 7), 7);
        assert_eq!(mean_over_depths(&[(5, 3), (6, 4)], 5..=6, 4), 4);
        assert_eq!(mean_over_depths(&[(5, -3), (6, -4)], 5..=6, -4), -4);
    }
}
