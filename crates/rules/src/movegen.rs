//! Move generation and flips on raw side-relative bitboards (8x8 layout).
//!
//! Everything here works on `(player, opponent)` pairs of `u64`. Boards smaller than 8x8 live in
//! the top-left corner: rays never pass through a square without a disc, so the same code is
//! exact for them once the legal-move set is masked with the board (see
//! [`BoardSize::mask`](crate::BoardSize::mask)); [`Position`](crate::Position) does that.
//!
//! Two implementations sit side by side with identical signatures:
//! - [`portable`]: plain `u64` shifts (Kogge-Stone fills) and a bit-scan flip; always compiled.
//! - [`x86`]: AVX2 move generation (the eight directions as four 64-bit lanes, each shifted both
//!   ways), chosen at run time when the CPU reports AVX2, BMI1 and LZCNT: 4.0 ns against 10.6 ns
//!   per position (docs/BENCHMARKS.md); and the same flip compiled with BMI1/LZCNT/POPCNT, for
//!   hot loops compiled with those features. Both are checked against the naive reference in
//!   [`crate::reference`] on random positions (see the integration tests). No PEXT/PDEP code:
//!   it is microcoded and slow on AMD CPUs before Zen 3, and the shift-based code needs none.
//!
//! [`legal_moves`] picks the implementation; [`backend`] says which one runs.

use std::sync::atomic::{AtomicU8, Ordering};

/// Which implementation [`legal_moves`] and [`flips`] use.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Backend {
    /// Plain `u64` code, compiled for the baseline target.
    Portable,
    /// AVX2 move generation and BMI1/LZCNT flips (x86-64 only).
    Avx2,
}

const UNKNOWN: u8 = 0;
const PORTABLE: u8 = 1;
const AVX2: u8 = 2;
static BACKEND: AtomicU8 = AtomicU8::new(UNKNOWN);

#[cold]
fn detect() -> u8 {
    let env_portable = std::env::var_os("OTHELLO_PORTABLE").is_some_and(|v| v != "0");
    let choice = if !env_portable && x86::available() {
        AVX2
    } else {
        PORTABLE
    };
    BACKEND.store(choice, Ordering::Relaxed);
    choice
}

#[inline(always)]
fn chosen() -> u8 {
    match BACKEND.load(Ordering::Relaxed) {
        UNKNOWN => detect(),
        b => b,
    }
}

/// The implementation in use. The environment variable `OTHELLO_PORTABLE=1` forces the portable
/// one (for comparisons); otherwise the fastest the CPU supports is used.
pub fn backend() -> Backend {
    match chosen() {
        AVX2 => Backend::Avx2,
        _ => Backend::Portable,
    }
}

/// The squares where `player` may play: empty squares (of the whole 8x8 grid) from which a
/// straight line of one or more `opponent` discs ends at a `player` disc.
///
/// `player` and `opponent` must not overlap.
#[inline]
pub fn legal_moves(player: u64, opponent: u64) -> u64 {
    if chosen() == AVX2 {
        x86::legal_moves(player, opponent)
    } else {
        portable::legal_moves(player, opponent)
    }
}

/// The legal moves of both sides at once: `(legal_moves(player, opponent),
/// legal_moves(opponent, player))`. One run-time switch and one call for both, which is what
/// mobility evaluation needs.
#[inline]
pub fn legal_moves_both(player: u64, opponent: u64) -> (u64, u64) {
    if chosen() == AVX2 {
        x86::legal_moves_both(player, opponent)
    } else {
        (
            portable::legal_moves(player, opponent),
            portable::legal_moves(opponent, player),
        )
    }
}

/// The opponent discs flipped when `player` plays on square `sq` (0..64); empty when the move
/// flips nothing (that is, when it is not legal). `sq` must be an empty square.
///
/// Always the portable bit-scan code, inlined: called through a run-time switch, the BMI1/LZCNT
/// build of the same code measured no faster (71.8 us against 68.7 us for all moves of 1000
/// positions, docs/BENCHMARKS.md), because the call cannot be inlined. Hot loops compiled with
/// the x86 features (perft) inline [`x86::flips_bmi`] instead.
#[inline]
pub fn flips(player: u64, opponent: u64, sq: u32) -> u64 {
    portable::flips(player, opponent, sq)
}

/// Rays from each square in each of the eight directions, not including the square itself.
/// Index `[sq][dir]`; directions 0..4 point to higher indices (E, SW, S, SE: +1, +7, +8, +9),
/// directions 4..8 to lower ones (W, NE, N, NW: -1, -7, -8, -9).
pub(crate) static RAYS: [[u64; 8]; 64] = make_rays();

const fn make_rays() -> [[u64; 8]; 64] {
    let dirs: [(i32, i32); 8] = [(1, 0), (-1, 1), (0, 1), (1, 1), (-1, 0), (1, -1), (0, -1), (-1, -1)];
    let mut out = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let (dc, dr) = dirs[d];
            let mut c = (sq % 8) as i32 + dc;
            let mut r = (sq / 8) as i32 + dr;
            let mut m = 0u64;
            while c >= 0 && c < 8 && r >= 0 && r < 8 {
                m |= 1 << (r * 8 + c);
                c += dc;
                r += dr;
            }
            out[sq][d] = m;
            d += 1;
        }
        sq += 1;
    }
    out
}

