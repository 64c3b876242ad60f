//! The state-machine contract every game implements, and the bot contract.
//!
//! It owns the [`Game`] and [`Bot`] traits and the generic `random` bot. It must not hold any
//! game's rules, checks of caller input (the session does those) or any driving loop (see
//! [`crate::step`]).

use crate::error::Result;
use crate::options::{GameOptions, OptionReader, OptionSpec, OptionValues};
use crate::rng::SplitMix64;
use serde_json::{Map, Value};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// `current_player` of a chance node.
pub const CHANCE: i32 = -1;
/// `current_player` of a terminal state.
pub const TERMINAL: i32 = -2;

/// The rules of one game with fixed options.
///
/// A game value is immutable configuration (player count and options); all mutable data lives in
/// [`Game::State`]. The generic [`crate::session::Session`] adds legality checks, history, seeded
/// chance and serialization on top, so an implementation may assume that `apply` only ever receives
/// an action listed by `legal_actions` (or a chance outcome listed by `chance_outcomes`).
pub trait Game: Clone + Send + Sync + 'static {
    /// The full mutable state of one game. It must be cheap to clone, and equal states must be
    /// the same position (the per-step API compares them to follow a game step by step).
    type State: Clone + PartialEq + Send + Sync + 'static;

    /// The registered game id, e.g. `"turn_the_tide"`.
    const ID: &'static str;

    /// What this game accepts, as one typed value: its player counts and its other options,
    /// declared with `game_options!`.
    type Options: GameOptions;

    /// The accepted player counts, inclusive (as declared with [`Game::Options`]).
    const PLAYERS: (usize, usize) = <Self::Options as GameOptions>::PLAYERS;

    /// The `mcts` parameters that measured strongest in this game (`flatmc` takes its `rollout`
    /// and `reward` from them), written as in a bot spec (`"rollout=greedy,opponents=rollout"`;
    /// `docs/search.md`, "Per-game defaults"): every parameter it does not name keeps its
    /// generic default. Empty (the generic defaults) unless the game sets it; the shared test
    /// kit checks that it parses.
    const SEARCH_DEFAULTS: &'static str = "";

    /// Whether the search may pool exchangeable actions into classes ([`Game::search_class`],
    /// the `mcts` parameter `classes=on`): only for a game whose determinizer makes some actions
    /// interchangeable (Trafficars memory: its never-seen positions). `false` by default.
    const HAS_ACTION_CLASSES: bool = false;

    /// Whether every decision is shown to every seat as it is taken (nothing is committed face
    /// down), so that the others' decisions hide nothing the determinizer of the current state
    /// does not already respect: `mcts` then needs no earlier state to replay from (Trafficars
    /// memory, whose whole table is public). `false` by default.
    const DECISIONS_ARE_PUBLIC: bool = false;

    /// The class of `action` in `state` for the search: actions of one class are worth the same
    /// in every determinization of `state`'s information set, so a search may keep one edge for
    /// the class and play any member. It reads only what every seat knows. The action itself
    /// (the default) unless [`Game::HAS_ACTION_CLASSES`].
    #[inline]
    fn search_class(state: &Self::State, action: u32) -> u32 {
        let _ = state;
        action
    }

    /// The options this game accepts (not counting `players`).
    fn option_specs() -> Vec<OptionSpec> {
        Self::Options::specs()
    }

    /// Builds the game from a player count within [`Game::PLAYERS`] and the options read for it,
    /// whose effective values `values` records; rejects combinations the options' bounds do not
    /// already exclude with [`crate::EngineError::InvalidOption`].
    fn with_options(players: usize, options: Self::Options, values: OptionValues) -> Result<Self>;

    /// Builds the game from a player count and options; rejects anything invalid with
    /// [`crate::EngineError::InvalidOption`]. The default reads [`Game::Options`] against
    /// [`Game::option_specs`], then rejects unknown options, then checks the player count
    /// ([`check_players`]), then calls [`Game::with_options`]; the first error wins. An option
    /// counted in players ([`crate::OptionSpec::at_most_players`]) is read for `players` when the
    /// game accepts that count (otherwise the player count's own error follows).
    fn from_options(players: usize, options: &Map<String, Value>) -> Result<Self> {
        let mut reader = OptionReader::new(Self::ID, Self::option_specs(), options);
        if check_players::<Self>(players).is_ok() {
            reader = reader.for_players(players);
        }
        let read = Self::Options::read(&mut reader)?;
        let option_values = reader.finish()?;
        check_players::<Self>(players)?;
        Self::with_options(players, read, option_values)
    }

    /// The effective option values, as recorded by the [`crate::OptionReader`] that built the
    /// game (with any default that depends on other options filled in).
    fn option_values(&self) -> &OptionValues;

    /// Every option with its effective value (defaults filled in), as JSON.
    fn options(&self) -> Map<String, Value> {
        self.option_values().to_map()
    }

    /// The number of players.
    fn players(&self) -> usize;

    /// The size of the action space: player actions and chance outcomes are ids `0..num_actions`.
    fn num_actions(&self) -> u32;

    /// The state before the first chance node or decision.
    fn initial_state(&self) -> Self::State;

    /// A seat `0..players`, [`CHANCE`] or [`TERMINAL`].
    fn current_player(&self, state: &Self::State) -> i32;

    /// The legal actions of [`Game::legal_actions`] as a bitset (bit `a` set for action `a`), for
    /// games whose action ids are all below 64 and that keep them as a set; `None` (the default)
    /// for the others. A game gives either this or its own `legal_actions`.
    #[inline(always)]
    fn legal_set(&self, _state: &Self::State) -> Option<u64> {
        None
    }

    /// Writes the legal actions of the player to move, in increasing order, into `out` (cleared
    /// first). At a chance node it writes the possible outcomes; at a terminal state nothing.
    /// The default writes the actions of [`Game::legal_set`].
    fn legal_actions(&self, state: &Self::State, out: &mut Vec<u32>) {
        out.clear();
        if let Some(set) = self.legal_set(state) {
            out.extend(crate::bits::ones(set));
        }
    }

    /// At a chance node whose outcomes are equally likely and all below 64: the outcomes as a
    /// bitset (bit `c` set for outcome `c`); `None` (the default) at every other node and for
    /// games without such chance nodes. A game gives either this or its own `chance_outcomes`.
    #[inline(always)]
    fn uniform_chance(&self, _state: &Self::State) -> Option<u64> {
        None
    }

    /// Whether `action` is among the actions [`Game::legal_actions`] writes for `state`, read from
    /// [`Game::legal_set`] or else [`Game::legal_bits`] (so without a list in games that have a
    /// fast path there).
    fn is_legal(&self, state: &Self::State, action: u32) -> bool {
        if let Some(set) = self.legal_set(state) {
            return action < 64 && set >> action & 1 == 1;
        }
        let word = action as usize / 64;
        let words = (self.num_actions() as usize).div_ceil(64);
        let bit = |set: &[u64]| set.get(word).is_some_and(|w| w >> (action % 64) & 1 == 1);
        let mut small = [0u64; 4];
        if words <= small.len() {
            self.legal_bits(state, &mut small, &mut Vec::new());
            bit(&small)
        } else {
            let mut set = vec![0u64; words];
            self.legal_bits(state, &mut set, &mut Vec::new());
            bit(&set)
        }
    }

    /// Writes `(outcome, integer weight)` pairs of a chance node, in increasing outcome order and
    /// with positive weights, into `out` (cleared first). Nothing at other nodes. The default
    /// writes the outcomes of [`Game::uniform_chance`], each with weight 1.
    fn chance_outcomes(&self, state: &Self::State, out: &mut Vec<(u32, u64)>) {
        out.clear();
        if let Some(set) = self.uniform_chance(state) {
            out.extend(crate::bits::ones(set).map(|c| (c, 1)));
        }
    }

    /// Applies a legal action or chance outcome.
    fn apply(&self, state: &mut Self::State, action: u32);

    /// Resolves a chance node with `rng` exactly as [`SplitMix64::pick_weighted`] over
    /// `chance_outcomes` would (the default does just that, picking from [`Game::uniform_chance`]
    /// without a list where the game gives it; games may override it with a faster computation
    /// that returns the same outcome for the same generator state).
    // Always inlined into the batch runner's loop, like `random_playout`.
    #[inline(always)]
    fn sample_chance(
        &self,
        state: &Self::State,
        rng: &mut SplitMix64,
        buf: &mut Vec<(u32, u64)>,
    ) -> u32 {
        if let Some(set) = self.uniform_chance(state) {
            // The element of rank `below(n)` of the n equally likely outcomes, in increasing
            // order: the draw of `pick_weighted` over weights of 1.
            return crate::bits::pick(set, rng).unwrap_or(0);
        }
        self.chance_outcomes(state, buf);
        rng.pick_weighted(buf).unwrap_or(0)
    }

    /// Resolves the chance nodes from `state` on, up to the first decision node or the end,
    /// exactly as applying [`Game::sample_chance`] with `rng` one node at a time would (the same
    /// draws and the same states; the default, [`crate::step::resolve_chance`], does just that),
    /// and returns how many it resolved.
    /// The batch runner calls it when no seat observes, so the states in between need not be
    /// seen; games may override it with a loop that deals a run of cards in one go (checked by
    /// the test kit).
    // Always inlined into the batch runner's loop, like `sample_chance`.
    #[inline(always)]
    fn resolve_chance(
        &self,
        state: &mut Self::State,
        rng: &mut SplitMix64,
        buf: &mut Vec<(u32, u64)>,
    ) -> u32 {
        crate::step::resolve_chance(self, state, rng, buf)
    }

    /// The action the `random` bot takes at a decision node: `legal[rng.below(legal.len())]` over
    /// the list [`Game::legal_actions`] writes, or `None` (drawing nothing) when that list is empty.
    /// The default does just that, using `buf` (or, without a list, the element of that rank of
    /// [`Game::legal_set`] where the game gives it). Games may override it with a faster
    /// computation that returns the same action and draws from `rng` exactly as the default does;
    /// the batch runner relies on that and does not check the result again.
    // Always inlined into the batch runner's loop, like `random_playout`.
    #[inline(always)]
    fn random_action(
        &self,
        state: &Self::State,
        rng: &mut SplitMix64,
        buf: &mut Vec<u32>,
    ) -> Option<u32> {
        if let Some(set) = self.legal_set(state) {
            return crate::bits::pick(set, rng);
        }
        self.legal_actions(state, buf);
        if buf.is_empty() {
            return None;
        }
        let i = rng.below(buf.len() as u64) as usize;
        buf.get(i).copied()
    }

    /// The set [`Game::legal_actions`] lists, as a bitset: bit `a % 64` of `out[a / 64]` is set
    /// for every listed action `a`, every other bit of `out` is cleared (actions beyond `out` are
    /// left out; `num_actions().div_ceil(64)` words hold them all). The default takes
    /// [`Game::legal_set`] where the game gives it, else lists the actions into `buf`; games may
    /// override it with a computation that sets the same bits without a
    /// list (the test kit checks it), e.g. for the masks of [`crate::vector`].
    #[inline(always)]
    fn legal_bits(&self, state: &Self::State, out: &mut [u64], buf: &mut Vec<u32>) {
        if let Some(set) = self.legal_set(state) {
            return one_word_legal_bits(out, set);
        }
        self.legal_actions(state, buf);
        legal_bits_of(out, buf.iter().copied());
    }

    /// Plays `state` to its end with the `random` bot in every seat, exactly as the batch runner
    /// steps it one node at a time: a chance node is resolved by [`Game::sample_chance`] with
    /// `chance`, a decision of seat `s` is [`Game::random_action`] with `seats[s]`, each applied.
    /// Returns the decisions and chance steps made, or the error of the first seat that could not
    /// move. It is [`Game::play_randomly`] on these streams and scratch space.
    // Always inlined into the batch runner's loop, which runs with the CPU's bit instructions
    // (see `crate::cpu::with_bit_instructions`): a call here would compile the game without them.
    #[inline(always)]
    fn random_playout(
        &self,
        state: &mut Self::State,
        chance: &mut SplitMix64,
        seats: &mut [SplitMix64],
        legal: &mut Vec<u32>,
        outcomes: &mut Vec<(u32, u64)>,
    ) -> crate::step::StepResult<(u32, u32)> {
        let mut table = crate::step::RandomTable {
            chance,
            seats,
            legal,
            outcomes,
            counts: (0, 0),
        };
        self.play_randomly(state, &mut table)?;
        Ok(table.counts)
    }

    /// [`Game::random_playout`] on a table of `random` bots: plays `state` to its end, counting
    /// the decisions and chance steps in `table.counts`. The default steps one node at a time
    /// ([`crate::step::random_playout`], the definition); games may override it with a loop of
    /// their own that makes the same draws and reaches the same state (checked by the test kit),
    /// e.g. to dispatch on their phase once per step instead of three times.
    // Always inlined, as `random_playout` is.
    #[inline(always)]
    fn play_randomly(
        &self,
        state: &mut Self::State,
        table: &mut crate::step::RandomTable<'_>,
    ) -> crate::step::StepResult<()> {
        crate::step::random_playout(self, state, table)
    }

    /// A readable label of an action (or chance outcome) in this state, e.g. `"play 37"`.
    fn action_label(&self, state: &Self::State, action: u32) -> String;

    /// Running points per seat, in the game's own scoring, written into `out` (length `players`).
    fn scores(&self, state: &Self::State, out: &mut [i64]);

    /// The seats that won as a bitset (bit `s` set when seat `s` won), for the batch runner;
    /// only called on terminal states.
    fn winner_mask(&self, state: &Self::State) -> u64;

    /// The seats that won, in increasing order: the seats of [`Game::winner_mask`]; only called
    /// on terminal states.
    fn winners(&self, state: &Self::State) -> Vec<usize> {
        crate::bits::ones(self.winner_mask(state))
            .map(|s| s as usize)
            .collect()
    }

    /// Exactly what `player` may know, as a JSON object (keys fixed by the rules doc).
    fn observation(&self, state: &Self::State, player: usize) -> Value;

    /// The shape of [`Game::observation_tensor`]; fixed for the game's player count and options.
    fn observation_shape(&self) -> Vec<usize>;

    /// Writes seat `player`'s observation as a flat tensor into `out`, whose length is the product
    /// of [`Game::observation_shape`]: exactly the information of [`Game::observation`], in the
    /// layout of the game's contract (section "Observation tensor"). It must not allocate.
    fn observation_tensor(&self, state: &Self::State, player: usize, out: &mut [f32]);

    /// Whether a higher score is better (the default); `false` for games scored in penalties. Used
    /// by score-based rewards ([`crate::vector`], the search's `reward=margin`) and by the
    /// studies; the shared test kit checks that no winner has a worse score than a seat that lost.
    fn higher_score_is_better(&self) -> bool {
        true
    }

    /// The canonical full game state as JSON (the `state` part of `to_dict`), identical to the
    /// reference implementation's.
    fn state_json(&self, state: &Self::State) -> Value;

    /// A full state sampled from what seat `observer` can know in `state` (a "determinization"),
    /// for the search players of [`crate::search`]. The contract:
    /// (a) the result is reachable: its history would replay through [`crate::Session`];
    /// (b) its `observation(observer)` equals that of `state` exactly;
    /// (c) it agrees with every public event (cards that were revealed stay where they were seen);
    /// (d) it depends on `state` only through what `observer` can know, so two states that differ
    /// only in information hidden from `observer` give the same result for the same `rng` state
    /// (sample from the unseen cards in a canonical order: no peeking).
    /// For a perfect-information position it may return a clone. `None` (the default) means the
    /// game has no determinizer; search players then refuse to be created for it.
    fn determinize(
        &self,
        _state: &Self::State,
        _observer: usize,
        _rng: &mut SplitMix64,
    ) -> Option<Self::State> {
        None
    }

    /// The rule events (a bitmask over [`Game::rule_event_names`]) that the step from `before`
    /// by `action` to `after` triggered, found by comparing the two states. The default: none.
    fn rule_events(&self, _before: &Self::State, _action: u32, _after: &Self::State) -> u64 {
        0
    }

    /// Names of the rule events, bit `i` of [`Game::rule_events`] being `names[i]`.
    fn rule_event_names() -> &'static [&'static str] {
        &[]
    }

    /// Names of the built-in bots of this game besides `random`.
    fn bot_names() -> &'static [&'static str] {
        &[]
    }

    /// How each bot of [`Game::bot_names`] is written in a bot spec, in the same order: its
    /// name, followed by `[:X]` when it takes a parameter (`"greedy[:N]"`). The default: the
    /// names (no bot takes a parameter).
    fn bot_usages() -> &'static [&'static str] {
        Self::bot_names()
    }

    /// Creates the built-in bot `name` (with an optional parameter after a colon, e.g.
    /// `"forgetful:0.2"`), or `None` if this game has no such bot. `random` is provided generically.
    fn make_bot(&self, _name: &str, _param: Option<&str>) -> Option<Result<Box<dyn Bot<Self>>>> {
        None
    }
}

