//! The pattern set: which groups of squares are looked at, their symmetric images, and the
//! layout of one phase's weights.
//!
//! Squares are numbered `8 * row + col`, a1 = 0 (top-left), h8 = 63. Each pattern is given
//! once as a base group of squares; its images are the groups obtained by the eight board
//! symmetries (each distinct group once). All images of a pattern share one table, read in
//! the base pattern's square order, and a table's entries are tied across the base pattern's
//! own symmetries (e.g. an edge read left to right or right to left), so the evaluation is
//! invariant under the eight symmetries exactly.

use othello_rules::Symmetry;

/// One pattern: a name and its base squares (ascending indices).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pattern {
    /// Short name (used in docs and diagnostics).
    pub name: &'static str,
    /// The base squares, as a bitboard.
    pub mask: u64,
}

const fn bits(squares: &[u8]) -> u64 {
    let mut m = 0u64;
    let mut i = 0;
    while i < squares.len() {
        m |= 1u64 << squares[i];
        i += 1;
    }
    m
}

/// The identifier of this pattern set in weights files.
pub const PATTERN_SET_ID: u32 = 1;

/// The patterns of set 1 (pictures in `docs/pattern.md`).
pub const PATTERNS: [Pattern; 11] = [
    Pattern {
        name: "corner3x3",
        mask: bits(&[0, 1, 2, 8, 9, 10, 16, 17, 18]),
    },
    Pattern {
        name: "corner2x5",
        mask: bits(&[0, 1, 2, 3, 4, 8, 9, 10, 11, 12]),
    },
    Pattern {
        name: "edge2x",
        mask: bits(&[0, 1, 2, 3, 4, 5, 6, 7, 9, 14]),
    },
    Pattern {
        name: "line2",
        mask: bits(&[8, 9, 10, 11, 12, 13, 14, 15]),
    },
    Pattern {
        name: "line3",
        mask: bits(&[16, 17, 18, 19, 20, 21, 22, 23]),
    },
    Pattern {
        name: "line4",
        mask: bits(&[24, 25, 26, 27, 28, 29, 30, 31]),
    },
    Pattern {
        name: "diag8",
        mask: bits(&[0, 9, 18, 27, 36, 45, 54, 63]),
    },
    Pattern {
        name: "diag7",
        mask: bits(&[1, 10, 19, 28, 37, 46, 55]),
    },
    Pattern {
        name: "diag6",
        mask: bits(&[2, 11, 20, 29, 38, 47]),
    },
    Pattern {
        name: "diag5",
        mask: bits(&[3, 12, 21, 30, 39]),
    },
    Pattern {
        name: "diag4",
        mask: bits(&[4, 13, 22, 31]),
    },
];

/// One image of a pattern on the board: read `mask` (the base squares) from the board
/// transformed by symmetry `sym`, into the table starting at `offset` of a phase's weights.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Instance {
    /// Index into [`Symmetry::ALL`] of the transform applied to the board before reading.
    pub sym: u8,
    /// Index into [`PATTERNS`].
    pub pattern: u8,
    /// The base squares.
    pub mask: u64,
    /// Where the pattern's table starts in one phase's weights.
    pub offset: u32,
}

/// Mobility values with a weight of their own: 0 to `MOBILITY_CAP - 1` moves, more counts as
/// the last.
pub const MOBILITY_CAP: u32 = 32;

/// The layout of one phase: weight 0 is the phase's constant (bias), then one table of
/// `3^n` entries per pattern in [`PATTERNS`] order, then two mobility tables (the side to
/// move's number of legal moves, then the opponent's), `MOBILITY_CAP` entries each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Every image of every pattern (46 in set 1).
    pub instances: Vec<Instance>,
    /// Start of each pattern's table.
    pub offsets: Vec<u32>,
    /// Start of the mobility tables.
    pub mobility: u32,
    /// Weights in one phase (bias included).
    pub per_phase: usize,
    /// For each weight of a phase, the smallest index of the weights tied to it (the
    /// representative of its class under the pattern's own symmetries).
    pub canonical: Vec<u32>,
}

/// `3^n`.
pub const fn pow3(n: u32) -> u32 {
    let mut r = 1;
    let mut i = 0;
    while i < n {
        r *= 3;
        i += 1;
    }
    r
}

/// The square a symmetry sends `sq` to.
fn image(sym: Symmetry, sq: u32) -> u32 {
    sym.apply8(1u64 << sq).trailing_zeros()
}

/// The squares `sym` reads for a base mask: bit `q` of the transformed board is bit
/// `sym^-1(q)` of the board, so the group read is the preimage of the mask.
fn preimage(sym: Symmetry, mask: u64) -> u64 {
    (0..64)
        .filter(|&q| mask >> image(sym, q) & 1 == 1)
        .fold(0, |m, q| m | 1u64 << q)
}

fn squares(mask: u64) -> Vec<u32> {
    (0..64).filter(|&q| mask >> q & 1 == 1).collect()
}

