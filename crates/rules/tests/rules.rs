//! Integration tests of the rules crate: the fast code against the naive reference on random
//! positions of every size, published perft values, text round trips, and the article cases.

use othello_rules::random::random_game;
use othello_rules::text::{format_moves, play_sequence};
use othello_rules::{Bitboard, BoardSize, Color, Move, ObfLine, Position, Square, Symmetry, movegen, perft, reference};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Positions reached by seeded random play: every position of `games` random games.
fn random_positions(size: BoardSize, games: usize, seed: u64) -> Vec<Position> {
    let mut rng = SmallRng::seed_from_u64(seed);
    (0..games)
        .flat_map(|_| random_game(&Position::start_of(size), &mut rng))
        .collect()
}

#[test]
fn fast_move_generation_matches_reference_on_random_positions() {
    let mut checked = 0;
    for (size, games) in [
        (BoardSize::Four, 3000),
        (BoardSize::Six, 1200),
        (BoardSize::Eight, 1000),
    ] {
        for pos in random_positions(size, games, 7 + games as u64) {
            let (p, o) = (pos.player().0, pos.opponent().0);
            let mask = size.mask().0;
            let expected = reference::legal_moves(&pos);
            assert_eq!(pos.legal_moves(), expected, "{pos}");
            let (mine, theirs) = movegen::legal_moves_both(p, o);
            assert_eq!(Bitboard(mine & mask), expected, "{pos}");
            assert_eq!(
                Bitboard(theirs & mask),
                reference::legal_moves(&pos.pass_unchecked()),
                "{pos}"
            );
            assert_eq!(Bitboard(movegen::portable::legal_moves(p, o) & mask), expected, "{pos}");
            if let Some(fast) = movegen::variants::legal_moves_fast(p, o) {
                assert_eq!(Bitboard(fast & mask), expected, "{pos}");
            }
            if let Some(m) = movegen::variants::legal_moves_avx512vl(p, o) {
                assert_eq!(Bitboard(m & mask), expected, "{pos} avx512vl");
            }
            for b in movegen::Backend::ALL {
                if let Some(m) = movegen::variants::legal_moves_with(b, p, o) {
                    assert_eq!(Bitboard(m & mask), expected, "{pos} {b:?}");
                }
            }
            for sq in pos.empties() {
                let want = reference::flips(&pos, sq);
                let i = sq.index() as u32;
                assert_eq!(pos.flips(sq), want, "{pos} {sq}");
                assert_eq!(Bitboard(movegen::portable::flips(p, o, i)), want, "{pos} {sq}");
                if let Some(fast) = movegen::variants::flips_fast(p, o, i) {
                    assert_eq!(Bitboard(fast), want, "{pos} {sq}");
                }
                for b in movegen::Backend::ALL {
                    if let Some(f) = movegen::variants::flips_with(b, p, o, i) {
                        assert_eq!(Bitboard(f), want, "{pos} {sq} {b:?}");
                    }
                }
                for (name, f) in movegen::variants::flips_x86(p, o, i) {
                    assert_eq!(Bitboard(f), want, "{pos} {sq} {name}");
                }
                if want.any() {
                    assert_eq!(pos.play(Move::Place(sq)).unwrap(), reference::play(&pos, Some(sq)));
                } else {
                    assert!(pos.play(Move::Place(sq)).is_err());
                }
            }
            assert_eq!(pos.is_game_over(), reference::is_game_over(&pos), "{pos}");
            assert_eq!(pos.must_pass(), expected.is_empty() && !reference::is_game_over(&pos));
            assert_eq!(pos.is_legal(Move::Pass), pos.must_pass());
            if pos.is_game_over() {
                assert_eq!(pos.final_score(), reference::final_score(&pos));
                assert!(pos.moves().is_empty());
            }
            checked += 1;
        }
    }
    assert!(checked >= 100_000, "only {checked} positions");
}

#[test]
fn published_perft_depths_1_to_11() {
    let published = [
        4u64, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284, 212258800,
    ];
    let start = Position::start();
    for (d, &n) in published.iter().enumerate() {
        assert_eq!(perft::perft(&start, d as u32 + 1), n, "depth {}", d + 1);
    }
    assert_eq!(perft::perft_portable(&start, 10), published[9]);
    for b in movegen::Backend::ALL {
        if let Some(n) = perft::perft_with(b, &start, 10) {
            assert_eq!(n, published[9], "{b:?}");
        }
    }
    assert_eq!(perft::perft_hashed(&start, 11, 16), published[10]);
    assert_eq!(perft::perft_parallel(&start, 11, 2, 0), published[10]);
    assert_eq!(perft::perft_parallel(&start, 10, 3, 8), published[9]);
}

