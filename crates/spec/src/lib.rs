//! Engine specs for the Othello toolkit: the one grammar `NAME[:key=value[,key=value]...]`
//! that names a player and its settings (`pvs:depth=10,eval=pattern,tt=64`,
//! `mcts:playouts=5000,seed=7`, `random:seed=1`), and the closed set of concrete players it
//! builds ([`Engine`]: the alpha-beta searcher over a [`SpecEval`], Monte Carlo tree search,
//! the random player). This is the one place the toolkit picks concrete types; the algorithm
//! crates stay generic. The `othello` command, and any program that takes an engine from its
//! user (a GUI, a binding, a tuner), parses specs here and reports a [`SpecError`].
//!
//! ```
//! use othello_engine::Player;
//! use othello_rules::Position;
//! use othello_spec::{Engine, Spec, SpecError};
//!
//! // The grammar alone: a name and keys, read one by one.
//! let mut spec: Spec = "pvs:depth=6,tt=16".parse().unwrap();
//! assert_eq!(spec.name, "pvs");
//! assert_eq!(spec.get::<u32>("depth", "a depth").unwrap(), Some(6));
//!
//! // A player with the limits of its spec, driven through the `Player` trait.
//! let mut engine: Engine = "pvs:depth=3,eval=mobility*10".parse().unwrap();
//! let start = Position::start();
//! let mut depths = Vec::new();
//! let reply = engine.think_with(&start, &engine.limits(), &mut |p| depths.push(p.depth));
//! assert!(start.is_legal(reply.best_move));
//! assert_eq!(depths, [1, 2, 3]);
//!
//! // Bad input is a typed error with a one-line message.
//! let err = "pvs:depth=0".parse::<Engine>().err().unwrap();
//! assert!(matches!(err, SpecError::BadValue { .. }));
//! assert_eq!(err.to_string(), "bad value '0' for key 'depth' of engine 'pvs': expected 1 to 64");
//! ```
//!
//! Names and keys (unknown ones are errors that list the known ones):
//! - `pvs`, `alphabeta` (alias `ab`), `negamax`, `minimax`: [`SEARCH_KEYS`]; without `depth`,
//!   `time` or `nodes` a search goes to [`DEFAULT_DEPTH`]; `pvs` and `alphabeta` extend corner
//!   moves at the horizon unless `quiescence=off` ([`DEFAULT_QUIESCENCE`]).
//! - `mcts`: [`MCTS_KEYS`]; `nodes` (alias `playouts`) is the iteration budget.
//! - `random`: [`RANDOM_KEYS`].
//! - every engine: [`BOOK_KEYS`], an opening book (`book=FILE`, `book_margin=DISCS`,
//!   `book_seed=N`): in a position of the book the player plays a book move ([`Booked`]).
//!
//! The `eval` key is the evaluation crate's text form, `default`, or `pattern` (with
//! `weights=PATH`, and `+terms`); see [`SpecEval`]. A table size (`tt`) is checked against the
//! memory available and a thread count against [`resources::MAX_THREADS`].
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod booked;
mod engine;
mod error;
mod eval;
pub mod resources;
mod spec;

pub use booked::{BOOK_KEYS, Booked, DEFAULT_BOOK_MARGIN};
pub use engine::{
    DEFAULT_DEPTH, DEFAULT_QUIESCENCE, Engine, MCTS_KEYS, NAMES, RANDOM_KEYS, SEARCH_KEYS, mcts_config,
    search_algorithm, search_config, search_limits,
};
pub use error::SpecError;
pub use eval::SpecEval;
pub use spec::{LIMIT_KEYS, Spec};
