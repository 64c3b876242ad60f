//! `cardtable-engine`: exact, fast rules engines for the games of `cardtable`, with the shared
//! deterministic RNG, built-in bots and batch simulation. Pure Rust; the Python bindings live in a
//! separate crate and only convert types and errors.
// `unsafe` is denied everywhere but in `cpu`, which calls the CPU's bit instructions.
#![deny(unsafe_code)]
#![warn(missing_docs)]

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
