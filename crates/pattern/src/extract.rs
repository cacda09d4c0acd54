//! Index extraction without board transforms: every group read straight from the board.
//!
//! Each of the 46 groups is known by its board squares listed in its digit order (digit `k`
//! of the group's index is the square that the instance's symmetry sends to the `k`-th base
//! square). A square's cell is 0 (empty), 1 (side to move) or 2 (opponent), and a group's
//! index is `sum of cell(square_k) * 3^k`.
//!
//! - Portable: the 64 cells in a byte array, then that sum per group (356 squares in all).
//! - AVX-512 VBMI: the 64 cells in one 512-bit register; for each pair of digits `(2m,
//!   2m+1)`, one byte permutation (`vpermb`) gathers the two cells of 32 groups into 32
//!   16-bit lanes, `vpmaddubsw` makes `d_2m + 3 d_2m+1`, and a Horner step in base 9 adds it
//!   to the index: 5 steps for two registers of 32 groups, then one table read per group.

use crate::set::Layout;
use othello_rules::Symmetry;

/// Groups (pattern instances) in set 1.
pub(crate) const GROUPS: usize = 46;
/// The most squares in a group.
pub(crate) const MAX_LEN: usize = 10;
/// Digit pairs per group.
const PAIRS: usize = MAX_LEN / 2;
/// No square: the digit is absent (a group shorter than `MAX_LEN`).
const NONE: u8 = 64;
/// Groups per AVX2 block: the 32-bit lanes of a 256-bit register.
const LANES: usize = 8;
/// AVX2 blocks: 48 lanes for the 46 groups.
pub(crate) const BLOCKS: usize = GROUPS.div_ceil(LANES);
/// Digit pairs per AVX2 block, longest groups first: 12 groups of 10 squares and 4 of 9 (5
/// pairs), 14 of 8 and 4 of 7 (4 pairs), then 4 each of 6, 5 and 4 squares (3 pairs). A
/// constant, so that the loops unroll; `Avx2Tables::new` checks it against the layout.
const STEPS: [usize; BLOCKS] = [5, 5, 4, 4, 4, 3];
/// Per step `m`, the `vpmaddubsw` weights of the player's and the opponent's disc on the
/// digits of step `m` (digit `m` of each half of the group): bytes `3^m, 2 * 3^m` twice.
#[cfg_attr(
    not(target_arch = "x86_64"),
    allow(dead_code, reason = "read by the x86-64 extractions")
)]
const STEP_POW: [i32; PAIRS] = {
    let mut t = [0; PAIRS];
    let mut m = 0;
    while m < PAIRS {
        let p = crate::set::pow3(m as u32);
        t[m] = ((p | (2 * p) << 8) * 0x1_0001) as i32;
        m += 1;
    }
    t
};

/// The AVX2 extraction's tables: the groups in blocks of 8 (longest groups first, so that
/// the blocks of short groups take fewer steps), per block and step the `vpshufb` indices and
/// bit masks that read each digit's square from the bitboards.
///
/// A group of `n` squares is read as two halves: digits `0..h` and `h..n`, `h = ceil(n / 2)`,
/// so that its index is `A + 3^h B` with `A` and `B` at most `3^5 - 1`. Step `m` reads digit
/// `m` of each half (in the low and the high 16 bits of the group's lane), weighted by `3^m`
/// (the same for every lane, and at most 162 for the opponent's disc: a `vpmaddubsw` byte).
///
/// 32-byte aligned (each vector field is a multiple of 32 bytes and comes first), so that
/// the vectors are read by aligned loads: with AVX2 alone the compiler splits an unaligned
/// 256-bit load into two 128-bit ones.
#[derive(Clone, Debug)]
#[repr(C, align(32))]
pub(crate) struct Avx2Tables {
    /// Byte `4l + 2j` (`4l + 2j + 1`) is the byte of the player's (opponent's) bitboard,
    /// `s / 8` (`8 + s / 8`), holding square `s` of digit `m` of half `j` of lane `l`'s
    /// group; `0x80` (a zero byte) for an absent digit. Within each 128-bit half (`vpshufb`).
    pub shuffle: [[[u8; 32]; PAIRS]; BLOCKS],
    /// The bit of that square within its byte, `1 << (s % 8)`, in both bytes; 1 for an
    /// absent digit (never equal to the zero byte it reads).
    pub bit: [[[u8; 32]; PAIRS]; BLOCKS],
    /// Each lane's table offset (0 for no group).
    pub offset: [[u32; LANES]; BLOCKS],
    /// 1 in lanes with a group, 0 otherwise (the `vpmaddwd` that sign-extends the entries
    /// drops the empty lanes).
    pub keep: [[u32; LANES]; BLOCKS],
    /// `1 | 3^h << 16`: the `vpmaddwd` weights of the two halves' values `A` and `B`.
    pub halves: [[u32; LANES]; BLOCKS],
    /// The group in each lane (`GROUPS` for none: lanes 46 and 47).
    pub group: [[u8; LANES]; BLOCKS],
    /// Digit pairs per block: half the longest group's length, rounded up.
    pub steps: [usize; BLOCKS],
}

