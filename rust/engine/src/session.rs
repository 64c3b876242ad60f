//! A playable game session on top of any [`Game`]: legality checks with clear errors, the action
//! history, seeded chance, serialization, and the object-safe [`AnyGame`] / [`AnySession`] used by
//! the Python bindings.
//!
//! It owns checking of caller input against the rules, the history and the state dict. It must
//! not hold game rules, and batch driving belongs to [`crate::step`] and its drivers.

use crate::error::{indices, EngineError, Result};
use crate::game::{Bot, Game, SearchStats, CHANCE, TERMINAL};
use crate::lockstep::{AnyLockstep, Lockstep};
use crate::rng::SplitMix64;
use crate::sim::{self, SimConfig, SimResult};
use crate::vector::{AnyVectorEnv, VectorConfig, VectorEnv};
use serde_json::{json, Map, Value};
use std::any::Any;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// One game in progress with its history; chance nodes resolve themselves when seeded.
#[derive(Clone)]
pub struct Session<G: Game> {
    game: Arc<G>,
    state: G::State,
    history: Vec<u32>,
    rng: Option<SplitMix64>,
    /// Made by [`Session::resample`] (or played on from one): the history holds only the steps
    /// played since the sample was drawn, which do not lead to this state from the start, so its
    /// dict cannot be restored.
    sampled: bool,
}

debug_handle!(Session, history, rng, sampled);

impl<G: Game> Session<G> {
    /// A new game; with `seed`, every chance node is resolved with a SplitMix64 seeded with it.
    pub fn new(game: Arc<G>, seed: Option<u64>) -> Self {
        let state = game.initial_state();
        let mut session = Self {
            game,
            state,
            history: Vec::new(),
            rng: seed.map(SplitMix64::new),
            sampled: false,
        };
        session.resolve_chance();
        session
    }

    /// A session at `state`, which `history` leads to from the initial state, seeded with `rng`
    /// (if any) for the chance nodes to come.
    pub(crate) fn from_parts(
        game: Arc<G>,
        state: G::State,
        history: Vec<u32>,
        rng: Option<SplitMix64>,
    ) -> Self {
        Self {
            game,
            state,
            history,
            rng,
            sampled: false,
        }
    }

    /// The rules state.
    pub fn state(&self) -> &G::State {
        &self.state
    }

    fn resolve_chance(&mut self) {
        if let Some(rng) = self.rng.as_mut() {
            let mut buf = Vec::new();
            while self.game.current_player(&self.state) == CHANCE {
                let outcome = self.game.sample_chance(&self.state, rng, &mut buf);
                self.game.apply(&mut self.state, outcome);
                self.history.push(outcome);
            }
        }
    }

    fn check_action(&self, action: i64) -> Result<u32> {
        let n = self.game.num_actions();
        u32::try_from(action)
            .ok()
            .filter(|a| *a < n)
            .ok_or_else(|| {
                EngineError::IllegalAction(format!(
                    "action {action} is out of range {}",
                    indices(u64::from(n))
                ))
            })
    }

    /// Applies an action or chance outcome after checking that it is legal (and, when `player` is
    /// given, that it is that seat's turn). On error the state is unchanged.
    pub fn apply(&mut self, action: i64, player: Option<i64>) -> Result<()> {
        let current = self.game.current_player(&self.state);
        if current == TERMINAL {
            return Err(EngineError::IllegalAction(format!(
                "the game is over; action {action} cannot be applied"
            )));
        }
        if let Some(p) = player {
            if p != i64::from(current) {
                let whose = if current == CHANCE {
                    "a chance node".to_string()
                } else {
                    format!("seat {current}'s turn")
                };
                return Err(EngineError::IllegalAction(format!(
                    "it is {whose}, not seat {p}'s"
                )));
            }
        }
        let a = self.check_action(action)?;
        let mut legal = Vec::new();
        self.game.legal_actions(&self.state, &mut legal);
        if legal.binary_search(&a).is_err() {
            let label = self.game.action_label(&self.state, a);
            let msg = if current == CHANCE {
                format!("{a} ({label}) is not a possible chance outcome here; outcomes: {legal:?}")
            } else {
                format!("action {a} ({label}) is not legal for seat {current}; legal: {legal:?}")
            };
            return Err(EngineError::IllegalAction(msg));
        }
        self.game.apply(&mut self.state, a);
        self.history.push(a);
        self.resolve_chance();
        Ok(())
    }

