//! The one training pipeline of the toolkit (`othello-train`): seeded self-play games, labels
//! (exact solves, the principal variations of exact solves, search values, perfect-play
//! results), least-squares fits of either evaluation (the pattern tables of `othello-pattern`
//! or the hand-feature weights of `othello_eval::WeightedEval`), and held-out errors.
//!
//! The binary's subcommands are thin wrappers over this library: `games` ([`selfplay`]),
//! `labels` ([`labelling`]), `fit --model pattern|features` ([`fit_pattern`],
//! [`fit_features`], with [`bootstrap`] and [`lstsq`]), `errors` ([`report`]), `import`,
//! `explore` ([`explore`]). The data format (one games schema, one labels schema, both JSON
//! Lines) is in [`data`]; its readers ([`jsonl`], [`data::Label::from_line`],
//! [`data::Game::from_line`]) return typed errors with line numbers.
//!
//! ```
//! use othello_train::data::{Label, Source, key, rows};
//! use othello_rules::{Position, Symmetry};
//!
//! let pos: Position = "---------------------------OX------XXX-------------------------- O".parse().unwrap();
//! let line = format!(r#"{{"position":"{pos}","empties":59,"score":-3,"source":"exact","game":7,"seed":2026}}"#);
//! let label = Label::from_line(&line).unwrap().expect("a label");
//! assert_eq!((label.source, label.centi, label.game), (Source::Exact, -300, Some(7)));
//! // Its mirror image shares its canonical key: the two are one row of a fit.
//! let twin = Label { pos: Symmetry::FlipDiagonal.apply_position(&pos), game: Some(8), ..label.clone() };
//! assert_eq!(key(&twin.pos), key(&label.pos));
//! let (rows, merged) = rows(&[label, twin], 10);
//! assert_eq!((rows.len(), merged.duplicates), (1, 1));
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod bootstrap;
pub mod data;
pub mod error;
pub mod explore;
pub mod features;
pub mod fit_features;
pub mod fit_pattern;
pub mod jsonl;
pub mod labelling;
pub mod lstsq;
pub mod report;
pub mod selfplay;

#[cfg(test)]
mod tests;

pub use error::{LineError, TrainError, TrainResult};
