use super::*;
use othello_rules::Color;
use othello_rules::random::random_game;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Positions from random games, every ply (all phases), with some passes.
fn random_positions(seed: u64, games: usize) -> Vec<Position> {
    let mut rng = SmallRng::seed_from_u64(seed);
    (0..games)
        .flat_map(|_| random_game(&Position::start(), &mut rng))
        .collect()
}

/// Random weights tied as the layout says (what a fit produces), `phases` phases.
fn random_weights(seed: u64, phases: u32, scale: u32) -> Weights {
    let mut rng = SmallRng::seed_from_u64(seed);
    let l = layout();
    let mut values = Vec::new();
    for _ in 0..phases {
        let raw: Vec<i16> = (0..l.per_phase).map(|_| rng.random_range(-300..=300)).collect();
        values.extend(l.canonical.iter().map(|&c| raw[c as usize]));
    }
    Weights::new(phases, scale, values).unwrap()
}

#[test]
fn fast_indices_match_the_reference() {
    let l = layout();
    for pos in random_positions(1, 40) {
        let fast = feature_indices(&pos);
        let slow = set::reference_indices(l, pos.player().0, pos.opponent().0);
        assert_eq!(fast.to_vec(), slow, "{pos}");
    }
}

#[test]
fn bmi2_and_portable_paths_agree_with_a_plain_sum() {
    let w = random_weights(2, 13, 100);
    let fast = PatternEval::new(&w);
    let portable = fast.clone().with_extraction(Extraction::Portable).unwrap();
    assert_eq!(portable.extraction(), Extraction::Portable);
    for pos in random_positions(3, 30) {
        let idx = feature_indices(&pos);
        let base = w.phase_of(pos.empty_count()) as usize * weights::per_phase();
        let plain: i32 = idx.iter().map(|&i| i32::from(w.values()[base + i as usize])).sum();
        let plain = plain.clamp(-6400, 6400);
        assert_eq!(fast.evaluate(&pos), plain, "{pos}");
        assert_eq!(portable.evaluate(&pos), plain, "{pos}");
    }
}

#[test]
fn invariant_under_the_eight_symmetries_in_all_phases() {
    let eval = PatternEval::new(&random_weights(4, 61, 100));
    let mut seen_empties = [false; 61];
    for pos in random_positions(5, 30) {
        seen_empties[pos.empty_count() as usize] = true;
        let v = eval.evaluate(&pos);
        for sym in Symmetry::ALL {
            assert_eq!(eval.evaluate(&sym.apply_position(&pos)), v, "{sym:?} {pos}");
        }
    }
    assert!(seen_empties[1..=60].iter().all(|&s| s));
}

/// The weights `w` with the colours' roles exchanged, for [`colour_symmetric`]: each pattern
/// entry takes the weight of its configuration with the digits 1 (side to move) and 2
/// (opponent) exchanged, the two mobility tables and the two tables of each global feature
/// counted for both sides (potential mobility, frontier) are exchanged. The odd-quadrants
/// table has no such image (it counts where the side to move can play, and where only the
/// opponent can): it is zeroed in the result, and must be zero in `w`.
fn colours_exchanged(w: &Weights) -> Weights {
    let l = layout();
    let swap_digits = |mut c: u32, n: u32| {
        let mut out = 0;
        for k in 0..n {
            out += [0, 2, 1][(c % 3) as usize] * set::pow3(k);
            c /= 3;
        }
        out
    };
    let mut values = w.values().to_vec();
    for (phase, old) in values
        .chunks_exact_mut(l.per_phase)
        .zip(w.values().chunks_exact(l.per_phase))
    {
        for (p, pat) in PATTERNS.iter().enumerate() {
            let (start, n) = (l.offsets[p], pat.mask.count_ones());
            for c in 0..set::pow3(n) {
                phase[(start + c) as usize] = old[(start + swap_digits(c, n)) as usize];
            }
        }
        let cap = set::MOBILITY_CAP as usize;
        let m = l.mobility as usize;
        phase[m..m + cap].copy_from_slice(&old[m + cap..m + 2 * cap]);
        phase[m + cap..m + 2 * cap].copy_from_slice(&old[m..m + cap]);
        let g = l.globals as usize;
        let [pm, pt, fm, ft, q] = set::GLOBAL_OFFSETS.map(|o| g + o as usize);
        phase[pm..pt].copy_from_slice(&old[pt..fm]);
        phase[pt..fm].copy_from_slice(&old[pm..pt]);
        phase[fm..ft].copy_from_slice(&old[ft..q]);
        phase[ft..q].copy_from_slice(&old[fm..ft]);
        assert!(old[q..].iter().all(|&v| v == 0), "no image of the odd-quadrants table");
    }
    Weights::new(w.phases(), w.scale(), values).unwrap()
}