impl Avx2Tables {
    fn new(squares: &[[u8; MAX_LEN]; GROUPS], offset: &[u32; GROUPS]) -> Avx2Tables {
        let len = |g: usize| squares[g].iter().filter(|&&s| s != NONE).count();
        let mut order: Vec<usize> = (0..GROUPS).collect();
        order.sort_by_key(|&g| std::cmp::Reverse(len(g)));
        let mut t = Avx2Tables {
            shuffle: [[[0x80; 32]; PAIRS]; BLOCKS],
            bit: [[[1; 32]; PAIRS]; BLOCKS],
            offset: [[0; LANES]; BLOCKS],
            keep: [[0; LANES]; BLOCKS],
            halves: [[0; LANES]; BLOCKS],
            group: [[GROUPS as u8; LANES]; BLOCKS],
            steps: [0; BLOCKS],
        };
        for (lane, &g) in order.iter().enumerate() {
            let (b, l) = (lane / LANES, lane % LANES);
            t.group[b][l] = g as u8;
            let h = len(g).div_ceil(2);
            t.steps[b] = t.steps[b].max(h);
            t.offset[b][l] = offset[g];
            t.keep[b][l] = 1;
            t.halves[b][l] = 1 | crate::set::pow3(h as u32) << 16;
            for m in 0..h {
                for j in 0..2 {
                    let s = squares[g][j * h + m];
                    if s != NONE {
                        let at = 4 * l + 2 * j;
                        t.shuffle[b][m][at] = s / 8;
                        t.shuffle[b][m][at + 1] = 8 + s / 8;
                        t.bit[b][m][at] = 1 << (s % 8);
                        t.bit[b][m][at + 1] = 1 << (s % 8);
                    }
                }
            }
        }
        assert_eq!(t.steps, STEPS, "the AVX2 blocks' digit pairs");
        t
    }
}

/// Lanes of the non-pattern entries read by one more 8-lane gather in the vector
/// extractions: the potential mobility of each side, the mobility of each side, the frontier
/// of each side, the odd quadrants and the phase constant, as 32-bit lanes of
/// [`Groups::extra_counts_avx2`].
pub(crate) const EXTRA_LANES: usize = 8;

/// Where each extra lane reads in a phase's weights: its table's start and last entry.
///
/// 32-byte aligned, read by aligned loads (as [`Avx2Tables`]).
#[derive(Clone, Debug)]
#[repr(C, align(32))]
pub(crate) struct ExtraTables {
    /// Each lane's table start within a phase's weights.
    pub offset: [u32; EXTRA_LANES],
    /// Each lane's largest value: its table's last entry. A count above it reads that entry
    /// (the potential mobility's cap, the same as [`crate::set::global_entries`]); for the
    /// other lanes it is never exceeded, and it keeps the gather in the weights.
    pub cap: [u32; EXTRA_LANES],
    /// The largest index an extra lane can read (the last entry of a phase).
    pub last: u32,
}

impl ExtraTables {
    /// From the layout. Lanes, in the order [`Groups::extra_counts_avx2`] fills them (the 64-bit
    /// popcounts in the even lanes, the scalar entries in the odd ones): potential mobility of
    /// the side to move, its mobility entry, potential mobility of the opponent, the opponent's
    /// mobility entry (relative to the mobility tables, as `mobility_entries` gives them),
    /// frontier of the side to move, odd quadrants, frontier of the opponent, phase constant.
    fn new(layout: &Layout) -> ExtraTables {
        use crate::set::{GLOBAL_OFFSETS, GLOBALS, MOBILITY_CAP};
        let (m, g) = (layout.mobility, layout.globals);
        let global = |i: usize| (g + GLOBAL_OFFSETS[i], GLOBALS[i].size - 1);
        let lanes = [
            global(0),
            (m, MOBILITY_CAP - 1),
            global(1),
            (m, 2 * MOBILITY_CAP - 1),
            global(2),
            global(4),
            global(3),
            (0, 0),
        ];
        ExtraTables {
            offset: lanes.map(|(o, _)| o),
            cap: lanes.map(|(_, c)| c),
            last: lanes.iter().map(|&(o, c)| o + c).max().expect("8 lanes"),
        }
    }
}

