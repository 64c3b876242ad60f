//! Vectorized environments for reinforcement learning: many games stepped together, with the
//! caller playing one or more "agent" seats and built-in bots playing the others (contract:
//! `docs/learning.md`, section `cardtable.VectorEnv`).
//!
//! Every call steps all environments at once (on a thread pool for large batches) and writes
//! observation tensors, legal-action masks and rewards into flat buffers. Chance nodes and the bots
//! are resolved inside, so the caller only ever sees decisions of agent seats. Output buffers with
//! an empty observation buffer skip the tensors (most of a step's cost in games with large
//! tensors); [`VectorEnv::observe_into`] then writes them for the envs and seats asked.
//!
//! Seeds: env `i`'s `k`-th game is the seeded game `derive_seed(derive_seed(seed, i), k)`, and the
//! bot in seat `q` draws from `SplitMix64::new(derive_seed(game_seed, q + 1))` (as in
//! [`crate::sim`]). Results never depend on the number of threads.
//!
//! Autoreset follows Gymnasium's "next step" mode: an env whose game ended reports it once (final
//! observation, reward, `terminated`), and the next step ignores its action and starts its next
//! game.
//!
//! It owns the envs, autoreset, rewards and the output buffers. Each game is advanced by
//! [`crate::step`]; this module must not step games or seed seats itself.

use crate::error::{
    checked_len, ensure_fits, indices, try_filled, try_with_capacity, EngineError, Result,
};
use crate::game::Game;
use crate::rng::{derive_seed, SplitMix64};
use crate::session::{AnySession, Session};
use crate::sim::{check_threads, make_bot, thread_pool};
use crate::step::{self, Stepped};
use rayon::prelude::*;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Consecutive games without any agent decision after which an env gives up (a configuration in
/// which agent seats never decide cannot be trained on).
const MAX_SKIPPED_GAMES: u32 = 1000;

/// Smallest batch that is stepped on the thread pool (smaller ones run on the calling thread).
const PARALLEL_MIN_ENVS: usize = 32;

/// How terminal rewards are computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RewardKind {
    /// +1 for the only winner, 0 for a shared win, −1 for a seat that did not win.
    Win,
    /// The seat's final score minus the best final score among the other seats (sign turned for
    /// games whose lower score is better).
    Score,
}

impl RewardKind {
    /// Parses `"win"` or `"score"`.
    pub fn parse(s: &str) -> Result<Self> {
        match s {
            "win" => Ok(Self::Win),
            "score" => Ok(Self::Score),
            _ => Err(EngineError::InvalidOption(format!(
                "reward must be \"win\" or \"score\", got {s:?}"
            ))),
        }
    }
}

/// What a vectorized environment runs.
#[derive(Clone, Debug)]
pub struct VectorConfig {
    /// Number of environments (games played side by side).
    pub num_envs: usize,
    /// The run's seed.
    pub seed: u64,
    /// The seats the caller plays (distinct, in range).
    pub agent_seats: Vec<usize>,
    /// One built-in bot spec per other seat, in increasing seat order.
    pub opponents: Vec<String>,
    /// The reward scheme.
    pub reward: RewardKind,
    /// Worker threads for large batches (`None`: all cores).
    pub threads: Option<usize>,
    /// Whether the seating turns from game to game: in env `i`'s game `k` the occupant of seat
    /// `s` of `agent_seats` and `opponents` sits at seat `(s + i + k) mod players`.
    pub rotate_seats: bool,
    /// Whether each env keeps its game's history, for [`VectorEnv::sessions`] (recording costs
    /// a few instructions a step).
    pub keep_histories: bool,
}

/// The buffers one `reset` or `step` fills, one row per env (row-major).
#[derive(Clone, Debug, Default)]
pub struct StepOutput {
    /// Observation tensors, `num_envs × observation size`, or empty: then none are written.
    pub obs: Vec<f32>,
    /// Legal-action masks, `num_envs × num_actions`.
    pub mask: Vec<bool>,
    /// The reward of the seat that made each env's last agent move, `num_envs`.
    pub rewards: Vec<f32>,
    /// Every seat's reward on this step, `num_envs × players`.
    pub all_rewards: Vec<f32>,
    /// Whether each env's game ended on this step, `num_envs`.
    pub terminated: Vec<bool>,
    /// The seat each observation belongs to, `num_envs`.
    pub seat: Vec<i64>,
    /// Whether each env started a new game on this step (after ending on the previous one).
    pub autoreset: Vec<bool>,
    /// Each env's game counter `k`.
    pub episode: Vec<i64>,
    /// Every seat's final score in the envs whose game ended on this step (0 in the other
    /// rows), `num_envs × players`.
    pub scores: Vec<i64>,
}

impl StepOutput {
    /// Zeroed buffers for `num_envs` rows.
    pub fn new(num_envs: usize, obs_size: usize, num_actions: usize, players: usize) -> Self {
        Self {
            obs: vec![0.0; num_envs * obs_size],
            mask: vec![false; num_envs * num_actions],
            rewards: vec![0.0; num_envs],
            all_rewards: vec![0.0; num_envs * players],
            terminated: vec![false; num_envs],
            seat: vec![0; num_envs],
            autoreset: vec![false; num_envs],
            episode: vec![0; num_envs],
            scores: vec![0; num_envs * players],
        }
    }

