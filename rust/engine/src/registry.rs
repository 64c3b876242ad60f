//! The registry of games: ids, option specs, and construction from options.

use crate::error::{EngineError, Result};
use crate::game::Game;
use crate::games::deep_regrets::DeepRegrets;
use crate::games::goofspiel::Goofspiel;
use crate::games::trafficars::Trafficars;
use crate::games::trafficars_memory::TrafficarsMemory;
use crate::games::trafficars_overtaking::TrafficarsOvertaking;
use crate::games::turn_the_tide::TurnTheTide;
use crate::options::OptionSpec;
use crate::session::{AnyGame, GameHandle};
use serde_json::{Map, Value};
use std::sync::Arc;

/// What `cardtable.games()` lists about one game.
#[derive(Clone, Debug)]
pub struct GameInfo {
    /// The game id.
    pub id: &'static str,
    /// Smallest and largest player count.
    pub players: (usize, usize),
    /// The options besides `players`.
    pub options: Vec<OptionSpec>,
    /// Built-in bots, `random` first.
    pub bots: Vec<&'static str>,
}

fn info<G: Game>() -> GameInfo {
    let mut bots = vec!["random"];
    bots.extend_from_slice(G::bot_names());
    GameInfo {
        id: G::ID,
        players: G::player_range(),
        options: G::option_specs(),
        bots,
    }
}

fn build<G: Game>(players: i64, options: &Map<String, Value>) -> Result<Box<dyn AnyGame>> {
    let (lo, hi) = G::player_range();
    let n = usize::try_from(players)
        .ok()
        .filter(|n| (lo..=hi).contains(n))
        .ok_or_else(|| {
            EngineError::InvalidOption(format!(
                "{}: players must be in {lo}..={hi}, got {players}",
                G::ID
            ))
        })?;
    Ok(Box::new(GameHandle(Arc::new(G::from_options(n, options)?))))
}

/// Every registered game, in registration order.
pub fn games() -> Vec<GameInfo> {
    vec![
        info::<TurnTheTide>(),
        info::<Trafficars>(),
        info::<TrafficarsMemory>(),
        info::<TrafficarsOvertaking>(),
        info::<Goofspiel>(),
        info::<DeepRegrets>(),
    ]
}

/// Builds game `id` for `players` players with `options`.
pub fn make(id: &str, players: i64, options: &Map<String, Value>) -> Result<Box<dyn AnyGame>> {
    match id {
        TurnTheTide::ID => build::<TurnTheTide>(players, options),
        Trafficars::ID => build::<Trafficars>(players, options),
        TrafficarsMemory::ID => build::<TrafficarsMemory>(players, options),
        TrafficarsOvertaking::ID => build::<TrafficarsOvertaking>(players, options),
        Goofspiel::ID => build::<Goofspiel>(players, options),
        DeepRegrets::ID => build::<DeepRegrets>(players, options),
        _ => Err(EngineError::InvalidOption(format!(
            "unknown game {id:?}; registered games: {}",
            games().iter().map(|g| g.id).collect::<Vec<_>>().join(", ")
        ))),
    }
}