    /// The names of the rule events (see [`Game::rule_events`]) that applying `action` here would
    /// trigger, in the order of [`Game::rule_event_names`]; the session is unchanged. Only this
    /// one step counts (no chance node resolved after it). Errors as [`Session::apply`].
    pub fn rule_events_of(&self, action: i64) -> Result<Vec<&'static str>> {
        let mut probe = Self {
            game: Arc::clone(&self.game),
            state: self.state.clone(),
            history: Vec::new(),
            rng: None,
            sampled: self.sampled,
        };
        probe.apply(action, None)?;
        let a = self.check_action(action)?;
        let mask = self.game.rule_events(&self.state, a, &probe.state);
        Ok(G::rule_event_names()
            .iter()
            .enumerate()
            .filter(|(i, _)| *i < 64 && mask >> i & 1 == 1)
            .map(|(_, name)| *name)
            .collect())
    }

    /// The canonical dict: game id, players, options, history, RNG state and the game state.
    pub fn to_json(&self) -> Value {
        json!({
            "game": G::ID,
            "players": self.game.players(),
            "options": Value::Object(self.game.options()),
            "history": self.history,
            "rng": self.rng.map(|r| r.state()),
            "state": self.game.state_json(&self.state),
        })
    }

    /// A session at a full state sampled with [`Game::determinize`] from what seat `observer` can
    /// know here, drawn with a SplitMix64 seeded with `seed`: it has the same observation for
    /// `observer` and depends on `self` only through that seat's information. When `self` is
    /// seeded, the sample's later chance draws also come from `seed` (never from the original's
    /// random stream, which would reveal the hidden future). A sample has no past: its history
    /// starts empty and holds the steps played on from it (the original's would tell its hidden
    /// chance outcomes, and does not lead to the sample), so its dict does not restore. Fails
    /// with [`EngineError::InvalidOption`] for a game without a determinizer and
    /// [`EngineError::IllegalAction`] for a seat out of range.
    pub fn resample(&self, observer: i64, seed: u64) -> Result<Self> {
        let n = self.game.players();
        let seat = usize::try_from(observer)
            .ok()
            .filter(|&p| p < n)
            .ok_or_else(|| {
                EngineError::IllegalAction(format!(
                    "seat {observer} is out of range {}",
                    indices(n as u64)
                ))
            })?;
        let mut rng = SplitMix64::new(seed);
        let state = self
            .game
            .determinize(&self.state, seat, &mut rng)
            .ok_or_else(|| {
                EngineError::InvalidOption(format!(
                    "{}: resample needs a determinizer, which this game does not provide",
                    G::ID
                ))
            })?;
        let next = rng.next();
        Ok(Self {
            game: Arc::clone(&self.game),
            state,
            history: Vec::new(),
            rng: self.rng.map(|_| SplitMix64::new(next)),
            sampled: true,
        })
    }

    /// Rebuilds a session from [`Session::to_json`] output: replays the history, restores the RNG
    /// and checks that the result equals the given state.
    pub fn from_json(game: Arc<G>, v: &Value) -> Result<Self> {
        let bad = |m: String| EngineError::InvalidState(m);
        let obj = v
            .as_object()
            .ok_or_else(|| bad("a state must be a dict".into()))?;
        let keys = ["game", "players", "options", "history", "rng", "state"];
        for k in keys {
            if !obj.contains_key(k) {
                return Err(bad(format!("state dict lacks the key {k:?}")));
            }
        }
        if let Some(k) = obj.keys().find(|k| !keys.contains(&k.as_str())) {
            return Err(bad(format!("state dict has an unknown key {k:?}")));
        }
        if obj["game"] != json!(G::ID) {
            return Err(bad(format!(
                "state is of game {}, not {}",
                obj["game"],
                G::ID
            )));
        }
        if obj["players"] != json!(game.players())
            || obj["options"] != Value::Object(game.options())
        {
            return Err(bad(format!(
                "state has players={} options={}, but this game has players={} options={}",
                obj["players"],
                obj["options"],
                game.players(),
                Value::Object(game.options())
            )));
        }
        let history = obj["history"]
            .as_array()
            .ok_or_else(|| bad("history must be a list of ints".into()))?;
        let rng = match &obj["rng"] {
            Value::Null => None,
            r => Some(SplitMix64::new(r.as_u64().ok_or_else(|| {
                bad(format!("rng must be null or an int in 0..={}", u64::MAX))
            })?)),
        };
        let mut session = Self::new(game, None);
        for (i, a) in history.iter().enumerate() {
            let a = a
                .as_i64()
                .filter(|_| a.is_i64() || a.is_u64())
                .ok_or_else(|| bad(format!("history[{i}] = {a} is not an int")))?;
            session
                .apply(a, None)
                .map_err(|e| bad(format!("history[{i}] = {a} cannot be replayed: {e}")))?;
        }
        session.rng = rng;
        if rng.is_some() && session.game.current_player(&session.state) == CHANCE {
            return Err(bad("a seeded state cannot rest at a chance node".into()));
        }
        let replayed = session.game.state_json(&session.state);
        if replayed != obj["state"] {
            return Err(bad(format!(
                "state does not match its history; replaying the history gives {replayed}"
            )));
        }
        Ok(session)
    }
}

