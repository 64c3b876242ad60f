//! The one stepping core: how one game slot advances by one step, shared by the batch runner
//! ([`crate::sim`]), the lockstep batches for external policies ([`crate::lockstep`]) and the
//! vectorized environments ([`crate::vector`]), so they cannot drift apart.
//!
//! It owns the rules every driver must follow identically: the seeding of the seats' random
//! streams ([`seat_rng`]), when bots see the state ([`Bot::observe`] only for bots whose
//! [`Bot::observes`] is true, in seat order, after every applied step), the error for a bot that
//! chooses an illegal action or a seat that cannot move, and the per-game statistics
//! ([`record_game`]). It must not know about threads, batches, output buffers or any game.

use crate::error::{EngineError, Result};
use crate::game::{Bot, Game, CHANCE, TERMINAL};
use crate::rng::{derive_seed, SeedDeriver, SplitMix64};
use crate::sim::{kept_score, make_bot, SimResult, SHARE_DENOMINATOR};

/// The random stream of the bot in `seat` in the game seeded with `game_seed`:
/// `SplitMix64::new(derive_seed(game_seed, seat + 1))` (the game's own chance stream is
/// `SplitMix64::new(game_seed)`).
#[inline]
pub fn seat_rng(game_seed: u64, seat: usize) -> SplitMix64 {
    SplitMix64::new(derive_seed(game_seed, seat as u64 + 1))
}

/// Why a seat that is to move could not: a small value, so that the stepping loop passes it in
/// registers; [`StepError::into_error`] makes the one error message of each case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepError {
    /// The bot in this seat chose this illegal action.
    Illegal(u32, u32),
    /// The seat has no legal action.
    NoLegalAction(u32),
    /// The seat has no bot.
    NoBot(u32),
}

impl StepError {
    /// The engine error for this case, naming game `G`.
    #[cold]
    pub fn into_error<G: Game>(self) -> EngineError {
        EngineError::InvalidState(match self {
            Self::Illegal(seat, a) => format!(
                "{}: the bot in seat {seat} chose the illegal action {a}",
                G::ID
            ),
            Self::NoLegalAction(seat) => {
                format!("{}: seat {seat} is to move but has no legal action", G::ID)
            }
            Self::NoBot(seat) => format!("{}: seat {seat} is to move but has no bot", G::ID),
        })
    }
}

/// The result of one step or decision.
pub type StepResult<T> = std::result::Result<T, StepError>;

/// A seat as the stepping core drives it: any boxed [`Bot`], an optional one (`None`: played
/// outside the engine), or a [`SeatBot`].
///
/// A seat holds a built-in bot ([`SimSeat::bot`]), the `random` bot kept inline
/// ([`SimSeat::random_stream`]) or neither (a seat played outside the engine); the other methods
/// follow from that.
pub trait SimSeat<G: Game> {
    /// The seat's boxed bot, if it has one.
    fn bot(&self) -> Option<&dyn Bot<G>>;

    /// The seat's boxed bot, if it has one, to be changed.
    fn bot_mut(&mut self) -> Option<&mut dyn Bot<G>>;

    /// The stream of the seat's `random` bot if it keeps one inline, drawn from by
    /// [`Game::random_action`] (no virtual call, no list of legal actions); none by default.
    #[inline(always)]
    fn random_stream(&mut self) -> Option<&mut SplitMix64> {
        None
    }

    /// Called at the start of every game with the seat and its own random stream.
    #[inline]
    fn reset(&mut self, game: &G, seat: usize, rng: SplitMix64) {
        if let Some(r) = self.random_stream() {
            *r = rng;
        } else if let Some(b) = self.bot_mut() {
            b.reset(game, seat, rng);
        }
    }

    /// Whether [`SimSeat::observe`] does anything.
    #[inline]
    fn observes(&self) -> bool {
        self.bot().is_some_and(|b| b.observes())
    }

