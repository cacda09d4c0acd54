//! The command reference (docs/cli.md) cannot drift from the code: every subcommand, every long
//! flag of every subcommand, every alias (clap's and the engine names') and every engine spec
//! key must appear in it. A new flag or key without its line in docs/cli.md fails here.

use clap::CommandFactory;
use othello_cli::cli::Cli;
use specs::{BOOK_KEYS, Engine, MCTS_KEYS, NAMES, RANDOM_KEYS, SEARCH_KEYS, Spec};

/// Where the engine names, the spec keys and the spec parser live: the one place to change when
/// they move to another crate.
mod specs {
    pub use othello_spec::{BOOK_KEYS, Engine, MCTS_KEYS, NAMES, RANDOM_KEYS, SEARCH_KEYS, Spec};
}

/// The engine names and the spec keys of each kind of engine the command accepts.
fn spec_lists() -> (&'static [&'static str], Vec<(&'static str, &'static [&'static str])>) {
    (
        NAMES,
        vec![
            ("search", SEARCH_KEYS),
            ("mcts", MCTS_KEYS),
            ("random", RANDOM_KEYS),
            ("book", BOOK_KEYS),
        ],
    )
}

fn cli_md() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/cli.md");
    std::fs::read_to_string(path).expect("read docs/cli.md")
}

/// Whether `doc` holds `word` as a whole token: not inside a longer name (so `--hash` is not
/// found in `--hashes`, nor `c` in `cache`).
fn has_token(doc: &str, word: &str) -> bool {
    let is_name = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    doc.match_indices(word).any(|(at, _)| {
        let before = doc[..at].chars().next_back();
        let after = doc[at + word.len()..].chars().next();
        // A flag's own leading dashes are part of `word`; before it may come a space, a
        // backtick or a slash, never another name character.
        !before.is_some_and(is_name) && !after.is_some_and(is_name)
    })
}

/// Whether `doc` holds `word` as code: in backticks (`` `depth` ``) or as the key of a
/// `key=value` in code (`` `weights=PATH` ``, `` `ext:name=NAME` ``).
fn has_code(doc: &str, word: &str) -> bool {
    doc.contains(&format!("`{word}`"))
        || doc.contains(&format!("`{word}="))
        || doc.contains(&format!("`{word} "))
        || doc.contains(&format!(",{word}="))
        || doc.contains(&format!(":{word}="))
}

#[test]
fn every_subcommand_flag_and_alias_is_in_cli_md() {
    let doc = cli_md();
    let cli = Cli::command();
    let mut missing = Vec::new();
    for long in cli.get_arguments().filter_map(|a| a.get_long()) {
        if !has_token(&doc, &format!("--{long}")) {
            missing.push(format!("othello --{long}"));
        }
    }
    let mut subcommands = 0;
    // The subcommands, and theirs (`book build`), each with its name as written in the doc.
    let mut all: Vec<(String, &clap::Command)> = Vec::new();
    for sub in cli.get_subcommands() {
        subcommands += 1;
        all.push((sub.get_name().to_string(), sub));
        for nested in sub.get_subcommands() {
            all.push((format!("{} {}", sub.get_name(), nested.get_name()), nested));
        }
    }
    for (name, sub) in all {
        let name = name.as_str();
        if !doc.contains(&format!("`{name} ")) && !doc.contains(&format!("`{name}`")) {
            missing.push(format!("the subcommand `{name}`"));
        }
        for alias in sub.get_all_aliases() {
            if !has_code(&doc, alias) {
                missing.push(format!("the alias `{alias}` of `{name}`"));
            }
        }
        for arg in sub.get_arguments() {
            let Some(long) = arg.get_long() else { continue };
            if long == "help" || long == "version" {
                continue;
            }
            if !has_token(&doc, &format!("--{long}")) {
                missing.push(format!("`{name} --{long}`"));
            }
            for alias in arg.get_all_aliases().into_iter().flatten() {
                if !has_token(&doc, &format!("--{alias}")) {
                    missing.push(format!("`{name} --{alias}` (alias of --{long})"));
                }
            }
        }
    }
    assert_eq!(
        subcommands, 9,
        "the subcommands counted: update this test with docs/cli.md"
    );
    assert!(missing.is_empty(), "docs/cli.md lacks:\n  {}", missing.join("\n  "));
}

/// Every name the engine builder accepts: the listed names, and any other name (an alias such
/// as `ab`) among the short strings and the prefixes of the listed names.
fn accepted_engine_names(names: &[&str]) -> Vec<String> {
    let letters: Vec<char> = ('a'..='z').collect();
    let mut candidates: Vec<String> = Vec::new();
    for &a in &letters {
        candidates.push(a.to_string());
        for &b in &letters {
            candidates.push(format!("{a}{b}"));
            for &c in &letters {
                candidates.push(format!("{a}{b}{c}"));
            }
        }
    }
    for name in names {
        for end in 1..=name.len() {
            candidates.push(name[..end].to_string());
        }
    }
    candidates.sort();
    candidates.dedup();
    candidates
        .into_iter()
        .filter(|name| {
            // A depth keeps the search engines' construction cheap; `mcts` and `random`
            // refuse the key, so they are tried bare as well.
            [format!("{name}:depth=1,tt=1"), name.clone()].iter().any(|text| {
                text.parse::<Spec>()
                    .ok()
                    .is_some_and(|spec| Engine::from_spec(spec).is_ok())
            })
        })
        .collect()
}

#[test]
fn every_engine_name_alias_and_spec_key_is_in_cli_md() {
    let doc = cli_md();
    let (names, keys) = spec_lists();
    let mut missing = Vec::new();
    let accepted = accepted_engine_names(names);
    for name in names {
        assert!(
            accepted.iter().any(|a| a == name),
            "the engine name {name} is listed but not accepted"
        );
    }
    for name in &accepted {
        if !has_code(&doc, name) {
            missing.push(format!("the engine name `{name}`"));
        }
    }
    for (engine, keys) in keys {
        for key in keys {
            if !has_code(&doc, key) {
                missing.push(format!("the {engine} spec key `{key}`"));
            }
        }
    }
    assert!(missing.is_empty(), "docs/cli.md lacks:\n  {}", missing.join("\n  "));
}

#[test]
fn the_token_checks_tell_a_flag_from_a_longer_one() {
    assert!(has_token("`perft --hash MIB`", "--hash"));
    assert!(!has_token("`perft --hashes`", "--hash"));
    assert!(!has_token("`perft --no-hash`", "--hash"));
    assert!(has_code("keys `depth`, `c`", "c"));
    assert!(!has_code("the cache", "c"));
    assert!(has_code("`weights=PATH`", "weights"));
}
