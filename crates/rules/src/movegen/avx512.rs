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

// Used only by the x86-64 back ends: other architectures compile it unused.
#![cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]

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

/// The perft count two plies below `(p, o)` when `moves` (non-empty, already masked with the
/// board) are its legal moves: for each move, the number of the child's legal moves on the board
/// `mask`, or 1 when the child has none (a pass or a finished game, one leaf either way).
///
/// The children are handled eight at a time, one per 64-bit lane: the flips of each lane's
/// move by fills from the move along the eight directions, then the child's moves by the
/// Kogge-Stone fills of the portable code, each direction one instruction for all eight lanes.
///
/// # Safety
/// As [`legal_moves_avx512`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl,popcnt,bmi1")]
#[inline]
pub fn perft2_avx512(p: u64, o: u64, moves: u64, mask: u64) -> u64 {
    use std::arch::x86_64::*;
    let pp = _mm512_set1_epi64(p as i64);
    let oo = _mm512_set1_epi64(o as i64);
    let board = _mm512_set1_epi64(mask as i64);
    let inner_h = _mm512_set1_epi64(INNER_H);
    let oh = _mm512_and_si512(oo, inner_h);
    let mut rest = moves;
    let mut n = 0u64;
    while rest != 0 {
        // The next (up to) eight moves, one bit per lane; lanes past the last move hold 0.
        let mut buf = [0u64; 8];
        for b in &mut buf {
            *b = rest & rest.wrapping_neg();
            rest &= rest.wrapping_sub(1);
        }
        // SAFETY: `buf` is 8 consecutive u64 (unaligned load allowed).
        let mm = unsafe { _mm512_loadu_si512(buf.as_ptr().cast()) };
        let valid = _mm512_test_epi64_mask(mm, mm);
        // The children's moves.
        let (_, _, m) = children8(pp, oo, oh, mm, board);
        let none = _mm512_mask_testn_epi64_mask(valid, m, m);
        let m = _mm512_maskz_mov_epi64(valid, m);
        let mut out = [0u64; 8];
        // SAFETY: `out` is 8 consecutive u64 (unaligned store allowed).
        unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast(), m) };
        n += none.count_ones() as u64;
        for c in out {
            n += c.count_ones() as u64;
        }
    }
    n
}

/// The children of `(pp, oo)` by each lane's move `mm` (one bit; 0 in an unused lane; `oh`:
/// `oo` on the inner columns), side to move first: the opponent, and the player with the move
/// and the flips; then the children's moves on `board`. `(cp, co, moves)`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
#[inline]
fn children8(
    pp: std::arch::x86_64::__m512i,
    oo: std::arch::x86_64::__m512i,
    oh: std::arch::x86_64::__m512i,
    mm: std::arch::x86_64::__m512i,
    board: std::arch::x86_64::__m512i,
) -> (
    std::arch::x86_64::__m512i,
    std::arch::x86_64::__m512i,
    std::arch::x86_64::__m512i,
) {
    use std::arch::x86_64::*;
    let f = flips8(pp, oo, oh, mm);
    let cp = _mm512_xor_si512(oo, f);
    let co = _mm512_ternarylogic_epi64(pp, f, mm, 0x96); // a ^ b ^ c
    (cp, co, _mm512_and_si512(moves8(cp, co), board))
}

/// Bytes 0, 1, ..., 63: compressed by a move mask, the moves' squares in order.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
#[inline]
fn byte_iota() -> std::arch::x86_64::__m512i {
    use std::arch::x86_64::*;
    _mm512_set_epi64(
        0x3f3e_3d3c_3b3a_3938,
        0x3736_3534_3332_3130,
        0x2f2e_2d2c_2b2a_2928,
        0x2726_2524_2322_2120,
        0x1f1e_1d1c_1b1a_1918,
        0x1716_1514_1312_1110,
        0x0f0e_0d0c_0b0a_0908,
        0x0706_0504_0302_0100,
    )
}

