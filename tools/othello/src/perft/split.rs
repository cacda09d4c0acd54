//! Splitting a perft tree for distributed counting: the distinct positions a fixed number of
//! plies below a root, merged under the board's symmetries, each with its multiplicity (the
//! number of move sequences that reach it), plus the games that ended above that ply.
//!
//! For `depth >= ply`, `perft(root, depth)` equals `ended + sum(count * perft(pos, depth - ply))`:
//! a symmetric image has the same perft count, and a game that ends before the depth is one leaf.

use othello_rules::{Position, canonical};
use std::collections::HashMap;

/// The positions `ply` plies below a root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Split {
    /// Distinct positions (one representative per symmetry class) with their multiplicities,
    /// ordered by their canonical key.
    pub positions: Vec<(Position, u64)>,
    /// Move sequences that ended the game above `ply` (each one leaf at any deeper depth).
    pub ended: u64,
}

/// Expands `root` by `ply` plies (a pass is a ply), merging symmetric positions at every level.
pub fn split(root: &Position, ply: u32) -> Split {
    let mut level: Vec<(Position, u64)> = vec![(*root, 1)];
    let mut ended = 0u64;
    for _ in 0..ply {
        let mut next: HashMap<(u64, u64), (Position, u64)> = HashMap::new();
        for (pos, mult) in level {
            let moves = pos.moves();
            if moves.is_empty() {
                ended += mult;
                continue;
            }
            for m in moves {
                let child = pos.play_unchecked(m);
                let (p, o) = canonical(child.player().0, child.opponent().0, child.size());
                let rep = Position::from_raw_unchecked(p, o, child.side_to_move(), child.size());
                next.entry((p, o)).or_insert((rep, 0)).1 += mult;
            }
        }
        let mut sorted: Vec<((u64, u64), (Position, u64))> = next.into_iter().collect();
        sorted.sort_unstable_by_key(|&(k, _)| k);
        level = sorted.into_iter().map(|(_, v)| v).collect();
    }
    Split {
        positions: level,
        ended,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use othello_rules::{BoardSize, perft::perft};

    fn recombine(root: &Position, ply: u32, depth: u32) -> u64 {
        let s = split(root, ply);
        s.ended + s.positions.iter().map(|(p, m)| m * perft(p, depth - ply)).sum::<u64>()
    }

    #[test]
    fn recombined_counts_equal_perft() {
        let start = Position::start();
        for ply in 0..=5 {
            for depth in ply..=7 {
                assert_eq!(
                    recombine(&start, ply, depth),
                    perft(&start, depth),
                    "ply {ply} depth {depth}"
                );
            }
        }
        // 4x4 games end early and pass often: the ended count matters there.
        let small = Position::start_of(BoardSize::Four);
        for ply in 0..=12 {
            assert_eq!(recombine(&small, ply, 12), 57436, "4x4 ply {ply}");
        }
    }

    #[test]
    fn multiplicities_count_every_path_and_symmetry_merges() {
        let start = Position::start();
        // The four first moves are symmetric images of each other.
        let s = split(&start, 1);
        assert_eq!(s.positions.len(), 1);
        assert_eq!(s.positions[0].1, 4);
        for ply in 1..=4 {
            let s = split(&start, ply);
            assert_eq!(s.ended, 0);
            assert_eq!(s.positions.iter().map(|p| p.1).sum::<u64>(), perft(&start, ply));
            assert!((s.positions.len() as u64) < perft(&start, ply));
        }
    }
}
