//! Per-board-size geometry the solver needs: the board mask, the quadrants used for parity,
//! the static square order (the rules crate's square classes) as ranks used to order moves near
//! the leaves, and the squares that a line cannot cross (for stability).

use othello_rules::BoardSize;

/// Everything size-dependent, computed at compile time for each of the three sizes.
pub(crate) struct Layout {
    /// The board size (part of every table key).
    pub size: BoardSize,
    /// The squares of the board.
    pub mask: u64,
    /// The number of squares (16, 36, 64): the total of a final score.
    pub squares: i32,
    /// The four corners.
    pub corners: u64,
    /// The border squares.
    pub edges: u64,
    /// The four quadrants (side/2 x side/2 blocks), for parity.
    pub quadrants: [u64; 4],
    /// `quadrant_bit[sq]`: bit `q` for the quadrant `q` holding `sq` (0 off the board), so a
    /// move on `sq` flips the parity of its quadrant with one XOR.
    pub quadrant_bit: [u8; 64],
    /// A small static value per square (higher is better), from its class in the static
    /// order ([`BoardSize::square_classes`]).
    pub square_value: [i32; 64],
    /// `rank[sq]`: the place of the board square `sq` in the static order (class, then square
    /// index), so that a set of empty squares kept as rank bits (bit `rank[sq]` for `sq`) is
    /// walked in static order by its lowest bits first. Off-board squares rank after every
    /// board square (they are never empty).
    pub rank: [u8; 64],
    /// `square_at[r]`: the square of rank `r` (the inverse of [`Layout::rank`]).
    pub square_at: [u8; 64],
    /// `odd_ranks[parity]`: the rank bits of the squares in the quadrants of `parity`
    /// ([`Layout::parity`] bits).
    pub odd_ranks: [u64; 16],
    /// Squares with a horizontal neighbour off the board (cannot be flipped horizontally).
    pub wall_h: u64,
    /// Squares with a vertical neighbour off the board.
    pub wall_v: u64,
    /// Squares with a diagonal neighbour off the board (the border).
    pub wall_d: u64,
}

impl Layout {
    /// The layout of `size`.
    #[inline]
    pub(crate) fn of(size: BoardSize) -> &'static Layout {
        match size {
            BoardSize::Four => &LAYOUT_4,
            BoardSize::Six => &LAYOUT_6,
            BoardSize::Eight => &LAYOUT_8,
        }
    }

    /// The static order's square classes ([`BoardSize::square_classes`]), best first, which
    /// [`Layout::rank`] and [`Layout::square_value`] follow.
    #[cfg(test)]
    pub(crate) fn classes(&self) -> impl Iterator<Item = u64> {
        self.size.square_classes().iter().map(|c| c.0)
    }

    /// The quadrants with an odd number of empty squares, bit `q` for quadrant `q` (see
    /// [`Layout::quadrant_bit`]); the search keeps it up to date move by move instead.
    #[cfg(test)]
    pub(crate) fn parity(&self, empties: u64) -> u32 {
        let mut parity = 0;
        for (q, quadrant) in self.quadrants.iter().enumerate() {
            parity |= ((empties & quadrant).count_ones() & 1) << q;
        }
        parity
    }

    /// The empty squares `empties` (a bitboard) as rank bits ([`Layout::rank`]), with their
    /// parity ([`Layout::parity`]), as the shallow layer takes them.
    #[inline(always)]
    pub(crate) fn ranks_and_parity(&self, empties: u64) -> (u64, u32) {
        let (mut ranks, mut parity) = (0u64, 0u32);
        let mut m = empties;
        while m != 0 {
            let sq = m.trailing_zeros() as usize;
            ranks |= 1 << self.rank[sq];
            parity ^= self.quadrant_bit[sq] as u32;
            m &= m - 1;
        }
        (ranks, parity)
    }

    /// The empty squares lying in a quadrant with an odd number of empty squares.
    #[inline(always)]
    pub(crate) fn odd_quadrants(&self, empties: u64) -> u64 {
        let mut odd = 0;
        for q in self.quadrants {
            // Branch-free: all ones when the count is odd.
            odd |= q & ((((empties & q).count_ones() & 1) as u64).wrapping_neg());
        }
        odd
    }
}

static LAYOUT_8: Layout = Layout::new(BoardSize::Eight);
static LAYOUT_6: Layout = Layout::new(BoardSize::Six);
static LAYOUT_4: Layout = Layout::new(BoardSize::Four);

