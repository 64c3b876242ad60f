//! `cardtable-engine`: exact, fast rules engines for the games of `cardtable`, with the shared
//! deterministic RNG, built-in bots and batch simulation. Pure Rust; the Python bindings live in a
//! separate crate and only convert types and errors.
//!
//! # Start here
//! [`make()`] builds a game by id, player count and options (a JSON object; [`games()`] lists the
//! ids, player ranges, options and bots). A game makes sessions, one game being played each,
//! stepped through [`AnySession`]; every wrong input is an [`EngineError`], and a rejected
//! action leaves the session as it was.
//!
//! ```
//! use cardtable_engine::{make, SimConfig, TERMINAL};
//! use serde_json::{json, Map};
//!
//! let options: Map<_, _> = json!({"num_cards": 5}).as_object().cloned().unwrap_or_default();
//! let game = make("goofspiel", 2, &options)?;
//! let mut state = game.new_session(Some(7)); // seeded: its chance outcomes are drawn from 7
//! while state.current_player() != TERMINAL {
//!     // At a chance node (`CHANCE`) the legal actions are the outcomes.
//!     let first = state.legal_actions()[0];
//!     state.apply(i64::from(first), None)?;
//! }
//! assert!(state.apply(0, None).is_err()); // the game is over
//! println!("{state:?}: scores {:?}, winners {:?}", state.scores(), state.winners());
//! let copy = state.clone(); // an independent copy (`Box<dyn AnySession>` is `Clone`)
//! assert_eq!(copy.history(), state.history());
//!
//! // Many games on every core, with built-in bots: the summary per seat, exactly.
//! let config = SimConfig {
//!     games: 1000,
//!     first_game: 0,
//!     seed: 1,
//!     threads: None,
//!     bots: vec!["greedy".into(), "random".into()],
//!     keep_games: false,
//! };
//! let result = game.simulate(&config, &|_done| true)?; // return false to stop early
//! assert_eq!(result.games_played, 1000);
//! println!("seat 0 won {} games", result.seats[0].wins);
//! # Ok::<(), cardtable_engine::EngineError>(())
//! ```
//!
//! A game of your own implements [`Game`] (its rules, on a small `Copy` state) and gets
//! sessions, bots, batch runs and the vectorised environment from the generic code; the
//! [`testing`] module checks it the way the built-in games are checked.
// `unsafe` is denied everywhere but in `cpu`, which calls the CPU's bit instructions.
#![warn(missing_debug_implementations)]
#![deny(unsafe_code)]
#![warn(missing_docs)]

/// Implements `Debug` for an engine handle generic over its game `G`: the type's name, the game's
/// id and the fields named, never the game state (whose type need not be `Debug`).
macro_rules! debug_handle {
    ($handle:ident, $($field:ident),*) => {
        impl<G: $crate::game::Game> std::fmt::Debug for $handle<G> {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_struct(stringify!($handle))
                    .field("game", &G::ID)
                    $(.field(stringify!($field), &self.$field))*
                    .finish_non_exhaustive()
            }
        }
    };
}

pub mod bits;
#[allow(unsafe_code)]
mod cpu;
pub mod data;
pub mod error;
pub mod game;
pub mod games;
pub mod lockstep;
pub mod options;
pub mod registry;
pub mod rng;
pub mod search;
pub mod session;
pub mod sim;
pub mod step;
pub mod tensor;
pub mod testing;
pub mod vector;

pub use error::{EngineError, Result};
pub use game::{Bot, Game, RandomBot, SearchStats, CHANCE, TERMINAL};
pub use options::{OptionKind, OptionReader, OptionSpec, OptionValues};
pub use registry::{games, is_registered, make, unknown_game, GameInfo};
pub use rng::{derive_seed, SplitMix64};
pub use session::{AnyGame, AnySession, GameHandle, Session};
pub use sim::{SimConfig, SimResult};
pub use vector::{AnyVectorEnv, OutputSlices, RewardKind, StepOutput, VectorConfig, VectorEnv};