/// A game of any registered type, with fixed options (object-safe view of [`Game`]).
pub trait AnyGame: Send + Sync {
    /// The game id.
    fn id(&self) -> &'static str;
    /// The number of players.
    fn players(&self) -> usize;
    /// The size of the action space.
    fn num_actions(&self) -> u32;
    /// Every option with its effective value.
    fn options(&self) -> Map<String, Value>;
    /// A new session, seeded or with explicit chance nodes.
    fn new_session(&self, seed: Option<u64>) -> Box<dyn AnySession>;
    /// A session rebuilt from its canonical dict.
    fn session_from_json(&self, v: &Value) -> Result<Box<dyn AnySession>>;
    /// Runs a batch of whole games with built-in bots (see [`crate::sim::simulate`]).
    fn simulate(&self, config: &SimConfig, progress: &dyn Fn(u64) -> bool) -> Result<SimResult>;
    /// The built-in bot `spec` (e.g. `"greedy"`) for `seat`, with its own random stream `seed`.
    fn bot(&self, spec: &str, seat: usize, seed: u64) -> Result<Box<dyn AnyBot>>;
    /// The shape of the observation tensors.
    fn observation_shape(&self) -> Vec<usize>;
    /// A batch of environments for learning agents (see [`crate::vector`]).
    fn vector_env(&self, config: VectorConfig) -> Result<Box<dyn AnyVectorEnv>>;
    /// Games stepped together for external seats (`None` in `bots`; see [`crate::lockstep`]).
    fn lockstep(
        &self,
        config: SimConfig,
        bots: Vec<Option<String>>,
        batch: usize,
    ) -> Result<Box<dyn AnyLockstep>>;
}

/// Implements `Debug` for trait objects as structs named after their trait, each field the value
/// of one of the trait's methods: `Trait { "field" => method, ... }`.
macro_rules! debug_trait_objects {
    ($($(#[$meta:meta])* $trait:ident { $($field:literal => $method:ident),* $(,)? })*) => {$(
        $(#[$meta])*
        impl std::fmt::Debug for dyn $trait + '_ {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_struct(stringify!($trait))
                    $(.field($field, &self.$method()))*
                    .finish()
            }
        }
    )*};
}

debug_trait_objects! {
    /// The game's id, players and options (`dbg!(make(...)?)`).
    AnyGame { "id" => id, "players" => players, "options" => options }
    /// The game's id, the seat to move and the history (everything else follows from them and
    /// the seed).
    AnySession { "game" => game_id, "current_player" => current_player, "history" => history }
}