/// A built-in automatic player. Bots read only what their seat's observation contains.
pub trait Bot<G: Game>: Send {
    /// Called at the start of every game with the bot's seat and its own random stream.
    fn reset(&mut self, game: &G, seat: usize, rng: SplitMix64);

    /// Chooses one of `legal` (non-empty, sorted) for the bot's seat in `state`.
    fn act(&mut self, game: &G, state: &G::State, legal: &[u32]) -> u32;

    /// The action [`Bot::act`] would choose, with the same draws from the bot's stream, for a bot
    /// that can choose without the list of legal actions; `None` (the default, drawing nothing)
    /// when it needs the list. The batch runner asks this first and checks a returned action
    /// with [`Game::is_legal`], so such a bot (in a game with a fast [`Game::legal_bits`]) saves
    /// building the list at every decision.
    fn act_unlisted(&mut self, _game: &G, _state: &G::State) -> Option<u32> {
        None
    }

    /// Called after every applied action or chance outcome, so bots with memory can update it.
    fn observe(&mut self, _game: &G, _state: &G::State) {}

    /// The flag that ends the bot's current decision early once set, if its decisions can take
    /// long (a search checks it between iterations and answers from what it has explored); the
    /// per-step API sets it on an interrupt (Ctrl-C) and clears it afterwards. `None` (the
    /// default) for a bot that decides at once.
    fn stop_flag(&self) -> Option<Arc<AtomicBool>> {
        None
    }