/// The evaluation depends on whose turn it is only through which discs are the mover's, in
/// every extraction:
/// - the position with every disc's colour and the side to move exchanged (built through the
///   colours, `Position::from_discs`) scores the same: fails if an evaluation reads the
///   discs by colour (`black()` / `white()`) or the side to move (e.g. a score from Black's
///   view negated for White);
/// - the same discs with the other side to move, under weights whose mover and opponent
///   tables are exchanged ([`colours_exchanged`]), score the same: fails if one feature is
///   computed from the wrong side's discs or moves (a side's frontier or potential mobility
///   from the other's discs, a digit of the same value for both sides, one side's mobility
///   read twice), which exchanging the tables cannot make up for.
///
/// The weights are untied random values with a zero odd-quadrants table.
#[test]
fn colour_symmetric() {
    let l = layout();
    let mut rng = SmallRng::seed_from_u64(6);
    let mut values: Vec<i16> = (0..12 * l.per_phase).map(|_| rng.random_range(-500..=500)).collect();
    let q = (l.globals + set::GLOBAL_OFFSETS[4]) as usize;
    for phase in values.chunks_exact_mut(l.per_phase) {
        phase[q..].iter_mut().for_each(|v| *v = 0);
    }
    let w = Weights::new(12, 100, values).unwrap();
    let exchanged = colours_exchanged(&w);
    assert_ne!(exchanged, w);
    let mut checked = 0;
    for x in Extraction::ALL.into_iter().filter(|x| x.supported()) {
        let eval = PatternEval::new(&w).with_extraction(x).unwrap();
        let other = PatternEval::new(&exchanged).with_extraction(x).unwrap();
        let mut differs = false;
        for pos in random_positions(7, 20) {
            let opposite = match pos.side_to_move() {
                Color::Black => Color::White,
                Color::White => Color::Black,
            };
            let recoloured = Position::from_discs(pos.white(), pos.black(), opposite, pos.size()).unwrap();
            let v = eval.evaluate(&pos);
            assert_eq!(eval.evaluate(&recoloured), v, "{x:?} {pos}");
            let passed = pos.pass_unchecked();
            assert_eq!(other.evaluate(&passed), v, "{x:?} {pos}");
            differs |= eval.evaluate(&passed) != v;
            checked += 1;
        }
        assert!(differs, "{x:?}: the side to move counts");
    }
    assert!(checked > 0);
}

#[test]
fn scale_and_clamp() {
    // Scale 200 units per disc: raw sums are halved into centi-discs.
    let w = random_weights(8, 3, 200);
    let half = PatternEval::new(&w);
    let full = PatternEval::new(&Weights::new(3, 100, w.values().to_vec()).unwrap());
    for pos in random_positions(9, 5) {
        let raw = full.raw(&pos);
        assert_eq!(half.evaluate(&pos), (raw / 2).clamp(-6400, 6400));
    }
    let big = Weights::new(1, 1, vec![i16::MAX; weights::per_phase()]).unwrap();
    assert_eq!(PatternEval::new(&big).evaluate(&Position::start()), 6400);
    let small = Weights::new(1, 1, vec![i16::MIN; weights::per_phase()]).unwrap();
    assert_eq!(PatternEval::new(&small).evaluate(&Position::start()), -6400);
}

#[test]
fn other_sizes_are_refused_and_never_panic() {
    assert_eq!(PatternEval::check_size(BoardSize::Eight), Ok(()));
    assert_eq!(
        PatternEval::check_size(BoardSize::Four),
        Err(UnsupportedSize(BoardSize::Four))
    );
    assert!(
        PatternEval::check_size(BoardSize::Six)
            .unwrap_err()
            .to_string()
            .contains("8x8")
    );
    let eval = PatternEval::new(&random_weights(10, 2, 100));
    let six = Position::start_of(BoardSize::Six)
        .play("c2".parse().unwrap())
        .unwrap_or(Position::start_of(BoardSize::Six));
    assert_eq!(eval.evaluate(&six), six.disc_difference() * 100);
    assert_eq!(
        eval.evaluate_with_moves(&six, six.legal_moves().0),
        six.disc_difference() * 100
    );
}