    /// Lets a bot with memory see the state after a step.
    #[inline]
    fn observe(&mut self, game: &G, state: &G::State) {
        if let Some(b) = self.bot_mut() {
            b.observe(game, state);
        }
    }

    /// The seat's action at a decision node where it is to move, or `None` for a seat played
    /// outside the engine (then `legal` holds the legal actions). `legal` is scratch space
    /// otherwise. An error if the seat has no legal action or the bot chose one that is not legal.
    // Inlined into the stepping loop, so that the random bot's fast path costs no call.
    #[inline(always)]
    fn decide(
        &mut self,
        game: &G,
        state: &G::State,
        seat: usize,
        legal: &mut Vec<u32>,
    ) -> StepResult<Option<u32>> {
        if let Some(rng) = self.random_stream() {
            return game
                .random_action(state, rng, legal)
                .map(Some)
                .ok_or(StepError::NoLegalAction(seat as u32));
        }
        if let Some(b) = self.bot_mut() {
            return bot_decides(b, game, state, seat, legal);
        }
        game.legal_actions(state, legal);
        if legal.is_empty() {
            return Err(StepError::NoLegalAction(seat as u32));
        }
        Ok(None)
    }
}

/// [`SimSeat::decide`] for a seat with a built-in bot: its action, asked without the list of
/// legal actions first ([`Bot::act_unlisted`]), checked against the legal actions.
// Kept out of the stepping loops: a bot's decision costs far more than the call, and inlined
// here the game's `legal_actions` stopped being inlined into it (5-7% more instructions per
// memory-game bot table).
#[inline(never)]
fn bot_decides<G: Game>(
    bot: &mut dyn Bot<G>,
    game: &G,
    state: &G::State,
    seat: usize,
    legal: &mut Vec<u32>,
) -> StepResult<Option<u32>> {
    let unlisted = bot.act_unlisted(game, state);
    if let Some(action) = unlisted {
        if game.is_legal(state, action) {
            return Ok(Some(action));
        }
    }
    game.legal_actions(state, legal);
    if legal.is_empty() {
        return Err(StepError::NoLegalAction(seat as u32));
    }
    let action = match unlisted {
        Some(action) => action,
        None => bot.act(game, state, legal),
    };
    if legal.binary_search(&action).is_err() {
        return Err(StepError::Illegal(seat as u32, action));
    }
    Ok(Some(action))
}

impl<G: Game> SimSeat<G> for Box<dyn Bot<G>> {
    #[inline(always)]
    fn bot(&self) -> Option<&dyn Bot<G>> {
        Some(&**self)
    }

    #[inline(always)]
    fn bot_mut(&mut self) -> Option<&mut dyn Bot<G>> {
        Some(&mut **self)
    }
}

/// A seat of a driver that may be played outside the engine: `None` is such an external seat
/// (stepping stops there with its legal actions), `Some` a built-in bot, `random` kept inline.
impl<G: Game> SimSeat<G> for Option<SeatBot<G>> {
    #[inline(always)]
    fn bot(&self) -> Option<&dyn Bot<G>> {
        self.as_ref().and_then(SimSeat::bot)
    }

    #[inline(always)]
    fn bot_mut(&mut self) -> Option<&mut dyn Bot<G>> {
        self.as_mut().and_then(SimSeat::bot_mut)
    }

    #[inline(always)]
    fn random_stream(&mut self) -> Option<&mut SplitMix64> {
        self.as_mut().and_then(SimSeat::random_stream)
    }
}

/// A seat of the batch runner: the `random` bot inline, or any other built-in bot.
pub enum SeatBot<G: Game> {
    /// The `random` bot: its own stream, drawn from by [`Game::random_action`] (no virtual call,
    /// no list of legal actions).
    Random(SplitMix64),
    /// Any other built-in bot.
    Other(Box<dyn Bot<G>>),
}

impl<G: Game> std::fmt::Debug for SeatBot<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Random(rng) => f.debug_tuple("Random").field(rng).finish(),
            Self::Other(_) => f.debug_tuple("Other").finish_non_exhaustive(),
        }
    }
}

