//! AVX-512 move generation and flips (AVX-512 F, VL and CD).
//!
//! Move generation: the eight directions are the eight 64-bit lanes of one 512-bit register.
//! Each lane rotates (`vprolvq`) instead of shifting, so one instruction serves both shift
//! directions; the bits a rotation carries around the board edge always land on squares that
//! the lane's opponent mask (the squares a flipping run can cross: inner columns for the
//! horizontal and diagonal directions, inner rows for the vertical and diagonal ones) clears.
//! The fills use three-input logic (`vpternlogq`).
//!
//! Flips: the bit-scan flip of the portable code on four lanes at once: towards higher indices
//! the lowest square of each ray that is not an opponent disc (`x & -x`), towards lower indices
//! the highest one (`vplzcntq`, AVX-512 CD).

/// The opponent squares a flipping run may cross in each lane's direction, and the rotations:
/// lanes 0..4 go towards higher indices (+1, +8, +9, +7), lanes 4..8 towards lower ones.
#[cfg(target_arch = "x86_64")]
const INNER_H: i64 = 0x7e7e_7e7e_7e7e_7e7e;
#[cfg(target_arch = "x86_64")]
const INNER_V: i64 = 0x00ff_ffff_ffff_ff00;
#[cfg(target_arch = "x86_64")]
const INNER_D: i64 = 0x007e_7e7e_7e7e_7e00;

/// [`super::legal_moves`] with AVX-512: all eight directions in one register.
///
/// # Safety
/// Outside a function with the same target features, call it only when
/// [`super::Backend::Avx512`] is supported.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl")]
#[inline]
pub fn legal_moves_avx512(p: u64, o: u64) -> u64 {
    use std::arch::x86_64::*;
    // Rotation counts: 64 - s rotates right by s.
    let s1 = _mm512_set_epi64(57, 55, 56, 63, 7, 9, 8, 1);
    let s2 = _mm512_set_epi64(50, 46, 48, 62, 14, 18, 16, 2);
    let inner = _mm512_set_epi64(INNER_D, INNER_D, INNER_V, INNER_H, INNER_D, INNER_D, INNER_V, INNER_H);
    let pp = _mm512_set1_epi64(p as i64);
    let oo = _mm512_and_si512(_mm512_set1_epi64(o as i64), inner);
    // 0xf8 = a | (b & c); 0x80 = a & b & c.
    let mut f = _mm512_and_si512(oo, _mm512_rolv_epi64(pp, s1));
    f = _mm512_ternarylogic_epi64(f, oo, _mm512_rolv_epi64(f, s1), 0xf8);
    let pair = _mm512_and_si512(oo, _mm512_rolv_epi64(oo, s1));
    f = _mm512_ternarylogic_epi64(f, pair, _mm512_rolv_epi64(f, s2), 0xf8);
    f = _mm512_ternarylogic_epi64(f, pair, _mm512_rolv_epi64(f, s2), 0xf8);
    let m = _mm512_rolv_epi64(f, s1);
    // OR of the eight lanes.
    let m = _mm256_or_si256(_mm512_castsi512_si256(m), _mm512_extracti64x4_epi64(m, 1));
    let m = _mm_or_si128(_mm256_castsi256_si128(m), _mm256_extracti128_si256(m, 1));
    let m = _mm_or_si128(m, _mm_unpackhi_epi64(m, m));
    (_mm_cvtsi128_si64(m) as u64) & !(p | o)
}