/// Weights of set 1 (no global tables) score as they did: the global tables of the loaded
/// weights are zero, and every extraction's score is the sum without them. Weights with only
/// global tables score their entries.
#[test]
fn global_tables_add_their_entries() {
    let l = layout();
    let full = random_weights(21, 5, 100);
    let mut without = full.values().to_vec();
    for phase in without.chunks_exact_mut(l.per_phase) {
        phase[l.globals as usize..].iter_mut().for_each(|v| *v = 0);
    }
    let without = Weights::new(5, 100, without).unwrap();
    let mut only = vec![0i16; full.values().len()];
    for (o, f) in only
        .chunks_exact_mut(l.per_phase)
        .zip(full.values().chunks_exact(l.per_phase))
    {
        o[l.globals as usize..].copy_from_slice(&f[l.globals as usize..]);
    }
    let only = Weights::new(5, 100, only).unwrap();
    for x in Extraction::ALL.into_iter().filter(|x| x.supported()) {
        let (a, b, c) = (
            PatternEval::new(&full).with_extraction(x).unwrap(),
            PatternEval::new(&without).with_extraction(x).unwrap(),
            PatternEval::new(&only).with_extraction(x).unwrap(),
        );
        let mut differs = false;
        for pos in random_positions(22, 6) {
            let (p, o, e) = (pos.player().0, pos.opponent().0, pos.empty_count());
            assert_eq!(a.raw_of(p, o, e), b.raw_of(p, o, e) + c.raw_of(p, o, e), "{x:?} {pos}");
            let base = only.phase_of(e) as usize * l.per_phase;
            let (mine, theirs) = othello_rules::movegen::legal_moves_both(p, o);
            let want: i32 = set::global_entries(p, o, mine, theirs)
                .iter()
                .map(|&g| i32::from(only.values()[base + (l.globals + g) as usize]))
                .sum();
            assert_eq!(c.raw_of(p, o, e), want, "{x:?} {pos}");
            differs |= a.raw_of(p, o, e) != b.raw_of(p, o, e);
        }
        assert!(differs, "the global tables count");
    }
}

/// The global entries of the fast code against the square-by-square reference, on random
/// bitboards (not only reachable positions).
#[test]
fn global_entries_match_the_reference_on_random_bitboards() {
    let l = layout();
    let mut rng = SmallRng::seed_from_u64(23);
    for n in 0..3000 {
        let p: u64 = rng.random::<u64>() & rng.random::<u64>();
        let o: u64 = if n % 3 == 0 {
            rng.random::<u64>() & !p
        } else {
            rng.random::<u64>() & rng.random::<u64>() & !p
        };
        let pos = Position::from_raw_unchecked(p, o, Color::Black, BoardSize::Eight);
        let want = set::reference_indices(l, p, o);
        assert_eq!(feature_indices(&pos).to_vec(), want, "{p:#x} {o:#x}");
    }
}

/// A version 1 file of `w` (as written before version 2: checksum of the weight bytes only,
/// no sections).
fn v1_file(w: &Weights) -> Vec<u8> {
    let payload: Vec<u8> = w.values().iter().flat_map(|v| v.to_le_bytes()).collect();
    let mut out = weights::MAGIC.to_vec();
    for field in [1, PATTERN_SET_ID, w.phases(), w.scale()] {
        out.extend_from_slice(&field.to_le_bytes());
    }
    out.extend_from_slice(&(w.values().len() as u64).to_le_bytes());
    out.extend_from_slice(&weights::fnv1a64(&payload).to_le_bytes());
    out.extend_from_slice(&payload);
    out
}

#[test]
fn embedded_default_loads_and_is_small() {
    assert!(DEFAULT_WEIGHTS.len() <= 8 << 20);
    // Written in the current format: version 2, one section (its cut table), tied (checked on
    // load).
    assert_eq!(DEFAULT_WEIGHTS[8..12], weights::FORMAT_VERSION.to_le_bytes());
    let w = Weights::from_bytes(DEFAULT_WEIGHTS).unwrap();
    assert_eq!(w.sections().len(), 1);
    assert!(w.section(weights::CUTS_TAG).is_some());
    assert_eq!(w.to_bytes(), DEFAULT_WEIGHTS);
    assert!(w.check_ties().is_ok());
    let eval = PatternEval::default();
    assert_eq!(
        eval.evaluate(&Position::start()),
        PatternEval::new(&w).evaluate(&Position::start())
    );
}

/// The default weights encoded as version 1 and as version 2 load to the same weights and
/// the same evaluator, in every extraction.
#[test]
fn version_1_and_2_encodings_evaluate_alike() {
    let v2 = Weights::from_bytes(DEFAULT_WEIGHTS).unwrap();
    let old = v1_file(&v2);
    assert_eq!(old[8..12], 1u32.to_le_bytes());
    // Version 2 adds the section count, and the cut table's tag, length and bytes.
    let cuts = v2.section(weights::CUTS_TAG).unwrap().len();
    assert_eq!(old.len() + 4 + 12 + cuts, DEFAULT_WEIGHTS.len());
    let v1 = Weights::from_bytes(&old).unwrap();
    assert_eq!(v1, Weights::new(v2.phases(), v2.scale(), v2.values().to_vec()).unwrap());
    let positions = random_positions(19, 10);
    for x in Extraction::ALL.into_iter().filter(|x| x.supported()) {
        let (a, b) = (
            PatternEval::new(&v1).with_extraction(x).unwrap(),
            PatternEval::new(&v2).with_extraction(x).unwrap(),
        );
        for pos in &positions {
            assert_eq!(a.evaluate(pos), b.evaluate(pos), "{x:?} {pos}");
        }
    }
}

/// The evaluation as it was computed before the extractions without board transforms: the
/// board's eight symmetry images, each group read from its image with the base pattern's mask
/// (`feature_indices`, kept for the fit), then a plain sum of the table entries.
fn old_evaluation(w: &Weights, pos: &Position) -> i32 {
    let base = w.phase_of(pos.empty_count()) as usize * weights::per_phase();
    let raw: i32 = feature_indices(pos)
        .iter()
        .map(|&i| i32::from(w.values()[base + i as usize]))
        .sum();
    let cd = (i64::from(raw) * 100 / i64::from(w.scale())) as i32;
    cd.clamp(-6400, 6400)
}

