//! Search players over determinizations: information-set Monte Carlo tree search
//! (`mcts`, see [`IsmctsBot`]) and flat Monte Carlo (`flatmc`, see [`FlatMcBot`]).
//!
//! Both sample full states with [`Game::determinize`], so they only work for games that provide a
//! determinizer; [`make_search_bot`] refuses to create them for any other game. The state a bot's
//! `act` receives (and, for `mcts`, the earlier states it remembers) is read only through
//! `determinize` and `observation_tensor` for the bot's own seat and the seat to move: a decision
//! can therefore not depend on anything the bot's seat cannot see.
//!
//! # Rewards
//! With `reward=win` (the generic default) a finished playout is scored by its winners: each
//! winner gets `1 / (number of winners)`, every other seat `0` (see [`win_shares`]). The reward is
//! thus in `0..=1`, comparable across games, and a shared win is worth less than a sole one. With
//! `reward=margin` it is half that win share plus half a score margin in `0..1`
//! ([`margin_rewards`]): winning still counts most, but among playouts with the same winners a
//! better score counts more (more points; fewer penalty cards in Trafficars), a much less noisy
//! signal where single decisions rarely change the winner.
//!
//! # Bot specs
//! `"mcts:iterations=2000,c=0.7,rollout=random|greedy,opponents=tree|rollout,reward=win|margin,prior=0,classes=off|on,crn=off|on"`
//! and `"flatmc:samples=100,rollout=random,reward=win"`; every parameter is optional (defaults in
//! [`MctsParams::for_game`] and [`FlatMcParams`]). `rollout=greedy`
//! plays the playouts with the game's heuristic bot: its built-in `greedy` bot, else its first
//! built-in bot (Trafficars memory: `memory`), or uniformly at random when it has none.

mod batch;
mod flatmc;
mod mcts;
pub mod toy;

#[cfg(test)]
mod tests;

pub use batch::{decide_all, decide_seeded, Decision};
pub use flatmc::{FlatMcBot, FlatMcParams};
pub use mcts::{IsmctsBot, MctsParams, Opponents};

use crate::error::{EngineError, Result};
use crate::game::{Bot, Game, CHANCE, TERMINAL};
use crate::rng::SplitMix64;

/// The largest `iterations` / `samples` value a search bot accepts (tree indices are `u32`).
pub const MAX_BUDGET: u64 = 100_000_000;

/// How a playout chooses the actions of every seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RolloutPolicy {
    /// Uniformly random legal actions, drawn as [`Game::random_action`] does.
    Random,
    /// The game's heuristic bot for every seat: `greedy`, else the game's first built-in bot
    /// (uniform when the game has none).
    Greedy,
}

/// What a finished playout is worth to each seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reward {
    /// The win share: `1 / (number of winners)` for a winner, `0` otherwise ([`win_shares`]).
    Win,
    /// Half the win share plus half a score margin in `0..=1` ([`margin_rewards`]): a sole win
    /// still counts most, and among playouts with the same winner more points count more, which
    /// separates actions whose effect on the result is small but sure (e.g. taking two cards
    /// early in the memory game) from noise.
    Margin,
}

/// Creates the search bot `name` (`mcts` or `flatmc`) with its parameter list `params` (the part of
/// the spec after the colon, e.g. `"iterations=2000,c=0.7"`), or `None` for any other name.
///
/// Fails with [`EngineError::InvalidOption`] on an unknown or repeated parameter, a malformed or
/// out-of-range value, or a game that has no determinizer.
pub fn make_search_bot<G: Game>(
    game: &G,
    name: &str,
    params: Option<&str>,
) -> Option<Result<Box<dyn Bot<G>>>> {
    match name {
        "mcts" => Some(
            MctsParams::parse::<G>(params)
                .and_then(|p| IsmctsBot::new(game, p))
                .map(|b| Box::new(b) as Box<dyn Bot<G>>),
        ),
        "flatmc" => Some(
            FlatMcParams::parse::<G>(params)
                .and_then(|p| FlatMcBot::new(game, p))
                .map(|b| Box::new(b) as Box<dyn Bot<G>>),
        ),
        _ => None,
    }
}

/// The names of the search bots, in the order `cardtable.games()` lists them.
pub const SEARCH_BOTS: &[&str] = &["flatmc", "mcts"];

/// How each bot of [`SEARCH_BOTS`] is written in a bot spec, with every key its parameters take
/// (see [`FlatMcParams::parse`] and [`MctsParams::parse`]; a test holds the keys to theirs).
pub const SEARCH_BOT_USAGES: &[&str] = &[
    "flatmc[:samples=N,rollout=random|greedy,reward=win|margin]",
    "mcts[:iterations=N,c=X,rollout=random|greedy,opponents=tree|rollout,reward=win|margin,\
     prior=W,classes=on|off,widen=W,crn=on|off]",
];