    /// Like [`StepOutput::new`], but fails with [`EngineError::TooLarge`] instead of aborting when
    /// the buffers cannot be allocated. Pass `obs_size` 0 for buffers without observations.
    pub fn try_new(
        num_envs: usize,
        obs_size: usize,
        num_actions: usize,
        players: usize,
    ) -> Result<Self> {
        let what = format!("the output buffers of {num_envs} envs");
        let hint = VECTOR_HINT;
        ensure_fits(
            Self::bytes(num_envs, obs_size, num_actions, players),
            &what,
            hint,
        )?;
        Ok(Self {
            obs: try_filled(
                checked_len(&[num_envs, obs_size], &what, hint)?,
                0.0,
                &what,
                hint,
            )?,
            mask: try_filled(
                checked_len(&[num_envs, num_actions], &what, hint)?,
                false,
                &what,
                hint,
            )?,
            rewards: try_filled(num_envs, 0.0, &what, hint)?,
            all_rewards: try_filled(
                checked_len(&[num_envs, players], &what, hint)?,
                0.0,
                &what,
                hint,
            )?,
            terminated: try_filled(num_envs, false, &what, hint)?,
            seat: try_filled(num_envs, 0, &what, hint)?,
            autoreset: try_filled(num_envs, false, &what, hint)?,
            episode: try_filled(num_envs, 0, &what, hint)?,
            scores: try_filled(
                checked_len(&[num_envs, players], &what, hint)?,
                0,
                &what,
                hint,
            )?,
        })
    }

    /// The bytes of the buffers for `num_envs` rows (`None` if that overflows a machine word).
    fn bytes(
        num_envs: usize,
        obs_size: usize,
        num_actions: usize,
        players: usize,
    ) -> Option<usize> {
        let row = obs_size
            .checked_mul(4)?
            .checked_add(num_actions)?
            .checked_add(players.checked_mul(4 + 8)?)?
            .checked_add(4 + 1 + 8 + 1 + 8)?;
        num_envs.checked_mul(row)
    }
}

/// Borrowed output buffers (e.g. the caller's arrays), laid out as in [`StepOutput`]: every call
/// overwrites every entry, so they need no clearing between calls.
#[derive(Debug)]
pub struct OutputSlices<'a> {
    /// Observation tensors, `num_envs × observation size`, or empty: then no tensor is written
    /// (see [`VectorEnv::observe_into`]).
    pub obs: &'a mut [f32],
    /// Legal-action masks, `num_envs × num_actions`.
    pub mask: &'a mut [bool],
    /// The reward of the seat that made each env's last agent move, `num_envs`.
    pub rewards: &'a mut [f32],
    /// Every seat's reward on this step, `num_envs × players`.
    pub all_rewards: &'a mut [f32],
    /// Whether each env's game ended on this step, `num_envs`.
    pub terminated: &'a mut [bool],
    /// The seat each observation belongs to, `num_envs`.
    pub seat: &'a mut [i64],
    /// Whether each env started a new game on this step, `num_envs`.
    pub autoreset: &'a mut [bool],
    /// Each env's game counter `k`, `num_envs`.
    pub episode: &'a mut [i64],
    /// Every seat's final score in the envs whose game ended on this step (0 in the other
    /// rows), `num_envs × players`.
    pub scores: &'a mut [i64],
}

impl StepOutput {
    /// The buffers as borrowed slices.
    pub fn slices(&mut self) -> OutputSlices<'_> {
        OutputSlices {
            obs: &mut self.obs,
            mask: &mut self.mask,
            rewards: &mut self.rewards,
            all_rewards: &mut self.all_rewards,
            terminated: &mut self.terminated,
            seat: &mut self.seat,
            autoreset: &mut self.autoreset,
            episode: &mut self.episode,
            scores: &mut self.scores,
        }
    }
}

/// What the error for a vector env too large to hold suggests.
const VECTOR_HINT: &str = "use fewer envs";

/// Row `j` of the output buffers of a run of envs (each at least as long as the run), whose
/// rewards and flags are cleared already ([`clear_rewards_and_flags`]): a step writes only the
/// ones that differ from that; [`write_rows`] writes the rest after all envs have stepped.
struct Row<'r, 'a> {
    out: &'r mut OutputSlices<'a>,
    j: usize,
    z: RowSizes,
}

impl Row<'_, '_> {
    /// Every seat's reward.
    #[inline(always)]
    fn all_rewards(&mut self) -> &mut [f32] {
        seat_row(self.out.all_rewards, self.j, self.z.players)
    }

    /// Every seat's final score.
    #[inline(always)]
    fn scores(&mut self) -> &mut [i64] {
        seat_row(self.out.scores, self.j, self.z.players)
    }

    /// Writes `value` into entry `j` of `buf` (a buffer of the run, so it is there).
    #[inline(always)]
    fn set<T>(buf: &mut [T], j: usize, value: T) {
        if let Some(x) = buf.get_mut(j) {
            *x = value;
        }
    }
}

/// Row `j` of a buffer of one entry per seat and env, `players` entries (empty if it is short).
#[inline(always)]
fn seat_row<T>(buf: &mut [T], j: usize, players: usize) -> &mut [T] {
    buf.get_mut(j * players..(j + 1) * players)
        .unwrap_or_default()
}

/// Clears the rewards, the scores and the flags of every row of `out` (a run of envs): most
/// steps leave them so, and one pass over the whole buffers costs less than a write per row.
fn clear_rewards_and_flags(out: &mut OutputSlices<'_>) {
    crate::tensor::fill_in_pieces(out.rewards, 0.0);
    crate::tensor::fill_in_pieces(out.all_rewards, 0.0);
    crate::tensor::fill_in_pieces(out.terminated, false);
    crate::tensor::fill_in_pieces(out.autoreset, false);
    crate::tensor::fill_in_pieces(out.scores, 0);
}

