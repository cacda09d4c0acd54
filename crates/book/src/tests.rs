//! Tests of the book: the file form, lookups from twins, propagation against a slow reference,
//! the seeded choice.

use crate::*;
use othello_rules::random::play_random;
use othello_rules::{Move, Position, Symmetry};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::HashMap;

/// A deterministic stand-in for a search: each move worth the mover's disc lead after it plus
/// a hash-dependent term, so that values differ between moves.
fn leaf(pos: &Position) -> Vec<(Move, i32)> {
    pos.moves()
        .into_iter()
        .map(|m| {
            let c = pos.play(m).unwrap();
            let (k, _) = canonical_key(&c);
            let noise = (othello_rules::hash::hash_pair(k.0, k.1) % 300) as i32 - 150;
            (m, -c.disc_difference() * 100 + noise)
        })
        .collect()
}

/// The build settings of the small books: seed 3, batches of 5.
fn small_config(depth: u32, deviation: i32, max: usize) -> BuildConfig {
    BuildConfig {
        depth,
        max_positions: max,
        deviation,
        seed: 3,
        batch: 5,
    }
}

fn small_book(depth: u32, deviation: i32, max: usize) -> Book {
    let mut book = Book::new();
    let config = small_config(depth, deviation, max);
    build(&mut book, &Position::start(), &config, &mut leaf, &mut |_| {}).unwrap();
    book
}

/// `file` with its checksum recomputed, so that the checks behind it are reached.
fn reseal(mut file: Vec<u8>) -> Vec<u8> {
    let sum = expected_checksum(&file).unwrap();
    file[CHECKSUM_FIELD].copy_from_slice(&sum.to_le_bytes());
    file
}

