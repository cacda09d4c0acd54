//! Quiescence search adapted to Othello (an experiment, off by default).
//!
//! In chess the horizon is unstable during captures; in Othello it is unstable when a corner is
//! about to be taken: a corner disc is stable and often swings the evaluation by several discs.
//! At the horizon (depth 0) the side to move may therefore *stand pat* (take the evaluation) or
//! play a **noisy move**, defined here as a move onto a corner of the board. Noisy moves are
//! extended for at most [`QUIESCENCE_PLIES`] plies; the value of a quiescence node is
//!
//! ```text
//! q(pos, n) = final score                                if the game is over
//!           = eval(pos)                                 if n = 0 or no corner move
//!           = max(eval(pos), max over corner moves m of -q(pos after m, n - 1))
//! ```
//!
//! Passes are not extended (a side that must pass stands pat). The bound keeps the extension
//! at most `4^4` nodes per horizon leaf (there are four corners), in practice far fewer.
//! [`crate::reference::negamax_with`] and [`crate::reference::minimax_with`] compute the same
//! definition slowly, and the search must agree with them exactly.

use crate::kernel::Kernel;
use crate::worker::Worker;
use othello_eval::Evaluator;
use othello_rules::{BoardSize, movegen};
use othello_table::Table;

/// The most plies quiescence extends below the horizon.
pub const QUIESCENCE_PLIES: u32 = 4;

/// The noisy moves among `moves` (legal squares) on a board of `size`: the corner moves.
#[inline]
pub const fn noisy_moves(moves: u64, size: BoardSize) -> u64 {
    moves & size.corners().0
}

impl<E: Evaluator, T: Table> Worker<'_, E, T> {
    /// A quiescence node below the horizon (counted as a node and a quiescence node), with
    /// the move generation of `G` (its recursion goes through `G::quiesce`).
    #[inline(always)]
    pub(crate) fn quiesce_body<G: Kernel>(
        &mut self,
        p: u64,
        o: u64,
        plies: u32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        self.stats.quiescence_nodes += 1;
        if self.enter() {
            return 0;
        }
        let moves = G::legal_moves(p, o) & self.mask;
        if moves == 0 && G::legal_moves(o, p) & self.mask == 0 {
            return self.final_value(p, o);
        }
        self.quiesce_moves::<G>(p, o, moves, plies, ply, alpha, beta)
    }

    /// Fail-soft quiescence of a position whose legal squares are `moves` and which is not over.
    #[allow(clippy::too_many_arguments, reason = "the hot recursion passes its state explicitly")]
    #[inline(always)]
    pub(crate) fn quiesce_moves<G: Kernel>(
        &mut self,
        p: u64,
        o: u64,
        moves: u64,
        plies: u32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        let stand = self.evaluate_moves(p, o, moves, ply);
        let mut noisy = moves & self.corners;
        if plies == 0 || noisy == 0 || stand >= beta {
            return stand;
        }
        let mut best = stand;
        alpha = alpha.max(stand);
        while noisy != 0 {
            let sq = noisy.trailing_zeros();
            noisy &= noisy - 1;
            let f = G::flips(p, o, sq);
            let s = -G::quiesce(self, o ^ f, p ^ f ^ (1u64 << sq), plies - 1, ply + 1, -beta, -alpha);
            if self.aborted {
                return 0;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// Quiescence without pruning (for the reference algorithms): the definition, literally.
    pub(crate) fn quiesce_plain(&mut self, p: u64, o: u64, moves: u64, plies: u32, ply: usize) -> i32 {
        let mut best = self.evaluate(p, o, ply);
        if plies == 0 {
            return best;
        }
        let mut noisy = moves & self.corners;
        while noisy != 0 {
            let sq = noisy.trailing_zeros();
            noisy &= noisy - 1;
            let f = movegen::flips(p, o, sq);
            let (np, no) = (o ^ f, p ^ f ^ (1u64 << sq));
            self.stats.quiescence_nodes += 1;
            if self.enter() {
                return 0;
            }
            let child_moves = movegen::legal_moves(np, no) & self.mask;
            let v = if child_moves == 0 && movegen::legal_moves(no, np) & self.mask == 0 {
                self.final_value(np, no)
            } else {
                self.quiesce_plain(np, no, child_moves, plies - 1, ply + 1)
            };
            if self.aborted {
                return 0;
            }
            best = best.max(-v);
        }
        best
    }
}
