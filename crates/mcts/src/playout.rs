//! Playouts: finishing a game with cheap moves.
//!
//! The loop works on raw side-relative bitboards with the dispatching
//! [`othello_rules::movegen`] primitives (AVX2/BMI when the CPU has them) and allocates
//! nothing. A random move is the `k`-th set bit of the legal-move set for a uniform `k` drawn
//! with `random_range(0..count)`, found by clearing `k` low bits; a legal-move set rarely holds
//! more than 15 squares, so this beats a table or `pdep` emulation. A side without a move
//! passes without consuming a random draw; the game ends when neither side can move.

use crate::PlayoutPolicy;
use othello_rules::{Position, final_score, movegen};
use rand::Rng;

/// One random playout from `pos` to the end of the game: every ply picks a legal move
/// uniformly (a side without moves passes). Returns the final score in discs, empty squares
/// credited to the winner ([`Position::final_score`]), from the side to move at `pos`.
///
/// A finished `pos` returns its final score at once. The move sequence is a function of the
/// generator's output, so a seeded generator reproduces it (for a given `rand` version): the
/// `k`-th legal square in index order is played for `k = rng.random_range(0..count)` with
/// `count: u32`.
///
/// ```
/// use othello_mcts::random_playout;
/// use othello_rules::Position;
/// use rand::{SeedableRng, rngs::SmallRng};
///
/// let mut rng = SmallRng::seed_from_u64(7);
/// let score = random_playout(&Position::start(), &mut rng);
/// assert!((-64..=64).contains(&score));
/// ```
pub fn random_playout<R: Rng + ?Sized>(pos: &Position, rng: &mut R) -> i32 {
    playout(pos, PlayoutPolicy::Random, rng)
}

/// One playout from `pos` to the end with `policy`; the result is as in [`random_playout`].
pub fn playout<R: Rng + ?Sized>(pos: &Position, policy: PlayoutPolicy, rng: &mut R) -> i32 {
    let size = pos.size();
    playout_raw(
        pos.player().0,
        pos.opponent().0,
        size.mask().0,
        size.corners().0,
        size.squares(),
        policy,
        rng,
    )
}

/// The playout loop on raw bitboards: `player` to move, `mask` the board, `squares` its size.
#[inline]
pub(crate) fn playout_raw<R: Rng + ?Sized>(
    mut player: u64,
    mut opponent: u64,
    mask: u64,
    corners: u64,
    squares: u32,
    policy: PlayoutPolicy,
    rng: &mut R,
) -> i32 {
    // Whether `player` is currently the side to move at the start, to orient the final score.
    let mut swapped = false;
    loop {
        // A full board ends the game without two move generations.
        let mut moves = if player | opponent == mask {
            0
        } else {
            movegen::legal_moves(player, opponent) & mask
        };
        if moves == 0 {
            let theirs = if player | opponent == mask {
                0
            } else {
                movegen::legal_moves(opponent, player) & mask
            };
            if theirs == 0 {
                let s = final_score(player.count_ones(), opponent.count_ones(), squares);
                return if swapped { -s } else { s };
            }
            std::mem::swap(&mut player, &mut opponent);
            swapped = !swapped;
            moves = theirs;
        }
        let choice = match policy {
            PlayoutPolicy::Random => moves,
            PlayoutPolicy::CornersFirst { epsilon } => {
                let c = moves & corners;
                if c != 0 && rng.random::<f64>() >= epsilon { c } else { moves }
            }
        };
        let sq = nth_set_bit(choice, rng.random_range(0..choice.count_ones()));
        let f = movegen::flips(player, opponent, sq);
        let next_player = opponent ^ f;
        opponent = player ^ f ^ (1 << sq);
        player = next_player;
        swapped = !swapped;
    }
}

/// The index of the `k`-th set bit of `bits` (0-based, lowest first); `k < bits.count_ones()`.
#[inline]
pub(crate) fn nth_set_bit(mut bits: u64, k: u32) -> u32 {
    for _ in 0..k {
        bits &= bits - 1;
    }
    bits.trailing_zeros()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nth_set_bit_walks_in_index_order() {
        let bits = 1u64 << 3 | 1 << 17 | 1 << 40 | 1 << 63;
        let found: Vec<u32> = (0..4).map(|k| nth_set_bit(bits, k)).collect();
        assert_eq!(found, vec![3, 17, 40, 63]);
    }
}
