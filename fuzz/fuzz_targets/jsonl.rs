#![no_main]
//! Fuzz target `jsonl`: see `othello_fuzz::jsonl`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| othello_fuzz::jsonl(data));