impl<G: Game> SeatBot<G> {
    /// Creates the bot named by `spec` (see [`make_bot`]), keeping `random` inline.
    pub fn new(game: &G, spec: &str) -> Result<Self> {
        if spec == "random" {
            Ok(Self::Random(SplitMix64::default()))
        } else {
            make_bot(game, spec).map(Self::Other)
        }
    }
}

/// The seats of a driver that may be played outside the engine, one per spec: `None` for an
/// external seat, else the bot the spec names (see [`SeatBot::new`]).
pub fn optional_seats<G: Game>(
    game: &G,
    specs: &[Option<String>],
) -> Result<Vec<Option<SeatBot<G>>>> {
    specs
        .iter()
        .map(|s| {
            s.as_deref()
                .map(|spec| SeatBot::new(game, spec))
                .transpose()
        })
        .collect()
}

impl<G: Game> SimSeat<G> for SeatBot<G> {
    #[inline(always)]
    fn bot(&self) -> Option<&dyn Bot<G>> {
        match self {
            Self::Random(_) => None,
            Self::Other(b) => Some(&**b),
        }
    }

    #[inline(always)]
    fn bot_mut(&mut self) -> Option<&mut dyn Bot<G>> {
        match self {
            Self::Random(_) => None,
            Self::Other(b) => Some(&mut **b),
        }
    }

    #[inline(always)]
    fn random_stream(&mut self) -> Option<&mut SplitMix64> {
        match self {
            Self::Random(r) => Some(r),
            Self::Other(_) => None,
        }
    }
}

/// Starts a game's seats: resets every seat with its stream ([`seat_rng`]) and returns the seats
/// whose bots observe, as a bitset (tables have far fewer than 64 seats).
pub fn reset_seats<G: Game, B: SimSeat<G>>(game: &G, seats: &mut [B], game_seed: u64) -> u64 {
    let mut observing = 0u64;
    for ((seat, bot), rng) in seats.iter_mut().enumerate().zip(seat_streams(game_seed)) {
        bot.reset(game, seat, rng);
        if bot.observes() {
            observing |= 1u64.checked_shl(seat as u32).unwrap_or(0);
        }
    }
    observing
}

/// Starts the game seeded with `game_seed` in `state`, `rng` and `seats`, as every driver starts
/// one: the initial state, the game's chance stream, the seats reset with their streams
/// ([`reset_seats`]); then, when no seat observes, the opening run of chance nodes resolved in
/// one call of [`Game::resolve_chance`] (the same draws as stepping them: nobody sees the states
/// between). Returns the observing seats (a bitset) and the chance nodes resolved.
///
/// Later runs of chance nodes are stepped: resolving them in one call too cost more than it
/// saved (one chance node per turn in most games).
#[inline(always)]
pub fn start_game<G: Game, B: SimSeat<G>>(
    game: &G,
    game_seed: u64,
    state: &mut G::State,
    rng: &mut SplitMix64,
    seats: &mut [B],
    chance: &mut Vec<(u32, u64)>,
) -> (u64, u32) {
    *state = game.initial_state();
    *rng = SplitMix64::new(game_seed);
    let observing = reset_seats(game, seats, game_seed);
    let resolved = if observing == 0 {
        game.resolve_chance(state, rng, chance)
    } else {
        0
    };
    (observing, resolved)
}

/// Lets the observing seats (bitset from [`reset_seats`]) see `state`, in seat order.
#[inline]
pub fn observe<G: Game, B: SimSeat<G>>(
    game: &G,
    state: &G::State,
    seats: &mut [B],
    observing: u64,
) {
    let mut watchers = observing;
    while watchers != 0 {
        let seat = watchers.trailing_zeros() as usize;
        watchers &= watchers - 1;
        if let Some(bot) = seats.get_mut(seat) {
            bot.observe(game, state);
        }
    }
}

