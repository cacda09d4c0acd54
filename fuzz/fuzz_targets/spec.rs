#![no_main]
//! Fuzz target `spec`: see `othello_fuzz::spec`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| othello_fuzz::spec(data));
