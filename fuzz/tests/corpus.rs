//! The smoke pass: every fuzz body over its committed corpus (`corpus/TARGET/`), as an ordinary
//! test on stable Rust (`cargo test --no-default-features` in `fuzz/`), so CI replays what the
//! fuzzer found interesting without installing cargo-fuzz.

use std::path::Path;

fn replay(target: &str, body: fn(&[u8])) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus").join(target);
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        body(&std::fs::read(&path).unwrap());
        n += 1;
    }
    assert!(n > 0, "empty corpus for {target}");
}

#[test]
fn board() {
    replay("board", othello_fuzz::board);
}

#[test]
fn obf() {
    replay("obf", othello_fuzz::obf);
}

#[test]
fn moves() {
    replay("moves", othello_fuzz::moves);
}

#[test]
fn spec() {
    replay("spec", othello_fuzz::spec);
}

#[test]
fn eval() {
    replay("eval", othello_fuzz::eval);
}

#[test]
fn ggf() {
    replay("ggf", othello_fuzz::ggf);
}

#[test]
fn nboard() {
    replay("nboard", othello_fuzz::nboard);
}

#[test]
fn weights() {
    replay("weights", othello_fuzz::weights);
}

/// The hand-made seeds of the weights corpus are valid files as they stand (their checksums
/// written by an independent encoder), not only once the fuzz body recomputes the checksum:
/// version 2 with two sections (one of a tag this build does not use), and version 1 of set 2.
#[test]
fn weights_seeds_are_valid_files() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/weights");
    let read = |name: &str| std::fs::read(dir.join(name)).unwrap();
    let v2 = othello_pattern::Weights::from_bytes(&read("seed-v2-1-phase-two-sections")).unwrap();
    assert_eq!(v2.section(*b"XTRA"), Some(&[1u8, 2, 3, 4, 5, 6, 7, 8][..]));
    assert_eq!(v2.section(*b"ZZZZ"), Some(&b"abc"[..]));
    let v1 = othello_pattern::Weights::from_bytes(&read("seed-v1-set-2-1-phase")).unwrap();
    assert_eq!(v1, othello_pattern::Weights::zero(1, 100).unwrap());
    assert_eq!(v2.values(), v1.values());
}

#[test]
fn jsonl() {
    replay("jsonl", othello_fuzz::jsonl);
}

#[test]
fn book() {
    replay("book", othello_fuzz::book);
}

#[test]
fn cuts() {
    replay("cuts", othello_fuzz::cuts);
}

/// The book corpus holds valid books as they stand (built by `othello book build`), so the
/// body's checks on accepted books run on them.
#[test]
fn the_book_seeds_are_valid_books() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus").join("book");
    let mut entries = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let bytes = std::fs::read(entry.unwrap().path()).unwrap();
        entries += othello_book::Book::from_bytes(&bytes).expect("a valid book").len();
    }
    assert!(entries > 5);
}