/// The groups of set 1 in the layout's instance order, read straight from the board.
#[derive(Clone, Debug)]
pub(crate) struct Groups {
    /// Board squares in digit order; `NONE` past the group's length.
    pub squares: [[u8; MAX_LEN]; GROUPS],
    /// Start of each group's table in a phase's weights.
    pub offset: [u32; GROUPS],
    /// `vpermb` indices per half (groups 0-31, 32-45) and digit pair: byte `2l` (`2l + 1`) is
    /// the square of digit `2m` (`2m + 1`) of group `32 h + l`.
    #[cfg_attr(
        not(target_arch = "x86_64"),
        allow(dead_code, reason = "read by the x86-64 extractions")
    )]
    pub perm: [[[u8; 64]; PAIRS]; 2],
    /// The bytes of `perm` that name a square (the others are zeroed).
    #[cfg_attr(
        not(target_arch = "x86_64"),
        allow(dead_code, reason = "read by the x86-64 extractions")
    )]
    pub perm_mask: [[u64; PAIRS]; 2],
    /// `offset` in 16-lane blocks (lanes 46 and 47 are 0), for the AVX-512 gathers.
    #[cfg_attr(
        not(target_arch = "x86_64"),
        allow(dead_code, reason = "read by the x86-64 extractions")
    )]
    pub offset16: [[u32; 16]; 3],
    /// The largest index a group can have (the last entry of the last group's table).
    #[cfg_attr(
        not(target_arch = "x86_64"),
        allow(dead_code, reason = "read by the x86-64 extractions")
    )]
    pub last: u32,
    /// The AVX2 extraction's tables.
    #[cfg_attr(
        not(target_arch = "x86_64"),
        allow(dead_code, reason = "read by the x86-64 extractions")
    )]
    pub avx2: Avx2Tables,
    /// The extra lanes' tables (the mobility and global features, the phase constant).
    #[cfg_attr(
        not(target_arch = "x86_64"),
        allow(dead_code, reason = "read by the x86-64 extractions")
    )]
    pub extra: ExtraTables,
}

impl Groups {
    /// From the layout: the squares of each instance found by inverting its symmetry.
    pub fn new(layout: &Layout) -> Groups {
        assert_eq!(layout.instances.len(), GROUPS, "set 1 has 46 groups");
        let mut squares = [[NONE; MAX_LEN]; GROUPS];
        let mut offset = [0u32; GROUPS];
        for (g, inst) in layout.instances.iter().enumerate() {
            let sym = Symmetry::ALL[inst.sym as usize];
            let base: Vec<u32> = (0..64).filter(|&b| inst.mask >> b & 1 == 1).collect();
            assert!(base.len() <= MAX_LEN);
            for (k, &b) in base.iter().enumerate() {
                // The board square that the symmetry sends to base square `b`.
                squares[g][k] = (0..64u8)
                    .find(|&q| sym.apply8(1u64 << q) == 1u64 << b)
                    .expect("a symmetry is a bijection");
            }
            offset[g] = inst.offset;
        }
        let mut perm = [[[0u8; 64]; PAIRS]; 2];
        let mut perm_mask = [[0u64; PAIRS]; 2];
        for (g, sq) in squares.iter().enumerate() {
            let (h, l) = (g / 32, g % 32);
            for m in 0..PAIRS {
                for j in 0..2 {
                    let s = sq[2 * m + j];
                    if s != NONE {
                        perm[h][m][2 * l + j] = s;
                        perm_mask[h][m] |= 1u64 << (2 * l + j);
                    }
                }
            }
        }
        let mut offset16 = [[0u32; 16]; 3];
        for (g, &o) in offset.iter().enumerate() {
            offset16[g / 16][g % 16] = o;
        }
        Groups {
            avx2: Avx2Tables::new(&squares, &offset),
            extra: ExtraTables::new(layout),
            squares,
            offset,
            perm,
            perm_mask,
            offset16,
            last: offset
                .iter()
                .zip(&squares)
                .map(|(&o, sq)| {
                    o + (0..MAX_LEN)
                        .filter(|&k| sq[k] != NONE)
                        .map(|k| 2 * crate::set::pow3(k as u32))
                        .sum::<u32>()
                })
                .max()
                .expect("46 groups"),
        }
    }