#[test]
fn every_extraction_matches_the_old_evaluation_and_the_reference() {
    let l = layout();
    let g = groups();
    let supported: Vec<Extraction> = Extraction::ALL.into_iter().filter(|x| x.supported()).collect();
    assert!(supported.contains(&Extraction::Portable));
    assert!(Extraction::best().supported());
    // Untied random weights too: the extractions must agree entry by entry, not only on
    // weights that hide a swapped digit by symmetry.
    for (seed, phases, scale) in [(11, 15, 100), (12, 61, 100), (13, 1, 37), (14, 7, 250)] {
        let mut rng = SmallRng::seed_from_u64(seed);
        let values = (0..phases as usize * weights::per_phase())
            .map(|_| rng.random_range(-3000..=3000))
            .collect();
        let w = Weights::new(phases, scale, values).unwrap();
        let evals: Vec<PatternEval> = supported
            .iter()
            .map(|&x| PatternEval::new(&w).with_extraction(x).unwrap())
            .collect();
        let mut seen_empties = [false; 61];
        for pos in random_positions(seed + 100, 25) {
            seen_empties[pos.empty_count().min(60) as usize] = true;
            let want = old_evaluation(&w, &pos);
            let moves = pos.legal_moves().0;
            for e in &evals {
                assert_eq!(e.evaluate(&pos), want, "{:?} {pos}", e.extraction());
                // Given the legal squares, the same value.
                assert_eq!(e.evaluate_with_moves(&pos, moves), want, "{:?} {pos}", e.extraction());
            }
        }
        assert!(seen_empties.iter().all(|&s| s), "every phase");
    }
    // The indices themselves, on random bitboards too (not only reachable positions).
    let mut rng = SmallRng::seed_from_u64(15);
    for n in 0..3000 {
        let (p, o) = if n % 2 == 0 {
            let pos = random_positions(n, 1)[rng.random_range(0..50)];
            (pos.player().0, pos.opponent().0)
        } else {
            let p: u64 = rng.random();
            (p, rng.random::<u64>() & !p)
        };
        let want = set::reference_indices(l, p, o);
        let portable = g.indices_portable(p, o);
        let got: Vec<u32> = g
            .offset
            .iter()
            .zip(&portable)
            .map(|(&off, &i)| off + u32::from(i))
            .collect();
        assert_eq!(got, want[1..=extract::GROUPS], "portable {p:#x} {o:#x}");
        #[cfg(target_arch = "x86_64")]
        if Extraction::Avx512.supported() {
            // SAFETY: the CPU has AVX-512 F/BW/VBMI (checked just above).
            let simd = unsafe { g.indices_avx512(p, o) };
            assert_eq!(simd[..extract::GROUPS], portable, "avx512 {p:#x} {o:#x}");
            assert!(simd[extract::GROUPS..].iter().all(|&i| i == 0));
        }
        #[cfg(target_arch = "x86_64")]
        if Extraction::Avx2.supported() {
            // SAFETY: the CPU has AVX2 (checked just above).
            let simd = unsafe { g.indices_avx2(p, o) };
            assert_eq!(simd, portable, "avx2 {p:#x} {o:#x}");
        }
    }
}

#[test]
fn overlapping_bitboards_read_as_the_player() {
    // Not a position (the rules never make one), but the extraction must stay in its tables:
    // a square in both bitboards counts as the side to move's.
    let g = groups();
    let (p, o) = (0x00FF_00FF_00FF_00FFu64, u64::MAX);
    assert_eq!(g.indices_portable(p, o), g.indices_portable(p, o & !p));
    #[cfg(target_arch = "x86_64")]
    if Extraction::Avx512.supported() {
        // SAFETY: the CPU has AVX-512 F/BW/VBMI.
        let simd = unsafe { g.indices_avx512(p, o) };
        assert_eq!(simd[..extract::GROUPS], g.indices_portable(p, o));
    }
    #[cfg(target_arch = "x86_64")]
    if Extraction::Avx2.supported() {
        // SAFETY: the CPU has AVX2.
        let simd = unsafe { g.indices_avx2(p, o) };
        assert_eq!(simd, g.indices_portable(p, o));
    }
    let eval = PatternEval::new(&random_weights(16, 3, 100));
    for x in Extraction::ALL.into_iter().filter(|x| x.supported()) {
        let e = eval.clone().with_extraction(x).unwrap();
        assert_eq!(e.raw_of(p, o, 20), e.raw_of(p, o & !p, 20), "{x:?}");
    }
}