/// [`AnySession::clone_box`]: an independent copy.
impl Clone for Box<dyn AnySession> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// A session of any registered game (object-safe view of [`Session`]).
pub trait AnySession: Send + Sync {
    /// The id of the session's game.
    fn game_id(&self) -> &'static str;
    /// A seat, [`CHANCE`] or [`TERMINAL`].
    fn current_player(&self) -> i32;
    /// Sorted legal actions, or chance outcomes at a chance node.
    fn legal_actions(&self) -> Vec<u32>;
    /// `(outcome, probability)` pairs at a chance node, else empty.
    fn chance_outcomes(&self) -> Vec<(u32, f64)>;
    /// See [`Session::apply`].
    fn apply(&mut self, action: i64, player: Option<i64>) -> Result<()>;
    /// A readable label of any action id in range.
    fn action_label(&self, action: i64) -> Result<String>;
    /// Running scores per seat.
    fn scores(&self) -> Vec<i64>;
    /// The winning seats (empty before the end).
    fn winners(&self) -> Vec<usize>;
    /// What seat `player` may know.
    fn observation(&self, player: i64) -> Result<Value>;
    /// The size of the action space.
    fn num_actions(&self) -> u32;
    /// The shape of [`AnySession::observation_tensor`].
    fn observation_shape(&self) -> Vec<usize>;
    /// Writes what seat `player` may know as a tensor into `out` (its length must be the product
    /// of the shape).
    fn observation_tensor(&self, player: i64, out: &mut [f32]) -> Result<()>;
    /// Writes `true` at every legal action (chance outcome at a chance node) into `out`, of length
    /// `num_actions`, and `false` elsewhere. Fails with [`EngineError::InvalidOption`] (and writes
    /// nothing) if `out` has another length.
    fn legal_action_mask(&self, out: &mut [bool]) -> Result<()>;
    /// The canonical dict.
    fn to_json(&self) -> Value;
    /// Every applied action and chance outcome.
    fn history(&self) -> &[u32];
    /// The rule events applying `action` would trigger (see [`Session::rule_events_of`]).
    fn rule_events_of(&self, action: i64) -> Result<Vec<&'static str>>;
    /// Every rule event name of the game, in bit order.
    fn rule_event_names(&self) -> &'static [&'static str];
    /// An independent copy.
    fn clone_box(&self) -> Box<dyn AnySession>;
    /// A full state sampled from what seat `observer` can know here (see [`Session::resample`]).
    fn resample(&self, observer: i64, seed: u64) -> Result<Box<dyn AnySession>>;
    /// Whether the state was sampled by [`AnySession::resample`] (or played on from one): its
    /// history holds only the steps since the sample, so its dict does not restore it.
    fn is_sample(&self) -> bool;
    /// The concrete session, for [`AnyBot`] to recover its game's state type.
    fn as_any(&self) -> &dyn Any;
    /// The number of distinct sequences of `depth` steps (actions and chance outcomes alike) from
    /// this state; a sequence that reaches the end of the game earlier counts once. Raising
    /// `cancel` stops the count (see [`perft_cancellable`]).
    fn perft(&self, depth: u32, cancel: &AtomicBool) -> std::result::Result<u64, PerftStop>;
}

/// Why a [`perft_cancellable`] count stopped early.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PerftStop {
    /// The cancel flag was raised.
    Cancelled,
    /// The count does not fit in a `u64`.
    Overflow,
}

/// Counts the step sequences of length `depth` from `state` (see [`AnySession::perft`]); the first
/// level is split over threads.
pub fn perft<G: Game>(game: &G, state: &G::State, depth: u32) -> u64 {
    let never = AtomicBool::new(false);
    perft_cancellable(game, state, depth, &never).unwrap_or(u64::MAX)
}

/// Like [`perft`], but checks `cancel` at every node (so that raising it stops the count at
/// once) and reports a count that overflows instead of wrapping.
pub fn perft_cancellable<G: Game>(
    game: &G,
    state: &G::State,
    depth: u32,
    cancel: &AtomicBool,
) -> std::result::Result<u64, PerftStop> {
    use rayon::prelude::*;
    fn count<G: Game>(
        game: &G,
        state: &G::State,
        depth: u32,
        cancel: &AtomicBool,
    ) -> std::result::Result<u64, PerftStop> {
        if cancel.load(Ordering::Relaxed) {
            return Err(PerftStop::Cancelled);
        }
        if depth == 0 || game.current_player(state) == TERMINAL {
            return Ok(1);
        }
        let mut legal = Vec::new();
        game.legal_actions(state, &mut legal);
        legal.iter().try_fold(0u64, |total, &a| {
            let mut child = state.clone();
            game.apply(&mut child, a);
            total
                .checked_add(count(game, &child, depth - 1, cancel)?)
                .ok_or(PerftStop::Overflow)
        })
    }
    if depth < 3 || game.current_player(state) == TERMINAL {
        return count(game, state, depth, cancel);
    }
    // A pool of its own, not rayon's global one: in the child of a fork (multiprocessing's
    // "fork" start method) the global pool's threads are gone, and its work would never run.
    let Ok(pool) = crate::sim::thread_pool(None) else {
        return count(game, state, depth, cancel); // no threads to be had: one is enough
    };
    let mut legal = Vec::new();
    game.legal_actions(state, &mut legal);
    pool.install(|| {
        legal
            .par_iter()
            .map(|&a| {
                let mut child = state.clone();
                game.apply(&mut child, a);
                count(game, &child, depth - 1, cancel)
            })
            .try_reduce(|| 0, |a, b| a.checked_add(b).ok_or(PerftStop::Overflow))
    })
}