/// Writes what the rows of `envs` show after a step or a reset: the observation tensors (unless
/// the buffers have none), the masks, the seats and the game counters, one buffer after the
/// other (a tight loop per buffer costs less than all of them in the stepping loop).
#[inline(always)]
fn write_rows<G: Game>(game: &G, envs: &[Env<G>], out: &mut OutputSlices<'_>, z: RowSizes) {
    if z.obs != 0 {
        for (obs, env) in out.obs.chunks_exact_mut(z.obs).zip(envs) {
            game.observation_tensor(&env.state, env.seat, obs);
        }
    }
    // Rows of `z.actions` entries (at least one: every game has an action).
    let masks = out.mask.chunks_exact_mut(z.actions.max(1));
    if z.actions <= 64 {
        // One word of legal set per env (every game but the largest).
        for (mask, env) in masks.zip(envs) {
            write_mask_word(env.legal_set.first().copied().unwrap_or(0), mask);
        }
    } else {
        for (mask, env) in masks.zip(envs) {
            write_mask(&env.legal_set, mask);
        }
    }
    for ((seat, episode), env) in out.seat.iter_mut().zip(out.episode.iter_mut()).zip(envs) {
        *seat = env.seat as i64;
        *episode = env.episode.map_or(0, |k| k as i64);
    }
}

/// The sizes of one row of the output buffers: observation values (0 for buffers without
/// observations), mask entries and rewards.
#[derive(Clone, Copy)]
struct RowSizes {
    obs: usize,
    actions: usize,
    players: usize,
}

/// The first `k` items of `s`, which keeps the rest (`None`, leaving `s` empty, if it is shorter).
fn split_front<'a, T>(s: &mut &'a mut [T], k: usize) -> Option<&'a mut [T]> {
    let (front, rest) = std::mem::take(s).split_at_mut_checked(k)?;
    *s = rest;
    Some(front)
}

/// The first `rows` rows of `out`, which keeps the rest (`None` if it is shorter).
fn split_rows<'a>(
    out: &mut OutputSlices<'a>,
    rows: usize,
    z: RowSizes,
) -> Option<OutputSlices<'a>> {
    Some(OutputSlices {
        obs: split_front(&mut out.obs, rows.checked_mul(z.obs)?)?,
        mask: split_front(&mut out.mask, rows.checked_mul(z.actions)?)?,
        rewards: split_front(&mut out.rewards, rows)?,
        all_rewards: split_front(&mut out.all_rewards, rows.checked_mul(z.players)?)?,
        terminated: split_front(&mut out.terminated, rows)?,
        seat: split_front(&mut out.seat, rows)?,
        autoreset: split_front(&mut out.autoreset, rows)?,
        episode: split_front(&mut out.episode, rows)?,
        scores: split_front(&mut out.scores, rows.checked_mul(z.players)?)?,
    })
}

/// `SPREAD[b]`: the mask entries of eight actions whose legal set is the byte `b` (entry `i` is
/// bit `i`), so that a mask is written eight entries at a time.
static SPREAD: [[bool; 8]; 256] = {
    let mut table = [[false; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let mut i = 0;
        while i < 8 {
            table[b][i] = b >> i & 1 == 1;
            i += 1;
        }
        b += 1;
    }
    table
};

/// Writes the legal set `set` ([`Game::legal_bits`], one bit per entry of `mask`) into `mask`,
/// for action spaces of more than one word: they are large and their legal sets sparse, so the
/// mask is cleared at once and the legal entries set one by one.
#[inline(always)]
fn write_mask(set: &[u64], mask: &mut [bool]) {
    mask.fill(false);
    for (w, &word) in set.iter().enumerate() {
        let mut rest = word;
        while rest != 0 {
            let a = w * 64 + rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if let Some(entry) = mask.get_mut(a) {
                *entry = true;
            }
        }
    }
}

/// Writes the bits of `word` into `entries` (at most 64), eight at a time.
#[inline(always)]
fn write_mask_word(word: u64, entries: &mut [bool]) {
    let len = entries.len();
    if len < 8 {
        for (i, entry) in entries.iter_mut().enumerate() {
            *entry = word >> i & 1 == 1;
        }
        return;
    }
    let mut rest = word;
    for eight in entries.chunks_exact_mut(8) {
        eight.copy_from_slice(&SPREAD[usize::from(rest as u8)]);
        rest >>= 8;
    }
    if len % 8 != 0 {
        // The last eight entries, overlapping the whole bytes before them with equal values.
        let byte = word.checked_shr((len - 8) as u32).unwrap_or(0) as u8;
        if let Some(last) = entries.get_mut(len - 8..) {
            last.copy_from_slice(&SPREAD[usize::from(byte)]);
        }
    }
}

/// Whether action `a` is in the legal set `set` ([`Game::legal_bits`]).
#[inline]
fn is_in(set: &[u64], a: u32) -> bool {
    set.get(a as usize / 64)
        .is_some_and(|w| w >> (a % 64) & 1 == 1)
}

/// One game slot.
struct Env<G: Game> {
    index: u64,
    state: G::State,
    rng: SplitMix64,
    /// Every seat: a built-in bot, or `None` for an agent seat (in the current game's seating).
    bots: Vec<Option<step::SeatBot<G>>>,
    /// The agent seats of the current game, as a bitset.
    agents: u64,
    /// How many seats on the current game's seating is turned from the configuration's.
    turned: usize,
    /// The seats whose bots observe (see [`step::reset_seats`]).
    observing: u64,
    /// Base seed of this env's games (`derive_seed(run seed, index)`).
    base_seed: u64,
    /// The game counter `k` (`None` before the first reset).
    episode: Option<u64>,
    /// The seat of the last observation: the agent seat to move, or the last agent mover.
    seat: usize,
    /// The game ended on the previous step; the next step starts a new one.
    done: bool,
    /// The action of the current step (checked before any env steps).
    action: u32,
    /// The legal actions of the agent seat to move as a bitset ([`Game::legal_bits`]); empty
    /// once the game is over.
    legal_set: Vec<u64>,
    /// Scratch space for the bots' and the games' lists of legal actions.
    legal: Vec<u32>,
    chance: Vec<(u32, u64)>,
    /// The final scores of the game that ended last (one per seat).
    scores: Vec<i64>,
    /// Whether [`step::start_game`] resolved the chance nodes that open the current game in one
    /// call, unrecorded (their outcomes are drawn again by [`VectorEnv::sessions`]).
    dealt_opening: bool,
    /// Every outcome and action of the current game after its opening, in order.
    history: Vec<u32>,
}

/// Shared read-only parts of a step.
struct Shared<'a, G: Game> {
    game: &'a G,
    reward: RewardKind,
    /// The configuration's agent seats as a bitset (bit `s` for seat `s`).
    agents: u64,
    /// Whether the seating turns from game to game ([`VectorConfig::rotate_seats`]).
    rotate: bool,
    /// Whether the envs keep their games' histories ([`VectorConfig::keep_histories`]).
    keep_histories: bool,
}

