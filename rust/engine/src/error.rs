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
    /// A request whose buffers are too large to hold in memory (or to count in a machine word);
    /// nothing was allocated.
    TooLarge(String),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::IllegalAction(m)
            | Self::InvalidOption(m)
            | Self::InvalidState(m)
            | Self::TooLarge(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for EngineError {}

impl EngineError {
    /// The same error with `prefix` before its message (e.g. which item of a batch it is about).
    pub fn prefixed(self, prefix: &str) -> Self {
        match self {
            Self::IllegalAction(m) => Self::IllegalAction(format!("{prefix}{m}")),
            Self::InvalidOption(m) => Self::InvalidOption(format!("{prefix}{m}")),
            Self::InvalidState(m) => Self::InvalidState(format!("{prefix}{m}")),
            Self::TooLarge(m) => Self::TooLarge(format!("{prefix}{m}")),
        }
    }
}

/// The indices `0..n` written as error messages write every integer range, inclusive:
/// `0..={n - 1}` (`action 9 is out of range 0..=8`), as in `players must be in 2..=4`; with no
/// index at all (`n` = 0), `none`.
pub fn indices(n: u64) -> String {
    match n.checked_sub(1) {
        Some(last) => format!("0..={last}"),
        None => "none".to_string(),
    }
}

/// Shorthand for results of engine calls.
pub type Result<T> = std::result::Result<T, EngineError>;

/// The product of `factors`, or [`EngineError::TooLarge`] naming `what` if it overflows `usize`.
pub fn checked_len(factors: &[usize], what: &str, hint: &str) -> Result<usize> {
    factors
        .iter()
        .try_fold(1usize, |acc, &f| acc.checked_mul(f))
        .ok_or_else(|| too_large(what, hint))
}

fn too_large(what: &str, hint: &str) -> EngineError {
    let sep = if hint.is_empty() { "" } else { "; " };
    EngineError::TooLarge(format!("{what} would not fit in memory{sep}{hint}"))
}

/// A vector of `len` copies of `value`, allocated fallibly: [`EngineError::TooLarge`] (naming
/// `what`, followed by `hint`) instead of an abort when the memory cannot be had.
///
/// The room is first reserved (and released) to learn whether it can be had; the vector itself
/// is then made by `vec!`, which for a zero of a primitive type asks the system for zeroed memory
/// instead of writing the zeros: the system hands the pages out as they are first written, so a
/// large per-game array costs no time (and no memory) before the games fill it, and a run of
/// 10⁹ games starts at once (and answers Ctrl-C at once) instead of first writing 16 GB.
pub fn try_filled<T: Clone>(len: usize, value: T, what: &str, hint: &str) -> Result<Vec<T>> {
    Vec::<T>::new()
        .try_reserve_exact(len)
        .map_err(|_| too_large(what, hint))?;
    Ok(vec![value; len])
}

/// An empty vector with room for `len` items, allocated fallibly (see [`try_filled`]).
pub fn try_with_capacity<T>(len: usize, what: &str, hint: &str) -> Result<Vec<T>> {
    let mut v = Vec::new();
    v.try_reserve_exact(len)
        .map_err(|_| too_large(what, hint))?;
    Ok(v)
}

/// The memory the system says is available (`MemAvailable` of `/proc/meminfo`), in bytes, where
/// the system tells it.
fn available_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// Requests below this many bytes are never checked against the available memory (which costs a
/// read of `/proc/meminfo`, too much for every step of a small vector env).
const SMALL_REQUEST: usize = 64 << 20;

/// Fails with [`EngineError::TooLarge`] if `bytes` (`None`: more than a machine word counts)
/// exceed the memory available, so that a request that could only end in the process being killed
/// for lack of memory is refused before anything is allocated.
pub fn ensure_fits(bytes: Option<usize>, what: &str, hint: &str) -> Result<()> {
    let Some(bytes) = bytes else {
        return Err(too_large(what, hint));
    };
    if bytes < SMALL_REQUEST {
        return Ok(());
    }
    match available_memory() {
        Some(avail) if bytes as u64 > avail => Err(too_large(what, hint)),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overflowing_and_impossible_sizes_are_errors() {
        assert!(matches!(
            checked_len(&[usize::MAX, 2], "x", ""),
            Err(EngineError::TooLarge(_))
        ));
        assert_eq!(checked_len(&[3, 4], "x", ""), Ok(12));
        let err = try_filled(usize::MAX / 2, 0u64, "the buffers", "use fewer").unwrap_err();
        assert_eq!(
            err,
            EngineError::TooLarge("the buffers would not fit in memory; use fewer".into())
        );
        assert!(try_with_capacity::<u64>(usize::MAX / 4, "x", "").is_err());
        assert!(ensure_fits(None, "x", "").is_err());
        assert!(ensure_fits(Some(usize::MAX), "x", "").is_err());
        assert!(ensure_fits(Some(1024), "x", "").is_ok());
    }
}
