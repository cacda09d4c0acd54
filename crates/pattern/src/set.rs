//! The pattern set: which groups of squares are looked at, their symmetric images, and the
//! layout of one phase's weights.
//!
//! Squares are numbered `8 * row + col`, a1 = 0 (top-left), h8 = 63. Each pattern is given
//! once as a base group of squares; its images are the groups obtained by the eight board
//! symmetries (each distinct group once). All images of a pattern share one table, read in
//! the base pattern's square order, and a table's entries are tied across the base pattern's
//! own symmetries (e.g. an edge read left to right or right to left), so the evaluation is
//! invariant under the eight symmetries exactly.

use othello_rules::{Symmetry, neighbours};

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

/// The identifier of this pattern set in weights files: set 2 is set 1's patterns and
/// mobility tables followed by the global feature tables ([`GLOBALS`]).
pub const PATTERN_SET_ID: u32 = 2;

/// The previous pattern set (no global features). Its files still load: each phase's
/// weights are set 2's without the global tables, which then hold zeros (the same scores).
pub const PATTERN_SET_1: u32 = 1;

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

/// A global feature of set 2: one small table per phase, indexed by a count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Global {
    /// What it counts (docs and diagnostics).
    pub name: &'static str,
    /// Entries of its table (the count is capped at the last).
    pub size: u32,
}

/// The global features of set 2, in table order after the mobility tables (pictures and
/// measurements in `docs/pattern.md`). All are invariant under the eight board symmetries.
pub const GLOBALS: [Global; 5] = [
    Global {
        name: "potential mobility of the side to move: empties next to an opponent disc",
        size: 64,
    },
    Global {
        name: "potential mobility of the opponent: empties next to a disc of the side to move",
        size: 64,
    },
    Global {
        name: "frontier of the side to move: its discs next to an empty square",
        size: 65,
    },
    Global {
        name: "frontier of the opponent: its discs next to an empty square",
        size: 65,
    },
    Global {
        name: "odd quadrants: 5 x (those where the side to move can play) + (those where only the opponent can)",
        size: 25,
    },
];

/// Entries of all global tables of one phase.
pub const GLOBAL_ENTRIES: u32 = {
    let mut n = 0;
    let mut i = 0;
    while i < GLOBALS.len() {
        n += GLOBALS[i].size;
        i += 1;
    }
    n
};

/// The four 4x4 quadrants (a1-d4, e1-h4, a5-d8, e5-h8).
pub const QUADRANTS: [u64; 4] = [
    0x0000_0000_0f0f_0f0f,
    0x0000_0000_f0f0_f0f0,
    0x0f0f_0f0f_0000_0000,
    0xf0f0_f0f0_0000_0000,
];

/// Where each global table starts (relative to the start of the global tables), in
/// [`GLOBALS`] order.
pub const GLOBAL_OFFSETS: [u32; 5] = {
    let mut t = [0; 5];
    let mut i = 1;
    while i < GLOBALS.len() {
        t[i] = t[i - 1] + GLOBALS[i - 1].size;
        i += 1;
    }
    t
};

/// The first square of each quadrant (a1, e1, a5, e5): where [`fold_quadrants`] leaves its
/// result.
const QUADRANT_FIRST: u64 = 1 | 1 << 4 | 1 << 32 | 1 << 36;

/// Each quadrant's 16 bits of `x` combined by `op` (`|`: whether any is set; `^`: their
/// parity) onto the quadrant's first square ([`QUADRANT_FIRST`]); the other bits are 0. The
/// four rows of each half fold onto its first row, then each 4-bit half-row onto its first
/// bit: 8 shifts for the four quadrants at once.
#[inline(always)]
fn fold_quadrants(x: u64, op: impl Fn(u64, u64) -> u64) -> u64 {
    let x = op(x, x >> 8);
    let x = op(x, x >> 16);
    let x = op(x, x >> 2);
    op(x, x >> 1) & QUADRANT_FIRST
}

/// The odd-quadrants entry (relative to its table) for the empty squares `empty` and the legal
/// moves `mine` and `theirs`: `5a + b`, `a` the quadrants with an odd number of empties where
/// the side to move can play, `b` those where only the opponent can.
#[inline(always)]
pub fn quadrant_entry(empty: u64, mine: u64, theirs: u64) -> u32 {
    let odd = fold_quadrants(empty, |a, b| a ^ b);
    let can = fold_quadrants(mine, |a, b| a | b);
    let only_theirs = fold_quadrants(theirs, |a, b| a | b) & !can;
    5 * (odd & can).count_ones() + (odd & only_theirs).count_ones()
}

/// The potential mobility cap: a count above it reads the last entry (never reached by a
/// position: an empty board has no opponent disc to be next to).
pub const POTENTIAL_MOBILITY_CAP: u32 = 63;

