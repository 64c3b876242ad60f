//! Game options, declared once: each game lists [`OptionSpec`]s (name, type, default, bounds,
//! doc), and its constructor reads the caller's JSON through an [`OptionReader`] built from those
//! specs, so defaults and bounds are written in one place. The reader records every effective
//! value in an [`OptionValues`], which the game keeps and [`crate::Game::options`] returns.
//!
//! This module owns parsing and validation of option values; it must not know anything of any
//! game.

use crate::error::{EngineError, Result};
use serde_json::{Map, Value};

/// The JSON type an option accepts, with its bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// `true` or `false`.
    Bool,
    /// An integer in `min..=max`.
    Int {
        /// Smallest accepted value.
        min: i64,
        /// Largest accepted value.
        max: i64,
    },
    /// An integer in `min..=max`, or `null`.
    OptionalInt {
        /// Smallest accepted value.
        min: i64,
        /// Largest accepted value.
        max: i64,
    },
    /// One of a fixed set of strings.
    Choice(&'static [&'static str]),
}

impl OptionKind {
    /// A short name of the type, as shown by `cardtable.games()`.
    pub fn name(&self) -> &'static str {
        match self {
            Self::Bool => "bool",
            Self::Int { .. } => "int",
            Self::OptionalInt { .. } => "int | None",
            Self::Choice(_) => "str",
        }
    }
}

/// One documented option of a game: its only declaration.
#[derive(Clone, Debug)]
pub struct OptionSpec {
    /// The keyword name.
    pub name: &'static str,
    /// The accepted type and bounds.
    pub kind: OptionKind,
    /// The default, as JSON (`null` where the default depends on other options).
    pub default: Value,
    /// One line saying what it does.
    pub doc: &'static str,
    /// Whether an integer option is also at most the game's player count (an option counted in
    /// players, such as a number of rounds): the reader then names `min..=players` as its range.
    pub at_most_players: bool,
}

impl OptionSpec {
    /// A boolean option.
    pub fn bool(name: &'static str, default: bool, doc: &'static str) -> Self {
        Self {
            name,
            kind: OptionKind::Bool,
            default: Value::Bool(default),
            doc,
            at_most_players: false,
        }
    }

    /// An integer option in `min..=max`.
    pub fn int(name: &'static str, default: i64, min: i64, max: i64, doc: &'static str) -> Self {
        Self {
            name,
            kind: OptionKind::Int { min, max },
            default: Value::from(default),
            doc,
            at_most_players: false,
        }
    }

    /// An integer option in `min..=max` that may be `null` (the default when `default` is `None`).
    pub fn optional_int(
        name: &'static str,
        default: Option<i64>,
        min: i64,
        max: i64,
        doc: &'static str,
    ) -> Self {
        Self {
            name,
            kind: OptionKind::OptionalInt { min, max },
            default: default.map_or(Value::Null, Value::from),
            doc,
            at_most_players: false,
        }
    }

    /// [`OptionSpec::optional_int`] that is also at most the player count (`max` is the bound
    /// over every player count the game accepts).
    pub fn optional_int_up_to_players(
        name: &'static str,
        default: Option<i64>,
        min: i64,
        max: i64,
        doc: &'static str,
    ) -> Self {
        Self {
            at_most_players: true,
            ..Self::optional_int(name, default, min, max, doc)
        }
    }

    /// A string option that must be one of `choices`.
    pub fn choice(
        name: &'static str,
        default: &'static str,
        choices: &'static [&'static str],
        doc: &'static str,
    ) -> Self {
        Self {
            name,
            kind: OptionKind::Choice(choices),
            default: Value::from(default),
            doc,
            at_most_players: false,
        }
    }
}

/// The effective value of every option of one game (defaults filled in), in declaration order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OptionValues(Map<String, Value>);

impl OptionValues {
    /// Replaces the recorded value of `name`, for defaults that depend on other options (e.g. a
    /// `null` number of rounds that means "as many as players").
    pub fn set(&mut self, name: &str, value: Value) {
        self.0.insert(name.to_string(), value);
    }

    /// The values as a JSON object.
    pub fn to_map(&self) -> Map<String, Value> {
        self.0.clone()
    }
}

