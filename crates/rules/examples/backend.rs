//! Move-generation back ends of this CPU: `cargo run -p othello-rules --example backend` lists
//! them; with a name (`portable`, `avx2`, `bmi2`, `avx512`) it exits 0 when the CPU supports
//! that back end, 1 when it does not and 2 for an unknown name (CI runs the tests once per
//! supported back end).
use othello_rules::movegen::{self, Backend};

fn main() {
    match std::env::args().nth(1) {
        None => {
            for b in Backend::ALL {
                let mark = if b == movegen::backend() { " (in use)" } else { "" };
                println!("{:<9}{}{mark}", b.name(), if b.supported() { "supported" } else { "-" });
            }
        }
        Some(name) => match Backend::from_name(&name) {
            Some(b) => std::process::exit(if b.supported() { 0 } else { 1 }),
            None => {
                eprintln!("error: unknown back end {name:?} (portable, avx2, bmi2, avx512)");
                std::process::exit(2);
            }
        },
    }
}