/// What one call of [`step`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stepped {
    /// Nothing: the game is over.
    Terminal,
    /// Resolved a chance node with the game's stream.
    Chance,
    /// A built-in bot made a decision.
    Decision,
    /// Nothing: the seat to move is decided outside the engine; its legal actions are in
    /// `legal`.
    External,
}

/// Advances one game by one step: a chance node is resolved with `rng` (through
/// [`Game::sample_chance`]); a seat with a built-in bot decides and its action is applied; an
/// external seat stops stepping. After an applied step the observing seats see the new state,
/// and `applied` holds the outcome or action applied.
// Always inlined into each driver's loop: the batch runner's per-step cost is mostly this
// dispatch, and a call here (with the result enum in memory) costs several percent of a game.
// The scratch buffers and `applied` are the drivers' own fields, borrowed separately.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub fn step<G: Game, B: SimSeat<G>>(
    game: &G,
    state: &mut G::State,
    rng: &mut SplitMix64,
    seats: &mut [B],
    observing: u64,
    legal: &mut Vec<u32>,
    chance: &mut Vec<(u32, u64)>,
    applied: &mut u32,
) -> StepResult<Stepped> {
    let player = game.current_player(state);
    let done = if player == TERMINAL {
        return Ok(Stepped::Terminal);
    } else if player == CHANCE {
        let outcome = game.sample_chance(state, rng, chance);
        game.apply(state, outcome);
        *applied = outcome;
        Stepped::Chance
    } else {
        let seat = player as usize;
        let Some(bot) = seats.get_mut(seat) else {
            return Err(StepError::NoBot(seat as u32));
        };
        match bot.decide(game, state, seat, legal)? {
            Some(action) => {
                game.apply(state, action);
                *applied = action;
                Stepped::Decision
            }
            None => return Ok(Stepped::External),
        }
    };
    observe(game, state, seats, observing);
    Ok(done)
}

/// The streams of seats 0, 1, … of the game seeded with `game_seed`: exactly
/// [`seat_rng`]`(game_seed, seat)` for each, with the seed's part computed once.
#[inline]
fn seat_streams(game_seed: u64) -> impl Iterator<Item = SplitMix64> {
    let seeds = SeedDeriver::new(game_seed);
    (1u64..).map(move |k| SplitMix64::new(seeds.derive(k)))
}

/// The streams of the seats of a game seeded with `game_seed` ([`seat_rng`] of every seat), for a
/// game whose seats are all the `random` bot (which does not observe).
#[inline]
pub fn reset_random_seats(seats: &mut [SplitMix64], game_seed: u64) {
    for (seat, rng) in seats.iter_mut().zip(seat_streams(game_seed)) {
        *seat = rng;
    }
}

/// A table of `random` bots as a random playout steps it: the game's chance stream, every seat's
/// stream, scratch space, and what it has done so far.
#[derive(Debug)]
pub struct RandomTable<'a> {
    /// The game's chance stream.
    pub chance: &'a mut SplitMix64,
    /// The seats' streams, seat `s`'s at `seats[s]`.
    pub seats: &'a mut [SplitMix64],
    /// Scratch space for legal actions.
    pub legal: &'a mut Vec<u32>,
    /// Scratch space for chance outcomes.
    pub outcomes: &'a mut Vec<(u32, u64)>,
    /// The decisions and chance steps made so far.
    pub counts: (u32, u32),
}

/// [`Game::play_randomly`] as [`step`] does it with the `random` bot in every seat, one node at
/// a time: the definition every game's own playout must match.
#[inline(always)]
pub fn random_playout<G: Game>(
    game: &G,
    state: &mut G::State,
    table: &mut RandomTable<'_>,
) -> StepResult<()> {
    while random_step(game, state, table)? {}
    Ok(())
}