#[test]
fn from_path_loads_the_file_it_is_given() {
    let w = random_weights(17, 4, 100);
    let path = std::env::temp_dir().join(format!("pattern-eval-{}.bin", std::process::id()));
    w.write(&path).unwrap();
    let loaded = PatternEval::from_path(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    let direct = PatternEval::new(&w);
    let default = PatternEval::default();
    let positions = random_positions(18, 3);
    assert!(positions.iter().any(|p| direct.evaluate(p) != default.evaluate(p)));
    for pos in &positions {
        assert_eq!(loaded.evaluate(pos), direct.evaluate(pos), "{pos}");
    }
    assert!(matches!(PatternEval::from_path(&path), Err(WeightsError::Io { .. })));
}

#[test]
fn groups_cover_their_tables_exactly() {
    let l = layout();
    let g = groups();
    // The largest index any group can have is the last entry before the mobility tables.
    assert_eq!(g.last, l.mobility - 1);
    // Each group's squares are distinct and as many as its pattern's; the all-opponent board
    // gives each group its table's last entry.
    for (k, (sq, inst)) in g.squares.iter().zip(&l.instances).enumerate() {
        let n = PATTERNS[inst.pattern as usize].mask.count_ones() as usize;
        assert!(sq[..n].iter().all(|&s| s < 64));
        assert!(sq[n..].iter().all(|&s| s == 64));
        let mut seen = sq[..n].to_vec();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), n, "group {k}");
        assert_eq!(g.offset[k], inst.offset);
        assert_eq!(u32::from(g.indices_portable(0, u64::MAX)[k]), set::pow3(n as u32) - 1);
        assert_eq!(
            u32::from(g.indices_portable(u64::MAX, 0)[k]),
            (set::pow3(n as u32) - 1) / 2
        );
    }
}

/// The phase sum of `w` for `(p, o)` read through the portable indices (the expected value of
/// the vector sums).
#[cfg(target_arch = "x86_64")]
fn portable_sum(g: &extract::Groups, w: &[i16], p: u64, o: u64) -> i32 {
    g.offset
        .iter()
        .zip(g.indices_portable(p, o))
        .map(|(&o, i)| i32::from(w[o as usize + usize::from(i)]))
        .sum()
}

#[cfg(target_arch = "x86_64")]
#[test]
fn avx2_sum_needs_the_whole_phase() {
    if !Extraction::Avx2.supported() {
        return;
    }
    let g = groups();
    let last = g.last as usize;
    let w: Vec<i16> = (0..last + 2).map(|i| (i % 7) as i16 - 3).collect();
    for (p, o) in [
        (0, u64::MAX),
        (u64::MAX, 0),
        (0, 0),
        (0x0F0F_3C3C_0000_8181, 0x8000_0042_0F0F_0000),
    ] {
        let want = portable_sum(g, &w, p, o);
        // SAFETY: the CPU has AVX2 (checked above).
        assert_eq!(unsafe { g.sum_avx2(&w, p, o) }, want, "{p:#x} {o:#x}");
        // SAFETY: as above.
        assert_eq!(unsafe { g.sum_avx2_loads(&w, p, o) }, want, "{p:#x} {o:#x}");
    }
    // One entry short: the gather of the last entry would read past the slice, so it panics.
    let short = &w[..last + 1];
    // SAFETY: as above.
    let r = std::panic::catch_unwind(|| unsafe { g.sum_avx2(short, 0, u64::MAX) });
    assert!(r.is_err());
    // The scalar reads need the last entry only, and panic at the bounds check without it.
    let want = portable_sum(g, &w, 0, u64::MAX);
    // SAFETY: as above.
    assert_eq!(unsafe { g.sum_avx2_loads(short, 0, u64::MAX) }, want);
    // SAFETY: as above.
    let r = std::panic::catch_unwind(|| unsafe { g.sum_avx2_loads(&w[..last], 0, u64::MAX) });
    assert!(r.is_err());
}

#[test]
fn avx2_blocks_hold_every_group_once() {
    let g = groups();
    let t = &g.avx2;
    let mut seen = [0u32; extract::GROUPS];
    for (b, lanes) in t.group.iter().enumerate() {
        for (l, &grp) in lanes.iter().enumerate() {
            if usize::from(grp) < extract::GROUPS {
                seen[usize::from(grp)] += 1;
                assert_eq!(t.offset[b][l], g.offset[usize::from(grp)]);
                assert_eq!(t.keep[b][l], 1);
                let len = g.squares[usize::from(grp)].iter().filter(|&&s| s < 64).count();
                assert!(len.div_ceil(2) <= t.steps[b]);
            } else {
                assert_eq!(t.keep[b][l], 0);
            }
        }
    }
    assert!(seen.iter().all(|&n| n == 1));
    // Longest groups first: 12 of 10 squares, 4 of 9 (5 pairs), 14 of 8, 4 of 7 (4 pairs), then
    // 6, 5 and 4 squares (3 and 2 pairs): 25 steps for the 6 blocks.
    assert_eq!(t.steps, [5, 5, 4, 4, 4, 3]);
}

