//! Many games stepped together for players outside the engine (Python policies): the engine plays
//! chance and the built-in bots, and stops each game where an external seat must decide, so the
//! caller answers a whole batch of decisions at once.
//!
//! Game `g` uses exactly the seeds of [`crate::sim`], so a run whose external policy behaves like a
//! built-in bot reproduces [`crate::sim::simulate`].
//!
//! It owns the slots of the batch, the list of pending decisions and the checking of the
//! caller's answers. Each game is advanced by [`crate::step`]; this module must not step games,
//! seed seats or count statistics itself.

use crate::error::{EngineError, Result};
use crate::game::Game;
use crate::rng::{derive_seed, SplitMix64};
use crate::sim::{
    check_game_range, per_game_arrays, place_wide_scores, SeatStats, SimConfig, SimResult,
};
use crate::step::{self, Stepped};
use serde_json::Value;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The most games stepped together (the batch size of Python policies).
pub const MAX_BATCH: usize = 1 << 20;

struct Slot<G: Game> {
    game_index: u64,
    state: G::State,
    rng: SplitMix64,
    decisions: u32,
    chance_steps: u32,
    active: bool,
    /// The seats whose bots observe (see [`step::reset_seats`]).
    observing: u64,
}

/// A batch of games in progress that waits for external decisions.
pub struct Lockstep<G: Game> {
    game: Arc<G>,
    config: SimConfig,
    next_game: u64,
    slots: Vec<Slot<G>>,
    bots: Vec<Vec<Option<step::SeatBot<G>>>>,
    legal: Vec<Vec<u32>>,
    pending: Vec<usize>,
    result: SimResult,
    chance_buf: Vec<(u32, u64)>,
    scores_buf: Vec<i64>,
    /// The run's stop flag, then the stop flags of its search bots ([`Lockstep::stop_flags`]).
    stops: Vec<Arc<AtomicBool>>,
    /// A stop ended an advance part-way: only the results may be taken.
    broken: bool,
}

debug_handle!(Lockstep, config, next_game, pending, broken);

impl<G: Game> Lockstep<G> {
    /// Prepares `config.games` games; seats whose bot spec is `None` in `bots` are external.
    /// Nothing is played yet: [`Lockstep::advance`] plays up to the first external decisions.
    pub fn new(
        game: Arc<G>,
        config: SimConfig,
        bots: Vec<Option<String>>,
        batch: usize,
    ) -> Result<Self> {
        let n = game.players();
        if bots.len() != n {
            return Err(EngineError::InvalidOption(format!(
                "{}: {} bots given for {n} players",
                G::ID,
                bots.len()
            )));
        }
        if !(1..=MAX_BATCH).contains(&batch) {
            return Err(EngineError::InvalidOption(format!(
                "batch size must be in 1..={MAX_BATCH}, got {batch}"
            )));
        }
        check_game_range(&config)?;
        let width = usize::try_from(config.games.max(1)).map_or(batch, |g| batch.min(g));
        let (scores, winners, lengths) = per_game_arrays(&config, n)?;
        let mut seat_bots = Vec::with_capacity(width);
        for _ in 0..width {
            let row = step::optional_seats(&*game, &bots)?;
            seat_bots.push(row);
        }
        let result = SimResult {
            seats: vec![
                SeatStats {
                    score_min: i64::MAX,
                    score_max: i64::MIN,
                    ..Default::default()
                };
                n
            ],
            scores,
            winners,
            lengths,
            ..Default::default()
        };
        // Each slot's first game is started in place below.
        let slots = (0..width)
            .map(|_| Slot {
                game_index: 0,
                state: game.initial_state(),
                rng: SplitMix64::default(),
                decisions: 0,
                chance_steps: 0,
                active: false,
                observing: 0,
            })
            .collect();
        let mut me = Self {
            next_game: 0,
            slots,
            bots: seat_bots,
            legal: vec![Vec::new(); width],
            pending: Vec::new(),
            result,
            chance_buf: Vec::new(),
            scores_buf: vec![0; n],
            stops: Vec::new(),
            broken: false,
            config,
            game,
        };
        for i in 0..width {
            me.start_slot(i);
        }
        let searches: Vec<_> = me
            .bots
            .iter()
            .flatten()
            .flatten()
            .filter_map(|bot| match bot {
                step::SeatBot::Other(bot) => bot.stop_flag(),
                step::SeatBot::Random(_) => None,
            })
            .collect();
        if !searches.is_empty() {
            me.stops = std::iter::once(Arc::new(AtomicBool::new(false)))
                .chain(searches)
                .collect();
        }
        Ok(me)
    }

