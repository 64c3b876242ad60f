//! Property tests of the engine's two JSON entry points, `make` (options) and
//! `session_from_json` (state dicts): any input is either accepted or refused with an
//! [`EngineError`], never a panic, and what is accepted is exactly what was given.
//!
//! `PROPTEST_CASES` sets the budget (256 cases a property by default).

use cardtable_engine::{games, make, EngineError, SplitMix64};
use proptest::prelude::*;
use serde_json::{json, Map, Value};

/// Any JSON value, with the numbers the input rules care about (limits of i64 and u64, floats).
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-5i64..60).prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        prop_oneof![Just(u64::MAX), Just(1u64 << 63)].prop_map(Value::from),
        any::<f64>()
            .prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        "[a-z_]{0,8}".prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("[a-z_]{0,8}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Every path to a value inside `v`.
fn paths(v: &Value, prefix: &mut Vec<Value>, out: &mut Vec<Vec<Value>>) {
    out.push(prefix.clone());
    match v {
        Value::Object(m) => {
            for (k, child) in m {
                prefix.push(json!(k));
                paths(child, prefix, out);
                prefix.pop();
            }
        }
        Value::Array(a) => {
            for (i, child) in a.iter().enumerate() {
                prefix.push(json!(i));
                paths(child, prefix, out);
                prefix.pop();
            }
        }
        _ => {}
    }
}

/// `v` with the value at `path` replaced by `new`.
fn replace(v: &mut Value, path: &[Value], new: Value) {
    match path.split_first() {
        None => *v = new,
        Some((head, rest)) => {
            let child = match (v, head) {
                (Value::Object(m), Value::String(k)) => m.get_mut(k),
                (Value::Array(a), Value::Number(i)) => {
                    i.as_u64().and_then(|i| a.get_mut(i as usize))
                }
                _ => None,
            };
            if let Some(c) = child {
                replace(c, rest, new);
            }
        }
    }
}

/// A game of `id` with its smallest player count and default options.
fn default_game(id: &str) -> Box<dyn cardtable_engine::AnyGame> {
    let info = games()
        .into_iter()
        .find(|g| g.id == id)
        .expect("registered");
    make(id, info.players.0 as i64, &Map::new()).expect("default options are valid")
}

/// A seeded state of `game` after `steps` random steps, as its canonical dict.
fn walked(game: &dyn cardtable_engine::AnyGame, seed: u64, steps: usize) -> Value {
    let mut session = game.new_session(Some(seed));
    let mut rng = SplitMix64::new(seed);
    for _ in 0..steps {
        let legal = session.legal_actions();
        if legal.is_empty() {
            break;
        }
        let a = legal[rng.below(legal.len() as u64) as usize];
        session.apply(i64::from(a), None).expect("a legal action");
    }
    session.to_json()
}

fn game_ids() -> impl Strategy<Value = &'static str> {
    prop::sample::select(games().into_iter().map(|g| g.id).collect::<Vec<_>>())
}

proptest! {
    #[test]
    fn mutated_state_dicts_are_accepted_exactly_or_refused(
        id in game_ids(),
        seed in any::<u64>(),
        steps in 0usize..40,
        pick in any::<prop::sample::Index>(),
        value in json_value(),
    ) {
        let game = default_game(id);
        let good = walked(&*game, seed, steps);
        let mut all = Vec::new();
        paths(&good, &mut Vec::new(), &mut all);
        let path = pick.get(&all).clone();
        let mut mutated = good.clone();
        replace(&mut mutated, &path, value);
        match game.session_from_json(&mutated) {
            Ok(session) => prop_assert_eq!(session.to_json(), mutated),
            Err(EngineError::InvalidState(_)) => {}
            Err(other) => prop_assert!(false, "unexpected error class: {other:?}"),
        }
    }

    #[test]
    fn random_options_are_accepted_consistently_or_refused(
        id in game_ids(),
        players in -2i64..8,
        names in prop::collection::vec(any::<prop::sample::Index>(), 0..4),
        junk_name in "[a-z_]{1,8}",
        use_junk in any::<bool>(),
        values in prop::collection::vec(json_value(), 4),
    ) {
        let info = games().into_iter().find(|g| g.id == id).expect("registered");
        let mut options = Map::new();
        for (ix, value) in names.iter().zip(values.iter()) {
            if !info.options.is_empty() {
                let spec = ix.get(&info.options);
                options.insert(spec.name.to_string(), value.clone());
            }
        }
        if use_junk {
            options.insert(junk_name, values[3].clone());
        }
        match make(id, players, &options) {
            Ok(game) => {
                // What was accepted reads back as the effective options, which are accepted again
                // and mean the same game. A null may read back resolved (Turn the Tide's
                // `rounds: null` is the number of players).
                let effective = game.options();
                for (k, v) in &options {
                    if !v.is_null() {
                        prop_assert_eq!(effective.get(k), Some(v));
                    } else {
                        prop_assert!(effective.contains_key(k));
                    }
                }
                let again = make(id, players, &effective).expect("effective options are valid");
                prop_assert_eq!(again.options(), effective);
            }
            Err(EngineError::InvalidOption(_)) => {}
            Err(other) => prop_assert!(false, "unexpected error class: {other:?}"),
        }
    }

    #[test]
    fn any_action_is_applied_or_refused_leaving_the_state_unchanged(
        id in game_ids(),
        seed in any::<u64>(),
        steps in 0usize..40,
        action in prop_oneof![any::<i64>(), -3i64..300],
        player in prop::option::of(prop_oneof![any::<i64>(), -3i64..6]),
    ) {
        let game = default_game(id);
        let state = walked(&*game, seed, steps);
        let mut session = game.session_from_json(&state).expect("a canonical dict");
        match session.apply(action, player) {
            Ok(()) => {
                // The action is recorded next in the history (chance may follow it when seeded).
                let before = state["history"].as_array().map_or(0, Vec::len);
                let after = session.history();
                prop_assert!(after.len() > before);
                prop_assert_eq!(i64::from(after[before]), action);
            }
            Err(EngineError::IllegalAction(_)) => prop_assert_eq!(session.to_json(), state),
            Err(other) => prop_assert!(false, "unexpected error class: {other:?}"),
        }
    }
}