    /// The groups' indices (within their tables), portable code. The opponent's discs are
    /// read as `opponent & !player`, so overlapping bitboards cannot make a digit 3.
    pub fn indices_portable(&self, player: u64, opponent: u64) -> [u16; GROUPS] {
        let opponent = opponent & !player;
        let mut cells = [0u8; 65];
        for (q, c) in cells[..64].iter_mut().enumerate() {
            *c = (player >> q & 1) as u8 + 2 * (opponent >> q & 1) as u8;
        }
        let mut out = [0u16; GROUPS];
        for (o, sq) in out.iter_mut().zip(&self.squares) {
            // Horner from the last digit; an absent digit reads the always-empty cell 64.
            *o = sq
                .iter()
                .rev()
                .fold(0u16, |acc, &s| acc * 3 + u16::from(cells[s as usize]));
        }
        out
    }

    /// The groups' indices with AVX-512 (F, BW, VBMI); the same as
    /// [`Groups::indices_portable`] (lanes 46-63 are 0). Callers outside a function with these
    /// target features must have checked that the CPU has them. (The evaluation uses
    /// [`Groups::sum_avx512`]; the tests compare these indices with the portable ones.)
    #[cfg(all(target_arch = "x86_64", test))]
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    #[inline]
    pub fn indices_avx512(&self, player: u64, opponent: u64) -> [u16; 64] {
        use std::arch::x86_64::*;
        let [a, b] = self.index_vectors(player, opponent);
        let mut out = [0u16; 64];
        // SAFETY: each writes 64 bytes into `out`, in bounds.
        unsafe {
            _mm512_storeu_si512(out.as_mut_ptr().cast(), a);
            _mm512_storeu_si512(out[32..].as_mut_ptr().cast(), b);
        }
        out
    }

    /// The sum of the 46 groups' table entries in `w` (one phase's weights, then anything),
    /// with AVX-512: [`Groups::lanes_avx512`] summed. Callers outside a function with these
    /// target features must have checked that the CPU has them. (The evaluation adds the extra
    /// lanes before summing.)
    ///
    /// # Panics
    /// If `w` is shorter than a phase's tables (the mobility tables need not be there).
    #[cfg(all(target_arch = "x86_64", test))]
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    pub fn sum_avx512(&self, w: &[i16], player: u64, opponent: u64) -> i32 {
        std::arch::x86_64::_mm512_reduce_add_epi32(self.lanes_avx512(w, player, opponent))
    }

    /// The 46 groups' table entries in `w` (one phase's weights, then anything), in 32-bit
    /// lanes to be summed, with AVX-512: the indices as in [`Groups::indices_avx512`], plus
    /// each table's offset, then three 16-lane gathers. Callers outside a function with these
    /// target features must have checked that the CPU has them.
    ///
    /// # Panics
    /// If `w` is shorter than a phase's tables (the mobility tables need not be there).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    #[inline]
    pub fn lanes_avx512(&self, w: &[i16], player: u64, opponent: u64) -> std::arch::x86_64::__m512i {
        use std::arch::x86_64::*;
        // Every index read is at most `last` (the largest a group can have), and the gather
        // reads 4 bytes from there: in bounds.
        let last = self.last as usize;
        assert!(w.len() > last + 1, "a phase's tables");
        let [a, b] = self.index_vectors(player, opponent);
        let words = [
            _mm512_castsi512_si256(a),
            _mm512_extracti64x4_epi64::<1>(a),
            _mm512_castsi512_si256(b),
        ];
        let limit = _mm512_set1_epi32(last as i32);
        let mut total = _mm512_setzero_si512();
        for (block, (half, off)) in words.into_iter().zip(&self.offset16).enumerate() {
            // SAFETY: reads the 64 bytes of one `[u32; 16]`.
            let off = unsafe { _mm512_loadu_si512(off.as_ptr().cast()) };
            // Clamped to `last` so that the gather stays in `w` whatever the lanes hold.
            let idx = _mm512_min_epu32(_mm512_add_epi32(_mm512_cvtepu16_epi32(half), off), limit);
            let mask: __mmask16 = if block == 2 { (1 << (GROUPS - 32)) - 1 } else { 0xFFFF };
            // SAFETY: each active lane reads the 4 bytes at `w[idx..idx + 2]`, `idx <= last`
            // and `last + 1 < w.len()` (asserted above).
            let got = unsafe { _mm512_mask_i32gather_epi32::<2>(_mm512_setzero_si512(), mask, idx, w.as_ptr().cast()) };
            // The low 16 bits of each lane, sign-extended (`lo * 1 + hi * 0`).
            total = _mm512_add_epi32(total, _mm512_madd_epi16(got, _mm512_set1_epi32(1)));
        }
        total
    }