/// Whether `game` has a determinizer (probed on its initial state for seat 0), i.e. whether the
/// search bots can play it.
pub fn has_determinizer<G: Game>(game: &G) -> bool {
    let state = game.initial_state();
    let mut rng = SplitMix64::new(0);
    game.determinize(&state, 0, &mut rng).is_some()
}

/// Fails unless `game` has a determinizer (see [`has_determinizer`]).
fn require_determinizer<G: Game>(game: &G, bot: &str) -> Result<()> {
    if has_determinizer(game) {
        return Ok(());
    }
    Err(EngineError::InvalidOption(format!(
        "{}: bot {bot} needs a determinizer, which this game does not provide",
        G::ID
    )))
}

/// The `key=value` pairs of a parameter list, checked against `known` keys: an error names the
/// game, the bot and the offending item. `None` gives no pairs.
fn parse_pairs<'a, G: Game>(
    bot: &str,
    params: Option<&'a str>,
    known: &[&str],
) -> Result<Vec<(&'a str, &'a str)>> {
    let err = |m: String| EngineError::InvalidOption(format!("{}: bot {bot}: {m}", G::ID));
    let Some(params) = params else {
        return Ok(Vec::new());
    };
    let mut pairs: Vec<(&str, &str)> = Vec::new();
    for item in params.split(',') {
        let Some((key, value)) = item.split_once('=') else {
            return Err(err(format!(
                "expected key=value, got {item:?} (parameters: {})",
                known.join(", ")
            )));
        };
        let (key, value) = (key.trim(), value.trim());
        if !known.contains(&key) {
            return Err(err(format!(
                "unknown parameter {key:?} (parameters: {})",
                known.join(", ")
            )));
        }
        if pairs.iter().any(|&(k, _)| k == key) {
            return Err(err(format!("parameter {key:?} given twice")));
        }
        pairs.push((key, value));
    }
    Ok(pairs)
}

/// A positive count of at most [`MAX_BUDGET`].
fn parse_budget<G: Game>(bot: &str, key: &str, value: &str) -> Result<u32> {
    match value.parse::<u64>() {
        Ok(n) if (1..=MAX_BUDGET).contains(&n) => Ok(n as u32),
        _ => Err(EngineError::InvalidOption(format!(
            "{}: bot {bot}: {key} must be an integer in 1..={MAX_BUDGET}, got {value:?}",
            G::ID
        ))),
    }
}

/// The value named `value` among `choices` for parameter `key` of `bot`.
fn parse_choice<G: Game, T: Copy>(
    bot: &str,
    key: &str,
    value: &str,
    choices: &[(&str, T)],
) -> Result<T> {
    match choices.iter().find(|(name, _)| *name == value) {
        Some(&(_, v)) => Ok(v),
        None => Err(EngineError::InvalidOption(format!(
            "{}: bot {bot}: {key} must be {}, got {value:?}",
            G::ID,
            choices
                .iter()
                .map(|(name, _)| *name)
                .collect::<Vec<_>>()
                .join(" or ")
        ))),
    }
}

fn parse_reward<G: Game>(bot: &str, value: &str) -> Result<Reward> {
    parse_choice::<G, _>(
        bot,
        "reward",
        value,
        &[("win", Reward::Win), ("margin", Reward::Margin)],
    )
}

fn parse_rollout<G: Game>(bot: &str, value: &str) -> Result<RolloutPolicy> {
    parse_choice::<G, _>(
        bot,
        "rollout",
        value,
        &[
            ("random", RolloutPolicy::Random),
            ("greedy", RolloutPolicy::Greedy),
        ],
    )
}

/// The first listed action (`0` for an empty list, which callers never pass).
fn first_or_zero(legal: &[u32]) -> u32 {
    legal.first().copied().unwrap_or(0)
}

/// Writes each seat's reward of the terminal `state` into `out`: `1 / (number of winners)` for a
/// winner, `0` otherwise (all `0` when nobody won).
pub fn win_shares<G: Game>(game: &G, state: &G::State, out: &mut [f64]) {
    let mask = game.winner_mask(state);
    let share = match mask.count_ones() {
        0 => 0.0,
        k => 1.0 / f64::from(k),
    };
    for (seat, r) in out.iter_mut().enumerate() {
        let won = u32::try_from(seat)
            .ok()
            .and_then(|s| mask.checked_shr(s))
            .is_some_and(|m| m & 1 == 1);
        *r = if won { share } else { 0.0 };
    }
}

