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

/// Asks the CPU to bring the memory of `value` (the cache lines of its first and last byte)
/// into its caches ahead of a read: a hint that changes no value. Hashed tables call it with
/// the bucket of a position they will probe soon (perft's cache, the transposition table), so
/// that several buckets load at once instead of one miss after another.
///
/// ```
/// let buckets = vec![[0u64; 12]; 1024];
/// othello_rules::hash::prefetch(&buckets[othello_rules::hash::hash_pair(1, 2) as usize & 1023]);
/// ```
#[inline(always)]
pub fn prefetch<T>(value: &T) {
    let first = std::ptr::from_ref(value).cast::<i8>();
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        let last = first.wrapping_add(size_of::<T>().saturating_sub(1));
        // A value no larger than its alignment (and than a line) never spans two lines: known
        // at compile time, as for perft's aligned buckets.
        let one_line = size_of::<T>() <= 64 && size_of::<T>() <= align_of::<T>();
        let second = !one_line && (first as usize ^ last as usize) >= 64;
        // SAFETY: `_mm_prefetch` needs SSE, which every x86-64 CPU has; a prefetch never
        // faults, reads nothing into a register and writes no memory, whatever the address
        // (here both addresses are inside `value` anyway).
        unsafe {
            _mm_prefetch::<_MM_HINT_T0>(first);
            if second {
                _mm_prefetch::<_MM_HINT_T0>(last);
            }
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = first;
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

    /// A prefetch reads and writes nothing: values of every size and alignment (zero-sized,
    /// one byte, spanning two or more lines, at every offset in a line) are the same after.
    #[test]
    fn prefetch_changes_no_value() {
        let bytes: Vec<u8> = (0..=255).collect();
        for b in &bytes {
            prefetch(b);
        }
        let wide: Vec<[u8; 96]> = (0..8u8).map(|i| [i; 96]).collect();
        for w in &wide {
            prefetch(w);
        }
        prefetch(&());
        prefetch(&[0u64; 64]);
        assert_eq!(bytes, (0..=255).collect::<Vec<u8>>());
        assert!(
            wide.iter()
                .enumerate()
                .all(|(i, w)| w.iter().all(|&b| usize::from(b) == i))
        );
    }

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