    /// The flags that stop an advance in progress (Ctrl-C), empty when no search bot is seated
    /// (the built-in bots' steps are then short, and an advance ends soon anyway). The first is
    /// the run's own, the others the search bots' ([`crate::game::Bot::stop_flag`]); a caller
    /// raises them in that order from another thread. The advance then returns after the search
    /// iteration in progress, without recording a game that ends after the run's flag was
    /// raised (a search cut short may have decided it); the caller lowers the flags and calls
    /// [`Lockstep::mark_broken`].
    pub fn stop_flags(&self) -> Vec<Arc<AtomicBool>> {
        self.stops.clone()
    }

    /// Marks the run as stopped part-way: [`Lockstep::act`] and [`Lockstep::advance`] are then
    /// refused, and [`Lockstep::take_result`] gives the games completed before the stop.
    pub fn mark_broken(&mut self) {
        self.broken = true;
    }

    /// Refuses to go on with a run stopped part-way.
    fn check_whole(&self) -> Result<()> {
        if self.broken {
            return Err(EngineError::InvalidState(
                "the run was stopped part-way (Ctrl-C): only its results can be taken".into(),
            ));
        }
        Ok(())
    }

    /// Starts the run's next game in slot `i`, in place (an inactive slot once every game of the
    /// run has been started).
    fn start_slot(&mut self, i: usize) {
        let active = self.next_game < self.config.games;
        let game_index = self.config.first_game + self.next_game;
        self.next_game += u64::from(active);
        let seed = derive_seed(self.config.seed, game_index);
        let slot = &mut self.slots[i];
        let (observing, chance_steps) = step::start_game(
            &*self.game,
            seed,
            &mut slot.state,
            &mut slot.rng,
            &mut self.bots[i],
            &mut self.chance_buf,
        );
        slot.game_index = game_index;
        slot.decisions = 0;
        slot.chance_steps = chance_steps;
        slot.active = active;
        slot.observing = observing;
    }

    fn record(&mut self, i: usize) {
        let n = self.game.players();
        let slot = &self.slots[i];
        // The per-game arrays are lent out of the result while it takes the game's totals.
        let mut scores = std::mem::take(&mut self.result.scores);
        let mut winners = std::mem::take(&mut self.result.winners);
        let mut lengths = std::mem::take(&mut self.result.lengths);
        let r = (slot.game_index - self.config.first_game) as usize;
        let set_aside = self.result.wide_scores.len();
        let row = self.config.keep_games.then(|| {
            (
                &mut scores[r * n..(r + 1) * n],
                &mut winners[r * n..(r + 1) * n],
                &mut lengths[r],
            )
        });
        step::record_game(
            &*self.game,
            &slot.state,
            (slot.decisions, slot.chance_steps),
            &mut self.scores_buf,
            &mut self.result,
            row,
        );
        if self.config.keep_games {
            place_wide_scores(
                &mut self.result.wide_scores[set_aside..],
                &scores[r * n..(r + 1) * n],
                (r * n) as u64,
            );
        }
        self.result.scores = scores;
        self.result.winners = winners;
        self.result.lengths = lengths;
    }

    /// Plays chance and built-in bots in every game until each waits for an external seat or the
    /// run is over; finished games are recorded and replaced by the next ones. The loop runs with
    /// the CPU's bit instructions, as the batch runner's does (see
    /// `crate::cpu::with_bit_instructions`), so that the games' bit picks inline.
    pub fn advance(&mut self) -> Result<()> {
        self.check_whole()?;
        self.pending.clear();
        crate::cpu::with_bit_instructions(
            #[inline(always)]
            || {
                for i in 0..self.slots.len() {
                    if stopping(&self.stops) {
                        break;
                    }
                    self.advance_slot(i)?;
                }
                Ok(())
            },
        )
    }

    /// Steps slot `i` until it waits for an external seat (then it is pending) or the run is over.
    #[inline(always)]
    fn advance_slot(&mut self, i: usize) -> Result<()> {
        while self.slots[i].active {
            let slot = &mut self.slots[i];
            let stepped = step::step(
                &*self.game,
                &mut slot.state,
                &mut slot.rng,
                &mut self.bots[i],
                slot.observing,
                &mut self.legal[i],
                &mut self.chance_buf,
                &mut 0,
            )
            .map_err(step::StepError::into_error::<G>)?;
            match stepped {
                // A game that ends once the run is stopping may hold a search cut short.
                Stepped::Terminal if stopping(&self.stops) => break,
                Stepped::Terminal => {
                    self.record(i);
                    self.start_slot(i);
                }
                Stepped::Chance => slot.chance_steps += 1,
                Stepped::Decision => slot.decisions += 1,
                Stepped::External => {
                    self.pending.push(i);
                    break;
                }
            }
        }
        Ok(())
    }

