#![no_main]
//! Fuzz target `nboard`: see `othello_fuzz::nboard`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| othello_fuzz::nboard(data));
