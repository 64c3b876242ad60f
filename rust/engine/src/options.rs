//! Parsing and validating game options given as JSON values.

use crate::error::{EngineError, Result};
use serde_json::{Map, Value};

/// The JSON type an option accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// `true` or `false`.
    Bool,
    /// An integer.
    Int,
    /// An integer or `null`.
    OptionalInt,
    /// One of a fixed set of strings.
    Choice(&'static [&'static str]),
}

impl OptionKind {
    /// A short name of the type, as shown by `cardtable.games()`.
    pub fn name(&self) -> &'static str {
        match self {
            Self::Bool => "bool",
            Self::Int => "int",
            Self::OptionalInt => "int | None",
            Self::Choice(_) => "str",
        }
    }
}

/// One documented option of a game.
#[derive(Clone, Debug)]
pub struct OptionSpec {
    /// The keyword name.
    pub name: &'static str,
    /// The accepted type.
    pub kind: OptionKind,
    /// The default, as JSON (`null` where the default depends on other options).
    pub default: Value,
    /// One line saying what it does.
    pub doc: &'static str,
}

/// Options given by the caller, consumed one by one by a game's constructor; anything left over at
/// the end is an unknown option.
pub struct OptionReader<'a> {
    game: &'static str,
    given: &'a Map<String, Value>,
    used: Vec<&'static str>,
}

impl<'a> OptionReader<'a> {
    /// Wraps the given options of game `game`.
    pub fn new(game: &'static str, given: &'a Map<String, Value>) -> Self {
        Self {
            game,
            given,
            used: Vec::new(),
        }
    }

    fn bad(&self, name: &str, expected: &str, v: &Value) -> EngineError {
        EngineError::InvalidOption(format!(
            "{}: option {name} must be {expected}, got {v}",
            self.game
        ))
    }

    fn get(&mut self, name: &'static str) -> Option<&'a Value> {
        self.used.push(name);
        self.given.get(name)
    }

    /// A boolean option.
    pub fn bool(&mut self, name: &'static str, default: bool) -> Result<bool> {
        match self.get(name) {
            None => Ok(default),
            Some(Value::Bool(b)) => Ok(*b),
            Some(v) => Err(self.bad(name, "a bool", v)),
        }
    }

    /// An integer option in `min..=max`.
    pub fn int(&mut self, name: &'static str, default: i64, min: i64, max: i64) -> Result<i64> {
        match self.get(name) {
            None => Ok(default),
            Some(v) => self.int_value(name, v, min, max),
        }
    }

    fn int_value(&self, name: &'static str, v: &Value, min: i64, max: i64) -> Result<i64> {
        match v.as_i64() {
            Some(i) if v.is_i64() || v.is_u64() => {
                if (min..=max).contains(&i) {
                    Ok(i)
                } else {
                    Err(self.bad(name, &format!("an int in {min}..={max}"), v))
                }
            }
            _ => Err(self.bad(name, &format!("an int in {min}..={max}"), v)),
        }
    }

    /// An integer option in `min..=max` that may also be `null` (`None`).
    pub fn optional_int(
        &mut self,
        name: &'static str,
        default: Option<i64>,
        min: i64,
        max: i64,
    ) -> Result<Option<i64>> {
        match self.get(name) {
            None => Ok(default),
            Some(Value::Null) => Ok(None),
            Some(v) => self.int_value(name, v, min, max).map(Some),
        }
    }

    /// A string option that must be one of `choices`; returns its index in `choices`.
    pub fn choice(
        &mut self,
        name: &'static str,
        default: usize,
        choices: &'static [&'static str],
    ) -> Result<usize> {
        match self.get(name) {
            None => Ok(default),
            Some(v) => match v
                .as_str()
                .and_then(|s| choices.iter().position(|c| *c == s))
            {
                Some(i) => Ok(i),
                None => Err(self.bad(name, &format!("one of {choices:?}"), v)),
            },
        }
    }

    /// Fails on any option that was given but never read.
    pub fn finish(self) -> Result<()> {
        let mut unknown: Vec<&String> = self
            .given
            .keys()
            .filter(|k| !self.used.contains(&k.as_str()))
            .collect();
        unknown.sort();
        match unknown.first() {
            None => Ok(()),
            Some(k) => Err(EngineError::InvalidOption(format!(
                "{}: unknown option {k:?} (known: {})",
                self.game,
                self.used.join(", ")
            ))),
        }
    }
}
