#![no_main]
//! Fuzz target `board`: see `othello_fuzz::board`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| othello_fuzz::board(data));