    /// Whether [`Bot::observe`] does anything; runners skip the call for bots that say `false`.
    fn observes(&self) -> bool {
        true
    }

    /// What the bot's latest [`Bot::act`] found per legal action, for a bot that searches
    /// (`mcts`, `flatmc`); `None` (the default) for other bots, before the bot's first decision
    /// since its last [`Bot::reset`], and for a decision that needed no search (a single legal
    /// action). Built only when asked for, from what the search keeps until its next decision.
    fn search_stats(&self) -> Option<SearchStats> {
        None
    }
}

/// The statistics of one search decision ([`Bot::search_stats`]): one entry per legal action of
/// the decision in each list, in the order of `actions`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchStats {
    /// The legal actions of the decision, sorted.
    pub actions: Vec<u32>,
    /// Per action, the iterations (`mcts`) or playouts (`flatmc`) that tried it. Actions that
    /// share a choice (see `choices`) share its count.
    pub visits: Vec<u32>,
    /// Per action, the searching seat's mean reward over those visits (`NaN` without visits).
    pub values: Vec<f64>,
    /// Per action, the choice it was searched as: the action itself, except that with action
    /// classes (`mcts` with `classes=on`) the actions of one class share one choice (the class).
    pub choices: Vec<u32>,
    /// Iterations (`mcts`) or samples (`flatmc`) run; fewer than asked when the decision was
    /// interrupted.
    pub iterations: u32,
    /// The action the search picked: the one [`Bot::act`] returned (a caller that interrupted
    /// the decision may not have played it).
    pub chosen: u32,
}