/// Options given by the caller, read one by one by a game's constructor against the game's specs;
/// anything left over at the end is an unknown option.
#[derive(Debug)]
pub struct OptionReader<'a> {
    game: &'static str,
    specs: Vec<OptionSpec>,
    given: &'a Map<String, Value>,
    values: OptionValues,
    /// The player count the options are read for (bounds the options counted in players).
    players: Option<usize>,
}

impl<'a> OptionReader<'a> {
    /// Wraps the options `given` to game `game`, whose declared options are `specs`.
    pub fn new(game: &'static str, specs: Vec<OptionSpec>, given: &'a Map<String, Value>) -> Self {
        Self {
            game,
            specs,
            given,
            values: OptionValues::default(),
            players: None,
        }
    }

    /// Reads the options for a game of `players` players: an option declared
    /// [`OptionSpec::at_most_players`] is then also at most `players`.
    #[must_use]
    pub fn for_players(mut self, players: usize) -> Self {
        self.players = Some(players);
        self
    }

    fn bad(&self, name: &str, expected: &str, v: &Value) -> EngineError {
        EngineError::InvalidOption(format!(
            "{}: option {name} must be {expected}, got {v}",
            self.game
        ))
    }

    /// The spec of `name` and the given (or default) value. An undeclared name is a bug of the
    /// game, reported as an error rather than a panic.
    fn lookup(&self, name: &str) -> Result<(OptionKind, &Value)> {
        let spec = self.specs.iter().find(|s| s.name == name).ok_or_else(|| {
            EngineError::InvalidOption(format!("{}: option {name} is not declared", self.game))
        })?;
        let kind = match (spec.kind, self.players) {
            (OptionKind::OptionalInt { min, max }, Some(players)) if spec.at_most_players => {
                let players = i64::try_from(players).unwrap_or(i64::MAX);
                OptionKind::OptionalInt {
                    min,
                    max: max.min(players),
                }
            }
            (kind, _) => kind,
        };
        Ok((kind, self.given.get(name).unwrap_or(&spec.default)))
    }

    fn record(&mut self, name: &str, v: Value) {
        self.values.set(name, v);
    }

    /// `v` as an int in `min..=max`; refused as "an int in min..=max" followed by `or_else`
    /// (the other values the option takes, or nothing).
    fn int_in(&self, name: &str, v: &Value, min: i64, max: i64, or_else: &str) -> Result<i64> {
        match v.as_i64() {
            Some(i) if (min..=max).contains(&i) => Ok(i),
            _ => Err(self.bad(name, &format!("an int in {min}..={max}{or_else}"), v)),
        }
    }

    /// A boolean option.
    pub fn bool(&mut self, name: &'static str) -> Result<bool> {
        let (kind, v) = self.lookup(name)?;
        match (kind, v) {
            (OptionKind::Bool, Value::Bool(b)) => {
                let b = *b;
                self.record(name, Value::Bool(b));
                Ok(b)
            }
            _ => Err(self.bad(name, "a bool", v)),
        }
    }

    /// An integer option, within its declared bounds.
    pub fn int(&mut self, name: &'static str) -> Result<i64> {
        let (kind, v) = self.lookup(name)?;
        match kind {
            OptionKind::Int { min, max } => {
                let i = self.int_in(name, v, min, max, "")?;
                self.record(name, Value::from(i));
                Ok(i)
            }
            _ => Err(self.bad(name, "an int", v)),
        }
    }

    /// An integer option that may be `null` (`None`), within its declared bounds.
    pub fn optional_int(&mut self, name: &'static str) -> Result<Option<i64>> {
        let (kind, v) = self.lookup(name)?;
        match (kind, v) {
            (OptionKind::OptionalInt { .. }, Value::Null) => {
                self.record(name, Value::Null);
                Ok(None)
            }
            (OptionKind::OptionalInt { min, max }, _) => {
                let i = self.int_in(name, v, min, max, " or null (None)")?;
                self.record(name, Value::from(i));
                Ok(Some(i))
            }
            _ => Err(self.bad(name, "an int or None", v)),
        }
    }

    /// An integer option that may be `null` (`None`), within its declared bounds and at most the
    /// player count given to [`OptionReader::for_players`].
    pub fn optional_int_up_to_players(&mut self, name: &'static str) -> Result<Option<i64>> {
        self.optional_int(name)
    }

