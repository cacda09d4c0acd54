//! Exact endgame solver for Othello on 4x4, 6x6 and 8x8 boards, after Edax's `endgame.c`.
//!
//! Given a position, [`Solver::solve`] finds the final disc difference with best play by both
//! sides (empty squares credited to the winner, from the side to move) and a best move, or, in
//! [`SolveMode::WinLossDraw`], only whether the side to move wins, draws or loses.
//! [`Solver::score_moves`] scores every move (the OBF listing) and [`Solver::solve_window`] is
//! the fail-soft window search a midgame search calls near the end of the game.
//!
//! # Design
//! Everything runs on raw side-relative bitboards `(player, opponent)` with the fast move
//! generator of `othello_rules::movegen`, in layers by number of empty squares (see `search`):
//! - **root**: narrow aspiration windows around a first guess, each a PVS over the moves (the
//!   table move, then an ordering evaluation's order when there is one); a later move must
//!   beat the best, a move with a lower square index only has to equal it, so ties go to the
//!   lowest index whatever the search order or the thread timing;
//! - **selective pre-solve** (with an ordering evaluation, from 18 empty squares): a first
//!   search with probable cut-offs by the evaluation (Edax's and Egaroucid's probcut) gives the
//!   first guess, which the exact search then only has to confirm; its table entries are
//!   tagged as selective and never serve the exact search as bounds;
//! - **far from the leaves** (more than 6 empty squares): stop check, stability cut-off,
//!   transposition table (a shared [`othello_table::TranspositionTable`] from 11 empty squares,
//!   a small lock-free table of each thread's own from 8 to 10; every exact entry is a
//!   full-depth bound, so any hit is usable), enhanced transposition cut-offs, fastest-first
//!   move ordering (fewest opponent moves, corners counted twice, then the opponent's potential
//!   mobility, parity and square quality), from 14 empty squares combined with a shallow
//!   search by the ordering evaluation (or a built-in mobility/corner one), PVS inside open
//!   windows, null windows elsewhere;
//! - **near the leaves** (5 and 6): no table, no sorting: odd quadrants first (parity), then
//!   Edax's static square order, with the stability cut-off;
//! - **last four squares**: no move generation, parity order; the last square is scored from a
//!   flip count alone (a 2 KiB line table), Edax's `count_last_flip`.
//!
//! Threads: lazy SMP at the root with ABDADA-style busy marks. Helper threads take the root
//! moves in the cheap fastest-first order and fill the shared table; the main thread's result
//! is the one returned, so scores and best moves are those of a single-threaded solve.
//! [`Solver::score_moves`] instead shares the moves among the threads.
//!
//! Table: the solver owns its table, of any [`othello_table::Table`] type:
//! [`othello_table::TranspositionTable`] by default (`Solver<T = TranspositionTable>`), or e.g.
//! the lock-free single-thread [`othello_table::LocalTable`] through
//! [`Solver::with_table_type`]. Threads run only on a table that can be shared
//! ([`othello_table::Table::as_shared`]); any other table solves on one thread, with the same
//! results and node counts as the default table on one thread.
//!
//! The recursion is compiled once per move-generation back end of the rules crate (portable,
//! AVX2, BMI2, AVX-512); `OTHELLO_BACKEND=portable|avx2|bmi2|avx512` forces one
//! (`OTHELLO_PORTABLE=1` the portable one). The FFO suite is in [`ffo`].
//!
//! ```
//! use othello_endgame::{SolveMode, Solver, SolverConfig};
//! use othello_rules::{BoardSize, Position};
//!
//! let mut solver = Solver::new(SolverConfig::default().with_tt_mib(4).with_threads(1));
//! // 4x4 Othello: white wins 11-3 with 2 empty squares, so black's score is -10.
//! let start = Position::start_of(BoardSize::Four);
//! let solution = solver.solve(&start, SolveMode::Exact);
//! assert_eq!(solution.score, -10);
//! assert_eq!(solver.solve(&start, SolveMode::WinLossDraw).score, -1);
//!
//! // FFO #1: G8 wins by 18.
//! let ffo1 = othello_endgame::ffo::position(1).unwrap();
//! let solution = solver.solve(&ffo1.position, SolveMode::Exact);
//! assert_eq!((solution.best_move.to_string().as_str(), solution.score), ("g8", 18));
//! ```
#![deny(missing_docs)]
#![deny(unsafe_code)]

mod cache;
pub mod ffo;
mod last;
mod layout;
mod search;
mod solver;
mod stability;

pub use othello_engine::Limits;
pub use search::{OrderingEval, Techniques};
pub use solver::{Solution, SolveMode, Solver, SolverConfig};
