//! Every public handle of the engine is `Debug` (the crate warns on a type that is not), and its
//! form names the game and the figures a reader needs, never the whole state.

use std::sync::Arc;

use cardtable_engine::games::goofspiel::Goofspiel;
use cardtable_engine::lockstep::Lockstep;
use cardtable_engine::search::{FlatMcBot, FlatMcParams, IsmctsBot, MctsParams};
use cardtable_engine::{
    make, Game, GameHandle, OptionReader, RewardKind, Session, SimConfig, VectorConfig, VectorEnv,
};
use serde_json::Map;

fn goofspiel() -> Arc<Goofspiel> {
    Arc::new(Goofspiel::from_options(2, &Map::new()).expect("default options"))
}

#[test]
fn sessions_and_handles_name_their_game() {
    let game = goofspiel();
    let mut session = Session::new(Arc::clone(&game), Some(7));
    let mut legal = Vec::new();
    game.legal_actions(session.state(), &mut legal);
    let first = legal[0];
    session
        .apply(i64::from(first), None)
        .expect("a legal action");
    let text = format!("{session:?}");
    assert!(text.starts_with("Session {"), "{text}");
    assert!(text.contains("game: \"goofspiel\""), "{text}");
    // The seeded chance node before the move is in the history too.
    assert!(text.contains(&format!(", {first}]")), "{text}");
    assert!(text.contains("rng: Some("), "{text}");

    let handle = format!("{:?}", GameHandle(Arc::clone(&game)));
    assert_eq!(handle, "GameHandle { id: \"goofspiel\", players: 2, .. }");
    let boxed = make("goofspiel", 2, &Map::new()).expect("a registered game");
    assert!(format!("{boxed:?}").contains("goofspiel"));
}

#[test]
fn batch_handles_show_their_configuration() {
    let game = goofspiel();
    let config = VectorConfig {
        num_envs: 3,
        seed: 1,
        agent_seats: vec![0],
        opponents: vec!["random".into()],
        reward: RewardKind::Win,
        threads: None,
        rotate_seats: false,
        keep_histories: false,
    };
    let env = VectorEnv::new(Arc::clone(&game), config).expect("a valid configuration");
    let text = format!("{env:?}");
    assert!(text.contains("game: \"goofspiel\""), "{text}");
    assert!(text.contains("num_envs: 3"), "{text}");
    assert!(text.contains("pool: None"), "{text}"); // under 32 envs: no pool

    let sim = SimConfig {
        threads: Some(1),
        keep_games: false,
        ..SimConfig::new(5, 1, vec!["random".into(), "random".into()])
    };
    let lockstep = Lockstep::new(game, sim, vec![None, Some("random".into())], 2)
        .expect("a valid configuration");
    let text = format!("{lockstep:?}");
    assert!(text.contains("game: \"goofspiel\""), "{text}");
    assert!(text.contains("games: 5"), "{text}");
}

#[test]
fn search_bots_and_the_option_reader_show_their_parameters() {
    let game = goofspiel();
    let flat = FlatMcBot::new(&*game, FlatMcParams::default()).expect("goofspiel determinizes");
    let text = format!("{flat:?}");
    assert!(
        text.contains("FlatMcBot") && text.contains("samples"),
        "{text}"
    );
    let mcts = IsmctsBot::new(&*game, MctsParams::default()).expect("goofspiel determinizes");
    let text = format!("{mcts:?}");
    assert!(
        text.contains("IsmctsBot") && text.contains("iterations"),
        "{text}"
    );

    let given = Map::new();
    let reader = OptionReader::new("goofspiel", Goofspiel::option_specs(), &given);
    assert!(format!("{reader:?}").contains("num_cards"));
}