#[cfg(target_arch = "x86_64")]
#[test]
fn avx512_sum_needs_the_whole_phase() {
    if !Extraction::Avx512.supported() {
        return;
    }
    let g = groups();
    let last = g.last as usize;
    let w: Vec<i16> = (0..last + 2).map(|i| (i % 7) as i16 - 3).collect();
    let want = portable_sum(g, &w, 0, u64::MAX);
    // SAFETY: the CPU has AVX-512 F/BW/VBMI (checked above).
    assert_eq!(unsafe { g.sum_avx512(&w, 0, u64::MAX) }, want);
    // One entry short: the gather of the last entry would read past the slice, so it panics.
    let short = &w[..last + 1];
    // SAFETY: as above.
    let r = std::panic::catch_unwind(|| unsafe { g.sum_avx512(short, 0, u64::MAX) });
    assert!(r.is_err());
}

#[test]
fn mobility_above_the_cap_counts_as_the_last_entry() {
    // A constructed board (not reachable, but a valid disc placement) where the side to move
    // has 34 moves: more than `MOBILITY_CAP - 1`.
    let (p, o) = (0x6024_3112_01e1_2000u64, 0x0053_0220_9212_5300u64);
    assert_eq!(othello_rules::movegen::legal_moves(p, o).count_ones(), 34);
    let w = random_weights(19, 2, 100);
    let l = layout();
    for (a, b) in [(p, o), (o, p)] {
        let pos = Position::from_raw_unchecked(a, b, Color::Black, BoardSize::Eight);
        let idx = set::reference_indices(l, a, b);
        assert!(
            idx.contains(&(l.mobility + set::MOBILITY_CAP - 1))
                || idx.contains(&(l.mobility + 2 * set::MOBILITY_CAP - 1))
        );
        for x in Extraction::ALL.into_iter().filter(|x| x.supported()) {
            let e = PatternEval::new(&w).with_extraction(x).unwrap();
            assert_eq!(e.evaluate(&pos), old_evaluation(&w, &pos), "{x:?}");
        }
    }
}

#[test]
fn the_fastest_supported_extraction_is_chosen() {
    use Extraction::*;
    let cpu = |has: &'static [Extraction]| move |x: Extraction| has.contains(&x);
    let avx2 = &[Portable, Bmi2, Avx2, Avx2Loads];
    for slow in [false, true] {
        // AVX-512 VBMI first, then AVX2 (a CPU without VBMI, such as AMD Zen 3), then BMI2.
        assert_eq!(
            Extraction::first_of(cpu(&[Portable, Bmi2, Avx2, Avx2Loads, Avx512]), slow),
            Avx512
        );
        assert_eq!(Extraction::first_of(cpu(&[Portable, Bmi2]), slow), Bmi2);
        assert_eq!(Extraction::first_of(cpu(&[Portable]), slow), Portable);
        assert_eq!(Extraction::first_of(cpu(&[]), slow), Portable);
    }
    // AVX2 with gathers, or with scalar reads where gathers are slow.
    assert_eq!(Extraction::first_of(cpu(avx2), false), Avx2);
    assert_eq!(Extraction::first_of(cpu(avx2), true), Avx2Loads);
    let mut all = Extraction::PREFERENCE.to_vec();
    all.sort_by_key(|x| x.name());
    let mut want = Extraction::ALL.to_vec();
    want.sort_by_key(|x| x.name());
    assert_eq!(all, want, "every extraction has its place");
    // This CPU: the first it supports within the move-generation back end in use.
    let best = Extraction::best();
    let backend = othello_rules::movegen::backend();
    assert!(best.supported() && best.within(backend));
    for x in Extraction::PREFERENCE {
        if x == best {
            break;
        }
        let skipped = x == Avx2 && slow_gathers();
        assert!(
            !x.supported() || !x.within(backend) || skipped,
            "{x:?} is faster than {best:?}"
        );
    }
    assert_eq!(PatternEval::new(&random_weights(20, 1, 100)).extraction(), best);
    // The features each needs, as the CPU reports them.
    #[cfg(target_arch = "x86_64")]
    {
        let avx2 = std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("popcnt");
        assert_eq!(Avx2.supported(), avx2);
        assert_eq!(Avx2Loads.supported(), avx2);
        assert_eq!(Bmi2.supported(), std::is_x86_feature_detected!("bmi2"));
        let avx512 = std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512bw")
            && std::is_x86_feature_detected!("avx512vbmi")
            && std::is_x86_feature_detected!("avx512vl")
            && std::is_x86_feature_detected!("avx512vpopcntdq")
            && std::is_x86_feature_detected!("avx2")
            && std::is_x86_feature_detected!("popcnt");
        assert_eq!(Avx512.supported(), avx512);
    }
    #[cfg(not(target_arch = "x86_64"))]
    assert_eq!(best, Portable);
}