/// A legal-action mask from a list of the legal actions: entry `a` of `mask` is `true` exactly
/// when `a` is one of `actions` (an action past the mask's end is left out).
#[inline]
pub fn write_action_mask(mask: &mut [bool], actions: impl IntoIterator<Item = u32>) {
    mask.fill(false);
    for a in actions {
        if let Some(entry) = mask.get_mut(a as usize) {
            *entry = true;
        }
    }
}

/// [`Game::legal_bits`] from a list of the legal actions: writes the set of `actions` into
/// `out`, clearing every other bit.
#[inline(always)]
pub fn legal_bits_of(out: &mut [u64], actions: impl IntoIterator<Item = u32>) {
    out.fill(0);
    for a in actions {
        if let Some(word) = out.get_mut(a as usize / 64) {
            *word |= 1 << (a % 64);
        }
    }
}

/// [`Game::legal_bits`] of a game whose legal actions all lie below 64: writes their set `set`
/// (bit `a` = action `a`) into `out`, clearing the rest.
#[inline(always)]
pub fn one_word_legal_bits(out: &mut [u64], set: u64) {
    if let Some((first, rest)) = out.split_first_mut() {
        *first = set;
        // Usually empty: no call of `memset` then.
        if !rest.is_empty() {
            rest.fill(0);
        }
    }
}