impl Layout {
    const fn new(size: BoardSize) -> Layout {
        let order = size.square_classes();
        let side = size.side() as u32;
        let half = side / 2;
        let mask = size.mask().0;
        let mut quadrants = [0u64; 4];
        let mut quadrant_bit = [0u8; 64];
        let mut sq = 0;
        while sq < 64 {
            let (c, r) = (sq % 8, sq / 8);
            if c < side && r < side {
                let q = (r >= half) as usize * 2 + (c >= half) as usize;
                quadrants[q] |= 1 << sq;
                quadrant_bit[sq as usize] = 1 << q;
            }
            sq += 1;
        }
        let mut square_value = [0i32; 64];
        let mut i = 0;
        while i < order.len() {
            let mut sq = 0;
            while sq < 64 {
                if order[i].0 & (1 << sq) != 0 {
                    square_value[sq] = (order.len() - i) as i32;
                }
                sq += 1;
            }
            i += 1;
        }
        // Ranks: board squares in static order, then the off-board squares.
        let mut rank = [0u8; 64];
        let mut square_at = [0u8; 64];
        let mut next = 0;
        let mut i = 0;
        while i <= order.len() {
            let group = if i < order.len() { order[i].0 } else { !mask };
            let mut sq = 0;
            while sq < 64 {
                if group & (1 << sq) != 0 {
                    rank[sq] = next as u8;
                    square_at[next] = sq as u8;
                    next += 1;
                }
                sq += 1;
            }
            i += 1;
        }
        let mut odd_ranks = [0u64; 16];
        let mut parity = 0;
        while parity < 16 {
            let mut sq = 0;
            while sq < 64 {
                if quadrant_bit[sq] as usize & parity != 0 {
                    odd_ranks[parity] |= 1 << rank[sq];
                }
                sq += 1;
            }
            parity += 1;
        }
        let n = side - 1;
        let mut wall_h = 0u64;
        let mut wall_v = 0u64;
        let mut r = 0;
        while r < side {
            wall_h |= 1 << (8 * r) | 1 << (8 * r + n);
            wall_v |= 1 << r | 1 << (8 * n + r);
            r += 1;
        }
        Layout {
            size,
            mask,
            squares: (side * side) as i32,
            corners: size.corners().0,
            edges: size.edges().0,
            quadrants,
            quadrant_bit,
            square_value,
            rank,
            square_at,
            odd_ranks,
            wall_h,
            wall_v,
            wall_d: size.edges().0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_partition_the_board() {
        for size in BoardSize::ALL {
            let l = Layout::of(size);
            let mut all = 0u64;
            for c in l.classes() {
                assert_eq!(all & c, 0, "{size}: classes overlap");
                all |= c;
            }
            assert_eq!(all, l.mask, "{size}");
            assert_eq!(l.quadrants.iter().fold(0, |a, q| a | q), l.mask);
            assert_eq!(
                l.quadrants.iter().map(|q| q.count_ones()).sum::<u32>(),
                l.squares as u32
            );
            assert_eq!(l.wall_h | l.wall_v, l.wall_d);
        }
        // Edax's 8x8 order: corners first, X squares last before the centre.
        let l = Layout::of(BoardSize::Eight);
        let classes: Vec<u64> = l.classes().collect();
        assert_eq!(classes[0], 0x8100_0000_0000_0081);
        assert_eq!(classes[8], 1 << 9 | 1 << 14 | 1 << 49 | 1 << 54);
    }

    #[test]
    fn ranks_follow_the_static_order() {
        for size in BoardSize::ALL {
            let l = Layout::of(size);
            // The reference order: class by class, each in square order.
            let mut order: Vec<usize> = Vec::new();
            for c in l.classes() {
                order.extend((0..64).filter(|&sq| c >> sq & 1 != 0));
            }
            for (r, &sq) in order.iter().enumerate() {
                assert_eq!(l.rank[sq] as usize, r, "{size} square {sq}");
                assert_eq!(l.square_at[r] as usize, sq, "{size} rank {r}");
            }
            // Off-board squares come after, and the two tables are inverse permutations.
            for sq in 0..64 {
                assert_eq!(l.square_at[l.rank[sq] as usize] as usize, sq, "{size}");
                if l.mask >> sq & 1 == 0 {
                    assert!(l.rank[sq] as u32 >= l.squares as u32, "{size} square {sq}");
                }
            }
            for parity in 0..16usize {
                for sq in 0..64 {
                    let want = l.mask >> sq & 1 != 0 && l.quadrant_bit[sq] as usize & parity != 0;
                    assert_eq!(l.odd_ranks[parity] >> l.rank[sq] & 1 != 0, want, "{size} {parity} {sq}");
                }
            }
            let all = (1u64 << (l.squares - 1) << 1).wrapping_sub(1);
            assert_eq!(l.ranks_and_parity(l.mask), (all, l.parity(l.mask)), "{size}");
            assert_eq!(l.ranks_and_parity(0), (0, 0));
            assert_eq!(l.ranks_and_parity(1 << order[5]).0, 1 << 5, "{size}");
            // Random sets: the rank of each square, and the parity.
            let mut x = 0x9e37_79b9_7f4a_7c15u64;
            for _ in 0..1000 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let e = x & (x >> 3) & l.mask;
                let want = order
                    .iter()
                    .enumerate()
                    .filter(|&(_, &sq)| e >> sq & 1 != 0)
                    .fold(0u64, |a, (r, _)| a | 1 << r);
                assert_eq!(l.ranks_and_parity(e), (want, l.parity(e)), "{size} {e:#x}");
            }
        }
    }

    #[test]
    fn odd_quadrants() {
        let l = Layout::of(BoardSize::Eight);
        // One empty square in the top-left quadrant, two in the bottom-right.
        let e = 1 | 1 << 63 | 1 << 62;
        assert_eq!(l.odd_quadrants(e), l.quadrants[0]);
        assert_eq!(l.parity(e), 1);
        for size in BoardSize::ALL {
            let l = Layout::of(size);
            for (q, quadrant) in l.quadrants.iter().enumerate() {
                let mut m = *quadrant;
                while m != 0 {
                    assert_eq!(l.quadrant_bit[m.trailing_zeros() as usize], 1 << q, "{size}");
                    m &= m - 1;
                }
            }
            // 8x8 and 4x4 quadrants hold an even number of squares, 6x6 ones nine.
            let full = if size == BoardSize::Six { 0xf } else { 0 };
            assert_eq!(l.parity(l.mask), full, "{size}");
            assert_eq!(l.parity(l.quadrants[1] & l.quadrants[1].wrapping_neg()), 2, "{size}");
        }
    }
}
