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

/// The groups of set 1 in the layout's instance order, read straight from the board.
#[derive(Clone, Debug)]
pub(crate) struct Groups {
    /// Board squares in digit order; `NONE` past the group's length.
    pub squares: [[u8; MAX_LEN]; GROUPS],
    /// Start of each group's table in a phase's weights.
    pub offset: [u32; GROUPS],
    /// `vpermb` indices per half (groups 0-31, 32-45) and digit pair: byte `2l` (`2l + 1`) is
    /// the square of digit `2m` (`2m + 1`) of group `32 h + l`.
    pub perm: [[[u8; 64]; PAIRS]; 2],
    /// The bytes of `perm` that name a square (the others are zeroed).
    pub perm_mask: [[u64; PAIRS]; 2],
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
        Groups {
            squares,
            offset,
            perm,
            perm_mask,
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
    /// target features must have checked that the CPU has them.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    #[inline]
    pub fn indices_avx512(&self, player: u64, opponent: u64) -> [u16; 64] {
        use std::arch::x86_64::*;
        let cells = _mm512_mask_mov_epi8(
            _mm512_maskz_mov_epi8(player, _mm512_set1_epi8(1)),
            opponent & !player,
            _mm512_set1_epi8(2),
        );
        // Low byte times 1, high byte times 3, summed: `d_2m + 3 d_2m+1` per 16-bit lane.
        let coef = _mm512_set1_epi16(0x0301);
        let mut out = [0u16; 64];
        for h in 0..2 {
            let mut acc = _mm512_setzero_si512();
            for m in (0..PAIRS).rev() {
                // SAFETY: reads the 64 bytes of one `[u8; 64]`.
                let idx = unsafe { _mm512_loadu_si512(self.perm[h][m].as_ptr().cast()) };
                let digits = _mm512_maskz_permutexvar_epi8(self.perm_mask[h][m], idx, cells);
                let pair = _mm512_maddubs_epi16(digits, coef);
                acc = _mm512_add_epi16(_mm512_add_epi16(_mm512_slli_epi16::<3>(acc), acc), pair);
            }
            // SAFETY: writes 64 bytes into `out[32 h..32 h + 32]`, in bounds.
            unsafe { _mm512_storeu_si512(out[32 * h..].as_mut_ptr().cast(), acc) };
        }
        out
    }
}