    /// `(game index, seat)` of every game waiting for an external decision, in slot order.
    pub fn pending(&self) -> Vec<(u64, usize)> {
        self.pending
            .iter()
            .map(|&i| {
                let slot = &self.slots[i];
                (
                    slot.game_index,
                    self.game.current_player(&slot.state) as usize,
                )
            })
            .collect()
    }

    /// The observation of the waiting seat of every pending game.
    pub fn observations(&self) -> Vec<Value> {
        self.pending
            .iter()
            .map(|&i| {
                let slot = &self.slots[i];
                self.game
                    .observation(&slot.state, self.game.current_player(&slot.state) as usize)
            })
            .collect()
    }

    /// The legal actions of every pending game, in slot order (borrowed: nothing is copied).
    pub fn legal_actions(&self) -> Vec<&[u32]> {
        self.pending
            .iter()
            .map(|&i| self.legal[i].as_slice())
            .collect()
    }

    /// The pending games at once, in slot order: `(game indices, seats, legal actions of every
    /// game one after another, offsets)`, where game `r`'s legal actions are
    /// `legal[offsets[r]..offsets[r + 1]]` (`offsets` has one more entry than there are games).
    pub fn pending_flat(&self) -> PendingFlat {
        let n = self.pending.len();
        let mut flat = PendingFlat {
            games: Vec::with_capacity(n),
            seats: Vec::with_capacity(n),
            legal: Vec::with_capacity(n * 8),
            offsets: Vec::with_capacity(n + 1),
        };
        flat.offsets.push(0);
        for &i in &self.pending {
            let slot = &self.slots[i];
            flat.games.push(slot.game_index);
            flat.seats
                .push(self.game.current_player(&slot.state) as u32);
            flat.legal.extend_from_slice(&self.legal[i]);
            flat.offsets.push(flat.legal.len() as u64);
        }
        flat
    }

    /// Writes the `observation_tensor` of the waiting seat of every pending game into `out`, one
    /// row of the game's observation size after another (`out` must hold exactly that many).
    pub fn observation_tensors(&self, out: &mut [f32]) -> Result<()> {
        let size: usize = self.game.observation_shape().iter().product();
        for (&i, row) in self.pending_rows(out, size, "observation")? {
            let slot = &self.slots[i];
            self.game.observation_tensor(
                &slot.state,
                self.game.current_player(&slot.state) as usize,
                row,
            );
        }
        Ok(())
    }

    /// The pending slots, each with its row of `width` entries of `out`, in slot order; an error
    /// unless `out` holds exactly one row per pending game (`what` names the buffer). No rows
    /// when `width` is 0.
    fn pending_rows<'a, T>(
        &'a self,
        out: &'a mut [T],
        width: usize,
        what: &str,
    ) -> Result<impl Iterator<Item = (&'a usize, &'a mut [T])>> {
        let needed = width * self.pending.len();
        if out.len() != needed {
            return Err(EngineError::InvalidOption(format!(
                "{what} buffer holds {} entries, {needed} needed",
                out.len()
            )));
        }
        Ok(self.pending.iter().zip(out.chunks_mut(width.max(1))))
    }

    /// The number of games waiting for an external decision.
    pub fn pending_count(&self) -> usize {
        self.pending.len()
    }

    /// Writes the legal-action mask of every pending game into `out`, one row of
    /// [`Game::num_actions`] entries after another, in slot order (`out` must hold exactly that
    /// many): entry `a` of a row is `true` exactly when action `a` is legal.
    pub fn legal_masks(&self, out: &mut [bool]) -> Result<()> {
        let width = self.game.num_actions() as usize;
        for (&i, row) in self.pending_rows(out, width, "mask")? {
            crate::game::write_action_mask(row, self.legal[i].iter().copied());
        }
        Ok(())
    }

    /// Applies one action per pending game (all are checked before any is applied), then advances.
    pub fn act(&mut self, actions: &[i64]) -> Result<()> {
        self.check_whole()?;
        if actions.len() != self.pending.len() {
            return Err(EngineError::IllegalAction(format!(
                "{} actions given for {} pending games",
                actions.len(),
                self.pending.len()
            )));
        }
        let mut checked = Vec::with_capacity(actions.len());
        for (&i, &a) in self.pending.iter().zip(actions) {
            let ok = u32::try_from(a)
                .ok()
                .filter(|a| self.legal[i].binary_search(a).is_ok());
            match ok {
                Some(a) => checked.push(a),
                None => {
                    return Err(EngineError::IllegalAction(format!(
                        "game {}: action {a} is not legal; legal: {:?}",
                        self.slots[i].game_index, self.legal[i]
                    )))
                }
            }
        }
        for (&i, &a) in self.pending.iter().zip(&checked) {
            let slot = &mut self.slots[i];
            step::apply_external(
                &*self.game,
                &mut slot.state,
                a,
                &mut self.bots[i],
                slot.observing,
            );
            slot.decisions += 1;
        }
        self.advance()
    }

    /// Games completed so far.
    pub fn games_played(&self) -> u64 {
        self.result.games_played
    }

    /// Whether every game is finished.
    pub fn is_done(&self) -> bool {
        self.slots.iter().all(|s| !s.active)
    }

    /// The results so far (complete once [`Lockstep::is_done`]); marks them interrupted otherwise,
    /// and after a stop ([`Lockstep::mark_broken`]).
    pub fn take_result(&mut self) -> SimResult {
        let mut result = std::mem::take(&mut self.result);
        result.interrupted = self.broken || !self.is_done();
        result
    }
}

