//! Monte Carlo tree search (UCT) for Othello.
//!
//! The second family of players of the toolkit, beside alpha-beta: [`Mcts`] grows a tree of
//! positions by repeated iterations of selection (UCT), expansion (one move at a time),
//! simulation ([`random_playout`], or the lighter-than-search [`PlayoutPolicy::CornersFirst`])
//! and backpropagation, and plays the most visited root move.
//!
//! Design:
//! - **Arena tree** ([`Tree`]): nodes in a `Vec`, linked by `u32` indices, children in a
//!   `SmallVec`; a node cap bounds memory (a full tree stops expanding and keeps playing out
//!   from its leaves).
//! - **Turns and rewards**: a node holds its [`Position`](othello_rules::Position) (board and
//!   side to move). Its `W` is counted for the player who made the move into it (win 1, draw
//!   1/2, loss 0), so UCT at a parent maximises the children's `W / N` from the parent's side
//!   to move. A pass is an explicit move: a node whose side cannot move while the opponent can
//!   has exactly one child, the pass (the same colour may then be the mover of two nodes in a
//!   row). A node where neither side can move is terminal: it has no children and its exact
//!   result is backed up with no playout.
//! - **Choice**: the most visited root child, ties to the lowest square index. A game that is
//!   over returns [`Move::Pass`](othello_rules::Move::Pass); a single legal move (a square, or
//!   the pass) is returned at once without search.
//! - **Honest limits**: rewards are win/draw/loss, so among winning moves the search does not
//!   prefer the larger margin; there is no solver, RAVE or evaluation bias, and root
//!   parallelism duplicates work below the root (see `docs/mcts.md`).
//! - **Playouts** run on raw bitboards with the rules crate's fast move generator and never
//!   allocate; the generator is `rand`'s `SmallRng`, seeded, so a search with a playout budget
//!   is reproducible for a given `rand` version and platform.
//! - **Limits**: the toolkit's shared [`Limits`], given to each
//!   search: a node budget (an MCTS node is an iteration), a time budget or a game clock (less a
//!   safety margin) and a stop flag, checked between iterations; an iteration is never cut in
//!   half. `Mcts` implements [`Player`].
//! - **Tree reuse**: [`Mcts::advance`] records the moves played; the next search keeps the
//!   subtree of the new position.
//! - **Root parallelism**: independent trees on `threads` threads, root statistics summed.
//!
//! ```
//! use othello_mcts::{Limits, Mcts, MctsConfig};
//! use othello_rules::Position;
//!
//! let mut mcts = Mcts::new(MctsConfig::default().with_seed(42));
//! let start = Position::start();
//! let result = mcts.search(&start, &Limits::nodes(2_000));
//! assert!(start.is_legal(result.best_move));
//! assert_eq!(result.iterations, 2_000);
//! // The four opening moves (d3 c4 f5 e6) were all expanded.
//! assert_eq!(result.stats.root_children.len(), 4);
//! let visits: u64 = result.stats.root_children.iter().map(|c| c.1).sum();
//! assert_eq!(visits, 2_000);
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod config;
mod playout;
mod result;
mod search;
mod tree;

pub use config::{MctsConfig, PlayoutPolicy};
pub use othello_engine::{Limits, MctsFigures, Player, Reply};
pub use playout::{playout, random_playout};
pub use result::{MctsResult, MctsStats};
pub use search::Mcts;
pub use tree::{NodeId, Tree};