/// Writes each seat's [`Reward::Margin`] reward of the terminal `state` into `out`:
/// `(win share + m) / 2` with `m = 1/2 + (s_i - mean of the other seats' scores) / (2 (1 + sum of
/// |s_j|))`, which lies strictly between 0 and 1 (`scores` is a buffer of one entry per seat).
/// The scores `s` are the game's scores where a higher score is better and their negations where
/// a lower one is ([`Game::higher_score_is_better`]: Trafficars' penalty cards), so more is
/// always better for the seat; `scores` holds them so on return.
pub fn margin_rewards<G: Game>(game: &G, state: &G::State, scores: &mut [i64], out: &mut [f64]) {
    win_shares(game, state, out);
    game.scores(state, scores);
    if !game.higher_score_is_better() {
        for s in scores.iter_mut() {
            *s = -*s;
        }
    }
    let n = scores.len();
    if n < 2 {
        return;
    }
    let total: i64 = scores.iter().sum();
    let scale = 2.0 * (1.0 + scores.iter().map(|s| s.unsigned_abs() as f64).sum::<f64>());
    for (r, &s) in out.iter_mut().zip(scores.iter()) {
        let others = (total - s) as f64 / (n - 1) as f64;
        let m = 0.5 + (s as f64 - others) / scale;
        *r = 0.5 * (*r + m);
    }
}

/// One heuristic bot per seat: the game's `greedy` bot, else its first built-in bot; empty when
/// the game has none.
pub(crate) fn heuristic_bots<G: Game>(game: &G) -> Result<Vec<Box<dyn Bot<G>>>> {
    let names = G::bot_names();
    let heuristic = names
        .iter()
        .find(|&&n| n == "greedy")
        .or_else(|| names.first())
        .copied()
        .unwrap_or("greedy");
    let mut bots = Vec::new();
    for _ in 0..game.players() {
        match game.make_bot(heuristic, None) {
            Some(bot) => bots.push(bot?),
            None => return Ok(Vec::new()),
        }
    }
    Ok(bots)
}

/// Plays determinized states to the end and scores them; owns every buffer a playout needs, so a
/// playout allocates nothing.
///
/// A random playout is [`Game::random_playout`], the batch runner's own whole-game loop (a game's
/// dedicated one where it has one), seeded like a batch game: one draw of the search's stream is
/// the seed of the playout's chance stream, and each seat's stream is derived from it as the
/// batch runner derives a game's seat streams ([`crate::step::reset_random_seats`]). A greedy
/// playout steps the game with the heuristic bot of the seat to move, chance resolved with the
/// search's stream.
pub(crate) struct Playout<G: Game> {
    /// One `greedy` bot per seat, or empty for random playouts.
    greedy: Vec<Box<dyn Bot<G>>>,
    /// Whether any of the `greedy` bots remembers what it sees.
    observing: bool,
    /// Each seat's stream of a random playout.
    seats: Vec<SplitMix64>,
    legal: Vec<u32>,
    chance: Vec<(u32, u64)>,
    /// Each seat's reward of the last finished playout.
    pub(crate) rewards: Vec<f64>,
    /// How a finished playout is scored.
    reward: Reward,
    /// Each seat's score of the last finished playout, negated where lower is better (for
    /// [`Reward::Margin`]).
    scores: Vec<i64>,
    /// Steps played by the playout policy so far (for speed measurements).
    pub(crate) steps: u64,
}

impl<G: Game> Playout<G> {
    /// Buffers for `game`; `policy` greedy uses the game's heuristic bot if it has one.
    pub(crate) fn new(game: &G, policy: RolloutPolicy, reward: Reward) -> Result<Self> {
        let greedy = match policy {
            RolloutPolicy::Greedy => heuristic_bots(game)?,
            RolloutPolicy::Random => Vec::new(),
        };
        Ok(Self {
            observing: greedy.iter().any(|b| b.observes()),
            greedy,
            seats: vec![SplitMix64::default(); game.players()],
            legal: Vec::new(),
            chance: Vec::new(),
            rewards: vec![0.0; game.players()],
            reward,
            scores: vec![0; game.players()],
            steps: 0,
        })
    }

    /// Resolves a chance node of `state` with `rng` and applies the outcome.
    #[inline]
    pub(crate) fn chance_step(&mut self, game: &G, state: &mut G::State, rng: &mut SplitMix64) {
        let outcome = game.sample_chance(state, rng, &mut self.chance);
        game.apply(state, outcome);
    }

    /// Plays `state` to its end with the playout policy (chance resolved with `rng`), then writes
    /// each seat's reward into [`Playout::rewards`].
    pub(crate) fn run(&mut self, game: &G, state: &mut G::State, rng: &mut SplitMix64) {
        self.start(game, rng);
        self.run_on(game, state, rng);
    }