#[test]
fn small_board_perft_matches_reference() {
    let four = Position::start_of(BoardSize::Four);
    assert_eq!(perft::perft(&four, 12), 57436);
    for d in 0..=7 {
        assert_eq!(perft::perft(&four, d), reference::perft(&four, d), "4x4 depth {d}");
    }
    let six = Position::start_of(BoardSize::Six);
    for d in 0..=5 {
        assert_eq!(perft::perft(&six, d), reference::perft(&six, d), "6x6 depth {d}");
    }
    let n = perft::perft(&six, 9);
    assert_eq!(perft::perft_hashed(&six, 9, 4), n);
    assert_eq!(perft::perft_parallel(&six, 9, 2, 4), n);
    // The 4x4 game tree is finite: deep enough, every line has ended.
    let full = perft::perft(&four, 40);
    assert_eq!(perft::perft(&four, 41), full);
    assert_eq!(perft::perft_hashed(&four, 40, 1), full);
}

#[test]
fn random_position_perft_matches_reference() {
    for size in BoardSize::ALL {
        let positions = random_positions(size, 6, 99);
        for pos in positions.iter().step_by(5) {
            let d = if size == BoardSize::Eight { 3 } else { 4 };
            assert_eq!(perft::perft(pos, d), reference::perft(pos, d), "{pos}");
            assert_eq!(perft::perft_portable(pos, d), reference::perft(pos, d), "{pos}");
            for b in movegen::Backend::ALL {
                if let Some(n) = perft::perft_with(b, pos, d) {
                    assert_eq!(n, reference::perft(pos, d), "{pos} {b:?}");
                }
            }
            let div: u64 = perft::divide(pos, d).iter().map(|&(_, n)| n).sum();
            assert_eq!(
                div,
                if d == 0 || pos.is_game_over() {
                    div
                } else {
                    perft::perft(pos, d)
                }
            );
        }
    }
}

#[test]
fn symmetries_commute_with_move_generation() {
    for size in BoardSize::ALL {
        for pos in random_positions(size, 40, 5).into_iter().step_by(3) {
            for s in Symmetry::ALL {
                let t = s.apply_position(&pos);
                assert_eq!(t.legal_moves(), s.apply(pos.legal_moves(), size), "{pos} {s:?}");
                assert_eq!(t.disc_counts(), pos.disc_counts());
                for sq in pos.legal_moves() {
                    let tsq = s.apply(Bitboard::from_square(sq), size).first().unwrap();
                    assert_eq!(t.flips(tsq), s.apply(pos.flips(sq), size));
                }
            }
        }
    }
}

#[test]
fn text_round_trips_on_random_games() {
    let mut rng = SmallRng::seed_from_u64(11);
    for size in BoardSize::ALL {
        for _ in 0..50 {
            let start = Position::start_of(size);
            let mut pos = start;
            let mut written = Vec::new(); // passes written
            let mut omitted = Vec::new(); // passes left out
            loop {
                let m = pos.moves();
                let Some(&mv) = m.get(rng.random_range(0..m.len().max(1))) else {
                    break;
                };
                written.push(mv);
                if mv != Move::Pass {
                    omitted.push(mv);
                }
                pos = pos.play(mv).unwrap();
                assert_eq!(pos.to_string().parse::<Position>().unwrap(), pos);
                let obf = ObfLine {
                    position: pos,
                    scores: pos
                        .legal_moves()
                        .into_iter()
                        .map(|s| (Move::Place(s), s.index() as i32 - 30))
                        .collect(),
                };
                assert_eq!(obf.to_string().parse::<ObfLine>().unwrap(), obf);
            }
            assert!(pos.is_game_over());
            assert_eq!(play_sequence(&start, &format_moves(&written)).unwrap(), pos);
            assert_eq!(play_sequence(&start, &format_moves(&omitted)).unwrap(), pos);
            let spaced: Vec<String> = written.iter().map(|m| m.to_string().to_uppercase()).collect();
            assert_eq!(play_sequence(&start, &spaced.join(" ")).unwrap(), pos);
        }
    }
}

#[test]
fn hash_depends_on_discs_and_side() {
    let mut seen = std::collections::HashMap::new();
    for pos in random_positions(BoardSize::Eight, 200, 3) {
        let h = pos.hash_key();
        assert_ne!(h, pos.pass_unchecked().hash_key());
        if let Some(other) = seen.insert(h, pos) {
            assert_eq!(other, pos, "hash collision between different positions");
        }
    }
}