impl<G: Game> Env<G> {
    /// Starts game `k` (seeded) and plays it until an agent seat must decide, skipping games that
    /// end before that.
    // Not inlined into the stepping loop: it runs once per game.
    #[inline(never)]
    fn start(&mut self, sh: &Shared<'_, G>, mut k: u64) -> Result<()> {
        for _ in 0..MAX_SKIPPED_GAMES {
            let seed = derive_seed(self.base_seed, k);
            self.seat_for_game(sh, k);
            self.history.clear();
            let opening;
            (self.observing, opening) = step::start_game(
                sh.game,
                seed,
                &mut self.state,
                &mut self.rng,
                &mut self.bots,
                &mut self.chance,
            );
            self.dealt_opening = opening > 0;
            self.episode = Some(k);
            self.done = false;
            if let Some(seat) = self.advance(sh)? {
                self.seat = seat;
                return Ok(());
            }
            k += 1;
        }
        Err(EngineError::InvalidState(format!(
            "{}: env {}: {MAX_SKIPPED_GAMES} games in a row ended before any agent seat had to \
             decide",
            G::ID,
            self.index
        )))
    }

    /// Plays chance and bots until an agent seat must decide (returns it, with `legal_set`
    /// filled) or the game is over (returns `None`, with `legal_set` cleared).
    #[inline(always)]
    fn advance(&mut self, sh: &Shared<'_, G>) -> Result<Option<usize>> {
        let seat = self.next_agent(sh)?;
        match seat {
            Some(seat) => {
                sh.game
                    .legal_bits(&self.state, &mut self.legal_set, &mut self.legal);
                // The first word decides at once in almost every case.
                if self.legal_set.first().is_some_and(|&w| w == 0)
                    && self.legal_set.iter().all(|&w| w == 0)
                {
                    return Err(step::StepError::NoLegalAction(seat as u32).into_error::<G>());
                }
            }
            None => self.legal_set.fill(0),
        }
        Ok(seat)
    }

    /// Plays chance and bots until an agent seat must decide (returns it) or the game is over
    /// (returns `None`). An agent seat to move stops it before [`step::step`], which would list
    /// its legal actions: the mask is written from [`Game::legal_bits`] instead.
    #[inline(always)]
    fn next_agent(&mut self, sh: &Shared<'_, G>) -> Result<Option<usize>> {
        let mut applied = 0;
        loop {
            let player = sh.game.current_player(&self.state);
            if let Ok(seat) = u32::try_from(player) {
                if self.agents.checked_shr(seat).unwrap_or(0) & 1 == 1 {
                    return Ok(Some(seat as usize));
                }
            }
            let stepped = step::step(
                sh.game,
                &mut self.state,
                &mut self.rng,
                &mut self.bots,
                self.observing,
                &mut self.legal,
                &mut self.chance,
                &mut applied,
            )
            .map_err(step::StepError::into_error::<G>)?;
            match stepped {
                Stepped::Terminal => return Ok(None),
                Stepped::External => return Ok(Some(sh.game.current_player(&self.state) as usize)),
                Stepped::Chance | Stepped::Decision if sh.keep_histories => {
                    self.history.push(applied)
                }
                Stepped::Chance | Stepped::Decision => {}
            }
        }
    }

    /// Writes every seat's terminal reward into `out` (the margin from the final scores that
    /// `self.scores` holds).
    fn rewards(&self, sh: &Shared<'_, G>, out: &mut [f32]) {
        let game = sh.game;
        match sh.reward {
            RewardKind::Win => {
                let winners = game.winner_mask(&self.state);
                let sole = winners.count_ones() == 1;
                for (s, r) in out.iter_mut().enumerate() {
                    let won = s < 64 && winners >> s & 1 == 1;
                    *r = if !won {
                        -1.0
                    } else if sole {
                        1.0
                    } else {
                        0.0
                    };
                }
            }
            RewardKind::Score => {
                let sign = if game.higher_score_is_better() { 1 } else { -1 };
                for (s, r) in out.iter_mut().enumerate() {
                    let best_other = (0..self.scores.len())
                        .filter(|&q| q != s)
                        .map(|q| sign * self.scores[q])
                        .max()
                        .unwrap_or(0);
                    let own = self.scores.get(s).map_or(0, |&x| sign * x);
                    *r = (own - best_other) as f32;
                }
            }
        }
    }

    /// Seats game `k`: the configuration's seating, turned `(index + k) mod players` seats on
    /// when the seating rotates.
    fn seat_for_game(&mut self, sh: &Shared<'_, G>, k: u64) {
        let n = self.bots.len();
        if !sh.rotate || n == 0 {
            self.agents = sh.agents;
            return;
        }
        let turn = (self.index.wrapping_add(k) % n as u64) as usize;
        self.bots.rotate_right((turn + n - self.turned) % n);
        self.turned = turn;
        self.agents = (0..n)
            .filter(|&s| sh.agents >> s & 1 == 1)
            .fold(0, |m, s| m | 1u64 << ((s + turn) % n));
    }