/// The entry of each global table (relative to the start of the global tables, in
/// [`GLOBALS`] order) for the side to move's discs `player`, the opponent's `opponent`
/// (disjoint) and their legal moves `mine` and `theirs`.
#[inline(always)]
pub fn global_entries(player: u64, opponent: u64, mine: u64, theirs: u64) -> [u32; 5] {
    let empty = !(player | opponent);
    let near_empty = neighbours(empty);
    let cap = POTENTIAL_MOBILITY_CAP;
    let [pm, pt, fm, ft, q] = GLOBAL_OFFSETS;
    [
        pm + (empty & neighbours(opponent)).count_ones().min(cap),
        pt + (empty & neighbours(player)).count_ones().min(cap),
        fm + (player & near_empty).count_ones(),
        ft + (opponent & near_empty).count_ones(),
        q + quadrant_entry(empty, mine, theirs),
    ]
}

/// The layout of one phase: weight 0 is the phase's constant (bias), then one table of
/// `3^n` entries per pattern in [`PATTERNS`] order, then two mobility tables (the side to
/// move's number of legal moves, then the opponent's), `MOBILITY_CAP` entries each, then the
/// global tables ([`GLOBALS`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Every image of every pattern (46 in set 1).
    pub instances: Vec<Instance>,
    /// Start of each pattern's table.
    pub offsets: Vec<u32>,
    /// Start of the mobility tables.
    pub mobility: u32,
    /// Start of the global tables (also the size of a phase of set 1).
    pub globals: u32,
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
    /// Builds the layout of set 2.
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
            let n = pat.mask.count_ones();
            canonical.extend(tied_representatives(n as usize, &own_symmetries(pat.mask)).map(|c| next + c));
            next += pow3(n);
        }
        let mobility = next;
        canonical.extend(next..next + 2 * MOBILITY_CAP);
        next += 2 * MOBILITY_CAP;
        let globals = next;
        canonical.extend(next..next + GLOBAL_ENTRIES);
        next += GLOBAL_ENTRIES;
        Layout {
            instances,
            offsets,
            mobility,
            globals,
            per_phase: next as usize,
            canonical,
        }
    }
}

/// Ties: each symmetry mapping the base group `mask` onto itself permutes its squares (in
/// ascending order); configuration digits follow the permutation. The identity is among them.
fn own_symmetries(mask: u64) -> Vec<Vec<usize>> {
    let sq = squares(mask);
    Symmetry::ALL
        .iter()
        .filter(|&&t| preimage(t, mask) == mask)
        .map(|&t| {
            sq.iter()
                .map(|&b| sq.iter().position(|&c| c == image(t, b)).expect("stabiliser"))
                .collect()
        })
        .collect()
}

/// For each configuration of a pattern of `n` squares (base-3 digits, square `k` weighs
/// `3^k`), the smallest configuration it is tied to: the minimum over the base group's own
/// symmetries `perms` (each a permutation of the squares, the identity included) of the
/// configuration read in the permuted order, `sum_k digits[perm[k]] * 3^k`.
///
/// The configurations are visited in order as an odometer of digits, and each permutation's
/// value is updated by the weight of the digit that changed (`3^k` for the `k` with
/// `perm[k] == j`), so a configuration costs a few additions per permutation.
fn tied_representatives(n: usize, perms: &[Vec<usize>]) -> impl Iterator<Item = u32> + '_ {
    // place[p][j]: the weight of digit j in permutation p's reading.
    let place: Vec<Vec<u32>> = perms
        .iter()
        .map(|perm| {
            let mut w = vec![0; n];
            for (k, &j) in perm.iter().enumerate() {
                w[j] = pow3(k as u32);
            }
            w
        })
        .collect();
    let mut digits = vec![0u8; n];
    let mut value = vec![0u32; perms.len()];
    (0..pow3(n as u32)).map(move |_| {
        let best = *value.iter().min().expect("the identity stabilises");
        // Next configuration: the lowest digit that is not 2 goes up, the 2s below it wrap.
        for j in 0..n {
            if digits[j] < 2 {
                digits[j] += 1;
                for (v, w) in value.iter_mut().zip(&place) {
                    *v += w[j];
                }
                break;
            }
            digits[j] = 0;
            for (v, w) in value.iter_mut().zip(&place) {
                *v -= 2 * w[j];
            }
        }
        best
    })
}

impl Default for Layout {
    fn default() -> Layout {
        Layout::new()
    }
}

