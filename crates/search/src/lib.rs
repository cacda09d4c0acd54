//! Game-tree search for Othello: minimax and negamax references, alpha-beta, PVS, iterative
//! deepening, aspiration windows, a shared transposition table, move ordering, quiescence,
//! multi-PV and Lazy SMP, generic over the evaluation.
//!
//! Pick an [`Algorithm`], an [`Evaluator`](othello_eval::Evaluator), a table size and the
//! heuristics in a [`SearchConfig`], build a [`Searcher`], and call [`Searcher::search`] with
//! [`Limits`]: it returns a [`SearchResult`] (move, score, PV, exactness, [`SearchStats`]) and
//! reports each completed [`Iteration`] on the way.
//!
//! # Semantics
//! - **Scores** are centi-discs from the side to move (negamax); [`SearchResult::score_black`]
//!   is black minus white. A finished game scores its final disc difference x100 with the
//!   empty squares credited to the winner; a horizon leaf scores the evaluation (clamped to
//!   [`score::EVAL_LIMIT`]).
//! - **Depth** counts discs placed. A pass uses no depth but is searched (never scored as the
//!   end); two passes in a row cannot happen because a game where neither side can move is over.
//!   A search at `depth >= empties` reaches every end and is exact ([`SearchResult::exact`]).
//!   `Limits::depth = Some(0)` is treated as 1.
//! - **Pruning never changes a value**: alpha-beta, PVS and the table return exactly the value
//!   plain minimax returns at the same depth. A table entry settles a node only when its draft
//!   equals the node's (`min(depth, empties)`), which in Othello loses no transposition within
//!   a search and makes values path-independent. At the root, among moves of equal value, the
//!   lowest square index wins, whatever the move order: the move does not depend on the
//!   ordering, the table or the threads either.
//! - **Selectivity** ([`Selectivity`], [`SearchConfig::selectivity`]) is part of the question:
//!   with a level on and an evaluation that has a cut table
//!   ([`Evaluator::cut_table`](othello_eval::Evaluator::cut_table)), a non-PV node at
//!   `depth < empties` with a pair in the table may be cut when a shallow search predicts its
//!   value beyond the window (multi-ProbCut, module [`probcut`] fits the model), and values are
//!   those of that
//!   selective search; with `Selectivity::Off` (or no cut table, or not 8x8) they are the plain
//!   minimax values. A selective table entry never serves a full-width search. A search that
//!   reaches every end of the game tries no cut, so exact results stay exact.
//! - **Iterations**: depth 1, 2, ..., each reported when complete; from depth 6 a depth is
//!   skipped where the next is the one the search ends on (`SearchConfig::skip_depths`, on by
//!   default: to depth 12, 1, ..., 6, 8, 10, 12). A partial iteration never
//!   replaces a completed one, except for a move proven better than the previous best move by
//!   completed searches of the aborted iteration (its score is then that iteration's, and
//!   `depth` stays the last completed one).
//! - **Limits**: depth, nodes, soft/hard time, a stop flag, or nothing (search to the end of
//!   the game). The first iteration always completes. A forced move under a time limit (and no
//!   depth limit) is answered at once with a depth-1 score. With no legal square the result is
//!   a pass; with the game over it is a pass with the final score.
//! - The caller's [`Position`] is never changed: the search works on copies.
//!
//! # Design
//! One file per concern: [`reference`](mod@reference) (the slow oracles and the reference
//! algorithms), `alphabeta` (alpha-beta and PVS with the table), [`quiescence`], [`ordering`]
//! (the staged move picker), `heuristics` (killers and history), `pv` (triangular PV table),
//! `root` (tie rule, windows, multi-PV, partial iterations), `deepening` (iterative deepening
//! and aspiration), `threads` (Lazy SMP), `endgame` (handing the root to `othello-endgame`),
//! `limits` and the clock, `stats`. The hot path works on raw side-relative bitboards with the
//! rules crate's [`movegen`](othello_rules::movegen) and never allocates; `kernel` compiles it
//! once per move-generation back end (as the endgame solver does), so that the back end's move
//! generation and flips inline into it, and picks the copy once per call from the root. The reference
//! algorithms ([`Algorithm::Minimax`], [`Algorithm::Negamax`]) use no table and no ordering;
//! the integration tests check every pruning search against them on random positions.
//!
//! ```
//! use othello_eval::Discs; // centi-discs, as every evaluator
//! use othello_rules::Position;
//! use othello_search::{Algorithm, Limits, SearchConfig, Searcher, reference};
//!
//! let pos = Position::start();
//! let config = SearchConfig::default().with_algorithm(Algorithm::Pvs);
//! let mut searcher = Searcher::new(Discs, config);
//! let mut depths = Vec::new();
//! let result = searcher.search(&pos, &Limits::depth(5), |it| depths.push(it.depth));
//! assert_eq!(depths, [1, 2, 3, 4, 5]);
//! // PVS returns exactly the plain negamax value.
//! assert_eq!(result.score, reference::negamax(&pos, 5, &Discs));
//! assert!(pos.is_legal(result.best_move));
//! ```
#![deny(missing_docs)]
#![deny(unsafe_code)]

mod alphabeta;
mod config;
mod deepening;
mod endgame;
mod evalcache;
mod heuristics;
#[allow(unsafe_code, reason = "entering the copies compiled with x86 target features")]
mod kernel;
mod limits;
pub mod ordering;
pub mod probcut;
mod pv;
pub mod quiescence;
pub mod reference;
mod result;
mod root;
pub mod score;
mod searcher;
mod stats;
mod threads;
mod worker;

pub use config::{Algorithm, SearchConfig};
/// The endgame solver's ordering evaluation ([`SearchConfig::solver_ordering`]).
pub use othello_endgame::OrderingEval;
pub use othello_engine::{Confidence, LEVEL_CONFIDENCES, ParseSelectivityError, Selectivity};
pub use othello_engine::{GameClock, Limits, Player, Progress, Reply, TimeLimit};
pub use othello_rules::{Move, Position};
pub use reference::{Horizon, minimax, negamax};
pub use result::{Iteration, SearchResult};
pub use searcher::Searcher;
pub use stats::SearchStats;