    /// Resets this env: game `k` of a new seed, or its next game.
    fn reset(&mut self, sh: &Shared<'_, G>) -> Result<()> {
        let k = self.episode.map_or(0, |k| k + 1);
        self.start(sh, k)
    }

    /// One step with its checked action, `self.action` (ignored if the game ended on the
    /// previous step).
    #[inline(always)]
    fn step(&mut self, sh: &Shared<'_, G>, row: &mut Row<'_, '_>) -> Result<()> {
        if self.done {
            let k = self.episode.map_or(0, |k| k + 1);
            self.start(sh, k)?;
            Row::set(row.out.autoreset, row.j, true);
            return Ok(());
        }
        let (actor, action) = (self.seat, self.action);
        step::apply_external(
            sh.game,
            &mut self.state,
            action,
            &mut self.bots,
            self.observing,
        );
        if sh.keep_histories {
            self.history.push(action);
        }
        match self.advance(sh)? {
            Some(seat) => self.seat = seat,
            None => {
                self.done = true;
                // The final scores, once: the output's and the margin reward's.
                sh.game.scores(&self.state, &mut self.scores);
                for (out, &score) in row.scores().iter_mut().zip(&self.scores) {
                    *out = score;
                }
                let all = row.all_rewards();
                self.rewards(sh, all);
                let reward = all.get(actor).copied().unwrap_or(0.0);
                Row::set(row.out.rewards, row.j, reward);
                Row::set(row.out.terminated, row.j, true);
            }
        }
        Ok(())
    }
}

/// A batch of environments for agents in some seats (see the module doc).
pub struct VectorEnv<G: Game> {
    game: Arc<G>,
    config: VectorConfig,
    envs: Vec<Env<G>>,
    obs_size: usize,
    pool: Option<rayon::ThreadPool>,
    /// Whether a reset or step failed after some envs had changed: the envs are then part-way
    /// and only a new reset may follow.
    broken: bool,
    /// The stop flags of the search bots seated in the envs ([`crate::game::Bot::stop_flag`]):
    /// raising them ends their decisions in progress (see [`VectorEnv::stop_flags`]).
    stops: Vec<Arc<AtomicBool>>,
}

debug_handle!(VectorEnv, config, obs_size, pool, broken);

/// The error of a step or observation after a failed reset or step.
fn broken_error() -> EngineError {
    EngineError::InvalidState(
        "a reset() or step() failed part-way through the envs; call reset() first".into(),
    )
}

impl<G: Game> VectorEnv<G> {
    /// Checks the configuration and creates the envs (call [`VectorEnv::reset`] before stepping).
    pub fn new(game: Arc<G>, config: VectorConfig) -> Result<Self> {
        let n = game.players();
        let bad = |m: String| Err(EngineError::InvalidOption(m));
        if config.num_envs == 0 {
            return bad("num_envs must be at least 1".into());
        }
        if config.agent_seats.is_empty() {
            return bad("agent_seats must name at least one seat".into());
        }
        let mut agent = vec![false; n];
        for &s in &config.agent_seats {
            match agent.get_mut(s) {
                None => {
                    return bad(format!(
                        "agent seat {s} is out of range {}",
                        indices(n as u64)
                    ))
                }
                Some(true) => return bad(format!("agent seat {s} is listed twice")),
                Some(a) => *a = true,
            }
        }
        let others = agent.iter().filter(|a| !**a).count();
        if config.opponents.len() != others {
            return bad(format!(
                "{}: {} opponent bots given for {others} non-agent seats",
                G::ID,
                config.opponents.len()
            ));
        }
        check_threads(config.threads)?;
        let mut specs: Vec<Option<String>> = vec![None; n];
        let mut it = config.opponents.iter();
        for (s, spec) in specs.iter_mut().enumerate() {
            if !agent[s] {
                *spec = it.next().cloned();
            }
        }
        for spec in specs.iter().flatten() {
            make_bot(&*game, spec)?;
        }
        let obs_size: usize = game.observation_shape().iter().product();
        let what = format!("a vector env of {} envs", config.num_envs);
        // One step's output buffers and the envs themselves must fit in memory together.
        let bytes = StepOutput::bytes(config.num_envs, obs_size, game.num_actions() as usize, n)
            .and_then(|b| {
                b.checked_add(config.num_envs.checked_mul(std::mem::size_of::<Env<G>>())?)
            });
        ensure_fits(bytes, &what, VECTOR_HINT)?;
        let mut envs = try_with_capacity(config.num_envs, &what, VECTOR_HINT)?;
        let words = game.num_actions().div_ceil(64) as usize;
        for i in 0..config.num_envs {
            let bots = step::optional_seats(&*game, &specs)?;
            envs.push(Env {
                index: i as u64,
                state: game.initial_state(),
                rng: SplitMix64::new(0),
                bots,
                observing: 0,
                base_seed: derive_seed(config.seed, i as u64),
                episode: None,
                seat: 0,
                done: false,
                action: 0,
                legal_set: vec![0; words],
                legal: Vec::new(),
                chance: Vec::new(),
                scores: vec![0; n],
                dealt_opening: false,
                history: Vec::new(),
                agents: 0,
                turned: 0,
            });
        }
        // A batch too small for the pool never uses it: no threads are started for it.
        let pool = match config.threads {
            Some(1) => None,
            _ if envs.len() < PARALLEL_MIN_ENVS => None,
            t => Some(thread_pool(t)?),
        };
        let stops = envs
            .iter()
            .flat_map(|env: &Env<G>| env.bots.iter().flatten())
            .filter_map(|bot| match bot {
                step::SeatBot::Other(bot) => bot.stop_flag(),
                step::SeatBot::Random(_) => None,
            })
            .collect();
        Ok(Self {
            game,
            config,
            envs,
            obs_size,
            pool,
            broken: false,
            stops,
        })
    }

