//! The engine's error type. The Python bindings map each variant to the class of the same name in
//! `cardtable.errors`.

use std::fmt;

/// Every way a request to the engine can be refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// The action or chance outcome is not legal in the current state; the state is unchanged.
    IllegalAction(String),
    /// A game id, player count, option name or option value is not accepted.
    InvalidOption(String),
    /// A serialized state is malformed or inconsistent.
    InvalidState(String),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::IllegalAction(m) | Self::InvalidOption(m) | Self::InvalidState(m) => {
                f.write_str(m)
            }
        }
    }
}

impl std::error::Error for EngineError {}

/// Shorthand for results of engine calls.
pub type Result<T> = std::result::Result<T, EngineError>;