/// The flips of each lane's move (one bit; 0 in an unused lane) for the player `pp` against
/// the opponent `oo` (`oh`: `oo` on the inner columns), the same board in every lane: in each
/// direction the run of opponent discs next to the move, kept when a player disc closes it.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
#[inline]
fn flips8(
    pp: std::arch::x86_64::__m512i,
    oo: std::arch::x86_64::__m512i,
    oh: std::arch::x86_64::__m512i,
    mm: std::arch::x86_64::__m512i,
) -> std::arch::x86_64::__m512i {
    use std::arch::x86_64::*;
    let mut f = _mm512_setzero_si512();
    // One direction: `$sh` shifts by `$s` and by `$s2 = 2 * $s` that way; `$om`, the opponent
    // discs a run may cross. 0xf8 = a | (b & c).
    macro_rules! dir {
        ($sh:ident, $s:literal, $s2:literal, $om:expr) => {{
            let om = $om;
            let mut x = _mm512_and_si512(om, $sh::<$s>(mm));
            x = _mm512_ternarylogic_epi64(x, om, $sh::<$s>(x), 0xf8);
            let pair = _mm512_and_si512(om, $sh::<$s>(om));
            x = _mm512_ternarylogic_epi64(x, pair, $sh::<$s2>(x), 0xf8);
            x = _mm512_ternarylogic_epi64(x, pair, $sh::<$s2>(x), 0xf8);
            let closed = _mm512_test_epi64_mask($sh::<$s>(x), pp);
            f = _mm512_mask_or_epi64(f, closed, f, x);
        }};
    }
    dir!(_mm512_slli_epi64, 1, 2, oh);
    dir!(_mm512_srli_epi64, 1, 2, oh);
    dir!(_mm512_slli_epi64, 8, 16, oo);
    dir!(_mm512_srli_epi64, 8, 16, oo);
    dir!(_mm512_slli_epi64, 7, 14, oh);
    dir!(_mm512_srli_epi64, 7, 14, oh);
    dir!(_mm512_slli_epi64, 9, 18, oh);
    dir!(_mm512_srli_epi64, 9, 18, oh);
    f
}

/// The legal moves of each lane's position (player `pp`, opponent `oo`; whole 8x8 grid): the
/// portable Kogge-Stone fills, eight positions at once.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
#[inline]
fn moves8(pp: std::arch::x86_64::__m512i, oo: std::arch::x86_64::__m512i) -> std::arch::x86_64::__m512i {
    use std::arch::x86_64::*;
    let oh = _mm512_and_si512(oo, _mm512_set1_epi64(INNER_H));
    let mut acc = _mm512_setzero_si512();
    // Both ways along one line: `$s` and `$s2 = 2 * $s`; `$om`, the opponent discs a run may
    // cross. 0xf8 = a | (b & c); 0xfe = a | b | c.
    macro_rules! line {
        ($s:literal, $s2:literal, $om:expr) => {{
            let om = $om;
            let mut fl = _mm512_and_si512(om, _mm512_slli_epi64::<$s>(pp));
            let mut fr = _mm512_and_si512(om, _mm512_srli_epi64::<$s>(pp));
            fl = _mm512_ternarylogic_epi64(fl, om, _mm512_slli_epi64::<$s>(fl), 0xf8);
            fr = _mm512_ternarylogic_epi64(fr, om, _mm512_srli_epi64::<$s>(fr), 0xf8);
            let pl = _mm512_and_si512(om, _mm512_slli_epi64::<$s>(om));
            let pr = _mm512_srli_epi64::<$s>(pl);
            fl = _mm512_ternarylogic_epi64(fl, pl, _mm512_slli_epi64::<$s2>(fl), 0xf8);
            fr = _mm512_ternarylogic_epi64(fr, pr, _mm512_srli_epi64::<$s2>(fr), 0xf8);
            fl = _mm512_ternarylogic_epi64(fl, pl, _mm512_slli_epi64::<$s2>(fl), 0xf8);
            fr = _mm512_ternarylogic_epi64(fr, pr, _mm512_srli_epi64::<$s2>(fr), 0xf8);
            acc = _mm512_ternarylogic_epi64(acc, _mm512_slli_epi64::<$s>(fl), _mm512_srli_epi64::<$s>(fr), 0xfe);
        }};
    }
    line!(1, 2, oh);
    line!(8, 16, oo);
    line!(7, 14, oh);
    line!(9, 18, oh);
    // Empty squares only: 0x10 = a & !b & !c.
    _mm512_ternarylogic_epi64(acc, pp, oo, 0x10)
}