/// The portable implementation: plain `u64` arithmetic, any target.
pub mod portable {
    use super::RAYS;

    /// See [`super::legal_moves`].
    #[inline]
    pub fn legal_moves(player: u64, opponent: u64) -> u64 {
        // Kogge-Stone style fill in each direction: 6 steps cover the longest ray.
        let mo = opponent & 0x7e7e_7e7e_7e7e_7e7e; // horizontal and diagonal rays
        let mut moves = dir_moves(player, mo, 1);
        moves |= dir_moves(player, opponent, 8);
        moves |= dir_moves(player, mo, 7);
        moves |= dir_moves(player, mo, 9);
        moves & !(player | opponent)
    }

    #[inline(always)]
    fn dir_moves(p: u64, o: u64, s: u32) -> u64 {
        let mut fl = o & (p << s);
        let mut fr = o & (p >> s);
        fl |= o & (fl << s);
        fr |= o & (fr >> s);
        let pl = o & (o << s);
        let pr = pl >> s;
        let s2 = s + s;
        fl |= pl & (fl << s2);
        fr |= pr & (fr >> s2);
        fl |= pl & (fl << s2);
        fr |= pr & (fr >> s2);
        (fl << s) | (fr >> s)
    }

    /// See [`super::flips`].
    #[inline]
    pub fn flips(player: u64, opponent: u64, sq: u32) -> u64 {
        flips_bitscan(player, opponent, sq)
    }

    /// Flips by bit scans along the eight rays of `sq`: in each direction the first square that
    /// is not an opponent disc is found (lowest bit for rays towards higher indices, highest
    /// bit for the others); if it holds a player disc, the opponent discs before it flip.
    #[inline(always)]
    pub(crate) fn flips_bitscan(player: u64, opponent: u64, sq: u32) -> u64 {
        let rays = &RAYS[sq as usize & 63];
        let not_o = !opponent;
        let mut f = 0u64;
        // Directions towards higher indices: lowest non-opponent square of the ray.
        for &m in &rays[..4] {
            let stop = not_o & m;
            let first = stop & stop.wrapping_neg();
            let hit = first & player;
            // hit - 1 (when hit != 0) has every bit below the outflanking disc set.
            f |= hit.wrapping_sub((hit != 0) as u64) & m;
        }
        // Directions towards lower indices: highest non-opponent square of the ray.
        for &m in &rays[4..] {
            let stop = not_o & m;
            let first = (0x8000_0000_0000_0000u64 >> (stop.leading_zeros() & 63)) & stop;
            let hit = first & player;
            // -hit * 2 has every bit above the outflanking disc set (0 when hit is 0).
            f |= hit.wrapping_neg().wrapping_shl(1) & m;
        }
        // When the ray holds only opponent discs `stop` is 0, and so are `first` and `hit`.
        f
    }
}

/// The x86-64 implementation (AVX2 move generation, BMI1/LZCNT flips).
///
/// The `#[target_feature]` functions are public so that a hot loop elsewhere (a solver, a
/// perft) can be compiled with the same features and inline them, as [`crate::perft`] does:
/// call them from a function carrying at least the same `#[target_feature]` set, entered only
/// after [`x86::available`] returned true.
pub mod x86 {
    /// Whether the CPU supports this implementation (AVX2, BMI1, LZCNT, POPCNT).
    pub fn available() -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            std::is_x86_feature_detected!("avx2")
                && std::is_x86_feature_detected!("bmi1")
                && std::is_x86_feature_detected!("lzcnt")
                && std::is_x86_feature_detected!("popcnt")
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            false
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[inline]
    pub(super) fn legal_moves(player: u64, opponent: u64) -> u64 {
        // SAFETY: only called after `available()` confirmed AVX2 (the backend is chosen once
        // in `detect`, from `available()`).
        unsafe { legal_moves_avx2(player, opponent) }
    }

    #[cfg(target_arch = "x86_64")]
    #[inline]
    pub(super) fn legal_moves_both(player: u64, opponent: u64) -> (u64, u64) {
        // SAFETY: as in `legal_moves`.
        unsafe { both_avx2(player, opponent) }
    }

    #[cfg(not(target_arch = "x86_64"))]
    pub(super) fn legal_moves_both(player: u64, opponent: u64) -> (u64, u64) {
        (
            super::portable::legal_moves(player, opponent),
            super::portable::legal_moves(opponent, player),
        )
    }