    /// The indices of groups 0-31 and 32-45 in 16-bit lanes.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    #[inline]
    fn index_vectors(&self, player: u64, opponent: u64) -> [std::arch::x86_64::__m512i; 2] {
        use std::arch::x86_64::*;
        let cells = _mm512_mask_mov_epi8(
            _mm512_maskz_mov_epi8(player, _mm512_set1_epi8(1)),
            opponent & !player,
            _mm512_set1_epi8(2),
        );
        // Low byte times 1, high byte times 3, summed: `d_2m + 3 d_2m+1` per 16-bit lane.
        let coef = _mm512_set1_epi16(0x0301);
        let mut out = [_mm512_setzero_si512(); 2];
        for (h, out) in out.iter_mut().enumerate() {
            let mut acc = _mm512_setzero_si512();
            for m in (0..PAIRS).rev() {
                // SAFETY: reads the 64 bytes of one `[u8; 64]`.
                let idx = unsafe { _mm512_loadu_si512(self.perm[h][m].as_ptr().cast()) };
                let digits = _mm512_maskz_permutexvar_epi8(self.perm_mask[h][m], idx, cells);
                let pair = _mm512_maddubs_epi16(digits, coef);
                acc = _mm512_add_epi16(_mm512_add_epi16(_mm512_slli_epi16::<3>(acc), acc), pair);
            }
            *out = acc;
        }
        out
    }

    /// The groups' indices with AVX2, in group order; the same as
    /// [`Groups::indices_portable`]. Callers outside a function with AVX2 must have checked
    /// that the CPU has it. (The evaluation uses [`Groups::sum_avx2`].)
    #[cfg(all(target_arch = "x86_64", test))]
    #[target_feature(enable = "avx2")]
    pub fn indices_avx2(&self, player: u64, opponent: u64) -> [u16; GROUPS] {
        use std::arch::x86_64::*;
        let boards = Self::boards_avx2(player, opponent);
        let mut lanes = [0i32; BLOCKS * LANES];
        for b in 0..BLOCKS {
            let v = self.negated_block_avx2(boards, b);
            // SAFETY: writes 32 bytes into `lanes[8 b..8 b + 8]`, in bounds.
            unsafe { _mm256_storeu_si256(lanes[LANES * b..].as_mut_ptr().cast(), v) };
        }
        let mut out = [0u16; GROUPS];
        for (b, groups) in self.avx2.group.iter().enumerate() {
            for (l, &g) in groups.iter().enumerate() {
                let v = -lanes[LANES * b + l];
                if usize::from(g) < GROUPS {
                    out[usize::from(g)] = v as u16;
                } else {
                    assert_eq!(v, 0, "an empty lane");
                }
            }
        }
        out
    }

    /// The sum of the 46 groups' table entries in `w` (one phase's weights, then anything),
    /// with AVX2: [`Groups::lanes_avx2`] summed. Callers outside a function with AVX2 must
    /// have checked that the CPU has it. (The evaluation adds the extra lanes before summing.)
    ///
    /// # Panics
    /// If `w` is shorter than a phase's tables (the mobility tables need not be there).
    #[cfg(all(target_arch = "x86_64", test))]
    #[target_feature(enable = "avx2")]
    pub fn sum_avx2(&self, w: &[i16], player: u64, opponent: u64) -> i32 {
        hsum_avx2(self.lanes_avx2(w, player, opponent))
    }

    /// The 46 groups' table entries in `w` (one phase's weights, then anything), in 32-bit
    /// lanes to be summed, with AVX2: the indices as in [`Groups::indices_avx2`], plus each
    /// table's offset, then six 8-lane gathers. Callers outside a function with AVX2 must have
    /// checked that the CPU has it.
    ///
    /// # Panics
    /// If `w` is shorter than a phase's tables (the mobility tables need not be there).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    #[inline]
    pub fn lanes_avx2(&self, w: &[i16], player: u64, opponent: u64) -> std::arch::x86_64::__m256i {
        use std::arch::x86_64::*;
        // Every index read is at most `last` (the largest a group can have), and the gather
        // reads 4 bytes from there: in bounds.
        let last = self.last as usize;
        assert!(w.len() > last + 1, "a phase's tables");
        let boards = Self::boards_avx2(player, opponent);
        let limit = _mm256_set1_epi32(last as i32);
        let mut total = _mm256_setzero_si256();
        for b in 0..BLOCKS {
            let neg = self.negated_block_avx2(boards, b);
            // SAFETY: each reads the 32 bytes of one `[u32; 8]`, 32-byte aligned (`Avx2Tables`).
            let (off, keep) = unsafe {
                (
                    _mm256_load_si256(self.avx2.offset[b].as_ptr().cast()),
                    _mm256_load_si256(self.avx2.keep[b].as_ptr().cast()),
                )
            };
            // Clamped to `last` so that the gather stays in `w` whatever the lanes hold.
            let idx = _mm256_min_epu32(_mm256_sub_epi32(off, neg), limit);
            // SAFETY: each lane reads the 4 bytes at `w[idx..idx + 2]`, `idx <= last` and
            // `last + 1 < w.len()` (asserted above).
            let got = unsafe { _mm256_i32gather_epi32::<2>(w.as_ptr().cast(), idx) };
            // The low 16 bits of each lane with a group, sign-extended (`lo * 1 + hi * 0`).
            total = _mm256_add_epi32(total, _mm256_madd_epi16(got, keep));
        }
        total
    }

