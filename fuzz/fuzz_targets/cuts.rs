#![no_main]
//! Fuzz target `cuts`: see `othello_fuzz::cuts`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| othello_fuzz::cuts(data));