    /// A string option that must be one of its declared choices; returns its index.
    pub fn choice(&mut self, name: &'static str) -> Result<usize> {
        let (kind, v) = self.lookup(name)?;
        match kind {
            OptionKind::Choice(choices) => {
                match v
                    .as_str()
                    .and_then(|s| choices.iter().position(|c| *c == s))
                {
                    Some(i) => {
                        self.record(name, Value::from(choices[i]));
                        Ok(i)
                    }
                    None => Err(self.bad(name, &format!("one of {choices:?}"), v)),
                }
            }
            _ => Err(self.bad(name, "a string", v)),
        }
    }

    /// Fails on any option that was given but is not declared; otherwise returns the effective
    /// values read so far.
    pub fn finish(self) -> Result<OptionValues> {
        let mut unknown: Vec<&String> = self
            .given
            .keys()
            .filter(|k| !self.specs.iter().any(|s| s.name == k.as_str()))
            .collect();
        unknown.sort();
        match unknown.first() {
            None => Ok(self.values),
            Some(k) => Err(EngineError::InvalidOption(format!(
                "{}: unknown option {k:?} (known: {})",
                self.game,
                self.specs
                    .iter()
                    .map(|s| s.name)
                    .collect::<Vec<_>>()
                    .join(", ")
            ))),
        }
    }
}

/// What a game accepts as one typed value: its player counts and its other options, read in
/// declaration order by [`crate::Game::from_options`] before it builds the game. Declared with
/// `game_options!`, which writes the specs and the reading from
/// one list.
pub trait GameOptions: Sized {
    /// The accepted player counts, inclusive.
    const PLAYERS: (usize, usize);

    /// The specs of every option besides `players`, in declaration order.
    fn specs() -> Vec<OptionSpec>;

