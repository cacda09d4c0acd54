//! The contract every Othello player of the toolkit shares: [`Limits`] (depth, nodes, time,
//! a game clock, a stop flag), the time manager [`allocate`], and the [`Player`] trait with its
//! [`Reply`]. Also the baseline [`RandomPlayer`].
//!
//! The crate sits just above `othello-rules` and below every algorithm crate: the alpha-beta
//! `Searcher` (`othello-search`), the endgame `Solver` (`othello-endgame`) and `Mcts`
//! (`othello-mcts`) all take these [`Limits`], and the searcher and MCTS implement [`Player`],
//! so a match runner, a GUI protocol or a tuner can drive any of them through one interface.
//!
//! Units: a [`Reply::score`] is in centi-discs from the side to move; a finished game is worth
//! its final disc difference x100 (empty squares to the winner). Nodes: see [`Limits`] and
//! `docs/conventions.md`.
//!
//! ```
//! use othello_engine::{Limits, Player, RandomPlayer};
//! use othello_rules::Position;
//!
//! let mut player = RandomPlayer::new(42);
//! let start = Position::start();
//! let reply = player.think(&start, &Limits::depth(1));
//! assert!(start.is_legal(reply.best_move));
//! assert_eq!(reply.score, None); // a random player has no opinion
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod limits;
mod player;
mod selectivity;

pub use limits::{GameClock, Limits, MAX_RESERVE, MOVE_OVERHEAD, TimeLimit, allocate};
pub use othello_rules::{Move, Position};
pub use player::{MctsFigures, Player, Progress, RandomPlayer, Reply};
pub use selectivity::{Confidence, LEVEL_CONFIDENCES, MAX_FULL_WIDTH_PLIES, ParseSelectivityError, Selectivity};