    /// The stop flags of the search bots seated in the envs (empty without one). A caller that
    /// must end a long `step` or `reset` early (Ctrl-C) raises them from another thread: every
    /// decision in progress ends after its iteration, the call returns, and the caller then
    /// discards its output, lowers the flags and calls [`VectorEnv::mark_broken`].
    pub fn stop_flags(&self) -> Vec<Arc<AtomicBool>> {
        self.stops.clone()
    }

    /// Marks the envs as part-way (an interrupted call): only a reset may follow.
    pub fn mark_broken(&mut self) {
        self.broken = true;
    }

    /// Fresh output buffers for one call.
    pub fn output(&self) -> StepOutput {
        StepOutput::new(
            self.envs.len(),
            self.obs_size,
            self.game.num_actions() as usize,
            self.game.players(),
        )
    }

    /// Fresh output buffers for one call, or [`EngineError::TooLarge`] if memory is short.
    pub fn try_output(&self) -> Result<StepOutput> {
        StepOutput::try_new(
            self.envs.len(),
            self.obs_size,
            self.game.num_actions() as usize,
            self.game.players(),
        )
    }

    /// Fresh output buffers for one call, with an empty observation buffer unless
    /// `observations` (then calls write no tensors; see [`VectorEnv::observe_into`]), or
    /// [`EngineError::TooLarge`] if memory is short.
    pub fn try_output_with(&self, observations: bool) -> Result<StepOutput> {
        let mut out = StepOutput::try_new(
            self.envs.len(),
            if observations { self.obs_size } else { 0 },
            self.game.num_actions() as usize,
            self.game.players(),
        )?;
        if !observations {
            out.obs = Vec::new();
        }
        Ok(out)
    }

    /// Writes the observation tensor of seat `seats[j]` (or, without `seats`, of the seat of env
    /// `envs[j]`'s last observation, as a step writes it) in env `envs[j]`'s current game into
    /// row `j` of `out` (`envs.len() × observation size`). The values are exactly those a step
    /// with observations would have written. Fails, writing nothing, on an env or seat out of
    /// range, an env not reset yet, or sizes that do not match.
    pub fn observe_into(
        &self,
        envs: &[usize],
        seats: Option<&[usize]>,
        out: &mut [f32],
    ) -> Result<()> {
        let size = self.obs_size;
        let players = self.game.players();
        let bad = |m: String| Err(EngineError::InvalidOption(m));
        if seats.is_some_and(|s| s.len() != envs.len()) {
            return bad(format!(
                "{} seats given for {} envs",
                seats.map_or(0, <[usize]>::len),
                envs.len()
            ));
        }
        if envs.len().checked_mul(size) != Some(out.len()) {
            return bad(format!(
                "the observation buffer must hold {} rows of {size} values",
                envs.len()
            ));
        }
        if self.broken {
            return Err(broken_error());
        }
        for (j, &i) in envs.iter().enumerate() {
            let Some(env) = self.envs.get(i) else {
                return bad(format!(
                    "env {i} is out of range {}",
                    indices(self.envs.len() as u64)
                ));
            };
            if env.episode.is_none() {
                return Err(EngineError::InvalidState(
                    "call reset() before observe()".into(),
                ));
            }
            if let Some(&seat) = seats.and_then(|s| s.get(j)) {
                if seat >= players {
                    return bad(format!(
                        "seat {seat} is out of range {}",
                        indices(players as u64)
                    ));
                }
            }
        }
        if size == 0 {
            return Ok(());
        }
        let game = &*self.game;
        // The states and seats asked for (the envs themselves hold bots that are not `Sync`).
        let asked: Vec<(&G::State, usize)> = envs
            .iter()
            .enumerate()
            .filter_map(|(j, &i)| {
                let env = self.envs.get(i)?;
                let seat = seats.and_then(|s| s.get(j)).copied().unwrap_or(env.seat);
                Some((&env.state, seat))
            })
            .collect();
        let write = |j: usize, row: &mut [f32]| {
            if let Some(&(state, seat)) = asked.get(j) {
                game.observation_tensor(state, seat, row);
            }
        };
        match &self.pool {
            Some(pool) if envs.len() >= PARALLEL_MIN_ENVS => pool.install(|| {
                out.par_chunks_mut(size)
                    .enumerate()
                    .for_each(|(j, row)| write(j, row));
            }),
            _ => out
                .chunks_mut(size)
                .enumerate()
                .for_each(|(j, row)| write(j, row)),
        }
        Ok(())
    }

    /// [`VectorEnv::observe_into`] into a new buffer, or [`EngineError::TooLarge`] if memory is
    /// short.
    pub fn observe(&self, envs: &[usize], seats: Option<&[usize]>) -> Result<Vec<f32>> {
        let what = format!("the observations of {} envs", envs.len());
        let hint = "ask for fewer envs at a time";
        let len = checked_len(&[envs.len(), self.obs_size], &what, hint)?;
        let mut out = try_filled(len, 0.0, &what, hint)?;
        self.observe_into(envs, seats, &mut out)?;
        Ok(out)
    }