/// [`super::legal_moves`] on 256-bit registers with AVX-512 VL three-input logic: the AVX2
/// layout (four directions, each shifted both ways), fewer instructions.
///
/// # Safety
/// As [`legal_moves_avx512`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl,avx2")]
#[inline]
pub fn legal_moves_avx512vl(p: u64, o: u64) -> u64 {
    use std::arch::x86_64::*;
    let shift = _mm256_set_epi64x(7, 9, 8, 1);
    let shift2 = _mm256_set_epi64x(14, 18, 16, 2);
    let edge = _mm256_set_epi64x(INNER_H, INNER_H, -1, INNER_H);
    let pp = _mm256_set1_epi64x(p as i64);
    let oo = _mm256_and_si256(_mm256_set1_epi64x(o as i64), edge);
    let mut fl = _mm256_and_si256(oo, _mm256_sllv_epi64(pp, shift));
    let mut fr = _mm256_and_si256(oo, _mm256_srlv_epi64(pp, shift));
    fl = _mm256_ternarylogic_epi64(fl, oo, _mm256_sllv_epi64(fl, shift), 0xf8);
    fr = _mm256_ternarylogic_epi64(fr, oo, _mm256_srlv_epi64(fr, shift), 0xf8);
    let pl = _mm256_and_si256(oo, _mm256_sllv_epi64(oo, shift));
    let pr = _mm256_srlv_epi64(pl, shift);
    fl = _mm256_ternarylogic_epi64(fl, pl, _mm256_sllv_epi64(fl, shift2), 0xf8);
    fr = _mm256_ternarylogic_epi64(fr, pr, _mm256_srlv_epi64(fr, shift2), 0xf8);
    fl = _mm256_ternarylogic_epi64(fl, pl, _mm256_sllv_epi64(fl, shift2), 0xf8);
    fr = _mm256_ternarylogic_epi64(fr, pr, _mm256_srlv_epi64(fr, shift2), 0xf8);
    let mm = _mm256_or_si256(_mm256_sllv_epi64(fl, shift), _mm256_srlv_epi64(fr, shift));
    let m = _mm_or_si128(_mm256_castsi256_si128(mm), _mm256_extracti128_si256(mm, 1));
    let m = _mm_or_si128(m, _mm_unpackhi_epi64(m, m));
    (_mm_cvtsi128_si64(m) as u64) & !(p | o)
}

/// [`super::flips`] with AVX-512 VL/CD: the eight rays as two groups of four lanes.
///
/// # Safety
/// As [`legal_moves_avx512`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl,avx512cd,avx2")]
#[inline]
pub fn flips_avx512(p: u64, o: u64, sq: u32) -> u64 {
    use std::arch::x86_64::*;
    let rays = &super::RAYS[sq as usize & 63];
    // SAFETY: `rays` is 8 consecutive u64; each load reads 4 of them (unaligned loads allowed).
    let (up, down) = unsafe {
        (
            _mm256_loadu_si256(rays.as_ptr().cast()),
            _mm256_loadu_si256(rays.as_ptr().add(4).cast()),
        )
    };
    let pp = _mm256_set1_epi64x(p as i64);
    let oo = _mm256_set1_epi64x(o as i64);
    let zero = _mm256_setzero_si256();
    // Towards higher indices: the lowest square of the ray that is not an opponent disc.
    let stop = _mm256_andnot_si256(oo, up);
    let hit = _mm256_ternarylogic_epi64(stop, _mm256_sub_epi64(zero, stop), pp, 0x80);
    // hit - 1: every square below the outflanking disc; kept only where there is one.
    let found = _mm256_test_epi64_mask(hit, hit);
    let f_up = _mm256_maskz_and_epi64(found, _mm256_sub_epi64(hit, _mm256_set1_epi64x(1)), up);
    // Towards lower indices: the highest square of the ray that is not an opponent disc.
    let stop = _mm256_andnot_si256(oo, down);
    let top = _mm256_srlv_epi64(_mm256_set1_epi64x(i64::MIN), _mm256_lzcnt_epi64(stop));
    let hit = _mm256_and_si256(top, pp);
    // -hit * 2: every square above the outflanking disc (0 without one).
    let f_down = _mm256_slli_epi64(_mm256_sub_epi64(zero, hit), 1);
    // 0xf8 = a | (b & c).
    let f = _mm256_ternarylogic_epi64(f_up, f_down, down, 0xf8);
    let f = _mm_or_si128(_mm256_castsi256_si128(f), _mm256_extracti128_si256(f, 1));
    let f = _mm_or_si128(f, _mm_unpackhi_epi64(f, f));
    _mm_cvtsi128_si64(f) as u64
}
