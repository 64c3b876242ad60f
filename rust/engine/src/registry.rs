//! The registry of games: ids, option specs, bots, and construction from a game id and options.
//!
//! It owns the lookup by id and the player-count check; the list of games itself is written once,
//! in [`mod@crate::games`]. It must not know anything about any particular game.

use crate::error::{EngineError, Result};
use crate::game::Game;
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
    /// The search bots ([`crate::search::SEARCH_BOTS`]) if the game has a determinizer (probed
    /// with its default options and fewest players), else empty.
    pub search_bots: Vec<&'static str>,
    /// How each bot of `bots` and then of `search_bots` is written in a bot spec, parameters
    /// included (`"greedy[:N]"`, see [`Game::bot_usages`]).
    pub usages: Vec<&'static str>,
    /// Whether a higher final score is better ([`Game::higher_score_is_better`], probed like
    /// `search_bots`, with its default options and fewest players; `true` were that game not to
    /// build): `false` for a game scored in penalties.
    pub higher_score_is_better: bool,
}

fn info<G: Game>() -> GameInfo {
    let mut bots = vec!["random"];
    bots.extend_from_slice(G::bot_names());
    let probe = G::from_options(G::PLAYERS.0, &Map::new()).ok();
    let searchable = probe.as_ref().is_some_and(crate::search::has_determinizer);
    let mut usages = vec!["random"];
    usages.extend_from_slice(G::bot_usages());
    let search_bots = if searchable {
        usages.extend_from_slice(crate::search::SEARCH_BOT_USAGES);
        crate::search::SEARCH_BOTS.to_vec()
    } else {
        Vec::new()
    };
    GameInfo {
        id: G::ID,
        players: G::PLAYERS,
        options: G::option_specs(),
        bots,
        search_bots,
        usages,
        higher_score_is_better: probe.as_ref().is_none_or(Game::higher_score_is_better),
    }
}

fn build<G: Game>(players: i64, options: &Map<String, Value>) -> Result<Box<dyn AnyGame>> {
    let (lo, hi) = G::PLAYERS;
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

/// Defines [`games`] and [`make`] from the list of games in [`crate::games`].
macro_rules! registry {
    ($($module:ident :: $game:ident),*) => {
        /// Every registered game, in registration order.
        pub fn games() -> Vec<GameInfo> {
            vec![$(info::<crate::games::$module::$game>()),*]
        }

        /// Builds game `id` for `players` players with `options`.
        pub fn make(
            id: &str,
            players: i64,
            options: &Map<String, Value>,
        ) -> Result<Box<dyn AnyGame>> {
            $(
                if id == <crate::games::$module::$game as Game>::ID {
                    return build::<crate::games::$module::$game>(players, options);
                }
            )*
            Err(unknown_game(&format!("'{id}'")))
        }
    };
}

/// Whether `id` is a registered game.
pub fn is_registered(id: &str) -> bool {
    games().iter().any(|g| g.id == id)
}

/// The error for an unknown game, shown as `shown` (`'chess'`, as Python writes a str), naming
/// the registered games in sorted order.
pub fn unknown_game(shown: &str) -> EngineError {
    let mut known: Vec<&str> = games().iter().map(|g| g.id).collect();
    known.sort_unstable();
    EngineError::InvalidOption(format!(
        "unknown game {shown}; registered games: {}",
        known.join(", ")
    ))
}

crate::games::for_each_game!(registry);