    /// The current game of each of `envs` as a [`Session`] with its whole history: every chance
    /// outcome, bot decision and agent action since the game's start, so that it replays, shows
    /// a bot (or [`crate::search::decide_all`]) the game from its start, and saves and loads
    /// like any other. It is seeded with the env's chance stream: playing on from it draws the
    /// outcomes the env would draw. An env whose game ended on the last step gives that finished
    /// game (its next step starts the next one).
    ///
    /// # Errors
    /// [`EngineError::InvalidOption`] for an env out of range; [`EngineError::InvalidState`]
    /// without [`VectorConfig::keep_histories`], before the first reset or after a failed one.
    pub fn sessions(&self, envs: &[usize]) -> Result<Vec<Session<G>>> {
        if !self.config.keep_histories {
            return Err(EngineError::InvalidState(
                "the envs keep no histories: make the vector env with keep_histories=True to \
                 get its games as states"
                    .into(),
            ));
        }
        if self.broken {
            return Err(broken_error());
        }
        envs.iter()
            .map(|&i| {
                let env = self.envs.get(i).ok_or_else(|| {
                    EngineError::InvalidOption(format!(
                        "env {i} is out of range {}",
                        indices(self.envs.len() as u64)
                    ))
                })?;
                let k = env.episode.ok_or_else(|| {
                    EngineError::InvalidState("call reset() before states()".into())
                })?;
                // The opening's outcomes, drawn again by a session seeded as the game was: it
                // steps the chance nodes before the first decision one at a time, the draws
                // `Game::resolve_chance` made in one call.
                let mut history = if env.dealt_opening {
                    let seed = derive_seed(env.base_seed, k);
                    Session::new(Arc::clone(&self.game), Some(seed))
                        .history()
                        .to_vec()
                } else {
                    Vec::new()
                };
                history.extend_from_slice(&env.history);
                Ok(Session::from_parts(
                    Arc::clone(&self.game),
                    env.state.clone(),
                    history,
                    Some(env.rng),
                ))
            })
            .collect()
    }

    /// Fails unless `out` has the sizes of [`VectorEnv::output`]'s buffers.
    fn check_output(&self, out: &OutputSlices<'_>) -> Result<()> {
        let (n, size) = (self.envs.len(), self.obs_size);
        let actions = self.game.num_actions() as usize;
        let players = self.game.players();
        let fits = (out.obs.is_empty() || out.obs.len() == n * size)
            && out.mask.len() == n * actions
            && out.rewards.len() == n
            && out.all_rewards.len() == n * players
            && out.terminated.len() == n
            && out.seat.len() == n
            && out.autoreset.len() == n
            && out.episode.len() == n
            && out.scores.len() == n * players;
        if fits {
            Ok(())
        } else {
            Err(EngineError::InvalidOption(format!(
                "output buffers must hold {n} rows of {size} observation values (or none), \
                 {actions} mask entries, {players} rewards and {players} scores"
            )))
        }
    }

    fn for_each_env(
        &mut self,
        mut out: OutputSlices<'_>,
        f: impl Fn(&mut Env<G>, &Shared<'_, G>, &mut Row<'_, '_>) -> Result<()> + Sync,
    ) -> Result<()> {
        let n = self.envs.len();
        let sizes = RowSizes {
            // Buffers without observations (checked: empty) give every row an empty tensor.
            obs: if out.obs.is_empty() { 0 } else { self.obs_size },
            actions: self.game.num_actions() as usize,
            players: self.game.players(),
        };
        let shared = Shared {
            game: &*self.game,
            reward: self.config.reward,
            agents: self
                .config
                .agent_seats
                .iter()
                .fold(0, |m, &s| m | 1u64.checked_shl(s as u32).unwrap_or(0)),
            rotate: self.config.rotate_seats,
            keep_histories: self.config.keep_histories,
        };
        let f = &f;
        let shared = &shared;
        // Steps `envs` with their rows `out`, then writes the rows. It runs with the CPU's bit
        // instructions (as the batch runner does); `f` must be an `#[inline(always)]` closure
        // for that to reach the games' code inlined into it.
        let run = |envs: &mut [Env<G>], mut out: OutputSlices<'_>| {
            let Some(mut out) = split_rows(&mut out, envs.len(), sizes) else {
                return Err(EngineError::InvalidOption(
                    "output buffers too short".into(),
                ));
            };
            clear_rewards_and_flags(&mut out);
            crate::cpu::with_bit_instructions(
                #[inline(always)]
                || {
                    for (j, env) in envs.iter_mut().enumerate() {
                        let mut row = Row {
                            out: &mut out,
                            j,
                            z: sizes,
                        };
                        f(env, shared, &mut row)?;
                    }
                    write_rows(shared.game, envs, &mut out, sizes);
                    Ok(())
                },
            )
        };
        match &self.pool {
            Some(pool) if n >= PARALLEL_MIN_ENVS => {
                let chunk = n.div_ceil(pool.current_num_threads().max(1) * 4).max(1);
                let mut parts = Vec::new();
                for envs in self.envs.chunks_mut(chunk) {
                    let rows = split_rows(&mut out, envs.len(), sizes).ok_or_else(|| {
                        EngineError::InvalidOption("output buffers too short".into())
                    })?;
                    parts.push((envs, rows));
                }
                pool.install(|| {
                    parts
                        .into_par_iter()
                        .try_for_each(|(envs, rows)| run(envs, rows))
                })
            }
            _ => run(&mut self.envs, out),
        }
    }

    /// Starts every env: game 0 of `seed` when given (the run restarts from that seed), else each
    /// env's next game.
    pub fn reset(&mut self, seed: Option<u64>, out: &mut StepOutput) -> Result<()> {
        self.reset_into(seed, out.slices())
    }

    /// [`VectorEnv::reset`] into borrowed buffers (e.g. the caller's arrays, reused from call to
    /// call); fails if they do not have the sizes of [`VectorEnv::output`]'s.
    pub fn reset_into(&mut self, seed: Option<u64>, out: OutputSlices<'_>) -> Result<()> {
        self.check_output(&out)?;
        if let Some(s) = seed {
            self.config.seed = s;
            for (i, env) in self.envs.iter_mut().enumerate() {
                env.base_seed = derive_seed(s, i as u64);
                env.episode = None;
            }
        }
        let result = self.for_each_env(
            out,
            #[inline(always)]
            |env, sh, _| env.reset(sh),
        );
        self.broken = result.is_err();
        result
    }