    /// The extra lanes' values ([`ExtraTables`]) before their clamp and offsets, with AVX2:
    /// the counts of the global features for the side to move's discs `player`, the opponent's
    /// `opponent` (read as `opponent & !player`) and the legal moves `mine` and `theirs`, the
    /// mobility entries `mobility` (`mobility_entries`) and 0 for the phase constant.
    ///
    /// The same values as [`crate::set::global_entries`]: the four neighbourhood sets of
    /// [`near_lanes_avx2`] counted by nibble lookups and `vpsadbw`, the odd quadrants by
    /// [`crate::set::quadrant_entry`]. Callers outside a function with AVX2 and POPCNT must
    /// have checked that the CPU has them.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,popcnt")]
    #[inline]
    pub fn extra_counts_avx2(
        player: u64,
        opponent: u64,
        mine: u64,
        theirs: u64,
        mobility: (u32, u32),
    ) -> std::arch::x86_64::__m256i {
        let (near, empty) = near_lanes_avx2(player, opponent);
        let quadrants = crate::set::quadrant_entry(empty, mine, theirs);
        with_scalar_lanes(
            othello_rules::movegen::x86::popcount_epi64_avx2(near),
            mobility,
            quadrants,
        )
    }

    /// [`Groups::extra_counts_avx2`] with AVX-512 (F, VL, VPOPCNTDQ): the four neighbourhood
    /// sets counted by one `vpopcntq`, the odd quadrants by [`quadrant_entry_avx512`]. Callers
    /// outside a function with these target features must have checked that the CPU has them.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512vl,avx512vpopcntdq,avx2,popcnt")]
    #[inline]
    pub fn extra_counts_avx512(
        player: u64,
        opponent: u64,
        mine: u64,
        theirs: u64,
        mobility: (u32, u32),
    ) -> std::arch::x86_64::__m256i {
        let (near, empty) = near_lanes_avx2(player, opponent);
        let quadrants = quadrant_entry_avx512(empty, mine, theirs);
        with_scalar_lanes(std::arch::x86_64::_mm256_popcnt_epi64(near), mobility, quadrants)
    }

    /// The extra lanes' table entries in `w` (one phase's weights and one entry more), in
    /// 32-bit lanes to be summed: `counts` ([`Groups::extra_counts_avx2`]) clamped to each
    /// lane's last entry, plus the tables' offsets, read by one 8-lane gather. Callers outside
    /// a function with AVX2 must have checked that the CPU has it.
    ///
    /// # Panics
    /// If `w` does not hold a whole phase and one entry more (`PatternEval` pads its weights).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    #[inline]
    pub fn extra_lanes_avx2(&self, w: &[i16], counts: std::arch::x86_64::__m256i) -> std::arch::x86_64::__m256i {
        use std::arch::x86_64::*;
        let idx = self.extra_indices_avx2(counts);
        let last = self.extra.last as usize;
        assert!(w.len() > last + 1, "a phase's tables and one entry");
        // SAFETY: each lane reads the 4 bytes at `w[idx..idx + 2]`, `idx <= last`
        // (`extra_indices_avx2`) and `last + 1 < w.len()` (asserted above).
        let got = unsafe { _mm256_i32gather_epi32::<2>(w.as_ptr().cast(), idx) };
        // The low 16 bits of each lane, sign-extended (`lo * 1 + hi * 0`).
        _mm256_madd_epi16(got, _mm256_set1_epi32(1))
    }

    /// [`Groups::extra_lanes_avx2`] with scalar (bounds-checked) table reads instead of the
    /// gather, summed: for `sum_avx2_loads`.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    #[inline]
    pub fn extra_sum_avx2_loads(&self, w: &[i16], counts: std::arch::x86_64::__m256i) -> i32 {
        use std::arch::x86_64::*;
        let mut idx = [0u32; EXTRA_LANES];
        // SAFETY: writes 32 bytes into the 8 lanes of `idx`.
        unsafe { _mm256_storeu_si256(idx.as_mut_ptr().cast(), self.extra_indices_avx2(counts)) };
        idx.iter().map(|&i| i32::from(w[i as usize])).sum()
    }