/// A built-in bot seated in one game, driving sessions of that game (object-safe view of [`Bot`]).
pub trait AnyBot: Send {
    /// The bot's choice for its seat in `session` (which must be its game and its turn).
    fn act(&mut self, session: &dyn AnySession) -> Result<u32>;
    /// Lets a bot with memory see the state after any step.
    fn observe(&mut self, session: &dyn AnySession) -> Result<()>;
    /// See [`Bot::stop_flag`].
    fn stop_flag(&self) -> Option<Arc<AtomicBool>>;
    /// See [`Bot::search_stats`].
    fn search_stats(&self) -> Option<SearchStats>;
}

/// A built-in bot seated in one game of the per-step API.
///
/// A bot that observes ([`Bot::observe`]) sees every state the batch runner would show it, chance
/// nodes included, although a seeded session resolves its chance nodes inside `apply`: the handle
/// keeps the last state the bot saw with its history, and when it is asked to observe a session
/// that continues that history it replays the steps in between and shows the bot each state
/// ([`BotHandle::catch_up`]). Acting never replays anything: a bot that was never asked to
/// observe decides from the state it is given alone.
struct BotHandle<G: Game> {
    game: Arc<G>,
    bot: Box<dyn Bot<G>>,
    seat: usize,
    legal: Vec<u32>,
    /// The last state the bot saw and the history that led to it (`None` before the first).
    seen: Option<(G::State, Vec<u32>)>,
}

impl<G: Game> BotHandle<G> {
    /// The session of the bot's own game (the same id, players and options).
    fn session_of<'a>(&self, session: &'a dyn AnySession) -> Result<&'a Session<G>> {
        let s = session
            .as_any()
            .downcast_ref::<Session<G>>()
            .ok_or_else(|| {
                EngineError::IllegalAction(format!(
                    "this bot plays {}, not that state's {}",
                    G::ID,
                    session.game_id()
                ))
            })?;
        let same = Arc::ptr_eq(&s.game, &self.game)
            || (s.game.players() == self.game.players() && s.game.options() == self.game.options());
        if !same {
            return Err(EngineError::IllegalAction(format!(
                "this bot plays {} with {} players and options {}, not that state's {} players \
                 and options {}",
                G::ID,
                self.game.players(),
                Value::Object(self.game.options()),
                s.game.players(),
                Value::Object(s.game.options()),
            )));
        }
        Ok(s)
    }

    /// Shows an observing bot every state from the last one it saw up to `session`'s, in order
    /// (after each step, as the batch runner does). Before the first, the bot is taken to have
    /// seen the initial state. When `session` does not continue the history last seen (another
    /// game, an earlier point of this one), the bot catches up from the initial state, as a bot
    /// that saw nothing would: it sees that game from its start, so nothing it remembers of
    /// another game stays. Only when that does not replay to the session's state either (a
    /// resampled state keeps the real history) does the bot see `session`'s state alone.
    fn catch_up(&mut self, session: &Session<G>) {
        if !self.bot.observes() {
            return;
        }
        let (mut state, seen) = match self.seen.take() {
            Some((state, history)) => (state, history),
            None => (self.game.initial_state(), Vec::new()),
        };
        if seen.len() == session.history.len() && state == session.state {
            self.seen = Some((state, seen));
            return;
        }
        let continued = session
            .history
            .strip_prefix(seen.as_slice())
            .and_then(|rest| self.replay(&mut state, rest))
            .filter(|_| state == session.state);
        let steps = continued.or_else(|| {
            let mut state = self.game.initial_state();
            self.replay(&mut state, &session.history)
                .filter(|_| state == session.state)
        });
        match steps {
            Some(states) => states.iter().for_each(|s| self.bot.observe(&self.game, s)),
            None => self.bot.observe(&self.game, &session.state),
        }
        self.seen = Some((session.state.clone(), session.history.clone()));
    }

    /// Applies `steps` to `state`, each checked to be legal there, and returns the state after
    /// each; `None` at the first one that is not legal.
    fn replay(&self, state: &mut G::State, steps: &[u32]) -> Option<Vec<G::State>> {
        let mut legal = Vec::new();
        let mut states = Vec::with_capacity(steps.len());
        for &a in steps {
            // At a chance node `legal_actions` lists the outcomes, as `Session::apply` checks.
            self.game.legal_actions(state, &mut legal);
            if self.game.current_player(state) == TERMINAL || legal.binary_search(&a).is_err() {
                return None;
            }
            self.game.apply(state, a);
            states.push(state.clone());
        }
        Some(states)
    }
}