    /// Both sides' moves in one AVX2 function, so both fills inline.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn both_avx2(p: u64, o: u64) -> (u64, u64) {
        (legal_moves_avx2(p, o), legal_moves_avx2(o, p))
    }

    #[cfg(target_arch = "x86_64")]
    #[inline]
    pub(super) fn flips(player: u64, opponent: u64, sq: u32) -> u64 {
        // SAFETY: as above, BMI1 and LZCNT were confirmed by `available()`.
        unsafe { flips_bmi(player, opponent, sq) }
    }

    #[cfg(not(target_arch = "x86_64"))]
    pub(super) fn legal_moves(player: u64, opponent: u64) -> u64 {
        super::portable::legal_moves(player, opponent)
    }

    #[cfg(not(target_arch = "x86_64"))]
    pub(super) fn flips(player: u64, opponent: u64, sq: u32) -> u64 {
        super::portable::flips(player, opponent, sq)
    }

    /// [`super::legal_moves`] with AVX2: the eight directions as four lanes (shifts 1, 8, 9,
    /// 7), each filled both ways.
    ///
    /// # Safety
    /// Outside a function with the same target features, call it only when [`available`] is
    /// true (the CPU must support AVX2).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    #[inline]
    pub fn legal_moves_avx2(p: u64, o: u64) -> u64 {
        use std::arch::x86_64::*;
        let shift = _mm256_set_epi64x(7, 9, 8, 1);
        let shift2 = _mm256_set_epi64x(14, 18, 16, 2);
        let edge = _mm256_set_epi64x(0x7e7e_7e7e_7e7e_7e7e, 0x7e7e_7e7e_7e7e_7e7e, -1, 0x7e7e_7e7e_7e7e_7e7e);
        let pp = _mm256_set1_epi64x(p as i64);
        let oo = _mm256_and_si256(_mm256_set1_epi64x(o as i64), edge);
        let mut fl = _mm256_and_si256(oo, _mm256_sllv_epi64(pp, shift));
        let mut fr = _mm256_and_si256(oo, _mm256_srlv_epi64(pp, shift));
        fl = _mm256_or_si256(fl, _mm256_and_si256(oo, _mm256_sllv_epi64(fl, shift)));
        fr = _mm256_or_si256(fr, _mm256_and_si256(oo, _mm256_srlv_epi64(fr, shift)));
        let pl = _mm256_and_si256(oo, _mm256_sllv_epi64(oo, shift));
        let pr = _mm256_srlv_epi64(pl, shift);
        fl = _mm256_or_si256(fl, _mm256_and_si256(pl, _mm256_sllv_epi64(fl, shift2)));
        fr = _mm256_or_si256(fr, _mm256_and_si256(pr, _mm256_srlv_epi64(fr, shift2)));
        fl = _mm256_or_si256(fl, _mm256_and_si256(pl, _mm256_sllv_epi64(fl, shift2)));
        fr = _mm256_or_si256(fr, _mm256_and_si256(pr, _mm256_srlv_epi64(fr, shift2)));
        let mm = _mm256_or_si256(_mm256_sllv_epi64(fl, shift), _mm256_srlv_epi64(fr, shift));
        let m = _mm_or_si128(_mm256_castsi256_si128(mm), _mm256_extracti128_si256(mm, 1));
        let m = _mm_or_si128(m, _mm_unpackhi_epi64(m, m));
        (_mm_cvtsi128_si64(m) as u64) & !(p | o)
    }

    /// [`super::flips`]: the portable bit-scan flip compiled with single-instruction
    /// `tzcnt`/`lzcnt`.
    ///
    /// # Safety
    /// Outside a function with the same target features, call it only when [`available`] is
    /// true (the CPU must support BMI1, LZCNT and POPCNT).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi1,lzcnt,popcnt")]
    #[inline]
    pub fn flips_bmi(p: u64, o: u64, sq: u32) -> u64 {
        super::portable::flips_bitscan(p, o, sq)
    }
}

/// Both implementations, callable directly so tests and benchmarks can compare them.
pub mod variants {
    /// Legal moves with the x86 implementation, or `None` when the CPU lacks it.
    pub fn legal_moves_fast(player: u64, opponent: u64) -> Option<u64> {
        super::x86::available().then(|| super::x86::legal_moves(player, opponent))
    }

    /// Flips with the x86 implementation, or `None` when the CPU lacks it.
    pub fn flips_fast(player: u64, opponent: u64, sq: u32) -> Option<u64> {
        super::x86::available().then(|| super::x86::flips(player, opponent, sq))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_moves() {
        // Black to move at the start: black d5 (35) e4 (28), white d4 (27) e5 (36).
        let p = 1u64 << 35 | 1 << 28;
        let o = 1u64 << 27 | 1 << 36;
        let expected = 1u64 << 19 | 1 << 26 | 1 << 37 | 1 << 44; // d3 c4 f5 e6
        assert_eq!(portable::legal_moves(p, o), expected);
        assert_eq!(legal_moves(p, o), expected);
        assert_eq!(portable::flips(p, o, 19), 1 << 27); // d3 flips d4
        assert_eq!(flips(p, o, 19), 1 << 27);
        assert_eq!(portable::flips(p, o, 0), 0);
    }

    #[test]
    fn rays_do_not_wrap() {
        // From h1 (7) going east there is nothing; going south-west reaches a8 diagonally.
        assert_eq!(RAYS[7][0], 0);
        assert_eq!(RAYS[7][1].count_ones(), 7);
        assert_eq!(RAYS[0][4], 0);
        assert_eq!(RAYS[63][7].count_ones(), 7);
    }
}