    /// `counts` clamped to each lane's last entry, plus the lanes' table offsets: every lane
    /// at most `extra.last`.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(crate) fn extra_indices_avx2(&self, counts: std::arch::x86_64::__m256i) -> std::arch::x86_64::__m256i {
        use std::arch::x86_64::*;
        // SAFETY: each reads the 32 bytes of one `[u32; 8]`, 32-byte aligned (`ExtraTables`).
        let (cap, offset) = unsafe {
            (
                _mm256_load_si256(self.extra.cap.as_ptr().cast()),
                _mm256_load_si256(self.extra.offset.as_ptr().cast()),
            )
        };
        _mm256_add_epi32(_mm256_min_epu32(counts, cap), offset)
    }

    /// [`Groups::sum_avx2`] with scalar table reads instead of the gathers: the indices
    /// stored, then one bounds-checked read per group. For CPUs whose gathers are microcoded
    /// (AMD: 39 micro-ops for an 8-lane `vpgatherdd` on Zen 3, against 5 on Intel).
    /// Callers outside a function with AVX2 must have checked that the CPU has it.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    #[inline]
    pub fn sum_avx2_loads(&self, w: &[i16], player: u64, opponent: u64) -> i32 {
        use std::arch::x86_64::*;
        let boards = Self::boards_avx2(player, opponent);
        let mut lanes = [0u32; BLOCKS * LANES];
        for (b, lanes) in lanes.chunks_exact_mut(LANES).enumerate() {
            let neg = self.negated_block_avx2(boards, b);
            // SAFETY: reads the 32 bytes of one `[u32; 8]`, 32-byte aligned (`Avx2Tables`),
            // and writes 32 bytes into the 8 lanes of `lanes`.
            unsafe {
                let off = _mm256_load_si256(self.avx2.offset[b].as_ptr().cast());
                _mm256_storeu_si256(lanes.as_mut_ptr().cast(), _mm256_sub_epi32(off, neg));
            }
        }
        // The groups fill the first 46 lanes (longest first).
        lanes[..GROUPS].iter().map(|&i| i32::from(w[i as usize])).sum()
    }

    /// Bytes 0-7 the player's bitboard, 8-15 the opponent's (`opponent & !player`), in both
    /// 128-bit halves: what [`Groups::negated_block_avx2`] shuffles.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    #[inline]
    fn boards_avx2(player: u64, opponent: u64) -> std::arch::x86_64::__m256i {
        let (p, o) = (player as i64, (opponent & !player) as i64);
        std::arch::x86_64::_mm256_setr_epi64x(p, o, p, o)
    }

    /// The indices of block `b`'s groups, negated, in 32-bit lanes ([`Avx2Tables::group`]);
    /// empty lanes are 0. For each step, one `vpshufb` reads the byte of each digit's square
    /// from the player's and the opponent's bitboards ([`Groups::boards_avx2`]), `vpcmpeqb`
    /// with the square's bit makes -1 where the disc is, and `vpmaddubsw` by `(3^m, 2 * 3^m)`
    /// the negated digit times `3^m`, added in 16 bits (`-A`, `-B`); a last `vpmaddwd` makes
    /// `-(A + 3^h B)`.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    #[inline]
    fn negated_block_avx2(&self, boards: std::arch::x86_64::__m256i, b: usize) -> std::arch::x86_64::__m256i {
        use std::arch::x86_64::*;
        let mut acc = _mm256_setzero_si256();
        let steps = self.avx2.shuffle[b].iter().zip(&self.avx2.bit[b]).zip(STEP_POW);
        for ((shuffle, bit), pow) in steps.take(STEPS[b]) {
            // SAFETY: each reads the 32 bytes of one `[u8; 32]`, 32-byte aligned
            // (`Avx2Tables`).
            let (shuffle, bit) = unsafe {
                (
                    _mm256_load_si256(shuffle.as_ptr().cast()),
                    _mm256_load_si256(bit.as_ptr().cast()),
                )
            };
            let bytes = _mm256_and_si256(_mm256_shuffle_epi8(boards, shuffle), bit);
            let discs = _mm256_cmpeq_epi8(bytes, bit);
            // `3^m * -p + 2 * 3^m * -o`: the digit times `3^m`, negated, per 16-bit lane.
            let digits = _mm256_maddubs_epi16(_mm256_set1_epi32(pow), discs);
            acc = _mm256_add_epi16(acc, digits);
        }
        // SAFETY: reads the 32 bytes of one `[u32; 8]`, 32-byte aligned (`Avx2Tables`).
        let halves = unsafe { _mm256_load_si256(self.avx2.halves[b].as_ptr().cast()) };
        _mm256_madd_epi16(acc, halves)
    }
}