#[test]
fn the_file_form_round_trips_and_is_laid_out_as_documented() {
    let book = small_book(3, 100, 40);
    assert!(book.len() > 5);
    let bytes = book.to_bytes();
    assert_eq!(&bytes[..8], b"OTHBOOK\0");
    assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()), 1);
    assert_eq!(
        u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize,
        book.len()
    );
    let moves: usize = book.entries().map(|(_, e)| e.moves.len()).sum();
    assert_eq!(bytes.len(), HEADER_LEN + book.len() * ENTRY_HEAD_LEN + moves * MOVE_LEN);
    let again = Book::from_bytes(&bytes).unwrap();
    assert_eq!(again, book);
    assert_eq!(again.to_bytes(), bytes);
    // The first entry: the key, the value, the moves.
    let (pos, entry) = book.entries().next().unwrap();
    assert_eq!(u64::from_le_bytes(bytes[24..32].try_into().unwrap()), pos.player().0);
    assert_eq!(u64::from_le_bytes(bytes[32..40].try_into().unwrap()), pos.opponent().0);
    assert_eq!(i16::from_le_bytes([bytes[40], bytes[41]]) as i32, entry.value);
    assert_eq!(bytes[42] as usize, entry.moves.len());
    // The empty book.
    let empty = Book::new().to_bytes();
    assert_eq!(empty.len(), HEADER_LEN);
    assert!(Book::from_bytes(&empty).unwrap().is_empty());
    let dir = std::env::temp_dir().join(format!("othello-book-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("b.bin");
    book.write(&path).unwrap();
    assert_eq!(Book::from_path(&path).unwrap(), book);
    let missing = Book::from_path(dir.join("none.bin")).unwrap_err();
    assert!(matches!(missing, BookError::Io { .. }), "{missing}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn every_damaged_byte_is_refused_and_resealed_damage_never_passes_silently() {
    let book = small_book(2, 100, 12);
    let bytes = book.to_bytes();
    for i in 0..bytes.len() {
        for flip in [1_u8, 0x80, 0xff] {
            let mut bad = bytes.clone();
            bad[i] ^= flip;
            let err = Book::from_bytes(&bad).expect_err("a damaged byte");
            if i >= 8 && !(8..12).contains(&i) {
                assert!(matches!(err, BookError::Checksum { .. }), "byte {i}: {err}");
            }
            // With the checksum recomputed, the damage is either refused by a field check or
            // reads as another consistent book that writes back byte for byte.
            if !CHECKSUM_FIELD.contains(&i) {
                let resealed = reseal(bad);
                if let Ok(other) = Book::from_bytes(&resealed) {
                    assert_eq!(other.to_bytes(), resealed, "byte {i}");
                }
            }
        }
    }
    for len in 0..bytes.len() {
        assert!(
            Book::from_bytes(&reseal_if_whole(&bytes[..len])).is_err(),
            "cut at {len}"
        );
    }
}

fn reseal_if_whole(file: &[u8]) -> Vec<u8> {
    if file.len() >= HEADER_LEN {
        reseal(file.to_vec())
    } else {
        file.to_vec()
    }
}

#[test]
fn each_refusal_is_its_typed_error() {
    let book = small_book(2, 100, 12);
    let bytes = book.to_bytes();
    let err = |b: &[u8]| Book::from_bytes(b).unwrap_err();
    assert!(matches!(
        err(&bytes[..10]),
        BookError::Truncated {
            entry: None,
            needed: 24,
            left: 10
        }
    ));
    let mut b = bytes.clone();
    b[0] = b'X';
    assert!(matches!(err(&b), BookError::BadMagic { .. }));
    let mut b = bytes.clone();
    b[8] = 2;
    assert!(matches!(err(&b), BookError::Version { found: 2 }));
    assert_eq!(
        err(&b).to_string(),
        "unsupported book format version 2 (this build reads 1)"
    );
    let mut b = bytes.clone();
    b.push(0);
    assert!(matches!(err(&reseal(b)), BookError::TrailingBytes { extra: 1 }));
    let cut = reseal(bytes[..bytes.len() - 1].to_vec());
    assert!(
        matches!(err(&cut), BookError::Truncated { entry: Some(_), .. }),
        "{}",
        err(&cut)
    );
    // One more entry counted than written.
    let mut b = bytes.clone();
    b[12] += 1;
    let e = err(&reseal(b));
    assert!(matches!(e, BookError::Truncated { left: 0, .. }), "{e}");
    // Entry-level: a value that is not the best move value.
    let mut b = bytes.clone();
    b[40] ^= 1;
    let e = err(&reseal(b));
    assert!(
        matches!(
            e,
            BookError::Entry {
                index: 0,
                source: EntryError::NotBest { .. }
            }
        ),
        "{e}"
    );
    // A non-canonical key: the first entry's discs mirrored.
    let (pos, _) = book.entries().next().unwrap();
    let mut b = bytes.clone();
    let twin = Symmetry::ALL
        .into_iter()
        .map(|s| s.apply_position(&pos))
        .find(|t| (t.player().0, t.opponent().0) != (pos.player().0, pos.opponent().0))
        .unwrap();
    b[24..32].copy_from_slice(&twin.player().0.to_le_bytes());
    b[32..40].copy_from_slice(&twin.opponent().0.to_le_bytes());
    let e = err(&reseal(b));
    assert!(
        matches!(
            e,
            BookError::Entry {
                source: EntryError::NotCanonical,
                ..
            }
        ),
        "{e}"
    );
    // Unknown flags, both propagated and exact (found by the fuzz target: propagation clears
    // the exact mark, so such a file did not read back as it was written), a propagated mark
    // on a leaf, a leaf mark on a propagated move.
    let flags_at = 24 + ENTRY_HEAD_LEN + 1;
    for (value, check) in [
        (4_u8, "unknown or contradictory flags"),
        (FLAG_PROPAGATED | FLAG_EXACT, "unknown or contradictory flags"),
        (FLAG_PROPAGATED, "propagated"),
        (0, "searched leaf"),
    ] {
        let mut b = bytes.clone();
        if b[flags_at] == value {
            continue;
        }
        b[flags_at] = value;
        let e = err(&reseal(b)).to_string();
        assert!(e.starts_with("book entry 0: "), "{e}");
        assert!(
            e.contains(check) || e.contains("is not the best") || e.contains("has value"),
            "{e}"
        );
    }
    // The same entry twice.
    let first_len = ENTRY_HEAD_LEN + bytes[42] as usize * MOVE_LEN;
    let mut b = bytes[..24 + first_len].to_vec();
    b.extend_from_slice(&bytes[24..24 + first_len]);
    b[12..16].copy_from_slice(&2_u32.to_le_bytes());
    let e = err(&reseal(b));
    assert!(
        matches!(
            e,
            BookError::Entry {
                index: 1,
                source: EntryError::Unsorted
            }
        ),
        "{e}"
    );
}

#[test]
fn twins_look_up_as_the_position_itself_through_every_symmetry() {
    let mut rng = SmallRng::seed_from_u64(11);
    let mut book = Book::new();
    let mut positions = Vec::new();
    for _ in 0..300 {
        let plies = rng.random_range(0..50);
        let pos = play_random(&Position::start(), plies, &mut rng);
        if pos.is_game_over() {
            continue;
        }
        let values: Vec<(Move, i32)> = if pos.must_pass() {
            vec![(Move::Pass, rng.random_range(-6400..=6400))]
        } else {
            pos.moves()
                .into_iter()
                .map(|m| (m, rng.random_range(-300..300)))
                .collect()
        };
        book.insert_searched(&[(pos, values)]).unwrap();
        positions.push(pos);
    }
    let book = Book::from_bytes(&book.to_bytes()).unwrap();
    for pos in &positions {
        let direct = book.lookup(pos).unwrap();
        assert_eq!(direct.value, direct.moves[0].value);
        for s in Symmetry::ALL {
            let twin = s.apply_position(pos);
            let entry = book.lookup(&twin).unwrap();
            assert_eq!(entry.value, direct.value);
            let mut mapped: Vec<(Move, i32)> = entry
                .moves
                .iter()
                .map(|m| (map_move(inverse(s), m.mv), m.value))
                .collect();
            let mut want: Vec<(Move, i32)> = direct.moves.iter().map(|m| (m.mv, m.value)).collect();
            mapped.sort_by_key(|&(m, v)| (v, m.to_string()));
            want.sort_by_key(|&(m, v)| (v, m.to_string()));
            assert_eq!(mapped, want, "{pos} under {s:?}");
            for m in &entry.moves {
                assert!(twin.is_legal(m.mv), "{twin} {}", m.mv);
            }
            // The leaf value of a move is the one given for the twin move in the position.
            assert_eq!(book.moves(&twin).len(), pos.moves().len().max(1));
        }
    }
    assert_eq!(book.lookup(&Position::start_of(othello_rules::BoardSize::Six)), None);
}

/// The slow reference: a position's value by plain recursion over the book's positions, with
/// every leaf searched afresh by the same stand-in.
fn reference(book: &Book, pos: &Position, memo: &mut HashMap<Position, i32>) -> i32 {
    if let Some(&v) = memo.get(pos) {
        return v;
    }
    assert!(book.contains(pos));
    let value = if pos.must_pass() {
        let next = pos.pass_unchecked();
        if book.contains(&next) {
            -reference(book, &next, memo)
        } else {
            -leaf(&next).iter().map(|v| v.1).max().unwrap()
        }
    } else {
        let leaves: HashMap<Move, i32> = leaf(pos).into_iter().collect();
        pos.moves()
            .into_iter()
            .map(|m| {
                let c = pos.play(m).unwrap();
                if c.is_game_over() {
                    -c.final_score() * 100
                } else if book.contains(&c) {
                    -reference(book, &c, memo)
                } else {
                    leaves[&m]
                }
            })
            .max()
            .unwrap()
    };
    memo.insert(*pos, value);
    value
}

#[test]
fn propagated_values_are_negamax_over_the_book_from_fresh_leaves() {
    for (depth, deviation, max) in [(4, 150, 120), (6, 0, 60), (3, 6400, 400)] {
        let book = small_book(depth, deviation, max);
        let mut memo = HashMap::new();
        for (pos, entry) in book.entries() {
            assert_eq!(entry.value, reference(&book, &pos, &mut memo), "{pos}");
            for m in &entry.moves {
                let c = pos.play_unchecked(m.mv);
                assert_eq!(m.propagated, book.contains(&c));
            }
        }
        assert!(memo.len() >= book.len());
    }
    // The window: depth 3 with the widest window holds every position up to 3 moves, one per
    // class of twins (1 + 1 + 3 + 14 classes at 0..3 moves from the start).
    assert_eq!(small_book(3, 6400, 10_000).len(), 19);
    // With no window the build follows the best line to depth 6, and again each time the
    // propagated values change it, until the best line is in the book all the way.
    let narrow = small_book(6, 0, 10_000);
    assert!(narrow.len() >= 7, "{}", narrow.len());
    let config = BuildConfig {
        depth: 6,
        deviation: 0,
        ..BuildConfig::default()
    };
    assert!(plan(&narrow, &Position::start(), &config).is_empty());
    let mut pos = Position::start();
    for _ in 0..6 {
        let best = narrow.moves(&pos)[0].0;
        pos = pos.play(best).unwrap();
        assert!(narrow.contains(&pos) || pos.is_game_over());
    }
}

#[test]
fn a_build_extends_an_existing_book_and_stops_at_its_size() {
    let mut book = small_book(3, 100, 8);
    assert_eq!(book.len(), 8, "the cap");
    let before = book.clone();
    let config = small_config(3, 100, 1000);
    let mut searched = Vec::new();
    let report = build(
        &mut book,
        &Position::start(),
        &config,
        &mut |p: &Position| {
            searched.push(*p);
            leaf(p)
        },
        &mut |_| {},
    )
    .unwrap();
    assert!(
        searched.iter().all(|p| !before.contains(p)),
        "only new positions are searched"
    );
    assert_eq!(book, small_book(3, 100, 1000), "extending equals building at once");
    assert_eq!((report.entries, report.searched), (book.len(), searched.len()));
    assert!(plan(&book, &Position::start(), &config).is_empty());
    // Merging two halves gives the whole.
    let mut a = small_book(3, 100, 8);
    a.merge(&book);
    assert_eq!(a, book);
}

#[test]
fn choose_keeps_to_the_margin_and_repeats_per_seed() {
    let mut book = Book::new();
    let pos = Position::start().play("f5".parse().unwrap()).unwrap();
    let values = [("d6", 50), ("f6", 40), ("f4", -20)];
    let moves: Vec<(Move, i32)> = values.iter().map(|&(m, v)| (m.parse().unwrap(), v)).collect();
    book.insert_searched(&[(pos, moves)]).unwrap();
    let draw = |margin: i32, seed: u64| -> Vec<Move> {
        let mut rng = SmallRng::seed_from_u64(seed);
        (0..200)
            .map(|_| book.choose(&pos, margin, &mut rng).unwrap().0)
            .collect()
    };
    let names = |v: &[Move]| {
        let mut s: Vec<String> = v.iter().map(|m| m.to_string()).collect();
        s.sort();
        s.dedup();
        s
    };
    assert_eq!(names(&draw(0, 1)), ["d6"]);
    assert_eq!(names(&draw(-5, 1)), ["d6"]);
    assert_eq!(names(&draw(9, 1)), ["d6"]);
    assert_eq!(names(&draw(10, 1)), ["d6", "f6"]);
    assert_eq!(names(&draw(69, 2)), ["d6", "f6"]);
    assert_eq!(names(&draw(70, 2)), ["d6", "f4", "f6"]);
    assert_eq!(draw(70, 5), draw(70, 5));
    assert_ne!(draw(70, 5), draw(70, 6));
    let mut rng = SmallRng::seed_from_u64(1);
    assert_eq!(book.choose(&Position::start(), 100, &mut rng), None);
    assert_eq!(book.moves(&pos)[0], ("d6".parse().unwrap(), 50));
}

#[test]
fn inserting_refuses_values_that_do_not_match_the_position() {
    let mut book = Book::new();
    let start = Position::start();
    let f5: Move = "f5".parse().unwrap();
    assert_eq!(
        book.insert_searched(&[(start, vec![(f5, 0)])]),
        Err(EntryError::MoveCount { found: 1, expected: 4 })
    );
    let a1: Move = "a1".parse().unwrap();
    let mut four: Vec<(Move, i32)> = start.moves().into_iter().map(|m| (m, 0)).collect();
    four[0].0 = a1;
    assert_eq!(
        book.insert_searched(&[(start, four.clone())]),
        Err(EntryError::IllegalMove { mv: a1 })
    );
    four[0] = (start.moves()[0], 7000);
    assert_eq!(
        book.insert_searched(&[(start, four)]),
        Err(EntryError::ValueRange { value: 7000 })
    );
    assert!(book.is_empty());
}

/// An entry's index and its moves in the file: (offset of the move's flags byte, flags, value).
type FileEntry = (u32, Vec<(usize, u8, i32)>);

/// Each entry's moves in the file.
fn file_moves(bytes: &[u8]) -> Vec<FileEntry> {
    let mut at = HEADER_LEN;
    let mut out = Vec::new();
    let mut index = 0;
    while at < bytes.len() {
        let k = bytes[at + 18] as usize;
        let moves = (0..k)
            .map(|i| {
                let m = at + ENTRY_HEAD_LEN + i * MOVE_LEN;
                (
                    m + 1,
                    bytes[m + 1],
                    i16::from_le_bytes([bytes[m + 2], bytes[m + 3]]) as i32,
                )
            })
            .collect();
        out.push((index, moves));
        at += ENTRY_HEAD_LEN + k * MOVE_LEN;
        index += 1;
    }
    out
}

#[test]
fn links_between_entries_are_checked_move_by_move() {
    let book = small_book(3, 100, 30);
    let bytes = book.to_bytes();
    let (mut missing, mut stale, mut value) = (0, 0, 0);
    for (index, moves) in file_moves(&bytes) {
        let best = moves.iter().map(|m| m.2).max().unwrap();
        for &(flags_at, flags, v) in &moves {
            let mut b = bytes.clone();
            if flags == FLAG_PROPAGATED {
                b[flags_at] = 0;
                let e = Book::from_bytes(&reseal(b)).unwrap_err();
                assert!(
                    matches!(
                        e,
                        BookError::Entry {
                            source: EntryError::StaleLeaf { .. },
                            ..
                        }
                    ),
                    "{e}"
                );
                stale += 1;
                if v < best {
                    let mut b = bytes.clone();
                    b[flags_at + 1..flags_at + 3].copy_from_slice(&((v - 1) as i16).to_le_bytes());
                    let e = Book::from_bytes(&reseal(b)).unwrap_err();
                    assert!(
                        matches!(e, BookError::Entry { index: i, source: EntryError::PropagatedValue { .. } } if i == index),
                        "{e}"
                    );
                    value += 1;
                }
            } else if flags == 0 {
                b[flags_at] = FLAG_PROPAGATED;
                let e = Book::from_bytes(&reseal(b)).unwrap_err();
                assert!(
                    matches!(e, BookError::Entry { index: i, source: EntryError::MissingChild { .. } } if i == index),
                    "{e}"
                );
                missing += 1;
            }
        }
    }
    assert!(missing > 10 && stale > 5 && value > 0, "{missing} {stale} {value}");
}

#[test]
fn values_may_reach_64_discs_and_no_further() {
    let pos = Position::start().play("f5".parse().unwrap()).unwrap();
    let values: Vec<(Move, i32)> = [("d6", 6400), ("f6", -6400), ("f4", 0)]
        .iter()
        .map(|&(m, v)| (m.parse().unwrap(), v))
        .collect();
    let mut book = Book::new();
    book.insert_searched(&[(pos, values)]).unwrap();
    let bytes = book.to_bytes();
    assert_eq!(Book::from_bytes(&bytes).unwrap(), book, "+/-6400 are values");
    // The entry's value and its best move's, both 6401.
    let (_, moves) = &file_moves(&bytes)[0];
    let (flags_at, _, v) = moves.iter().copied().find(|m| m.2 == 6400).unwrap();
    assert_eq!(v, 6400);
    let mut b = bytes.clone();
    b[HEADER_LEN + 16..HEADER_LEN + 18].copy_from_slice(&6401_i16.to_le_bytes());
    b[flags_at + 1..flags_at + 3].copy_from_slice(&6401_i16.to_le_bytes());
    let e = Book::from_bytes(&reseal(b)).unwrap_err();
    assert!(
        matches!(
            e,
            BookError::Entry {
                source: EntryError::ValueRange { value: 6401 },
                ..
            }
        ),
        "{e}"
    );
}

/// A position whose every move fills the board: random games until one empty square is left
/// with a move to play on it.
fn one_square_left() -> Position {
    let mut rng = SmallRng::seed_from_u64(5);
    loop {
        let p = play_random(&Position::start(), 59, &mut rng);
        if p.empty_count() == 1 && !p.moves().is_empty() {
            break p;
        }
    }
}

#[test]
fn a_move_that_ends_the_game_carries_its_exact_final_score() {
    let pos = one_square_left();
    let mv = pos.moves()[0];
    let mut book = Book::new();
    book.insert_searched(&[(pos, vec![(mv, 0)])]).unwrap();
    let entry = book.lookup(&pos).unwrap();
    let end = pos.play(mv).unwrap();
    assert!(end.is_game_over());
    assert_eq!(
        entry.moves[0].value,
        -end.final_score() * 100,
        "the given value is replaced"
    );
    assert!(entry.moves[0].exact && !entry.moves[0].propagated);
    let bytes = book.to_bytes();
    assert_eq!(Book::from_bytes(&bytes).unwrap(), book);
    let (_, moves) = &file_moves(&bytes)[0];
    let (flags_at, flags, v) = moves[0];
    assert_eq!(flags, FLAG_EXACT);
    let final_value = |b: Vec<u8>| {
        let e = Book::from_bytes(&reseal(b)).unwrap_err();
        assert!(
            matches!(
                e,
                BookError::Entry {
                    source: EntryError::FinalValue { .. },
                    ..
                }
            ),
            "{e}"
        );
    };
    let mut b = bytes.clone();
    b[flags_at] = 0;
    final_value(b);
    let mut b = bytes.clone();
    b[flags_at] = FLAG_EXACT | FLAG_PROPAGATED;
    let e = Book::from_bytes(&reseal(b)).unwrap_err();
    assert!(
        matches!(
            e,
            BookError::Entry {
                source: EntryError::UnknownFlags { .. },
                ..
            }
        ),
        "{e}"
    );
    let mut b = bytes.clone();
    let other = if v == 0 { 200 } else { 0 };
    b[HEADER_LEN + 16..HEADER_LEN + 18].copy_from_slice(&(other as i16).to_le_bytes());
    b[flags_at + 1..flags_at + 3].copy_from_slice(&(other as i16).to_le_bytes());
    final_value(b);
}

#[test]
fn parallel_build_equals_the_sequential_one_for_any_thread_count() {
    for (depth, deviation, max, batch) in [(3, 100, 1000, 5), (4, 200, 120, 7), (5, 50, 300, 1)] {
        let config = BuildConfig {
            depth,
            max_positions: max,
            deviation,
            seed: 9,
            batch,
        };
        let mut one = Book::new();
        let mut events_one = Vec::new();
        let report_one = build(&mut one, &Position::start(), &config, &mut leaf, &mut |e| {
            if let BuildEvent::Searched { position, .. } = e {
                events_one.push(*position);
            }
        })
        .unwrap();
        // Each round reaches one move further: the book reaches `depth` moves (or its cap).
        assert!(report_one.rounds > depth as usize || one.len() == max, "{report_one:?}");
        assert_eq!(report_one.entries, one.len());
        for threads in [1, 2, 3, 8] {
            let mut searchers: Vec<_> = (0..threads).map(|_| |p: &Position| leaf(p)).collect();
            let mut book = Book::new();
            let mut events = Vec::new();
            let mut added = 0;
            let report = build_parallel(
                &mut book,
                &Position::start(),
                &config,
                &mut searchers,
                &mut |e| match e {
                    BuildEvent::Searched { position, .. } => events.push(*position),
                    BuildEvent::Added { .. } => added += 1,
                },
            )
            .unwrap();
            assert_eq!(book, one, "depth {depth}, {threads} threads");
            assert_eq!(book.to_bytes(), one.to_bytes());
            assert_eq!(report, report_one);
            assert_eq!(events, events_one, "positions reported in the plan's order");
            // A save at least every `batch` entries and once at the end of each round, no more.
            let b = config.batch;
            assert!(added >= report.searched.div_ceil(b), "{added} saves");
            assert!(added <= book.len() / b + report.rounds, "{added} saves");
        }
    }
}

#[test]
fn parallel_build_extends_a_book_and_searches_each_new_position_once() {
    let before = small_book(2, 100, 1000);
    let config = small_config(3, 100, 1000);
    let searched = std::sync::Mutex::new(Vec::new());
    let mut searchers: Vec<_> = (0..3)
        .map(|_| {
            |p: &Position| {
                searched.lock().unwrap().push(*p);
                leaf(p)
            }
        })
        .collect();
    let mut book = before.clone();
    let report = build_parallel(&mut book, &Position::start(), &config, &mut searchers, &mut |_| {}).unwrap();
    let searched = searched.into_inner().unwrap();
    assert_eq!(book, small_book(3, 100, 1000));
    assert!(searched.iter().all(|p| !before.contains(p)));
    let distinct: std::collections::HashSet<_> = searched.iter().map(canonical_key).collect();
    assert_eq!(distinct.len(), searched.len(), "no position searched twice");
    assert_eq!(report.searched, searched.len());
    assert_eq!(report.entries, book.len());
}

/// The stand-in for a deep search of one position: its value for the side to move, from a
/// hash of the position (so it differs from the build's stand-in, and leaves move), counting
/// each call.
fn deep_value(pos: &Position, calls: &mut HashMap<Key, u32>) -> i32 {
    let (k, _) = canonical_key(pos);
    *calls.entry(k).or_default() += 1;
    (othello_rules::hash::hash_pair(k.0 ^ 0x5eed, k.1) % 1200) as i32 - 600 + pos.disc_difference() * 50
}

/// The slow reference of the walk of `leaf_moves`: the distance of every book position from
/// the roots by repeated relaxation over the window's propagated moves, then every searched
/// leaf in the window of the positions within `depth`, as (key, move in the key's frame).
fn reference_leaves(book: &Book, roots: &[Position], depth: u32, window: i32) -> Vec<(Key, Move)> {
    let mut dist: HashMap<Key, u32> = HashMap::new();
    for r in roots {
        if book.contains(r) {
            dist.insert(canonical_key(r).0, 0);
        }
    }
    loop {
        let mut changed = false;
        for (pos, entry) in book.entries() {
            let Some(&d) = dist.get(&canonical_key(&pos).0) else {
                continue;
            };
            if d >= depth {
                continue;
            }
            for m in entry
                .moves
                .iter()
                .filter(|m| m.propagated && m.value >= entry.value - window)
            {
                let c = canonical_key(&pos.play_unchecked(m.mv)).0;
                if dist.get(&c).is_none_or(|&old| old > d + 1) {
                    dist.insert(c, d + 1);
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    let mut out = Vec::new();
    for (pos, entry) in book.entries() {
        if dist.get(&canonical_key(&pos).0).is_some_and(|&d| d <= depth) {
            for m in entry
                .moves
                .iter()
                .filter(|m| !m.propagated && !m.exact && m.value >= entry.value - window)
            {
                out.push((canonical_key(&pos).0, m.mv));
            }
        }
    }
    out.sort();
    out
}

/// `leaf_moves` as (key, move in the key's frame), sorted.
fn walked_leaves(book: &Book, roots: &[Position], config: &DeepenConfig) -> Vec<(Key, Move)> {
    let mut out: Vec<(Key, Move)> = leaf_moves(book, roots, config)
        .iter()
        .map(|l| {
            let (k, sym) = canonical_key(&l.position);
            (k, map_move(sym, l.mv))
        })
        .collect();
    out.sort();
    out
}

#[test]
fn the_leaf_walk_equals_a_slow_reference() {
    let book = small_book(5, 150, 150);
    let one = [Position::start()];
    let two: Vec<Position> = ["f5", "f5f6e6"]
        .iter()
        .map(|m| othello_rules::text::play_sequence(&Position::start(), m).unwrap())
        .collect();
    let mut nonempty = 0;
    for roots in [&one[..], &two[..]] {
        for depth in [0, 1, 2, 4, 9] {
            for window in [0, 100, 250, 6400] {
                let config = DeepenConfig {
                    depth,
                    window,
                    batch: 5,
                };
                let walked = walked_leaves(&book, roots, &config);
                assert_eq!(
                    walked,
                    reference_leaves(&book, roots, depth, window),
                    "{depth} {window}"
                );
                let mut unique = walked.clone();
                unique.dedup();
                assert_eq!(unique.len(), walked.len(), "each leaf once");
                nonempty += usize::from(!walked.is_empty());
            }
        }
    }
    assert!(nonempty > 20, "{nonempty}");
    // Depth 0 from the start: the start's own leaves in the window, none of a deeper position.
    let config = DeepenConfig {
        depth: 0,
        window: 6400,
        batch: 5,
    };
    let start_leaves = leaf_moves(&book, &one, &config);
    assert!(
        start_leaves
            .iter()
            .all(|l| l.position == Position::start() && l.ply == 0)
    );
}

#[test]
fn setting_leaf_values_propagates_and_refuses_what_is_not_a_leaf() {
    let mut book = small_book(4, 150, 60);
    // A leaf of a position two moves deep, set through a twin, moves its ancestors' values.
    let (pos, entry) = book
        .entries()
        .filter(|(p, e)| p.empty_count() < 60 && e.moves.iter().any(|m| !m.propagated && !m.exact))
        .max_by_key(|(p, _)| p.empty_count())
        .map(|(p, e)| (p, e.clone()))
        .unwrap();
    let leaf_move = entry.moves.iter().find(|m| !m.propagated && !m.exact).unwrap().mv;
    let twin = Symmetry::ALL[3].apply_position(&pos);
    let twin_move = map_move(Symmetry::ALL[3], leaf_move);
    let before = book.clone();
    book.set_leaf_values(&[(twin, twin_move, 6400)]).unwrap();
    let e = book.lookup(&pos).unwrap();
    assert_eq!(e.value, 6400);
    assert_eq!(e.moves[0].mv, leaf_move);
    assert!(!e.moves[0].propagated);
    // Negamax above it, as the slow reference of every value computes it.
    for (p, entry) in book.entries() {
        let best = entry.moves.iter().map(|m| m.value).max().unwrap();
        assert_eq!(entry.value, best);
        for m in &entry.moves {
            if m.propagated {
                assert_eq!(m.value, -book.lookup(&p.play_unchecked(m.mv)).unwrap().value);
            }
        }
    }
    assert_ne!(book, before);
    // The file form holds it.
    assert_eq!(Book::from_bytes(&book.to_bytes()).unwrap(), book);
    // Setting the old value back gives the old book.
    let old = before
        .lookup(&pos)
        .unwrap()
        .moves
        .iter()
        .find(|m| m.mv == leaf_move)
        .unwrap()
        .value;
    book.set_leaf_values(&[(pos, leaf_move, old)]).unwrap();
    assert_eq!(book, before);

    // Refusals, the book unchanged by each (the good first item is not applied either).
    let propagated = entry.moves.iter().find(|m| m.propagated);
    let start_move = book.lookup(&Position::start()).unwrap().moves[0].mv;
    let good = (pos, leaf_move, 5);
    let outside = othello_rules::text::play_sequence(&Position::start(), "c4c3d3c5b4").unwrap();
    assert!(!book.contains(&outside));
    let cases: Vec<((Position, Move, i32), EntryError)> = vec![
        ((pos, leaf_move, 6401), EntryError::ValueRange { value: 6401 }),
        ((pos, leaf_move, -6401), EntryError::ValueRange { value: -6401 }),
        ((outside, outside.moves()[0], 0), EntryError::NotInBook),
        (
            (Position::start(), start_move, 0),
            EntryError::NotALeaf { mv: start_move },
        ),
        ((pos, Move::Pass, 0), EntryError::IllegalMove { mv: Move::Pass }),
        (
            (Position::start_of(othello_rules::BoardSize::Six), Move::Pass, 0),
            EntryError::NotEightByEight,
        ),
    ];
    for (item, err) in cases {
        assert_eq!(book.set_leaf_values(&[good, item]), Err(err));
        assert_eq!(book, before);
    }
    if let Some(m) = propagated {
        assert_eq!(
            book.set_leaf_values(&[(pos, m.mv, 0)]),
            Err(EntryError::NotALeaf { mv: m.mv })
        );
    }
    // Values of exactly +/-64 discs are taken.
    book.set_leaf_values(&[(pos, leaf_move, -6400)]).unwrap();
}

#[test]
fn a_move_that_ends_the_game_is_not_a_leaf_to_set() {
    let pos = one_square_left();
    let mv = pos.moves()[0];
    let mut book = Book::new();
    book.insert_searched(&[(pos, vec![(mv, 0)])]).unwrap();
    assert_eq!(book.set_leaf_values(&[(pos, mv, 0)]), Err(EntryError::NotALeaf { mv }));
}

#[test]
fn deepening_sets_every_leaf_of_the_window_once_for_any_thread_count() {
    let roots: Vec<Position> = ["f5d6", "f5f6"]
        .iter()
        .map(|m| othello_rules::text::play_sequence(&Position::start(), m).unwrap())
        .collect();
    let original = small_book(6, 150, 120);
    let config = DeepenConfig {
        depth: 3,
        window: 100,
        batch: 7,
    };
    let mut books = Vec::new();
    for threads in [1, 2, 3] {
        let mut book = original.clone();
        let calls = std::sync::Mutex::new(HashMap::new());
        let mut searchers: Vec<_> = (0..threads)
            .map(|_| {
                let calls = &calls;
                move |pos: &Position, empties: u32| {
                    // The leaf's book position holds one disc fewer (a pass plays none).
                    assert_eq!(pos.empty_count() + 1, empties, "{pos}");
                    deep_value(pos, &mut calls.lock().unwrap())
                }
            })
            .collect();
        let mut saves = 0;
        let report = deepen(&mut book, &roots, &config, &mut searchers, &mut |e| {
            if let BuildEvent::Added { .. } = e {
                saves += 1;
            }
        })
        .unwrap();
        let calls = calls.into_inner().unwrap();
        // Each position searched once, and the report counts them.
        assert!(calls.values().all(|&n| n == 1));
        assert_eq!(report.searched, calls.len());
        assert!(report.searched > 10, "{report:?}");
        assert!(report.rounds >= 1);
        assert!(saves >= report.searched.div_ceil(config.batch));
        // Every leaf of the final window carries its deep value: nothing left to deepen.
        let mut check = HashMap::new();
        let mut leaves = 0;
        for l in leaf_moves(&book, &roots, &config) {
            let (target, negate) = l.target();
            let v = deep_value(&target, &mut check);
            let got = book.moves(&l.position).into_iter().find(|m| m.0 == l.mv).unwrap().1;
            assert_eq!(got, if negate { -v } else { v }, "{} {}", l.position, l.mv);
            leaves += 1;
        }
        assert!(leaves > 0);
        assert!(report.leaves >= leaves);
        // The same entries; leaves outside what was searched keep their values.
        assert_eq!(book.len(), original.len());
        let mut kept = 0;
        for (pos, entry) in original.entries() {
            for m in entry.moves.iter().filter(|m| !m.propagated) {
                let (target, _) = LeafMove {
                    position: pos,
                    mv: m.mv,
                    ply: 0,
                }
                .target();
                if m.exact || !calls.contains_key(&canonical_key(&target).0) {
                    let now = book.moves(&pos).into_iter().find(|x| x.0 == m.mv).unwrap().1;
                    assert_eq!(now, m.value);
                    kept += 1;
                }
            }
        }
        assert!(kept > 100, "{kept}");
        books.push(book);
    }
    assert!(books.windows(2).all(|w| w[0] == w[1]));
    assert_ne!(books[0], original);
    // A second call searches the same positions again and leaves the book as it is.
    let mut again = books[0].clone();
    let mut calls = HashMap::new();
    let mut one = [|pos: &Position, _: u32| deep_value(pos, &mut calls)];
    deepen(&mut again, &roots, &config, &mut one, &mut |_| {}).unwrap();
    assert_eq!(again, books[0]);
}

#[test]
fn a_leaf_whose_reply_is_a_forced_pass_is_valued_after_the_pass_for_its_own_side() {
    let mut rng = SmallRng::seed_from_u64(17);
    let (pos, mv) = loop {
        let p = play_random(&Position::start(), 40, &mut rng);
        if p.is_game_over() {
            continue;
        }
        let passing = p.moves().into_iter().find(|&m| {
            let c = p.play(m).unwrap();
            c.must_pass() && !c.is_game_over()
        });
        if let Some(m) = passing {
            break (p, m);
        }
    };
    let after = pos.play(mv).unwrap().pass_unchecked();
    assert_eq!(after.side_to_move(), pos.side_to_move());
    let leaf_move = LeafMove {
        position: pos,
        mv,
        ply: 0,
    };
    assert_eq!(leaf_move.target(), (after, false));
    let other = pos.moves().into_iter().find(|&m| m != mv);
    if let Some(m) = other.filter(|&m| !pos.play(m).unwrap().must_pass()) {
        let c = pos.play(m).unwrap();
        assert_eq!(
            LeafMove {
                position: pos,
                mv: m,
                ply: 0
            }
            .target(),
            (c, true)
        );
    }
    let mut book = Book::new();
    book.insert_searched(&[(pos, leaf(&pos))]).unwrap();
    let config = DeepenConfig {
        depth: 0,
        window: 6400,
        batch: 64,
    };
    let mut seen = Vec::new();
    let mut calls = HashMap::new();
    let mut one = [|p: &Position, empties: u32| {
        seen.push((*p, empties));
        deep_value(p, &mut calls)
    }];
    let report = deepen(&mut book, &[pos], &config, &mut one, &mut |_| {}).unwrap();
    assert!(seen.contains(&(after, pos.empty_count())), "{seen:?}");
    let want = deep_value(&after, &mut HashMap::new());
    let got = book.moves(&pos).into_iter().find(|m| m.0 == mv).unwrap().1;
    assert_eq!(got, want, "not negated: the leaf's own side moves after the pass");
    assert_eq!(report.rounds, 1);
    assert_eq!(report.searched, seen.len());
}