impl Layout {
    /// Builds the layout of set 1.
    pub fn new() -> Layout {
        let mut instances = Vec::new();
        let mut offsets = Vec::new();
        let mut canonical: Vec<u32> = vec![0];
        let mut next = 1u32;
        for (p, pat) in PATTERNS.iter().enumerate() {
            offsets.push(next);
            let mut groups: Vec<u64> = Vec::new();
            for (s, &sym) in Symmetry::ALL.iter().enumerate() {
                let g = preimage(sym, pat.mask);
                if !groups.contains(&g) {
                    groups.push(g);
                    instances.push(Instance {
                        sym: s as u8,
                        pattern: p as u8,
                        mask: pat.mask,
                        offset: next,
                    });
                }
            }
            // Ties: a symmetry t mapping the base group onto itself permutes its squares;
            // configuration digits follow the permutation.
            let sq = squares(pat.mask);
            let n = sq.len() as u32;
            let perms: Vec<Vec<usize>> = Symmetry::ALL
                .iter()
                .filter(|&&t| preimage(t, pat.mask) == pat.mask)
                .map(|&t| {
                    sq.iter()
                        .map(|&b| sq.iter().position(|&c| c == image(t, b)).expect("stabiliser"))
                        .collect()
                })
                .collect();
            for idx in 0..pow3(n) {
                let digits: Vec<u32> = (0..n).map(|k| idx / pow3(k) % 3).collect();
                let best = perms
                    .iter()
                    .map(|perm| (0..n as usize).map(|k| digits[perm[k]] * pow3(k as u32)).sum::<u32>())
                    .min()
                    .expect("the identity stabilises");
                canonical.push(next + best);
            }
            next += pow3(n);
        }
        let mobility = next;
        canonical.extend(next..next + 2 * MOBILITY_CAP);
        next += 2 * MOBILITY_CAP;
        Layout {
            instances,
            offsets,
            mobility,
            per_phase: next as usize,
            canonical,
        }
    }
}

impl Default for Layout {
    fn default() -> Layout {
        Layout::new()
    }
}

/// The slow, obviously correct reading of every instance of `(player, opponent)`: for each
/// instance, the squares it reads are found by searching the symmetry's preimage square by
/// square, and the index is built digit by digit (player 1, opponent 2); the mobility entries
/// count the moves of the rules crate's naive reference. The fast code is checked against it.
pub fn reference_indices(layout: &Layout, player: u64, opponent: u64) -> Vec<u32> {
    let mut out = vec![0];
    for inst in &layout.instances {
        let sym = Symmetry::ALL[inst.sym as usize];
        let mut idx = 0;
        for (k, &b) in squares(inst.mask).iter().enumerate() {
            // The board square whose image under `sym` is `b`.
            let q = (0..64).find(|&q| image(sym, q) == b).expect("a bijection");
            let cell = if player >> q & 1 == 1 {
                1
            } else if opponent >> q & 1 == 1 {
                2
            } else {
                0
            };
            idx += cell * pow3(k as u32);
        }
        out.push(inst.offset + idx);
    }
    let pos = othello_rules::Position::from_raw_unchecked(
        player,
        opponent,
        othello_rules::Color::Black,
        othello_rules::BoardSize::Eight,
    );
    let mine = othello_rules::reference::legal_moves(&pos).count();
    let theirs = othello_rules::reference::legal_moves(&pos.pass_unchecked()).count();
    out.push(layout.mobility + mine.min(MOBILITY_CAP - 1));
    out.push(layout.mobility + MOBILITY_CAP + theirs.min(MOBILITY_CAP - 1));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_of_set_1() {
        let l = Layout::new();
        let per: Vec<usize> = PATTERNS
            .iter()
            .map(|p| l.instances.iter().filter(|i| i.mask == p.mask).count())
            .collect();
        assert_eq!(per, [4, 8, 4, 4, 4, 4, 2, 4, 4, 4, 4]);
        assert_eq!(l.instances.len(), 46);
        let sizes: u32 = PATTERNS.iter().map(|p| pow3(p.mask.count_ones())).sum();
        assert_eq!(l.mobility, 1 + sizes);
        assert_eq!(l.per_phase, 1 + sizes as usize + 2 * MOBILITY_CAP as usize);
        assert_eq!(l.canonical.len(), l.per_phase);
        // Every square set read is distinct, and together they cover the board.
        let mut groups: Vec<u64> = l
            .instances
            .iter()
            .map(|i| preimage(Symmetry::ALL[i.sym as usize], i.mask))
            .collect();
        assert_eq!(groups.iter().fold(0, |a, g| a | g), u64::MAX);
        groups.sort_unstable();
        groups.dedup();
        assert_eq!(groups.len(), 46);
    }

    #[test]
    fn ties_follow_the_pattern_symmetries() {
        let l = Layout::new();
        for (i, &c) in l.canonical.iter().enumerate() {
            assert!(c as usize <= i);
            assert_eq!(l.canonical[c as usize], c, "canonical is a fixed point");
        }
        // corner3x3 is symmetric along its diagonal: a1=player only (digit 0) is alone, but
        // b1 (digit 1) and a2 (digit 3) are tied.
        let o = l.offsets[0];
        assert_eq!(l.canonical[(o + 1) as usize], o + 1);
        assert_eq!(l.canonical[(o + pow3(3)) as usize], o + pow3(1));
        // corner2x5 has no symmetry: every entry is its own.
        let o = l.offsets[1] as usize;
        assert!((o..o + pow3(10) as usize).all(|i| l.canonical[i] as usize == i));
        // An edge read backwards: a1 player = h1 player.
        let o = l.offsets[2];
        assert_eq!(l.canonical[(o + pow3(7)) as usize], o + 1);
        // diag8 has four symmetries; a1 and h8 are tied.
        let o = l.offsets[6];
        assert_eq!(l.canonical[(o + 2 * pow3(7)) as usize], o + 2);
    }
}