/// The sum of the eight 32-bit lanes of `v`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
pub(crate) fn hsum_avx2(v: std::arch::x86_64::__m256i) -> i32 {
    use std::arch::x86_64::*;
    let half = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
    let quarter = _mm_add_epi32(half, _mm_unpackhi_epi64(half, half));
    _mm_cvtsi128_si32(quarter) + _mm_extract_epi32::<1>(quarter)
}

/// The four neighbourhood sets of the global features, in the 64-bit lanes of one register:
/// `[opponent, player, empty, empty]` spread to their neighbours (as
/// `othello_rules::neighbours`), masked by `[empty, empty, player, opponent]`: the empties
/// next to an opponent disc, those next to a disc of the side to move, the side to move's
/// discs next to an empty square, the opponent's. With the empty squares. The opponent's discs
/// are read as `opponent & !player`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn near_lanes_avx2(player: u64, opponent: u64) -> (std::arch::x86_64::__m256i, u64) {
    use std::arch::x86_64::*;
    let opponent = opponent & !player;
    let empty = !(player | opponent);
    let (p, o, e) = (
        _mm256_set1_epi64x(player as i64),
        _mm256_set1_epi64x(opponent as i64),
        _mm256_set1_epi64x(empty as i64),
    );
    let spread = _mm256_blend_epi32::<0b1111_0000>(_mm256_blend_epi32::<0b0000_1100>(o, p), e);
    let within = _mm256_blend_epi32::<0b1100_0000>(_mm256_blend_epi32::<0b0011_0000>(e, p), o);
    // The row neighbours without wrapping, then the rows above and below.
    let not_a = _mm256_set1_epi64x(0xfefe_fefe_fefe_fefe_u64 as i64);
    let not_h = _mm256_set1_epi64x(0x7f7f_7f7f_7f7f_7f7f);
    let h = _mm256_or_si256(
        _mm256_and_si256(_mm256_slli_epi64::<1>(spread), not_a),
        _mm256_and_si256(_mm256_srli_epi64::<1>(spread), not_h),
    );
    let bh = _mm256_or_si256(spread, h);
    let near = _mm256_or_si256(
        h,
        _mm256_or_si256(_mm256_slli_epi64::<8>(bh), _mm256_srli_epi64::<8>(bh)),
    );
    (_mm256_and_si256(near, within), empty)
}

/// The four counts (in the low 32 bits of each 64-bit lane) with the scalar lanes between
/// them: the mobility entries, the odd quadrants and the phase constant's 0 ([`ExtraTables`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn with_scalar_lanes(
    counts: std::arch::x86_64::__m256i,
    mobility: (u32, u32),
    quadrants: u32,
) -> std::arch::x86_64::__m256i {
    use std::arch::x86_64::*;
    let scalar = _mm256_setr_epi32(0, mobility.0 as i32, 0, mobility.1 as i32, 0, quadrants as i32, 0, 0);
    _mm256_or_si256(counts, scalar)
}

/// [`crate::set::quadrant_entry`] with AVX-512 (F, VL, VPOPCNTDQ): the four quadrants in the
/// 64-bit lanes of one register, their empties counted by `vpopcntq`, and the three tests
/// (odd, a move of the side to move, a move of the opponent) as 4-bit masks.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl,avx512vpopcntdq,popcnt")]
#[inline]
pub(crate) fn quadrant_entry_avx512(empty: u64, mine: u64, theirs: u64) -> u32 {
    use std::arch::x86_64::*;
    let q = crate::set::QUADRANTS.map(|q| q as i64);
    let quadrants = _mm256_setr_epi64x(q[0], q[1], q[2], q[3]);
    let empties = _mm256_popcnt_epi64(_mm256_and_si256(_mm256_set1_epi64x(empty as i64), quadrants));
    let odd = u32::from(_mm256_test_epi64_mask(empties, _mm256_set1_epi64x(1)));
    let can = u32::from(_mm256_test_epi64_mask(_mm256_set1_epi64x(mine as i64), quadrants));
    let only_theirs = u32::from(_mm256_test_epi64_mask(_mm256_set1_epi64x(theirs as i64), quadrants)) & !can;
    5 * (odd & can).count_ones() + (odd & only_theirs).count_ones()
}