#[test]
fn extractions_stay_within_the_move_generation_back_end() {
    use Extraction::*;
    use othello_rules::movegen::Backend;
    let within = |b: Backend| -> Vec<Extraction> { Extraction::ALL.into_iter().filter(|x| x.within(b)).collect() };
    assert_eq!(within(Backend::Portable), [Portable]);
    assert_eq!(within(Backend::Avx2), [Portable, Avx2, Avx2Loads]);
    assert_eq!(within(Backend::Bmi2), [Portable, Bmi2, Avx2, Avx2Loads]);
    assert_eq!(within(Backend::Avx512), Extraction::ALL);
    // On this CPU, within each back end it supports: a supported extraction within it, the
    // same as `best` for the back end in use.
    for b in Backend::ALL.into_iter().filter(|b| b.supported()) {
        let x = Extraction::best_within(b);
        assert!(x.supported() && x.within(b), "{b:?}: {x:?}");
        if b == Backend::Portable {
            assert_eq!(x, Portable);
        }
    }
    assert_eq!(
        Extraction::best_within(othello_rules::movegen::backend()),
        Extraction::best()
    );
    // What `best` picks within each back end on a CPU with everything: the AVX2 gathers (or
    // the scalar reads where gathers are slow) without AVX-512, the portable code alone.
    for slow in [false, true] {
        let avx2 = if slow { Avx2Loads } else { Avx2 };
        for (b, want) in [
            (Backend::Portable, Portable),
            (Backend::Avx2, avx2),
            (Backend::Bmi2, avx2),
            (Backend::Avx512, Avx512),
        ] {
            assert_eq!(Extraction::first_of(|x| x.within(b), slow), want, "{b:?} {slow}");
        }
    }
}

#[test]
fn gathers_count_as_slow_on_amd_only() {
    use othello_rules::movegen::{cpu_vendor, gathers_microcoded_on};
    match cpu_vendor() {
        Some(v) => assert_eq!(slow_gathers(), gathers_microcoded_on(&v)),
        None => assert!(!slow_gathers()),
    }
}

/// The extra lanes of the vector extractions (mobility and global entries, phase constant)
/// against the scalar entries, lane by lane, on random bitboards (overlapping ones too) and on
/// positions of random games.
#[cfg(target_arch = "x86_64")]
#[test]
fn extra_lanes_match_the_scalar_entries() {
    if !Extraction::Avx2.supported() {
        return;
    }
    let l = layout();
    let g = groups();
    let mut rng = SmallRng::seed_from_u64(24);
    let mut boards: Vec<(u64, u64)> = random_positions(25, 20)
        .iter()
        .map(|p| (p.player().0, p.opponent().0))
        .collect();
    for n in 0..3000 {
        let p: u64 = rng.random::<u64>() & rng.random::<u64>();
        let o: u64 = rng.random::<u64>() & if n % 4 == 0 { u64::MAX } else { rng.random::<u64>() };
        boards.push((p, o));
    }
    boards.extend([(0, 0), (u64::MAX, 0), (0, u64::MAX), (u64::MAX, u64::MAX)]);
    let mut quadrants_seen = [false; 25];
    for (p, o) in boards {
        let (mine, theirs) = othello_rules::movegen::legal_moves_both(p, o & !p);
        let (m, t) = mobility_entries(mine, theirs);
        let e = set::global_entries(p, o & !p, mine, theirs);
        quadrants_seen[(e[4] - set::GLOBAL_OFFSETS[4]) as usize] = true;
        let want = [
            l.globals + e[0],
            l.mobility + m,
            l.globals + e[1],
            l.mobility + t,
            l.globals + e[2],
            l.globals + e[4],
            l.globals + e[3],
            0,
        ];
        let mut got = [0u32; extract::EXTRA_LANES];
        // SAFETY: the CPU has AVX2 and POPCNT (checked above); writes 32 bytes into `got`.
        unsafe {
            let counts = extract::Groups::extra_counts_avx2(p, o, mine, theirs, (m, t));
            let idx = g.extra_indices_avx2(counts);
            std::arch::x86_64::_mm256_storeu_si256(got.as_mut_ptr().cast(), idx);
        }
        assert_eq!(got, want, "avx2 {p:#x} {o:#x}");
        if Extraction::Avx512.supported() {
            // SAFETY: the CPU has AVX-512 F/VL/VPOPCNTDQ (checked just above); writes 32 bytes
            // into `got`.
            unsafe {
                let counts = extract::Groups::extra_counts_avx512(p, o, mine, theirs, (m, t));
                let idx = g.extra_indices_avx2(counts);
                std::arch::x86_64::_mm256_storeu_si256(got.as_mut_ptr().cast(), idx);
            }
            assert_eq!(got, want, "avx512 {p:#x} {o:#x}");
        }
    }
    // 5a + b with a + b <= 4: 15 of the 25 entries can occur; all but "only the opponent can
    // play in four odd quadrants" did.
    let possible = |q: usize| q / 5 + q % 5 <= 4;
    assert!((0..25).all(|q| !quadrants_seen[q] || possible(q)), "{quadrants_seen:?}");
    assert!(
        quadrants_seen.iter().filter(|&&s| s).count() >= 14,
        "{quadrants_seen:?}"
    );
    // Every lane stays in its table, the last one in the phase's last entry.
    assert_eq!(g.extra.last as usize, l.per_phase - 1);
    for (k, (&off, &cap)) in g.extra.offset.iter().zip(&g.extra.cap).enumerate() {
        assert!(off + cap <= g.extra.last, "lane {k}");
    }
}