/// [`perft2_avx512`] with the newer AVX-512 extensions (Ice Lake and later, AMD Zen 4): the
/// moves' squares gathered into lanes by a byte compress (VBMI2) and the children's moves
/// counted in the vector unit (VPOPCNTDQ). Same result.
///
/// # Safety
/// Outside a function with the same target features, call it only when
/// [`super::Backend::Avx512`] is supported and [`has_avx512_icl`] is true.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl,avx512bw,avx512vbmi2,avx512vpopcntdq,bmi1,bmi2,popcnt")]
#[inline]
pub fn perft2_avx512_icl(p: u64, o: u64, moves: u64, mask: u64) -> u64 {
    use std::arch::x86_64::*;
    let pp = _mm512_set1_epi64(p as i64);
    let oo = _mm512_set1_epi64(o as i64);
    let board = _mm512_set1_epi64(mask as i64);
    let oh = _mm512_and_si512(oo, _mm512_set1_epi64(INNER_H));
    let one = _mm512_set1_epi64(1);
    // Byte k of `squares`: the k-th move's square.
    let iota = byte_iota();
    let mut squares = _mm512_maskz_compress_epi8(moves, iota);
    let next = _mm512_set_epi64(7, 7, 6, 5, 4, 3, 2, 1);
    let mut left = moves.count_ones();
    let mut acc = _mm512_setzero_si512();
    loop {
        let valid = _bzhi_u32(0xff, left) as __mmask8;
        let sq = _mm512_cvtepu8_epi64(_mm512_castsi512_si128(squares));
        let mm = _mm512_maskz_sllv_epi64(valid, one, sq);
        let (_, _, m) = children8(pp, oo, oh, mm, board);
        // A child without moves is one leaf.
        let c = _mm512_max_epu64(_mm512_popcnt_epi64(m), one);
        acc = _mm512_mask_add_epi64(acc, valid, acc, c);
        if left <= 8 {
            break;
        }
        left -= 8;
        squares = _mm512_permutexvar_epi64(next, squares);
    }
    _mm512_reduce_add_epi64(acc) as u64
}

/// Whether the CPU has the extensions of [`perft2_avx512_icl`] (AVX-512 BW, VBMI2 and
/// VPOPCNTDQ, besides those of the AVX-512 back end).
pub fn has_avx512_icl() -> bool {
    super::cpu_features().avx512_icl_set()
}