impl<G: Game> AnyBot for BotHandle<G> {
    fn stop_flag(&self) -> Option<Arc<AtomicBool>> {
        self.bot.stop_flag()
    }

    fn act(&mut self, session: &dyn AnySession) -> Result<u32> {
        let session = self.session_of(session)?;
        let current = self.game.current_player(&session.state);
        if current != self.seat as i32 {
            let to_move = match current {
                TERMINAL => "the game is over".to_string(),
                CHANCE => "a chance node is to be resolved".to_string(),
                seat => format!("the player to move is {seat}"),
            };
            return Err(EngineError::IllegalAction(format!(
                "the bot sits in seat {}, but {to_move}",
                self.seat
            )));
        }
        self.game.legal_actions(&session.state, &mut self.legal);
        Ok(self.bot.act(&self.game, &session.state, &self.legal))
    }

    fn observe(&mut self, session: &dyn AnySession) -> Result<()> {
        let session = self.session_of(session)?;
        self.catch_up(session);
        Ok(())
    }

    fn search_stats(&self) -> Option<SearchStats> {
        self.bot.search_stats()
    }
}

impl<G: Game> AnySession for Session<G> {
    fn game_id(&self) -> &'static str {
        G::ID
    }

    fn current_player(&self) -> i32 {
        self.game.current_player(&self.state)
    }

    fn legal_actions(&self) -> Vec<u32> {
        let mut out = Vec::new();
        self.game.legal_actions(&self.state, &mut out);
        out
    }

    fn chance_outcomes(&self) -> Vec<(u32, f64)> {
        let mut out = Vec::new();
        self.game.chance_outcomes(&self.state, &mut out);
        // In u128: the weights of a game of one's own may sum past u64::MAX.
        let total: u128 = out.iter().map(|&(_, w)| u128::from(w)).sum();
        out.into_iter()
            .map(|(o, w)| (o, w as f64 / total as f64))
            .collect()
    }

    fn apply(&mut self, action: i64, player: Option<i64>) -> Result<()> {
        Session::apply(self, action, player)
    }

    fn rule_events_of(&self, action: i64) -> Result<Vec<&'static str>> {
        Session::rule_events_of(self, action)
    }

    fn rule_event_names(&self) -> &'static [&'static str] {
        G::rule_event_names()
    }

    fn action_label(&self, action: i64) -> Result<String> {
        let a = self.check_action(action)?;
        Ok(self.game.action_label(&self.state, a))
    }

    fn scores(&self) -> Vec<i64> {
        let mut out = vec![0; self.game.players()];
        self.game.scores(&self.state, &mut out);
        out
    }

    fn winners(&self) -> Vec<usize> {
        if self.game.current_player(&self.state) == TERMINAL {
            self.game.winners(&self.state)
        } else {
            Vec::new()
        }
    }

    fn observation(&self, player: i64) -> Result<Value> {
        let n = self.game.players();
        match usize::try_from(player) {
            Ok(p) if p < n => Ok(self.game.observation(&self.state, p)),
            _ => Err(EngineError::IllegalAction(format!(
                "seat {player} is out of range {}",
                indices(n as u64)
            ))),
        }
    }

    fn num_actions(&self) -> u32 {
        self.game.num_actions()
    }

    fn observation_shape(&self) -> Vec<usize> {
        self.game.observation_shape()
    }

    fn observation_tensor(&self, player: i64, out: &mut [f32]) -> Result<()> {
        let n = self.game.players();
        let size: usize = self.game.observation_shape().iter().product();
        if out.len() != size {
            return Err(EngineError::InvalidOption(format!(
                "an observation tensor has {size} entries, not {}",
                out.len()
            )));
        }
        match usize::try_from(player) {
            Ok(p) if p < n => {
                self.game.observation_tensor(&self.state, p, out);
                Ok(())
            }
            _ => Err(EngineError::IllegalAction(format!(
                "seat {player} is out of range {}",
                indices(n as u64)
            ))),
        }
    }

    fn legal_action_mask(&self, out: &mut [bool]) -> Result<()> {
        let size = self.game.num_actions() as usize;
        if out.len() != size {
            return Err(EngineError::InvalidOption(format!(
                "a legal-action mask has {size} entries, not {}",
                out.len()
            )));
        }
        let mut legal = Vec::new();
        self.game.legal_actions(&self.state, &mut legal);
        crate::game::write_action_mask(out, legal);
        Ok(())
    }

    fn to_json(&self) -> Value {
        Session::to_json(self)
    }

    fn history(&self) -> &[u32] {
        &self.history
    }

    fn clone_box(&self) -> Box<dyn AnySession> {
        Box::new(self.clone())
    }

    fn resample(&self, observer: i64, seed: u64) -> Result<Box<dyn AnySession>> {
        Session::resample(self, observer, seed).map(|s| Box::new(s) as Box<dyn AnySession>)
    }

    fn is_sample(&self) -> bool {
        self.sampled
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn perft(&self, depth: u32, cancel: &AtomicBool) -> std::result::Result<u64, PerftStop> {
        perft_cancellable(&*self.game, &self.state, depth, cancel)
    }
}