/// Whether the run's stop flag (the first of `stops`, see [`Lockstep::stop_flags`]) is raised.
fn stopping(stops: &[Arc<AtomicBool>]) -> bool {
    stops
        .first()
        .is_some_and(|stop| stop.load(Ordering::Acquire))
}

/// The pending games of a [`Lockstep`] as flat arrays (see [`Lockstep::pending_flat`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PendingFlat {
    /// The index of each pending game in the run.
    pub games: Vec<u64>,
    /// The seat to move in each pending game.
    pub seats: Vec<u32>,
    /// The sorted legal actions of every pending game, one game after another.
    pub legal: Vec<u32>,
    /// Where each game's legal actions start in `legal`, then the total length.
    pub offsets: Vec<u64>,
}

/// Object-safe view of [`Lockstep`].
pub trait AnyLockstep: Send {
    /// See [`Lockstep::pending`].
    fn pending(&self) -> Vec<(u64, usize)>;
    /// See [`Lockstep::observations`].
    fn observations(&self) -> Vec<Value>;
    /// See [`Lockstep::legal_actions`].
    fn legal_actions(&self) -> Vec<&[u32]>;
    /// See [`Lockstep::pending_flat`].
    fn pending_flat(&self) -> PendingFlat;
    /// See [`Lockstep::observation_tensors`].
    fn observation_tensors(&self, out: &mut [f32]) -> Result<()>;
    /// See [`Lockstep::pending_count`].
    fn pending_count(&self) -> usize;
    /// See [`Lockstep::legal_masks`].
    fn legal_masks(&self, out: &mut [bool]) -> Result<()>;
    /// See [`Lockstep::advance`].
    fn advance(&mut self) -> Result<()>;
    /// See [`Lockstep::act`].
    fn act(&mut self, actions: &[i64]) -> Result<()>;
    /// See [`Lockstep::stop_flags`].
    fn stop_flags(&self) -> Vec<Arc<AtomicBool>>;
    /// See [`Lockstep::mark_broken`].
    fn mark_broken(&mut self);
    /// See [`Lockstep::games_played`].
    fn games_played(&self) -> u64;
    /// See [`Lockstep::is_done`].
    fn is_done(&self) -> bool;
    /// See [`Lockstep::take_result`].
    fn take_result(&mut self) -> SimResult;
}

impl<G: Game> AnyLockstep for Lockstep<G> {
    fn pending(&self) -> Vec<(u64, usize)> {
        Lockstep::pending(self)
    }
    fn observations(&self) -> Vec<Value> {
        Lockstep::observations(self)
    }
    fn legal_actions(&self) -> Vec<&[u32]> {
        Lockstep::legal_actions(self)
    }
    fn pending_flat(&self) -> PendingFlat {
        Lockstep::pending_flat(self)
    }
    fn observation_tensors(&self, out: &mut [f32]) -> Result<()> {
        Lockstep::observation_tensors(self, out)
    }
    fn pending_count(&self) -> usize {
        Lockstep::pending_count(self)
    }
    fn legal_masks(&self, out: &mut [bool]) -> Result<()> {
        Lockstep::legal_masks(self, out)
    }
    fn advance(&mut self) -> Result<()> {
        Lockstep::advance(self)
    }
    fn act(&mut self, actions: &[i64]) -> Result<()> {
        Lockstep::act(self, actions)
    }
    fn stop_flags(&self) -> Vec<Arc<AtomicBool>> {
        Lockstep::stop_flags(self)
    }
    fn mark_broken(&mut self) {
        Lockstep::mark_broken(self)
    }
    fn games_played(&self) -> u64 {
        Lockstep::games_played(self)
    }
    fn is_done(&self) -> bool {
        Lockstep::is_done(self)
    }
    fn take_result(&mut self) -> SimResult {
        Lockstep::take_result(self)
    }
}