fn grid(rows: &[&str], side: Color) -> Position {
    // Rows top to bottom; B black, W white, . empty.
    let board: String = rows
        .concat()
        .chars()
        .map(|c| match c {
            'B' => 'X',
            'W' => 'O',
            _ => '-',
        })
        .collect();
    let s = format!("{board} {}", side.letter());
    s.parse().unwrap()
}

#[test]
fn article_cases() {
    // 4x4 start: four moves for black.
    let start = grid(&["....", ".WB.", ".BW.", "...."], Color::Black);
    assert_eq!(start, Position::start_of(BoardSize::Four));
    assert_eq!(start.moves().len(), 4);
    // White must pass; black then plays a1 and the game ends 16-0.
    let pass = grid(&[".WBB", "BBBB", "BBBB", "BBBB"], Color::White);
    assert!(pass.must_pass());
    assert!(!pass.is_game_over());
    assert_eq!(pass.moves(), vec![Move::Pass]);
    assert!(pass.play("a1".parse().unwrap()).is_err());
    let black = pass.play(Move::Pass).unwrap();
    assert_eq!(black.moves(), vec![Move::Place("a1".parse().unwrap())]);
    let end = black.play("a1".parse().unwrap()).unwrap();
    assert!(end.is_game_over());
    assert_eq!(end.disc_counts(), (16, 0));
    assert_eq!(end.final_score_black(), 16);
    // The full black board is over.
    let full = grid(&["BBBB", "BBBB", "BBBB", "BBBB"], Color::White);
    assert!(full.is_game_over());
    assert!(full.play(Move::Pass).is_err());
    assert_eq!(full.final_score_black(), 16);
    // 8x8: d3, c4, f5, e6; d3 flips d4.
    let s8 = Position::start();
    let names: Vec<String> = s8.moves().iter().map(|m| m.to_string()).collect();
    assert_eq!(names, ["d3", "c4", "f5", "e6"]);
    let d3: Square = "d3".parse().unwrap();
    assert_eq!(s8.flips(d3), Bitboard::from_square("d4".parse().unwrap()));
}

/// The flips of `sq` walked square by square with (column, row) coordinates, for any disjoint
/// `(p, o)` (not only positions reachable in a game).
fn naive_flips(p: u64, o: u64, sq: u32) -> u64 {
    let mut f = 0;
    for (dc, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)] {
        let (mut c, mut r) = ((sq % 8) as i32 + dc, (sq / 8) as i32 + dr);
        let mut run = 0u64;
        while (0..8).contains(&c) && (0..8).contains(&r) && o >> (r * 8 + c) & 1 != 0 {
            run |= 1 << (r * 8 + c);
            (c, r) = (c + dc, r + dr);
        }
        if (0..8).contains(&c) && (0..8).contains(&r) && p >> (r * 8 + c) & 1 != 0 {
            f |= run;
        }
    }
    f
}

/// Every flip function (portable, each back end, and each x86 variant) on every empty square
/// of random disjoint boards of every density, and on hand-made wrap-around traps: full lines
/// of opponent discs with a player disc just across the edge (the next row, or the other end
/// of the board), which a shift without edge masks would wrongly close.
#[test]
fn every_flip_function_matches_naive_on_every_square() {
    let mut rng = SmallRng::seed_from_u64(14);
    let mut boards = Vec::new();
    for k in 0..6000 {
        // Densities from sparse to full; opponent-heavy boards make long runs.
        let occupied = rng.random::<u64>() | if k % 3 == 0 { rng.random::<u64>() } else { 0 };
        let split = rng.random::<u64>() & rng.random::<u64>() & if k % 2 == 0 { rng.random::<u64>() } else { !0 };
        boards.push((occupied & split, occupied & !split));
    }
    for sq in 0..64u32 {
        let x = 1u64 << sq;
        // Everything else the opponent's except one player disc, anywhere.
        for q in 0..64 {
            if q != sq {
                boards.push((1 << q, !x & !(1 << q)));
            }
        }
        // Opponent discs on the played square's row (and the next), the player's on the edges
        // of the neighbouring rows.
        let row = 0xffu64 << (sq & 56);
        boards.push((0x8181_8181_8181_8181 & !row & !x, row & !x & !0x8181_8181_8181_8181));
        boards.push((0x8181_8181_8181_8181 & !x, !0x8181_8181_8181_8181 & !x));
        boards.push((0x0101_0101_0101_0101 & !x, !0x0101_0101_0101_0101 & !x));
        boards.push((0x8080_8080_8080_8080 & !x, !0x8080_8080_8080_8080 & !x));
        boards.push((0xff00_0000_0000_00ff & !x, !0xff00_0000_0000_00ff & !x));
    }
    let mut nonzero = 0;
    for &(p, o) in &boards {
        for sq in 0..64u32 {
            if (p | o) >> sq & 1 != 0 {
                continue;
            }
            let want = naive_flips(p, o, sq);
            nonzero += (want != 0) as u32;
            assert_eq!(movegen::portable::flips(p, o, sq), want, "{p:#x} {o:#x} {sq}");
            for b in movegen::Backend::ALL {
                if let Some(f) = movegen::variants::flips_with(b, p, o, sq) {
                    assert_eq!(f, want, "{p:#x} {o:#x} {sq} {b:?}");
                }
            }
            for (name, f) in movegen::variants::flips_x86(p, o, sq) {
                assert_eq!(f, want, "{p:#x} {o:#x} {sq} {name}");
            }
        }
    }
    assert!(nonzero > 20_000, "only {nonzero} flipping moves");
}

