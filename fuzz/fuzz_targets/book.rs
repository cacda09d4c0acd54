#![no_main]
//! Fuzz target `book`: see `othello_fuzz::book`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| othello_fuzz::book(data));