    /// Writes each seat's reward of the finished `state` into [`Playout::rewards`].
    pub(crate) fn score(&mut self, game: &G, state: &G::State) {
        match self.reward {
            Reward::Win => win_shares(game, state, &mut self.rewards),
            Reward::Margin => margin_rewards(game, state, &mut self.scores, &mut self.rewards),
        }
    }

    /// Like [`Playout::run`], but keeps the policy's bots as [`Playout::start`] and
    /// [`Playout::observe`] left them (for a playout that continues a walk).
    pub(crate) fn run_on(&mut self, game: &G, state: &mut G::State, rng: &mut SplitMix64) {
        let steps = self.rollout(game, state, rng);
        self.steps += steps;
        self.score(game, state);
    }

    /// Plays `state` to its end with the playout policy and returns the steps played; the whole
    /// rollout and nothing else (never inlined, so that a profile can tell its cost apart from
    /// the search's). It runs with the CPU's bit instructions, as the batch runner does.
    #[inline(never)]
    fn rollout(&mut self, game: &G, state: &mut G::State, rng: &mut SplitMix64) -> u64 {
        if self.greedy.is_empty() {
            let seed = rng.next();
            let mut chance = SplitMix64::new(seed);
            crate::step::reset_random_seats(&mut self.seats, seed);
            let (seats, legal, outcomes) = (&mut self.seats, &mut self.legal, &mut self.chance);
            // A seat without a legal action (which no game has) ends the playout where it
            // stands; its steps are then not counted.
            return crate::cpu::with_bit_instructions(
                #[inline(always)]
                || game.random_playout(state, &mut chance, seats, legal, outcomes),
            )
            .map_or(0, |(decisions, chance_steps)| {
                u64::from(decisions) + u64::from(chance_steps)
            });
        }
        crate::cpu::with_bit_instructions(
            #[inline(always)]
            || self.greedy_rollout(game, state, rng),
        )
    }

    /// [`Playout::rollout`] with the heuristic bots: each step resolves a chance node with `rng`
    /// or lets the bot of the seat to move choose among the legal actions, as the batch runner
    /// steps a game of those bots.
    #[inline(always)]
    fn greedy_rollout(&mut self, game: &G, state: &mut G::State, rng: &mut SplitMix64) -> u64 {
        let mut steps = 0;
        loop {
            match game.current_player(state) {
                TERMINAL => break,
                CHANCE => self.chance_step(game, state, rng),
                _ => match self.policy_action(game, state, rng) {
                    Some(action) => game.apply(state, action),
                    None => break,
                },
            }
            steps += 1;
            self.observe(game, state);
        }
        steps
    }

    /// Resets the policy's bots for a new walk (each with a stream drawn from `rng`).
    pub(crate) fn start(&mut self, game: &G, rng: &mut SplitMix64) {
        for (seat, bot) in self.greedy.iter_mut().enumerate() {
            bot.reset(game, seat, SplitMix64::new(rng.next()));
        }
    }

    /// Lets the policy's bots that remember see `state` (after a step taken outside the policy).
    pub(crate) fn observe(&mut self, game: &G, state: &G::State) {
        if !self.observing {
            return;
        }
        for bot in &mut self.greedy {
            if bot.observes() {
                bot.observe(game, state);
            }
        }
    }

    /// The action the playout policy takes for the seat to move in `state` (`None` when it has
    /// no legal action).
    #[inline]
    pub(crate) fn policy_action(
        &mut self,
        game: &G,
        state: &G::State,
        rng: &mut SplitMix64,
    ) -> Option<u32> {
        if self.greedy.is_empty() {
            return game.random_action(state, rng, &mut self.legal);
        }
        let mover = usize::try_from(game.current_player(state)).ok();
        // A bot that chooses without the list (`Bot::act_unlisted`) spares building it.
        let unlisted = mover
            .and_then(|s| self.greedy.get_mut(s))
            .and_then(|bot| bot.act_unlisted(game, state));
        if let Some(action) = unlisted {
            if game.is_legal(state, action) {
                return Some(action);
            }
        }
        game.legal_actions(state, &mut self.legal);
        let first = *self.legal.first()?;
        let action = match (unlisted, mover.and_then(|s| self.greedy.get_mut(s))) {
            (Some(action), _) => action,
            (None, Some(bot)) => bot.act(game, state, &self.legal),
            (None, None) => first,
        };
        // A built-in bot only ever returns a listed action; stay safe if one does not.
        Some(if self.legal.binary_search(&action).is_ok() {
            action
        } else {
            first
        })
    }
}