#[test]
fn multi_direction_flips_and_no_ray_across_gaps() {
    // Black on c3 flanks in three directions at once; the west ray has a gap and flips nothing.
    let pos = grid(
        &[
            "B.B.B...", ".WWW....", "BW.WB...", ".WWW....", "B.B.B...", "........", "........", "........",
        ],
        Color::Black,
    );
    let c3: Square = "c3".parse().unwrap();
    let f = pos.flips(c3);
    assert_eq!(f, reference::flips(&pos, c3));
    assert_eq!(f.count(), 8);
    let gap = grid(
        &[
            "........", "........", "B.WW.B..", "........", "........", "........", "........", "........",
        ],
        Color::Black,
    );
    assert!(gap.flips("b3".parse().unwrap()).is_empty());
    assert!(!gap.legal_moves().contains("e3".parse().unwrap()));
}

#[test]
fn backends_by_name_and_the_chosen_one_is_supported() {
    for b in movegen::Backend::ALL {
        assert_eq!(movegen::Backend::from_name(b.name()), Some(b));
        assert_eq!(movegen::Backend::from_name(&b.name().to_uppercase()), Some(b));
    }
    assert_eq!(movegen::Backend::from_name("sse"), None);
    assert!(movegen::Backend::Portable.supported());
    assert!(movegen::backend().supported());
    assert!(movegen::Backend::best().supported());
    // Each back end needs the features of the one before it.
    for w in movegen::Backend::ALL.windows(2) {
        assert!(w[0].supported() || !w[1].supported(), "{:?} without {:?}", w[1], w[0]);
    }
    // The environment's request, when it names a supported back end, is obeyed.
    let requested = std::env::var("OTHELLO_BACKEND")
        .ok()
        .and_then(|v| movegen::Backend::from_name(&v));
    if let Some(b) = requested.filter(|b| b.supported()) {
        assert_eq!(movegen::backend(), b);
    }
}

/// The CPU facts behind the back-end choice: `pext` counts as slow on AMD and Hygon before
/// Zen 3 only, and the vendor and family read by CPUID are the kernel's (where it says).
#[test]
fn cpu_vendor_and_family_decide_pext() {
    use othello_rules::movegen::{cpu_family, cpu_vendor, pext_is_fast_on};
    assert!(!pext_is_fast_on(b"AuthenticAMD", 0x17));
    assert!(!pext_is_fast_on(b"HygonGenuine", 0x18));
    assert!(pext_is_fast_on(b"AuthenticAMD", 0x19));
    assert!(pext_is_fast_on(b"AuthenticAMD", 0x1a));
    assert!(pext_is_fast_on(b"GenuineIntel", 6));
    assert!(pext_is_fast_on(b"GenuineIntel", 0x0f));
    assert_eq!(cpu_vendor().is_some(), cfg!(target_arch = "x86_64"));
    assert_eq!(cpu_family().is_some(), cfg!(target_arch = "x86_64"));
    if let (Some(v), Some(f)) = (cpu_vendor(), cpu_family()) {
        assert!(v.iter().all(|b| b.is_ascii_graphic()), "{v:?}");
        if let Ok(info) = std::fs::read_to_string("/proc/cpuinfo") {
            let field = |name: &str| {
                info.lines()
                    .find(|l| l.split(':').next().map(str::trim) == Some(name))
                    .and_then(|l| l.split(':').nth(1))
                    .map(|x| x.trim().to_string())
            };
            if let Some(vendor) = field("vendor_id") {
                assert_eq!(Some(vendor.as_str()), std::str::from_utf8(&v).ok());
            }
            if let Some(family) = field("cpu family") {
                assert_eq!(family.parse::<u32>().ok(), Some(f));
            }
        }
    }
}