/// For bots: the first of `actions` whose `cost` is below `worst` and below that of every earlier
/// action (so the first one on a tie), or `None` when no cost is below `worst`.
#[inline]
pub fn cheapest<K: PartialOrd>(
    actions: &[u32],
    worst: K,
    mut cost: impl FnMut(u32) -> K,
) -> Option<u32> {
    let mut best = None;
    let mut best_cost = worst;
    for &a in actions {
        let c = cost(a);
        if c < best_cost {
            best_cost = c;
            best = Some(a);
        }
    }
    best
}

/// The `random` bot: uniform over the legal actions, using its own seeded stream.
#[derive(Clone, Debug, Default)]
pub struct RandomBot {
    rng: SplitMix64,
}

impl<G: Game> Bot<G> for RandomBot {
    fn reset(&mut self, _game: &G, _seat: usize, rng: SplitMix64) {
        self.rng = rng;
    }

    fn act(&mut self, _game: &G, _state: &G::State, legal: &[u32]) -> u32 {
        legal[self.rng.below(legal.len() as u64) as usize]
    }

    fn observes(&self) -> bool {
        false
    }
}

/// Writes the per-seat `values` into `out` as scores, for [`Game::scores`] of a game that keeps
/// its running points per seat.
#[inline]
pub fn write_scores<T: Copy + Into<i64>>(values: &[T], out: &mut [i64]) {
    for (o, &v) in out.iter_mut().zip(values) {
        *o = v.into();
    }
}

