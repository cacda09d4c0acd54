#![no_main]
//! Fuzz target `obf`: see `othello_fuzz::obf`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| othello_fuzz::obf(data));