/// The extra lanes' gather reads each entry as 4 bytes: at each lane's largest value (the
/// last entry of the phase for the odd quadrants, never reached by a position) it needs one
/// entry past the phase (`PatternEval` pads its weights), and panics without it; the scalar
/// reads do not.
#[cfg(target_arch = "x86_64")]
#[test]
fn extra_lanes_need_one_entry_past_the_phase() {
    if !Extraction::Avx2.supported() {
        return;
    }
    let g = groups();
    let last = g.extra.last as usize;
    assert_eq!(last, layout().per_phase - 1);
    let w: Vec<i16> = (0..last + 2).map(|i| (i % 11) as i16 - 5).collect();
    let above = [1000u32; extract::EXTRA_LANES];
    let want: i32 = g
        .extra
        .offset
        .iter()
        .zip(&g.extra.cap)
        .map(|(&o, &c)| i32::from(w[(o + c) as usize]))
        .sum();
    // SAFETY: the CPU has AVX2 (checked above); reads the 32 bytes of `above`.
    let counts = unsafe { std::arch::x86_64::_mm256_loadu_si256(above.as_ptr().cast()) };
    // SAFETY: as above.
    assert_eq!(unsafe { extract::hsum_avx2(g.extra_lanes_avx2(&w, counts)) }, want);
    // SAFETY: as above.
    assert_eq!(unsafe { g.extra_sum_avx2_loads(&w[..last + 1], counts) }, want);
    // SAFETY: as above.
    let r = std::panic::catch_unwind(|| unsafe { g.extra_lanes_avx2(&w[..last + 1], counts) });
    assert!(r.is_err());
    // SAFETY: as above.
    let r = std::panic::catch_unwind(|| unsafe { g.extra_sum_avx2_loads(&w[..last], counts) });
    assert!(r.is_err());
}

/// The odd quadrants with AVX-512 masks against the scalar folds, on random bitboards (sparse
/// move sets too, so that quadrants without a move occur).
#[cfg(target_arch = "x86_64")]
#[test]
fn quadrant_entry_avx512_matches_the_folds() {
    if !Extraction::Avx512.supported() {
        return;
    }
    let mut rng = SmallRng::seed_from_u64(27);
    let mut seen = [false; 25];
    for n in 0..20_000 {
        let sparse = |v: u64, k: u32| if n % 3 == 0 { v } else { v & (v >> k) & (v << k) };
        let (empty, mine, theirs) = (rng.random::<u64>(), sparse(rng.random(), 3), sparse(rng.random(), 5));
        let want = set::quadrant_entry(empty, mine, theirs);
        seen[want as usize] = true;
        // SAFETY: the CPU has AVX-512 F/VL/VPOPCNTDQ and POPCNT (checked above).
        let got = unsafe { extract::quadrant_entry_avx512(empty, mine, theirs) };
        assert_eq!(got, want, "{empty:#x} {mine:#x} {theirs:#x}");
    }
    assert_eq!(seen.iter().filter(|&&s| s).count(), 15);
}

/// The embedded cut table loads, belongs to the default evaluator only, and covers the usual
/// pairs from deep depth 3 with a positive slope and a plausible error (at most 20 discs).
#[test]
fn embedded_cut_table_loads() {
    use othello_eval::CutTable;
    let w = Weights::from_bytes(DEFAULT_WEIGHTS).unwrap();
    let t = CutTable::from_bytes(
        w.section(crate::weights::CUTS_TAG)
            .expect("the default has a cut table"),
    )
    .unwrap();
    assert_eq!(PatternEval::default().cut_table(), Some(&t));
    assert_eq!(PatternEval::new(&w).cut_table(), Some(&t));
    // Weights without the section have none; with_cut_table gives one.
    let bare = Weights::new(w.phases(), w.scale(), w.values().to_vec()).unwrap();
    assert!(PatternEval::new(&bare).cut_table().is_none());
    assert_eq!(PatternEval::new(&bare).with_cut_table(t.clone()).cut_table(), Some(&t));
    // A CUTS section that is not a cut table is refused when the file is read.
    let bad = bare.with_section(crate::weights::CUTS_TAG, vec![1, 2, 3]).to_bytes();
    assert!(matches!(Weights::from_bytes(&bad), Err(WeightsError::CutTable(_))));
    assert!(t.pairs_for(3).count() >= 1 && t.pairs_for(12).count() >= 1);
    for (deep, shallow, models) in t.pairs() {
        assert!(shallow < deep);
        for m in models {
            assert!(m.a > 0 && (1..=2000).contains(&m.sigma), "{deep} {shallow} {m:?}");
        }
    }
}