/// The seats whose value in `values` equals `best` as a bitset, for [`Game::winner_mask`] of a
/// game won by the best running points (`best` being their maximum, or their minimum for
/// penalties).
#[inline]
pub fn seats_with<T: Copy + PartialEq>(values: &[T], best: T) -> u64 {
    values
        .iter()
        .enumerate()
        .filter(|&(_, &v)| v == best)
        .fold(0, |m, (s, _)| m | 1 << s)
}

/// Checks a player count against [`Game::PLAYERS`], for [`Game::from_options`]: the error
/// is `"{game id}: players must be in {lo}..={hi}, got {players}"`.
pub fn check_players<G: Game>(players: usize) -> Result<()> {
    let (lo, hi) = G::PLAYERS;
    if (lo..=hi).contains(&players) {
        Ok(())
    } else {
        Err(crate::error::EngineError::InvalidOption(format!(
            "{}: players must be in {lo}..={hi}, got {players}",
            G::ID
        )))
    }
}

/// The built-in bot `bot` that takes no parameter: `make()`, or the error for a parameter given
/// anyway (`"{game id}: bot {bot} takes no parameter, got {param:?}"`).
pub fn bot_without_parameter<G: Game>(
    bot: &str,
    param: Option<&str>,
    make: impl FnOnce() -> Box<dyn Bot<G>>,
) -> Result<Box<dyn Bot<G>>> {
    match param {
        None => Ok(make()),
        Some(p) => Err(crate::error::EngineError::InvalidOption(format!(
            "{}: bot {bot} takes no parameter, got {p:?}",
            G::ID
        ))),
    }
}

/// The built-in bot `bot` that takes one number (`"{bot}:{value}"`): `make(value)`, a default
/// when no parameter is given, or the error that says what the parameter must be
/// (`"{game id}: bot {bot} takes {what} in {range} (e.g. \"{bot}:{example}\"), got {param:?}"`).
pub fn bot_with_number<G: Game, T: std::str::FromStr + PartialOrd + std::fmt::Display>(
    bot: &str,
    param: Option<&str>,
    (what, range, default, example): (&str, std::ops::RangeInclusive<T>, T, T),
    make: impl FnOnce(T) -> Box<dyn Bot<G>>,
) -> Result<Box<dyn Bot<G>>> {
    let Some(p) = param else {
        return Ok(make(default));
    };
    match p.trim().parse::<T>() {
        Ok(x) if range.contains(&x) => Ok(make(x)),
        _ => Err(crate::error::EngineError::InvalidOption(format!(
            "{}: bot {bot} takes {what} in {}..={} (e.g. \"{bot}:{example}\"), got {p:?}",
            G::ID,
            range.start(),
            range.end()
        ))),
    }
}