/// The base-3 index of the squares `squares` read in their order, the first the lowest digit:
/// 0 for an empty square, 1 for a disc of `player`, 2 for one of `opponent` (the digits of
/// every pattern table). Square by square: the slow reading that [`reference_indices`] and
/// model experiments use, not the evaluator's.
pub fn ternary_index(squares: impl IntoIterator<Item = u32>, player: u64, opponent: u64) -> u32 {
    squares.into_iter().enumerate().fold(0, |idx, (k, q)| {
        let cell = if player >> q & 1 == 1 {
            1
        } else if opponent >> q & 1 == 1 {
            2
        } else {
            0
        };
        idx + cell * pow3(k as u32)
    })
}

/// The slow, obviously correct reading of every instance of `(player, opponent)`: for each
/// instance, the squares it reads are found by searching the symmetry's preimage square by
/// square, and the index is built digit by digit (player 1, opponent 2); the mobility entries
/// count the moves of the rules crate's naive reference. The fast code is checked against it.
pub fn reference_indices(layout: &Layout, player: u64, opponent: u64) -> Vec<u32> {
    let mut out = vec![0];
    for inst in &layout.instances {
        let sym = Symmetry::ALL[inst.sym as usize];
        // The board squares whose images under `sym` are the base squares, in their order.
        let read = squares(inst.mask)
            .into_iter()
            .map(|b| (0..64).find(|&q| image(sym, q) == b).expect("a bijection"));
        out.push(inst.offset + ternary_index(read, player, opponent));
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
    // Global features, square by square.
    let at =
        |q: i32, r: i32| -> Option<u32> { ((0..8).contains(&q) && (0..8).contains(&r)).then_some((8 * r + q) as u32) };
    let near = |sq: u32, set: u64| {
        let (q, r) = ((sq % 8) as i32, (sq / 8) as i32);
        (-1..=1)
            .flat_map(|dr| (-1..=1).map(move |dq| (dq, dr)))
            .filter(|&d| d != (0, 0))
            .filter_map(|(dq, dr)| at(q + dq, r + dr))
            .any(|n| set >> n & 1 == 1)
    };
    let empty: Vec<u32> = (0..64).filter(|&q| (player | opponent) >> q & 1 == 0).collect();
    let count = |f: &dyn Fn(u32) -> bool, from: &[u32]| from.iter().filter(|&&q| f(q)).count() as u32;
    let own: Vec<u32> = (0..64).filter(|&q| player >> q & 1 == 1).collect();
    let theirs_discs: Vec<u32> = (0..64)
        .filter(|&q| opponent >> q & 1 == 1 && player >> q & 1 == 0)
        .collect();
    let empty_bits = empty.iter().fold(0u64, |m, &q| m | 1 << q);
    let g = layout.globals;
    out.push(g + count(&|q| near(q, opponent & !player), &empty).min(63));
    out.push(g + 64 + count(&|q| near(q, player), &empty).min(63));
    out.push(g + 128 + count(&|q| near(q, empty_bits), &own));
    out.push(g + 193 + count(&|q| near(q, empty_bits), &theirs_discs));
    let moves_in = |p: &othello_rules::Position, quadrant: (u32, u32)| {
        othello_rules::reference::legal_moves(p)
            .into_iter()
            .any(|m| (m.index() as u32 % 8) / 4 == quadrant.0 && (m.index() as u32 / 8) / 4 == quadrant.1)
    };
    let (mut odd_mine, mut odd_theirs) = (0, 0);
    for quadrant in [(0, 0), (1, 0), (0, 1), (1, 1)] {
        let n = empty.iter().filter(|&&q| (q % 8 / 4, q / 8 / 4) == quadrant).count();
        if n % 2 == 1 {
            if moves_in(&pos, quadrant) {
                odd_mine += 1;
            } else if moves_in(&pos.pass_unchecked(), quadrant) {
                odd_theirs += 1;
            }
        }
    }
    out.push(g + 258 + 5 * odd_mine + odd_theirs);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The configurations' representatives computed digit by digit (the definition), against
    /// the odometer, for every pattern of the set and for made-up symmetries.
    #[test]
    fn tied_representatives_match_the_definition() {
        fn slow(n: usize, perms: &[Vec<usize>]) -> Vec<u32> {
            (0..pow3(n as u32))
                .map(|idx| {
                    let digits: Vec<u32> = (0..n as u32).map(|k| idx / pow3(k) % 3).collect();
                    perms
                        .iter()
                        .map(|perm| (0..n).map(|k| digits[perm[k]] * pow3(k as u32)).sum::<u32>())
                        .min()
                        .unwrap()
                })
                .collect()
        }
        let cases: Vec<(usize, Vec<Vec<usize>>)> = vec![
            (1, vec![vec![0]]),
            (3, vec![vec![0, 1, 2], vec![2, 1, 0]]),
            (
                4,
                vec![vec![0, 1, 2, 3], vec![1, 0, 3, 2], vec![3, 2, 1, 0], vec![2, 3, 0, 1]],
            ),
            (5, vec![vec![0, 1, 2, 3, 4], vec![4, 0, 1, 2, 3]]),
        ];
        for (n, perms) in &cases {
            assert_eq!(tied_representatives(*n, perms).collect::<Vec<_>>(), slow(*n, perms));
        }
        let l = Layout::new();
        for (p, pat) in PATTERNS.iter().enumerate() {
            let n = pat.mask.count_ones();
            let start = l.offsets[p] as usize;
            let got: Vec<u32> = l.canonical[start..start + pow3(n) as usize]
                .iter()
                .map(|&c| c - l.offsets[p])
                .collect();
            assert_eq!(got, slow(n as usize, &own_symmetries(pat.mask)), "pattern {}", pat.name);
        }
    }

    #[test]
    fn layout_of_set_2() {
        let l = Layout::new();
        let per: Vec<usize> = PATTERNS
            .iter()
            .map(|p| l.instances.iter().filter(|i| i.mask == p.mask).count())
            .collect();
        assert_eq!(per, [4, 8, 4, 4, 4, 4, 2, 4, 4, 4, 4]);
        assert_eq!(l.instances.len(), 46);
        let sizes: u32 = PATTERNS.iter().map(|p| pow3(p.mask.count_ones())).sum();
        assert_eq!(l.mobility, 1 + sizes);
        assert_eq!(l.globals, l.mobility + 2 * MOBILITY_CAP);
        assert_eq!(GLOBAL_ENTRIES, 64 + 64 + 65 + 65 + 25);
        assert_eq!(GLOBAL_OFFSETS, [0, 64, 128, 193, 258]);
        assert_eq!(POTENTIAL_MOBILITY_CAP, GLOBALS[0].size - 1);
        assert_eq!(l.per_phase, (l.globals + GLOBAL_ENTRIES) as usize);
        // The global tables are untied.
        assert!((l.globals..l.per_phase as u32).all(|i| l.canonical[i as usize] == i));
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

    /// The global entries on the start position, counted by hand: each side's two discs touch
    /// ten empty squares and are both on the frontier; every quadrant has 15 empties, black
    /// can play in two of them (d3 c4, f5 e6), white only in the other two (e3 f4, c5 d6).
    #[test]
    fn global_entries_of_the_start_position() {
        let pos = othello_rules::Position::start();
        let (p, o) = (pos.player().0, pos.opponent().0);
        let (mine, theirs) = othello_rules::movegen::legal_moves_both(p, o);
        assert_eq!(
            global_entries(p, o, mine, theirs),
            [10, 64 + 10, 128 + 2, 193 + 2, 258 + 5 * 2 + 2]
        );
        // A full board: no empty square, no frontier, no odd quadrant.
        let (p, o) = (0x0000_0000_ffff_ffffu64, 0xffff_ffff_0000_0000u64);
        assert_eq!(global_entries(p, o, 0, 0), [0, 64, 128, 193, 258]);
        // One empty square in a corner, next to the opponent only, playable by no one: the
        // opponent's potential mobility is 0, the side to move's 1, one odd quadrant.
        let o = 0xffff_ffff_ffff_fffeu64;
        assert_eq!(global_entries(0, o, 0, 0), [1, 64, 128, 193 + 3, 258]);
        let mine = 1u64;
        assert_eq!(global_entries(0, o, mine, 0)[4], 258 + 5);
        assert_eq!(global_entries(0, o, 0, mine)[4], 258 + 1);
    }

    /// The quadrant folds against a count per quadrant, on random bitboards.
    #[test]
    fn quadrant_entry_counts_each_quadrant() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut seen = [0u32; 25];
        for n in 0..20_000 {
            // Sparse move sets too, so that quadrants without a move occur.
            let sparse = |v: u64, k: u32| if n % 3 == 0 { v } else { v & (v >> k) & (v << k) };
            let (empty, mine, theirs) = (next(), sparse(next(), 3), sparse(next(), 5));
            let (mut a, mut b) = (0, 0);
            for q in QUADRANTS {
                if (empty & q).count_ones() % 2 == 1 {
                    if mine & q != 0 {
                        a += 1;
                    } else if theirs & q != 0 {
                        b += 1;
                    }
                }
            }
            let got = quadrant_entry(empty, mine, theirs);
            assert_eq!(got, 5 * a + b, "{empty:#x} {mine:#x} {theirs:#x}");
            seen[got as usize] += 1;
        }
        // Every reachable entry (a + b <= 4) occurred.
        assert!((0..25).all(|q| (seen[q] > 0) == (q / 5 + q % 5 <= 4)), "{seen:?}");
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
