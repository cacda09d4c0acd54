//! Move generation, flips, make-move and perft. Run: `cargo bench -p othello-benches --bench movegen`.
#![expect(missing_docs, reason = "criterion_group! generates undocumented items")]
use criterion::{Criterion, criterion_group, criterion_main};
use othello_rules::random::play_random;
use othello_rules::{Move, Position, movegen, perft};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::hint::black_box;

/// 1000 positions from seeded random play (8x8), with at least one legal move each.
fn positions() -> Vec<Position> {
    let mut rng = SmallRng::seed_from_u64(2026);
    let mut out = Vec::new();
    while out.len() < 1000 {
        let plies = rng.random_range(0..55);
        let pos = play_random(&Position::start(), plies, &mut rng);
        if pos.legal_moves().any() {
            out.push(pos);
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    let ps = positions();
    let raw: Vec<(u64, u64)> = ps.iter().map(|p| (p.player().0, p.opponent().0)).collect();
    // Checksums computed once by the portable code; every benchmark must reproduce them.
    let moves_sum: u64 = raw
        .iter()
        .map(|&(p, o)| movegen::portable::legal_moves(p, o).count_ones() as u64)
        .sum();
    let flips_sum: u64 = ps
        .iter()
        .flat_map(|p| p.legal_moves().into_iter().map(move |s| (p, s)))
        .map(|(p, s)| movegen::portable::flips(p.player().0, p.opponent().0, s.index() as u32).count_ones() as u64)
        .sum();

    let mut g = c.benchmark_group("movegen");
    g.bench_function("legal_moves/dispatch x1000", |b| {
        b.iter(|| {
            let s: u64 = raw
                .iter()
                .map(|&(p, o)| movegen::legal_moves(black_box(p), o).count_ones() as u64)
                .sum();
            assert_eq!(s, moves_sum);
        })
    });
    g.bench_function("legal_moves/portable x1000", |b| {
        b.iter(|| {
            let s: u64 = raw
                .iter()
                .map(|&(p, o)| movegen::portable::legal_moves(black_box(p), o).count_ones() as u64)
                .sum();
            assert_eq!(s, moves_sum);
        })
    });
    g.bench_function("flips/dispatch all moves of 1000", |b| {
        b.iter(|| {
            let mut s = 0u64;
            for &(p, o) in &raw {
                let mut m = movegen::legal_moves(p, o);
                while m != 0 {
                    let sq = m.trailing_zeros();
                    m &= m - 1;
                    s += movegen::flips(black_box(p), o, sq).count_ones() as u64;
                }
            }
            assert_eq!(s, flips_sum);
        })
    });
    g.bench_function("flips/portable all moves of 1000", |b| {
        b.iter(|| {
            let mut s = 0u64;
            for &(p, o) in &raw {
                let mut m = movegen::portable::legal_moves(p, o);
                while m != 0 {
                    let sq = m.trailing_zeros();
                    m &= m - 1;
                    s += movegen::portable::flips(black_box(p), o, sq).count_ones() as u64;
                }
            }
            assert_eq!(s, flips_sum);
        })
    });
    // Each back end the CPU supports, called directly (the dispatching calls above use the one
    // chosen at run time; OTHELLO_BACKEND picks it).
    for b in movegen::Backend::ALL.into_iter().filter(|b| b.supported()) {
        g.bench_function(format!("legal_moves/backend {} x1000", b.name()), |bch| {
            bch.iter(|| {
                let s: u64 = raw
                    .iter()
                    .map(|&(p, o)| {
                        movegen::variants::legal_moves_with(b, black_box(p), o)
                            .unwrap_or(0)
                            .count_ones() as u64
                    })
                    .sum();
                assert_eq!(s, moves_sum);
            })
        });
        g.bench_function(format!("flips/backend {} all moves of 1000", b.name()), |bch| {
            bch.iter(|| {
                let mut s = 0u64;
                for &(p, o) in &raw {
                    let mut m = movegen::portable::legal_moves(p, o);
                    while m != 0 {
                        let sq = m.trailing_zeros();
                        m &= m - 1;
                        s += movegen::variants::flips_with(b, black_box(p), o, sq)
                            .unwrap_or(0)
                            .count_ones() as u64;
                    }
                }
                assert_eq!(s, flips_sum);
            })
        });
    }
    g.bench_function("play/checked all moves of 1000", |b| {
        b.iter(|| {
            let mut discs = 0u32;
            for p in &ps {
                for sq in p.legal_moves() {
                    let n = p.play(Move::Place(sq)).expect("legal");
                    discs += n.player().count();
                }
            }
            black_box(discs)
        })
    });
    g.finish();

    let mut g = c.benchmark_group("perft");
    g.sample_size(10);
    let start = Position::start();
    g.bench_function("start depth 9", |b| {
        b.iter(|| assert_eq!(perft::perft(black_box(&start), 9), 3_005_288))
    });
    g.bench_function("start depth 9 portable", |b| {
        b.iter(|| assert_eq!(perft::perft_portable(black_box(&start), 9), 3_005_288))
    });
    for backend in movegen::Backend::ALL.into_iter().filter(|b| b.supported()) {
        g.bench_function(format!("start depth 9 backend {}", backend.name()), |b| {
            b.iter(|| assert_eq!(perft::perft_with(backend, black_box(&start), 9), Some(3_005_288)))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