/// Writes, inside a game's `impl Game` block, the methods every game answers the same way from
/// its own fields and modules, so that the block spells out only the rules:
/// - `option_values` and `players` read the game's fields of those names, `num_actions` is
///   `$num_actions`;
/// - `action_label`, `observation`, `observation_shape`, `observation_tensor` and `state_json`
///   forward to the game's view methods `label`, `observation_json`, `tensor_size` (a flat
///   tensor), `write_tensor` and `state_value`;
/// - `determinize` forwards to the game's `$determinize(state, observer, rng)`;
/// - `rule_events` and `rule_event_names` forward to the game's `events` module
///   (`events::rule_events(game, before, action, after)` and `events::NAMES`, see
///   [`rule_events!`](crate::game::rule_events)).
///
/// A game whose player count or action count is not a field and a constant writes those two
/// itself and leaves `num_actions` out: `common_game_methods!(determinize: method)`.
macro_rules! common_game_methods {
    (num_actions: $num_actions:expr, determinize: $determinize:ident $(,)?) => {
        fn players(&self) -> usize {
            self.players
        }

        fn num_actions(&self) -> u32 {
            $num_actions
        }

        $crate::game::common_game_methods!(determinize: $determinize);
    };
    (determinize: $determinize:ident $(,)?) => {
        fn option_values(&self) -> &$crate::options::OptionValues {
            &self.option_values
        }

        fn action_label(&self, state: &Self::State, action: u32) -> String {
            self.label(state, action)
        }

        fn observation(&self, state: &Self::State, player: usize) -> serde_json::Value {
            self.observation_json(state, player)
        }

        fn observation_shape(&self) -> Vec<usize> {
            vec![self.tensor_size()]
        }

        fn observation_tensor(&self, state: &Self::State, player: usize, out: &mut [f32]) {
            self.write_tensor(state, player, out);
        }

        fn state_json(&self, state: &Self::State) -> serde_json::Value {
            self.state_value(state)
        }

        fn determinize(
            &self,
            state: &Self::State,
            observer: usize,
            rng: &mut $crate::rng::SplitMix64,
        ) -> Option<Self::State> {
            Some(self.$determinize(state, observer, rng))
        }

        fn rule_events(&self, before: &Self::State, action: u32, after: &Self::State) -> u64 {
            events::rule_events(self, before, action, after)
        }

        fn rule_event_names() -> &'static [&'static str] {
            events::NAMES
        }
    };
}
pub(crate) use common_game_methods;

/// Writes, inside a game's `impl Game` block, `bot_names`, `bot_usages` and `make_bot` from one
/// table of the game's built-in bots, in the order `bot_names` lists them. A bot without a
/// parameter is `"name" => constructor expression`; a bot that takes one number (see
/// [`bot_with_number`]) names it and gives what it is, its range, its default and an example,
/// then a function (or closure) from the number to the bot:
///
/// ```ignore
/// builtin_bots! {
///     "memory" => MemoryBot::perfect(),
///     "forgetful" [P: "a forgetting probability", 0.0..=1.0, default DEFAULT_FORGET, example 0.2]
///         => MemoryBot::forgetful,
/// }
/// ```
///
/// `bot_usages` then spells the second one `forgetful[:P]`.
macro_rules! builtin_bots {
    ($(
        $name:literal
        $([$param:ident: $what:literal, $range:expr, default $default:expr, example $example:expr])?
        => $make:expr
    ),+ $(,)?) => {
        fn bot_names() -> &'static [&'static str] {
            &[$($name),+]
        }

        fn bot_usages() -> &'static [&'static str] {
            &[$(concat!($name $(, "[:", stringify!($param), "]")?)),+]
        }

        fn make_bot(
            &self,
            name: &str,
            param: Option<&str>,
        ) -> Option<$crate::error::Result<Box<dyn $crate::game::Bot<Self>>>> {
            match name {
                $($name => Some($crate::game::builtin_bots!(
                    @make name, param, $make $(, ($what, $range, $default, $example))?
                )),)+
                _ => None,
            }
        }
    };
    (@make $name:ident, $param:ident, $make:expr) => {
        $crate::game::bot_without_parameter($name, $param, || Box::new($make))
    };
    (@make $name:ident, $param:ident, $make:expr, $spec:expr) => {
        $crate::game::bot_with_number($name, $param, $spec, |x| Box::new(($make)(x)))
    };
}
pub(crate) use builtin_bots;