    /// Reads every option from `r`, in declaration order.
    fn read(r: &mut OptionReader<'_>) -> Result<Self>;
}

/// Declares what a game accepts once: the player counts (`#[players(lo..=hi)]`) and a struct
/// with one field per option. The field's name is the option's name, its doc comment the
/// option's doc, and its kind one of [`OptionSpec`]'s constructors with that constructor's
/// arguments between the name and the doc (`bool(default)`, `int(default, min, max)`,
/// `optional_int(default, min, max)`, `optional_int_up_to_players(default, min, max)`,
/// `choice(default, choices)`). The field holds what [`OptionReader`] returns for that kind
/// (`bool`, `i64`, `Option<i64>`, or the index of the choice), and the struct implements
/// [`GameOptions`].
macro_rules! game_options {
    (
        $(#[doc = $struct_doc:literal])*
        #[players($lo:literal..=$hi:literal)]
        $vis:vis struct $name:ident {
            $(
                $(#[doc = $doc:literal])+
                $field:ident: $kind:ident($($arg:expr),* $(,)?)
            ),* $(,)?
        }
    ) => {
        $(#[doc = $struct_doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        $vis struct $name {
            $(
                $(#[doc = $doc])+
                $field: $crate::options::game_options!(@type $kind),
            )*
        }

        impl $crate::options::GameOptions for $name {
            const PLAYERS: (usize, usize) = ($lo, $hi);

            fn specs() -> Vec<$crate::options::OptionSpec> {
                vec![$(
                    $crate::options::OptionSpec::$kind(
                        stringify!($field),
                        $($arg,)*
                        concat!($($doc),+).trim(),
                    ),
                )*]
            }

            #[allow(unused_variables)]
            fn read(r: &mut $crate::options::OptionReader<'_>) -> $crate::error::Result<Self> {
                Ok(Self {
                    $($field: r.$kind(stringify!($field))?,)*
                })
            }
        }
    };
    (@type bool) => { bool };
    (@type int) => { i64 };
    (@type optional_int) => { Option<i64> };
    (@type optional_int_up_to_players) => { Option<i64> };
    (@type choice) => { usize };
}
pub(crate) use game_options;

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn specs() -> Vec<OptionSpec> {
        vec![
            OptionSpec::bool("b", true, "a flag"),
            OptionSpec::int("n", 3, 1, 5, "a count"),
            OptionSpec::optional_int("m", None, 1, 9, "a limit"),
            OptionSpec::choice("c", "x", &["x", "y"], "a choice"),
        ]
    }

    fn read(given: Value) -> Result<(bool, i64, Option<i64>, usize, OptionValues)> {
        let given = given.as_object().cloned().unwrap_or_default();
        let mut r = OptionReader::new("t", specs(), &given);
        let out = (
            r.bool("b")?,
            r.int("n")?,
            r.optional_int("m")?,
            r.choice("c")?,
        );
        Ok((out.0, out.1, out.2, out.3, r.finish()?))
    }

    #[test]
    fn defaults_come_from_the_specs() {
        let (b, n, m, c, values) = read(json!({})).expect("defaults are valid");
        assert_eq!((b, n, m, c), (true, 3, None, 0));
        assert_eq!(
            Value::Object(values.to_map()),
            json!({"b": true, "n": 3, "m": null, "c": "x"})
        );
    }

    #[test]
    fn bounds_types_and_unknown_names_are_rejected() {
        assert!(read(json!({"n": 6})).is_err());
        assert!(read(json!({"n": 0})).is_err());
        assert!(read(json!({"n": 2.5})).is_err());
        assert!(read(json!({"b": 1})).is_err());
        assert!(read(json!({"c": "z"})).is_err());
        assert!(read(json!({"m": 10})).is_err());
        assert!(read(json!({"zz": 1})).is_err());
        let (_, n, m, c, _) = read(json!({"n": 5, "m": 9, "c": "y"})).expect("valid");
        assert_eq!((n, m, c), (5, Some(9), 1));
    }

    #[test]
    fn an_option_counted_in_players_is_bounded_by_the_player_count() {
        let rounds = || {
            vec![OptionSpec::optional_int_up_to_players(
                "r", None, 1, 5, "rounds",
            )]
        };
        let given = json!({"r": 4}).as_object().cloned().unwrap_or_default();
        let mut any_count = OptionReader::new("t", rounds(), &given);
        assert_eq!(
            any_count.optional_int_up_to_players("r").ok(),
            Some(Some(4))
        );
        for r in [0, 4] {
            let given = json!({ "r": r }).as_object().cloned().unwrap_or_default();
            let mut three = OptionReader::new("t", rounds(), &given).for_players(3);
            let err = three
                .optional_int_up_to_players("r")
                .map(|_| ())
                .unwrap_err();
            let expected = format!("t: option r must be an int in 1..=3 or null (None), got {r}");
            assert_eq!(err.to_string(), expected);
        }
        // Other options keep their declared bounds whatever the player count.
        let given = json!({"m": 9}).as_object().cloned().unwrap_or_default();
        let mut r = OptionReader::new("t", specs(), &given).for_players(2);
        assert_eq!(r.optional_int("m").ok(), Some(Some(9)));
    }

    game_options! {
        /// The options of [`specs`], declared with the macro.
        #[players(1..=3)]
        struct Declared {
            /// a flag
            b: bool(true),
            /// a count
            n: int(3, 1, 5),
            /// a limit
            m: optional_int(None, 1, 9),
            /// a choice
            c: choice("x", &["x", "y"]),
        }
    }

    #[test]
    fn declared_options_give_the_same_specs_and_values() {
        let names = |specs: Vec<OptionSpec>| {
            specs
                .into_iter()
                .map(|s| (s.name, s.kind, s.default, s.doc))
                .collect::<Vec<_>>()
        };
        assert_eq!(names(Declared::specs()), names(specs()));
        let given = json!({"n": 5, "c": "y"})
            .as_object()
            .cloned()
            .unwrap_or_default();
        let mut r = OptionReader::new("t", Declared::specs(), &given);
        let read = Declared::read(&mut r).expect("valid");
        assert_eq!(
            read,
            Declared {
                b: true,
                n: 5,
                m: None,
                c: 1
            }
        );
        assert_eq!(
            r.finish().expect("known"),
            read_values(json!({"n": 5, "c": "y"}))
        );
    }

    fn read_values(given: Value) -> OptionValues {
        read(given).expect("valid").4
    }

    #[test]
    fn an_undeclared_read_is_an_error_not_a_panic() {
        let given = Map::new();
        let mut r = OptionReader::new("t", specs(), &given);
        assert!(r.int("nope").is_err());
    }
}
