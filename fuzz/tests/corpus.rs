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

#[test]
fn jsonl() {
    replay("jsonl", othello_fuzz::jsonl);
}
