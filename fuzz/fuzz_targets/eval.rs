#![no_main]
//! Fuzz target `eval`: see `othello_fuzz::eval`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| othello_fuzz::eval(data));