/// Declares a game's rule events once, in bit order: `NAMES` (bit `i` of
/// [`Game::rule_events`] is `NAMES[i]`, for [`Game::rule_event_names`]) and a `u64` constant with
/// each event's bit, e.g. `rule_events! { TIED_BID = "tied bid" }` (`rule_events! {}` for a
/// game without any).
macro_rules! rule_events {
    ($($(#[$doc:meta])* $bit:ident = $name:literal),* $(,)?) => {
        /// Rule event names, bit `i` = `NAMES[i]`.
        pub(super) const NAMES: &[&str] = &[$($name),*];

        /// The position of every event in `NAMES`.
        #[allow(non_camel_case_types, clippy::upper_case_acronyms, dead_code)]
        enum EventIndex {
            $($bit),*
        }

        $(
            $(#[$doc])*
            #[allow(dead_code)]
            const $bit: u64 = 1 << EventIndex::$bit as u32;
        )*
    };
}
pub(crate) use rule_events;

/// The length of `snake_case(name)` for a `CamelCase` identifier (see [`snake_case`]).
pub const fn snake_case_len(name: &str) -> usize {
    let bytes = name.as_bytes();
    let mut len = bytes.len();
    let mut i = 1;
    while i < bytes.len() {
        if bytes[i].is_ascii_uppercase() {
            len += 1;
        }
        i += 1;
    }
    len
}

/// The `snake_case` spelling of a `CamelCase` identifier (`ChooseTide` → `choose_tide`), as
/// bytes, at compile time; `N` is [`snake_case_len`] of it.
pub const fn snake_case<const N: usize>(name: &str) -> [u8; N] {
    let bytes = name.as_bytes();
    let mut out = [0u8; N];
    let (mut i, mut j) = (0, 0);
    while i < bytes.len() && j < N {
        if bytes[i].is_ascii_uppercase() && i > 0 {
            out[j] = b'_';
            j += 1;
        }
        if j < N {
            out[j] = bytes[i].to_ascii_lowercase();
            j += 1;
        }
        i += 1;
    }
    out
}

/// Declares a game's phase enum (deriving `Clone, Copy, Debug, PartialEq, Eq, Hash`) with what
/// the views need of it: `Phase::name`, the phase as the observation and the canonical state
/// name it (the variant in `snake_case`: `ChooseTide` is `"choose_tide"`), and `Phase::COUNT`
/// for the tensor's one-hot of `phase as usize` (phases in declaration order).
macro_rules! phases {
    (
        $(#[$meta:meta])*
        $vis:vis enum $phase:ident {
            $($(#[$doc:meta])* $variant:ident),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        $vis enum $phase {
            $($(#[$doc])* $variant),+
        }

        impl $phase {
            /// The number of phases: the size of the tensor's one-hot of `phase as usize`.
            const COUNT: usize = [$(stringify!($variant)),+].len();

            /// The phase as the observation and the canonical state name it.
            fn name(self) -> &'static str {
                match self {
                    $(Self::$variant => {
                        const BYTES: [u8; $crate::game::snake_case_len(stringify!($variant))] =
                            $crate::game::snake_case(stringify!($variant));
                        const NAME: &str = match std::str::from_utf8(&BYTES) {
                            Ok(name) => name,
                            Err(_) => stringify!($variant),
                        };
                        NAME
                    })+
                }
            }
        }
    };
}
pub(crate) use phases;

#[cfg(test)]
mod tests {
    /// A game whose contract lists no rule events declares an empty list.
    mod no_events {
        crate::game::rule_events! {}
    }

    #[test]
    fn a_game_may_declare_no_rule_events() {
        assert!(no_events::NAMES.is_empty());
    }

    /// Phase names are their variants in `snake_case`, as the views print them.
    #[test]
    fn phase_names_are_snake_case() {
        phases! {
            enum Phase {
                Deal,
                ChooseTide,
                Over,
            }
        }
        assert_eq!(Phase::Deal.name(), "deal");
        assert_eq!(Phase::ChooseTide.name(), "choose_tide");
        assert_eq!(Phase::Over.name(), "over");
        assert_eq!(Phase::COUNT, 3);
    }
}