/// The perft count three plies below `(p, o)` when `moves` (non-empty, already masked with the
/// board) are its legal moves. The children are made eight at a time as in
/// [`perft2_avx512_icl`]; their children (the positions one ply above the leaves) are then
/// queued from all of them into one stream and counted eight at a time, each lane with its own
/// position, so the batches stay full however few moves each child has.
///
/// # Safety
/// As [`perft2_avx512_icl`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl,avx512bw,avx512vbmi2,avx512vpopcntdq,bmi1,bmi2,popcnt")]
#[inline]
pub fn perft3_avx512_icl(p: u64, o: u64, moves: u64, mask: u64) -> u64 {
    use std::arch::x86_64::*;
    let pp = _mm512_set1_epi64(p as i64);
    let oo = _mm512_set1_epi64(o as i64);
    let board = _mm512_set1_epi64(mask as i64);
    let inner_h = _mm512_set1_epi64(INNER_H);
    let one = _mm512_set1_epi64(1);
    let iota = byte_iota();
    let next = _mm512_set_epi64(7, 7, 6, 5, 4, 3, 2, 1);
    let lane = _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0);
    let seven = _mm512_set1_epi64(7);
    // The queue of positions one ply above the leaves, in registers (memory would stall the
    // vector loads on the scalar stores): player, opponent, move to play; `queued` lanes used.
    let (mut qp, mut qo, mut qm) = (pp, oo, _mm512_setzero_si512());
    let mut queued = 0u32;
    let mut acc = _mm512_setzero_si512();
    let mut n = 0u64;
    // Counts the queue's lanes `valid` into `acc`.
    let count = |bp: __m512i, bo: __m512i, mm: __m512i, valid: __mmask8, acc: __m512i| {
        let (_, _, m) = children8(bp, bo, _mm512_and_si512(bo, inner_h), mm, board);
        // A child without moves is one leaf.
        let c = _mm512_max_epu64(_mm512_popcnt_epi64(m), one);
        _mm512_mask_add_epi64(acc, valid, acc, c)
    };
    let mut squares = _mm512_maskz_compress_epi8(moves, iota);
    let mut left = moves.count_ones();
    loop {
        let valid = _bzhi_u32(0xff, left) as __mmask8;
        let sq = _mm512_cvtepu8_epi64(_mm512_castsi512_si128(squares));
        let mm = _mm512_maskz_sllv_epi64(valid, one, sq);
        let (cp, co, m) = children8(pp, oo, _mm512_and_si512(oo, inner_h), mm, board);
        let (mut cps, mut cos, mut ms) = ([0u64; 8], [0u64; 8], [0u64; 8]);
        // SAFETY: each array is 8 consecutive u64 (unaligned stores allowed).
        unsafe {
            _mm512_storeu_si512(cps.as_mut_ptr().cast(), cp);
            _mm512_storeu_si512(cos.as_mut_ptr().cast(), co);
            _mm512_storeu_si512(ms.as_mut_ptr().cast(), m);
        }
        for i in 0..left.min(8) as usize {
            let (a, b, mi) = (cps[i], cos[i], ms[i]);
            if mi == 0 {
                // The child passes; below it, the other side's moves, or one leaf if none.
                n += (legal_moves_avx512(b, a) & mask).count_ones().max(1) as u64;
                continue;
            }
            // Queue the child's moves, eight at most at a time, from lane `queued` on (those
            // past lane 7 wrap around to lane 0, for the next batch).
            let mut child_squares = _mm512_maskz_compress_epi8(mi, iota);
            let mut child_left = mi.count_ones();
            loop {
                let take = child_left.min(8);
                let bits = _mm512_sllv_epi64(one, _mm512_cvtepu8_epi64(_mm512_castsi512_si128(child_squares)));
                let rot = _mm512_and_si512(_mm512_sub_epi64(lane, _mm512_set1_epi64(queued as i64)), seven);
                let v = _mm512_permutexvar_epi64(rot, bits);
                let now = (_bzhi_u32(0xff, queued + take) & !_bzhi_u32(0xff, queued)) as __mmask8;
                qm = _mm512_mask_mov_epi64(qm, now, v);
                qp = _mm512_mask_set1_epi64(qp, now, a as i64);
                qo = _mm512_mask_set1_epi64(qo, now, b as i64);
                if queued + take >= 8 {
                    acc = count(qp, qo, qm, 0xff, acc);
                    // The moves that did not fit are in the low lanes of `v` already.
                    qm = v;
                    qp = _mm512_set1_epi64(a as i64);
                    qo = _mm512_set1_epi64(b as i64);
                    queued = queued + take - 8;
                } else {
                    queued += take;
                }
                if child_left <= 8 {
                    break;
                }
                child_left -= 8;
                child_squares = _mm512_permutexvar_epi64(next, child_squares);
            }
        }
        if left <= 8 {
            break;
        }
        left -= 8;
        squares = _mm512_permutexvar_epi64(next, squares);
    }
    if queued > 0 {
        acc = count(qp, qo, qm, _bzhi_u32(0xff, queued) as __mmask8, acc);
    }
    n + _mm512_reduce_add_epi64(acc) as u64
}
