#![no_main]
//! Fuzz target `weights`: see `othello_fuzz::weights`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| othello_fuzz::weights(data));
