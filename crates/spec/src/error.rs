//! [`SpecError`]: why a spec was refused.

/// Why a spec text, one of its keys, or the player it names was refused. The messages name
/// the spec, the key and the value, one line each.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SpecError {
    /// The name is empty or holds characters other than letters, digits, `-` and `_`.
    #[error("bad engine spec '{spec}': expected NAME[:key=value,...]")]
    BadName {
        /// The spec text (trimmed).
        spec: String,
    },
    /// A part after the `:` is not `key=value` (or its key or value is empty).
    #[error("bad engine spec '{spec}': '{pair}' is not key=value")]
    NotKeyValue {
        /// The spec text (trimmed).
        spec: String,
        /// The offending part.
        pair: String,
    },
    /// The same key twice.
    #[error("bad engine spec '{spec}': key '{key}' given twice")]
    RepeatedKey {
        /// The spec text (trimmed).
        spec: String,
        /// The key (lowercase).
        key: String,
    },
    /// A value the key does not accept.
    #[error("bad value '{value}' for key '{key}' of engine '{engine}': {why}")]
    BadValue {
        /// The engine name.
        engine: String,
        /// The key.
        key: String,
        /// The value as given.
        value: String,
        /// What was expected (`expected 1 to 64`, or the reason a value was refused).
        why: String,
    },
    /// A key the engine does not have.
    #[error("unknown key '{key}' for engine '{engine}' (known: {})", .known.join(", "))]
    UnknownKey {
        /// The engine name.
        engine: String,
        /// The key.
        key: String,
        /// The keys the engine has.
        known: Vec<String>,
    },
    /// A name that is no engine.
    #[error("unknown engine '{name}' (known: {})", crate::NAMES.join(", "))]
    UnknownEngine {
        /// The name.
        name: String,
    },
    /// MCTS given both `nodes` and `playouts` (one limit) with different values.
    #[error("keys 'nodes' ({nodes}) and 'playouts' ({playouts}) of engine 'mcts' disagree: they are one limit")]
    LimitsDisagree {
        /// The `nodes` value.
        nodes: u64,
        /// The `playouts` value.
        playouts: u64,
    },
    /// `weights=PATH` without the pattern evaluation.
    #[error("key 'weights' ({path}) of engine '{engine}' needs eval=pattern")]
    WeightsNeedPattern {
        /// The engine name.
        engine: String,
        /// The weights path.
        path: String,
    },
    /// `book_margin` or `book_seed` without `book`.
    #[error("key '{key}' of engine '{engine}' needs book=FILE")]
    BookKeyWithoutBook {
        /// The engine name.
        engine: String,
        /// The key.
        key: String,
    },
    /// A book file that does not load.
    #[error("book {path} of engine '{engine}': {source}")]
    Book {
        /// The engine name.
        engine: String,
        /// The file as given.
        path: String,
        /// Why it was refused.
        source: othello_book::BookError,
    },
    /// A board size the evaluation does not cover (the pattern tables are 8x8 only).
    #[error(transparent)]
    UnsupportedSize(#[from] othello_pattern::UnsupportedSize),
}

impl SpecError {
    /// A [`SpecError::BadValue`].
    pub(crate) fn bad_value(engine: &str, key: &str, value: impl ToString, why: impl Into<String>) -> SpecError {
        SpecError::BadValue {
            engine: engine.to_string(),
            key: key.to_string(),
            value: value.to_string(),
            why: why.into(),
        }
    }
}
