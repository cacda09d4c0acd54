#![no_main]
//! Fuzz target `moves`: see `othello_fuzz::moves`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| othello_fuzz::moves(data));