/// A [`Game`] behind an `Arc`, usable as [`AnyGame`].
pub struct GameHandle<G: Game>(pub Arc<G>);

impl<G: Game> std::fmt::Debug for GameHandle<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GameHandle")
            .field("id", &G::ID)
            .field("players", &self.0.players())
            .finish_non_exhaustive()
    }
}

impl<G: Game> AnyGame for GameHandle<G> {
    fn id(&self) -> &'static str {
        G::ID
    }

    fn players(&self) -> usize {
        self.0.players()
    }

    fn num_actions(&self) -> u32 {
        self.0.num_actions()
    }

    fn options(&self) -> Map<String, Value> {
        self.0.options()
    }

    fn new_session(&self, seed: Option<u64>) -> Box<dyn AnySession> {
        Box::new(Session::new(Arc::clone(&self.0), seed))
    }

    fn session_from_json(&self, v: &Value) -> Result<Box<dyn AnySession>> {
        Ok(Box::new(Session::from_json(Arc::clone(&self.0), v)?))
    }

    fn simulate(&self, config: &SimConfig, progress: &dyn Fn(u64) -> bool) -> Result<SimResult> {
        sim::simulate(&*self.0, config, progress)
    }

    fn bot(&self, spec: &str, seat: usize, seed: u64) -> Result<Box<dyn AnyBot>> {
        let n = self.0.players();
        if seat >= n {
            return Err(EngineError::InvalidOption(format!(
                "seat {seat} is out of range {}",
                indices(n as u64)
            )));
        }
        let mut bot = sim::make_bot(&*self.0, spec)?;
        bot.reset(&self.0, seat, SplitMix64::new(seed));
        Ok(Box::new(BotHandle {
            game: Arc::clone(&self.0),
            bot,
            seat,
            legal: Vec::new(),
            seen: None,
        }))
    }

    fn observation_shape(&self) -> Vec<usize> {
        self.0.observation_shape()
    }

    fn vector_env(&self, config: VectorConfig) -> Result<Box<dyn AnyVectorEnv>> {
        Ok(Box::new(VectorEnv::new(Arc::clone(&self.0), config)?))
    }

    fn lockstep(
        &self,
        config: SimConfig,
        bots: Vec<Option<String>>,
        batch: usize,
    ) -> Result<Box<dyn AnyLockstep>> {
        Ok(Box::new(Lockstep::new(
            Arc::clone(&self.0),
            config,
            bots,
            batch,
        )?))
    }
}
