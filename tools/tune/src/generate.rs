//! Data generation: seeded self-play, then exact labels from the endgame solver.
//!
//! Each game starts with a few uniformly random moves (so games diverge early), then both
//! sides play the default evaluation's PVS at a shallow depth, with an `epsilon` chance of a
//! random move at every turn (so the positions are not only those a good player reaches, as
//! in a real search tree, where the evaluation must also score bad positions). Every position
//! of the game with `min_empties..=max_empties` empty squares is solved exactly; positions
//! with more empties are kept unlabelled when asked (the `fit` bootstrap may label some).
//! Duplicate positions (same discs and side to move) are kept once. A game-over position is
//! never stored (its score needs no evaluation).

use crate::data::Sample;
use ahash::AHashSet;
use othello_endgame::{SolveMode, Solver, SolverConfig};
use othello_eval::WeightedEval;
use othello_rules::{Move, Position};
use othello_search::{Limits, SearchConfig, Searcher};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::time::{Duration, Instant};

/// Settings of a generation run.
#[derive(Clone, Debug)]
pub struct GenConfig {
    /// Stop once this many positions are labelled (the last game is completed).
    pub positions: usize,
    /// The seed of every random choice.
    pub seed: u64,
    /// Fewest empties of a labelled position.
    pub min_empties: u32,
    /// Most empties of a labelled position.
    pub max_empties: u32,
    /// Search depth of the self-play moves.
    pub depth: u32,
    /// Chance of a uniformly random move at each turn after the opening.
    pub epsilon: f64,
    /// The random opening has `0..=random_plies` moves (chosen per game).
    pub random_plies: u32,
    /// Keep the positions with more empties than `max_empties`, unlabelled.
    pub keep_unlabelled: bool,
    /// Solver table size in MiB.
    pub tt_mib: usize,
}

impl Default for GenConfig {
    fn default() -> GenConfig {
        GenConfig {
            positions: 1000,
            seed: 1,
            min_empties: 10,
            max_empties: 20,
            depth: 2,
            epsilon: 0.1,
            random_plies: 8,
            keep_unlabelled: true,
            tt_mib: 64,
        }
    }
}

/// What a generation run produced.
#[derive(Debug)]
pub struct Generated {
    /// The samples, game by game.
    pub samples: Vec<Sample>,
    /// Games played.
    pub games: u32,
    /// Time spent in self-play.
    pub play_time: Duration,
    /// Time spent solving.
    pub solve_time: Duration,
    /// Solver nodes.
    pub solve_nodes: u64,
}

/// One self-play game: every position before a move, in order (the final position excluded).
fn play_game(rng: &mut SmallRng, searcher: &mut Searcher<WeightedEval>, config: &GenConfig) -> Vec<Position> {
    let mut pos = Position::start();
    let mut seen = Vec::with_capacity(64);
    let opening = rng.random_range(0..=config.random_plies);
    let mut ply = 0;
    while !pos.is_game_over() {
        seen.push(pos);
        let moves = pos.moves();
        let random = ply < opening || rng.random_bool(config.epsilon);
        let mv: Move = if moves.len() == 1 {
            moves[0]
        } else if random {
            moves[rng.random_range(0..moves.len())]
        } else {
            searcher.search(&pos, &Limits::depth(config.depth), |_| {}).best_move
        };
        pos = pos.play(mv).expect("chosen among the legal moves");
        ply += 1;
    }
    seen
}

/// Plays and solves games until `config.positions` positions are labelled. `progress` is
/// called after each game with (games, labelled positions).
pub fn generate(config: &GenConfig, mut progress: impl FnMut(u32, usize)) -> Generated {
    let mut rng = SmallRng::seed_from_u64(config.seed);
    let search_config = SearchConfig::default().with_tt_mib(4).with_endgame_empties(0);
    let mut searcher = Searcher::new(WeightedEval::default(), search_config);
    let mut solver = Solver::new(SolverConfig::default().with_tt_mib(config.tt_mib).with_threads(1));
    let mut seen: AHashSet<(u64, u64, bool)> = AHashSet::new();
    let mut out = Generated {
        samples: Vec::new(),
        games: 0,
        play_time: Duration::ZERO,
        solve_time: Duration::ZERO,
        solve_nodes: 0,
    };
    let mut labelled = 0;
    while labelled < config.positions {
        let game = out.games;
        let t = Instant::now();
        let positions = play_game(&mut rng, &mut searcher, config);
        out.play_time += t.elapsed();
        let t = Instant::now();
        // Solve the latest positions first: their results are in the table when the earlier
        // (larger) positions of the same game reach them.
        let mut game_samples = Vec::new();
        for pos in positions.iter().rev() {
            let e = pos.empty_count();
            if e < config.min_empties || (e > config.max_empties && !config.keep_unlabelled) {
                continue;
            }
            let key = (
                pos.player().0,
                pos.opponent().0,
                pos.side_to_move() == othello_rules::Color::Black,
            );
            if !seen.insert(key) {
                continue;
            }
            let score = if e <= config.max_empties {
                let s = solver.solve(pos, SolveMode::Exact);
                out.solve_nodes += s.nodes;
                labelled += 1;
                Some(s.score)
            } else {
                None
            };
            game_samples.push(Sample { game, pos: *pos, score });
        }
        game_samples.reverse();
        out.samples.extend(game_samples);
        out.solve_time += t.elapsed();
        out.games += 1;
        progress(out.games, labelled);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small(seed: u64) -> GenConfig {
        GenConfig {
            positions: 30,
            seed,
            min_empties: 4,
            max_empties: 9,
            depth: 1,
            tt_mib: 1,
            ..GenConfig::default()
        }
    }

    #[test]
    fn reproducible_with_a_seed() {
        let a = generate(&small(5), |_, _| {});
        let b = generate(&small(5), |_, _| {});
        let c = generate(&small(6), |_, _| {});
        assert_eq!(a.samples, b.samples);
        assert_ne!(a.samples, c.samples);
        assert!(a.samples.iter().filter(|s| s.score.is_some()).count() >= 30);
    }

    #[test]
    fn labels_are_exact_and_in_range() {
        let g = generate(&small(7), |_, _| {});
        for s in g.samples.iter().filter(|s| s.score.is_some()).take(10) {
            let e = s.pos.empty_count();
            assert!((4..=9).contains(&e));
            // A full-depth search is exact: it must agree with the solver.
            let mut searcher = Searcher::new(WeightedEval::default(), SearchConfig::default());
            let r = searcher.search(&s.pos, &Limits::depth(e), |_| {});
            assert!(r.exact);
            assert_eq!(Some(r.score / 100), s.score, "{}", s.pos);
        }
        for s in g.samples.iter().filter(|s| s.score.is_none()) {
            assert!(s.pos.empty_count() > 9);
        }
    }
}