/// The chance nodes from `state` on, up to the first decision node or the end, resolved one at
/// a time: [`Game::sample_chance`] with `rng`, then applied. Returns how many it resolved. It is
/// [`Game::resolve_chance`]'s definition (and default), and the rest of a game's own version
/// after the run it takes in one go.
#[inline(always)]
pub fn resolve_chance<G: Game>(
    game: &G,
    state: &mut G::State,
    rng: &mut SplitMix64,
    buf: &mut Vec<(u32, u64)>,
) -> u32 {
    let mut resolved = 0;
    while game.current_player(state) == CHANCE {
        let outcome = game.sample_chance(state, rng, buf);
        game.apply(state, outcome);
        resolved += 1;
    }
    resolved
}

/// One node of [`random_playout`]: a chance node is resolved with the table's chance stream, a
/// decision made by the `random` bot of the seat to move (with its stream), and counted in the
/// table's counts (decisions, chance steps); `false` (and nothing done) at the end of the game.
/// Games' own playouts take the nodes they do not play a phase at a time with it, so that they
/// make the definition's draws.
#[inline(always)]
pub fn random_step<G: Game>(
    game: &G,
    state: &mut G::State,
    table: &mut RandomTable<'_>,
) -> StepResult<bool> {
    let player = game.current_player(state);
    if player == TERMINAL {
        return Ok(false);
    }
    if player == CHANCE {
        let outcome = game.sample_chance(state, table.chance, table.outcomes);
        game.apply(state, outcome);
        table.counts.1 += 1;
    } else {
        let seat = player as usize;
        let Some(rng) = table.seats.get_mut(seat) else {
            return Err(StepError::NoBot(seat as u32));
        };
        let action = game
            .random_action(state, rng, table.legal)
            .ok_or(StepError::NoLegalAction(seat as u32))?;
        game.apply(state, action);
        table.counts.0 += 1;
    }
    Ok(true)
}

/// Applies an external seat's (already checked) decision and lets the observing seats see it.
// Always inlined into the drivers' loops, which run with the CPU's bit instructions (see
// `crate::cpu::with_bit_instructions`): a call here would compile the game's `apply` without them.
#[inline(always)]
pub fn apply_external<G: Game, B: SimSeat<G>>(
    game: &G,
    state: &mut G::State,
    action: u32,
    seats: &mut [B],
    observing: u64,
) {
    game.apply(state, action);
    observe(game, state, seats, observing);
}

/// One finished game's row in the per-game arrays of a run: scores (see
/// [`SimResult::scores`]) and winners of every seat, and the number of decisions.
pub type GameRow<'a> = (&'a mut [i16], &'a mut [bool], &'a mut u32);

/// Adds one finished game to `out` (its seat totals, decision and chance counts), and writes its
/// row when given. `scores` is scratch space of length `players`.
// Always inlined into the batch loop: a call per game is a visible share of a short game.
#[inline(always)]
pub fn record_game<G: Game>(
    game: &G,
    state: &G::State,
    counts: (u32, u32),
    scores: &mut [i64],
    out: &mut SimResult,
    row: Option<GameRow<'_>>,
) {
    game.scores(state, scores);
    let winners = game.winner_mask(state);
    let share = SHARE_DENOMINATOR / u128::from(winners.count_ones().max(1));
    let mut row = row;
    for (seat, stats) in out.seats.iter_mut().enumerate() {
        let s = scores[seat];
        let won = seat < 64 && winners >> seat & 1 != 0;
        stats.wins += u64::from(won);
        stats.win_shares += if won { share } else { 0 };
        stats.score_sum += i128::from(s);
        stats.score_sq_sum += i128::from(s) * i128::from(s);
        stats.score_min = stats.score_min.min(s);
        stats.score_max = stats.score_max.max(s);
        if let Some((sc, wi, _)) = row.as_mut() {
            sc[seat] = kept_score(s, &mut out.wide_scores);
            wi[seat] = won;
        }
    }
    if let Some((_, _, le)) = row {
        *le = counts.0;
    }
    out.games_played += 1;
    out.decisions += u64::from(counts.0);
    out.chance_steps += u64::from(counts.1);
}
