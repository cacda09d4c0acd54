//! Position hashing.
//!
//! The key is a strong mix of the two absolute bitboards and the side to move (splitmix64's
//! finaliser applied twice). It does the job of a Zobrist key (well spread bits, equal
//! positions hash equally) at the cost of a few multiplications and no table lookups, and needs
//! no incremental update. Tables that must not give false hits compare the full position too.

use crate::Color;

/// splitmix64's finaliser: a bijection on `u64` with good avalanche.
#[inline]
pub const fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The hash of a pair of bitboards (in either order meaning: the pair is ordered).
#[inline]
pub const fn hash_pair(a: u64, b: u64) -> u64 {
    mix64(a ^ mix64(b ^ 0x9e37_79b9_7f4a_7c15))
}

/// The hash of a position given as absolute bitboards and the side to move.
#[inline]
pub const fn hash_position(black: u64, white: u64, side: Color) -> u64 {
    let h = hash_pair(black, white);
    match side {
        Color::Black => h,
        Color::White => h ^ 0x5bd1_e995_2b3f_4c17,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distinct_inputs_distinct_hashes() {
        let mut seen = std::collections::HashSet::new();
        for a in 0..64 {
            for b in 0..64 {
                if a != b {
                    assert!(seen.insert(hash_position(1 << a, 1 << b, Color::Black)));
                    assert!(seen.insert(hash_position(1 << a, 1 << b, Color::White)));
                }
            }
        }
    }
}