    /// Applies one action per env (all are checked before any is applied; envs whose game ended
    /// on the previous step ignore theirs and start their next game), then plays on until agent
    /// seats must decide again.
    pub fn step(&mut self, actions: &[i64], out: &mut StepOutput) -> Result<()> {
        self.step_into(actions, out.slices())
    }

    /// [`VectorEnv::step`] into borrowed buffers (e.g. the caller's arrays, reused from call to
    /// call); fails, applying nothing, if they do not have the sizes of [`VectorEnv::output`]'s.
    pub fn step_into(&mut self, actions: &[i64], out: OutputSlices<'_>) -> Result<()> {
        self.check_output(&out)?;
        if actions.len() != self.envs.len() {
            return Err(EngineError::IllegalAction(format!(
                "{} actions given for {} envs",
                actions.len(),
                self.envs.len()
            )));
        }
        if self.broken {
            return Err(broken_error());
        }
        // Every action is checked (and kept for the step) before any env steps.
        for (i, (env, &a)) in self.envs.iter_mut().zip(actions).enumerate() {
            if env.episode.is_none() {
                return Err(EngineError::InvalidState(
                    "call reset() before step()".into(),
                ));
            }
            if env.done {
                continue;
            }
            match u32::try_from(a).ok().filter(|&a| is_in(&env.legal_set, a)) {
                Some(a) => env.action = a,
                None => {
                    let legal: Vec<u32> = (0..env.legal_set.len() as u32 * 64)
                        .filter(|&b| is_in(&env.legal_set, b))
                        .collect();
                    return Err(EngineError::IllegalAction(format!(
                        "env {i}: action {a} is not legal for seat {}; legal: {legal:?}",
                        env.seat
                    )));
                }
            }
        }
        let result = self.for_each_env(
            out,
            #[inline(always)]
            |env, sh, row| env.step(sh, row),
        );
        self.broken = result.is_err();
        result
    }
}

/// Object-safe view of [`VectorEnv`].
pub trait AnyVectorEnv: Send {
    /// Number of envs.
    fn num_envs(&self) -> usize;
    /// Size of one observation tensor.
    fn observation_size(&self) -> usize;
    /// Fresh output buffers for one call.
    fn output(&self) -> StepOutput;
    /// See [`VectorEnv::try_output`].
    fn try_output(&self) -> Result<StepOutput>;
    /// See [`VectorEnv::try_output_with`].
    fn try_output_with(&self, observations: bool) -> Result<StepOutput>;
    /// See [`VectorEnv::observe`].
    fn observe(&self, envs: &[usize], seats: Option<&[usize]>) -> Result<Vec<f32>>;
    /// See [`VectorEnv::observe_into`].
    fn observe_into(&self, envs: &[usize], seats: Option<&[usize]>, out: &mut [f32]) -> Result<()>;
    /// See [`VectorEnv::reset`].
    fn reset(&mut self, seed: Option<u64>, out: &mut StepOutput) -> Result<()>;
    /// See [`VectorEnv::step`].
    fn step(&mut self, actions: &[i64], out: &mut StepOutput) -> Result<()>;
    /// See [`VectorEnv::reset_into`].
    fn reset_into(&mut self, seed: Option<u64>, out: OutputSlices<'_>) -> Result<()>;
    /// See [`VectorEnv::step_into`].
    fn step_into(&mut self, actions: &[i64], out: OutputSlices<'_>) -> Result<()>;
    /// See [`VectorEnv::stop_flags`].
    fn stop_flags(&self) -> Vec<Arc<AtomicBool>>;
    /// See [`VectorEnv::mark_broken`].
    fn mark_broken(&mut self);
    /// [`VectorEnv::sessions`], each boxed.
    fn sessions(&self, envs: &[usize]) -> Result<Vec<Box<dyn AnySession>>>;
}

impl<G: Game> AnyVectorEnv for VectorEnv<G> {
    fn num_envs(&self) -> usize {
        self.envs.len()
    }
    fn observation_size(&self) -> usize {
        self.obs_size
    }
    fn output(&self) -> StepOutput {
        VectorEnv::output(self)
    }
    fn try_output(&self) -> Result<StepOutput> {
        VectorEnv::try_output(self)
    }
    fn try_output_with(&self, observations: bool) -> Result<StepOutput> {
        VectorEnv::try_output_with(self, observations)
    }
    fn observe(&self, envs: &[usize], seats: Option<&[usize]>) -> Result<Vec<f32>> {
        VectorEnv::observe(self, envs, seats)
    }
    fn observe_into(&self, envs: &[usize], seats: Option<&[usize]>, out: &mut [f32]) -> Result<()> {
        VectorEnv::observe_into(self, envs, seats, out)
    }
    fn reset(&mut self, seed: Option<u64>, out: &mut StepOutput) -> Result<()> {
        VectorEnv::reset(self, seed, out)
    }
    fn step(&mut self, actions: &[i64], out: &mut StepOutput) -> Result<()> {
        VectorEnv::step(self, actions, out)
    }
    fn reset_into(&mut self, seed: Option<u64>, out: OutputSlices<'_>) -> Result<()> {
        VectorEnv::reset_into(self, seed, out)
    }
    fn step_into(&mut self, actions: &[i64], out: OutputSlices<'_>) -> Result<()> {
        VectorEnv::step_into(self, actions, out)
    }
    fn stop_flags(&self) -> Vec<Arc<AtomicBool>> {
        VectorEnv::stop_flags(self)
    }
    fn mark_broken(&mut self) {
        VectorEnv::mark_broken(self);
    }
    fn sessions(&self, envs: &[usize]) -> Result<Vec<Box<dyn AnySession>>> {
        let sessions = VectorEnv::sessions(self, envs)?;
        Ok(sessions
            .into_iter()
            .map(|s| Box::new(s) as Box<dyn AnySession>)
            .collect())
    }
}

#[cfg(test)]
mod tests;
