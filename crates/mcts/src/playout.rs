//! Playouts: finishing a game with cheap moves.
//!
//! The loop works on raw side-relative bitboards with the dispatching
//! [`othello_rules::movegen`] primitives (AVX2/BMI when the CPU has them) and allocates
//! nothing. A random move is the `k`-th set bit of the legal-move set (in square-index order)
//! for a uniform `k` drawn with `random_range(0..count)`, found by a branch-free broadword
//! select. A side without a move passes without consuming a random draw; the game ends when
//! neither side can move.

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
                if c != 0 && rng.random::<f64>() >= epsilon {
                    c
                } else {
                    moves
                }
            }
        };
        let sq = pick(choice, rng);
        let f = movegen::flips(player, opponent, sq);
        let next_player = opponent ^ f;
        opponent = player ^ f ^ (1 << sq);
        player = next_player;
        swapped = !swapped;
    }
}

/// A uniformly chosen set bit of `bits` (not empty): the `k`-th lowest for
/// `k = rng.random_range(0..bits.count_ones())`.
#[inline]
pub(crate) fn pick<R: Rng + ?Sized>(bits: u64, rng: &mut R) -> u32 {
    let prefix = byte_prefix_counts(bits);
    let count = (prefix >> 56) as u32;
    select(bits, prefix, rng.random_range(0..count))
}

const L8: u64 = 0x0101_0101_0101_0101;
const H8: u64 = 0x8080_8080_8080_8080;

/// Byte `i` of the result is the number of set bits of `x` in bytes `0..=i` (so the top byte is
/// the population count). The crate is compiled for the baseline target, where `count_ones` is
/// this same computation, so the prefix comes almost free.
#[inline]
fn byte_prefix_counts(x: u64) -> u64 {
    let mut b = x - ((x >> 1) & 0x5555_5555_5555_5555);
    b = (b & 0x3333_3333_3333_3333) + ((b >> 2) & 0x3333_3333_3333_3333);
    b = (b + (b >> 4)) & 0x0f0f_0f0f_0f0f_0f0f;
    b.wrapping_mul(L8)
}

/// The index of the `k`-th set bit of `x` (0-based, lowest first), `k < x.count_ones()`,
/// given `prefix = byte_prefix_counts(x)`. Branch-free broadword selection (after Vigna,
/// "Broadword implementation of rank/select queries"): the byte holding the bit is the number of
/// bytes whose prefix count is at most `k`, found with one subtraction over all eight bytes, and
/// a 2 KiB table finishes inside the byte. A bit-clearing loop mispredicts its exit on almost
/// every move; playouts ran about 8% slower with it.
#[inline]
pub(crate) fn select(x: u64, prefix: u64, k: u32) -> u32 {
    // Each byte becomes 0x80 + k - prefix_i, in 0x40..=0xbf (prefix_i <= 64, k < 64): no borrow
    // crosses bytes, and the high bit says prefix_i <= k.
    let t = L8.wrapping_mul(u64::from(k) | 0x80).wrapping_sub(prefix);
    let byte = (((t & H8) >> 7).wrapping_mul(L8) >> 56) as u32;
    let shift = byte * 8;
    let before = ((prefix << 8) >> shift) as u32 & 0xff;
    shift + u32::from(SELECT_IN_BYTE[((x >> shift) & 0xff) as usize][((k - before) & 7) as usize])
}

/// `SELECT_IN_BYTE[v][r]`: the position of the `r`-th set bit of the byte `v` (8 when absent).
static SELECT_IN_BYTE: [[u8; 8]; 256] = {
    let mut t = [[8u8; 8]; 256];
    let mut v = 0;
    while v < 256 {
        let mut r = 0;
        let mut bit = 0;
        while bit < 8 {
            if v >> bit & 1 != 0 {
                t[v][r] = bit as u8;
                r += 1;
            }
            bit += 1;
        }
        v += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    use rand::SeedableRng;
    use rand::rngs::SmallRng;

    /// The obvious selection: clear the `k` lowest set bits.
    fn select_slow(mut x: u64, k: u32) -> u32 {
        for _ in 0..k {
            x &= x - 1;
        }
        x.trailing_zeros()
    }

    #[test]
    fn select_matches_the_obvious_loop() {
        let mut rng = SmallRng::seed_from_u64(5);
        let mut words = vec![1u64, 1 << 63, u64::MAX, 0x8000_0000_0000_0001, 0x00ff_0000_0000_ff00];
        for _ in 0..20_000 {
            // Sparse and dense words alike.
            let w = match rng.random_range(0..3) {
                0 => rng.random::<u64>(),
                1 => rng.random::<u64>() & rng.random::<u64>() & rng.random::<u64>(),
                _ => rng.random::<u64>() | rng.random::<u64>(),
            };
            words.push(w);
        }
        for w in words.into_iter().filter(|&w| w != 0) {
            let prefix = byte_prefix_counts(w);
            assert_eq!(prefix >> 56, u64::from(w.count_ones()));
            for k in 0..w.count_ones() {
                assert_eq!(select(w, prefix, k), select_slow(w, k), "{w:#x} {k}");
            }
        }
    }
}
