#![no_main]
//! Fuzz target `ggf`: see `othello_fuzz::ggf`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| othello_fuzz::ggf(data));
