//! Batch simulation: whole games with built-in bots, on all cores, deterministic for any thread
//! count.
//!
//! Game `g` of a run with seed `s` is the seeded game `derive_seed(s, g)` (exactly what
//! `new_state(seed=derive_seed(s, g))` plays), and the bot in seat `p` draws from
//! `SplitMix64::new(derive_seed(derive_seed(s, g), p + 1))`. Games are grouped into fixed chunks that
//! threads take in any order; every per-game result lands at its game's index and the summary is made
//! of exact integer sums, so the output never depends on the number of threads or machines.
//!
//! It owns the batch configuration, the thread pool, chunking, progress and stopping. Each game is
//! advanced by [`crate::step`]; this module must not step games, seed seats or count statistics
//! itself.

use crate::error::{checked_len, ensure_fits, try_filled, EngineError, Result};
use crate::game::{Bot, Game, RandomBot};
use crate::rng::{SeedDeriver, SplitMix64};
use crate::step::{self, Stepped};
pub use crate::step::{SeatBot, SimSeat};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

/// The most games per unit of work handed to a thread.
pub const CHUNK: u64 = 1024;

/// Games per unit of work of a run of `games` games on `threads` threads: [`CHUNK`], or fewer
/// so that every thread gets several units (a short run of slow games, such as search players,
/// still uses every core). The summary is made of exact integer sums and every game's result
/// lands at its index, so the chunking never changes the output.
fn chunk_size(games: u64, threads: usize) -> u64 {
    let units = (threads.max(1) as u64).saturating_mul(8);
    games.div_ceil(units).clamp(1, CHUNK)
}

/// The most worker threads a run (or a vector env) may ask for.
pub const MAX_THREADS: usize = 1024;

/// What the error for per-game arrays too large to hold suggests.
pub const KEEP_GAMES_HINT: &str =
    "run with keep_games=False to keep only the summary (fixed memory), or play fewer games";

/// Checks a requested worker-thread count (`None`: all cores).
pub fn check_threads(threads: Option<usize>) -> Result<()> {
    match threads {
        Some(t) if !(1..=MAX_THREADS).contains(&t) => Err(EngineError::InvalidOption(format!(
            "threads must be in 1..={MAX_THREADS}, got {t}"
        ))),
        _ => Ok(()),
    }
}

/// What to simulate.
#[derive(Clone, Debug)]
pub struct SimConfig {
    /// Number of games.
    pub games: u64,
    /// Index of the first game (a run split over machines gives each part its own range).
    pub first_game: u64,
    /// The run's seed.
    pub seed: u64,
    /// Worker threads (`None`: all cores).
    pub threads: Option<usize>,
    /// One bot spec per seat: a name with an optional `:parameter` (e.g. `"random"`, `"greedy"`).
    pub bots: Vec<String>,
    /// Keep per-game scores, winners and lengths (otherwise only the summary).
    pub keep_games: bool,
}

impl SimConfig {
    /// A run of `games` games from game 0 with `seed` and one bot spec per seat, on all cores,
    /// keeping the per-game results; change the other fields with struct update syntax
    /// (`SimConfig { threads: Some(1), ..SimConfig::new(10, 1, bots) }`).
    pub fn new(games: u64, seed: u64, bots: Vec<String>) -> Self {
        Self {
            games,
            first_game: 0,
            seed,
            threads: None,
            bots,
            keep_games: true,
        }
    }
}

/// Exact integer totals per seat, mergeable in any order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SeatStats {
    /// Games in which the seat was among the winners (shared wins count for every co-winner).
    pub wins: u64,
    /// Sum over games of 1/(number of winners), times [`SHARE_DENOMINATOR`] (exact).
    pub win_shares: u128,
    /// Sum of final scores.
    pub score_sum: i128,
    /// Sum of squared final scores.
    pub score_sq_sum: i128,
    /// Smallest final score (`i64::MAX` while no game is counted).
    pub score_min: i64,
    /// Largest final score (`i64::MIN` while no game is counted).
    pub score_max: i64,
}

/// Denominator of [`SeatStats::win_shares`]: divisible by every winner count 1..=12.
pub const SHARE_DENOMINATOR: u128 = 27_720;

/// The outcome of a batch.
#[derive(Clone, Debug, Default)]
pub struct SimResult {
    /// Games completed (fewer than asked only when stopped early).
    pub games_played: u64,
    /// Whether the run was stopped before the end.
    pub interrupted: bool,
    /// Per seat totals.
    pub seats: Vec<SeatStats>,
    /// Total decisions (player actions) over all completed games.
    pub decisions: u64,
    /// Total chance outcomes over all completed games.
    pub chance_steps: u64,
    /// With `keep_games`: final scores, `games × players`, row-major, in 16 bits; a score that
    /// does not fit (or equals [`WIDE_SCORE`]) is stored as [`WIDE_SCORE`] with its value in
    /// [`SimResult::wide_scores`]. No built-in game has such scores, so a kept game costs
    /// `3 × players + 4` bytes during the run (16 with four players).
    pub scores: Vec<i16>,
    /// With `keep_games`: whether each seat won, `games × players`, row-major.
    pub winners: Vec<bool>,
    /// With `keep_games`: decisions per game (0 for a game not played because the run stopped).
    pub lengths: Vec<u32>,
    /// With `keep_games`: `(cell index in scores, score)` of the scores stored as [`WIDE_SCORE`],
    /// in any order.
    pub wide_scores: Vec<(u64, i64)>,
}

/// What a kept score that needs more than 16 bits reads in [`SimResult::scores`] (its value is in
/// [`SimResult::wide_scores`]); a score of exactly this value is set aside the same way, so that
/// the marker is never ambiguous.
pub const WIDE_SCORE: i16 = i16::MIN;

/// A kept score as stored in [`SimResult::scores`]: itself when it fits in 16 bits, else
/// [`WIDE_SCORE`], with the value pushed to `wide` (its cell index is set once the row is
/// written, by the driver that knows where the row lies in the run).
#[inline]
pub fn kept_score(score: i64, wide: &mut Vec<(u64, i64)>) -> i16 {
    match i16::try_from(score) {
        Ok(s) if s != WIDE_SCORE => s,
        _ => {
            wide.push((u64::MAX, score));
            WIDE_SCORE
        }
    }
}

/// Sets the cell indices of `wide`, the scores set aside (in cell order) while `cells` were
/// written, `cells` starting at cell `base` of the run: the `k`-th entry belongs to the `k`-th
/// [`WIDE_SCORE`] cell.
pub(crate) fn place_wide_scores(wide: &mut [(u64, i64)], cells: &[i16], base: u64) {
    if wide.is_empty() {
        return;
    }
    let marked = cells
        .iter()
        .enumerate()
        .filter(|(_, &c)| c == WIDE_SCORE)
        .map(|(i, _)| base + i as u64);
    for (entry, cell) in wide.iter_mut().zip(marked) {
        entry.0 = cell;
    }
}

/// Kept per-game scores in the smallest signed type that holds every one of them (see
/// [`SimResult::take_narrow_scores`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NarrowScores {
    /// Every score fits in 16 bits.
    I16(Vec<i16>),
    /// Every score fits in 32 bits, some not in 16.
    I32(Vec<i32>),
    /// Some score needs 64 bits.
    I64(Vec<i64>),
}

impl SimResult {
    /// Takes the kept scores out of the result in the smallest of `i16`, `i32` and `i64` that
    /// holds all of them (`i16` for no scores): the 16-bit array itself, not a copy, unless some
    /// score did not fit in it.
    pub fn take_narrow_scores(&mut self) -> NarrowScores {
        let scores = std::mem::take(&mut self.scores);
        let wide = std::mem::take(&mut self.wide_scores);
        if wide.is_empty() {
            return NarrowScores::I16(scores);
        }
        let mut all: Vec<i64> = scores.iter().map(|&s| i64::from(s)).collect();
        for (cell, score) in wide {
            if let Some(c) = usize::try_from(cell).ok().and_then(|c| all.get_mut(c)) {
                *c = score;
            }
        }
        let (lo, hi) = all
            .iter()
            .fold((0i64, 0i64), |(lo, hi), &s| (lo.min(s), hi.max(s)));
        if i16::try_from(lo).is_ok() && i16::try_from(hi).is_ok() {
            NarrowScores::I16(all.iter().map(|&s| s as i16).collect())
        } else if i32::try_from(lo).is_ok() && i32::try_from(hi).is_ok() {
            NarrowScores::I32(all.iter().map(|&s| s as i32).collect())
        } else {
            NarrowScores::I64(all)
        }
    }

    fn merge(&mut self, other: &SimResult) {
        self.games_played += other.games_played;
        self.decisions += other.decisions;
        self.chance_steps += other.chance_steps;
        self.wide_scores.extend_from_slice(&other.wide_scores);
        for (a, b) in self.seats.iter_mut().zip(&other.seats) {
            a.wins += b.wins;
            a.win_shares += b.win_shares;
            a.score_sum += b.score_sum;
            a.score_sq_sum += b.score_sq_sum;
            a.score_min = a.score_min.min(b.score_min);
            a.score_max = a.score_max.max(b.score_max);
        }
    }
}

/// Creates the bot named by `spec` (`name` or `name:param`) for `game`: `random`, one of the
/// game's own bots, or a search bot (`mcts:...`, `flatmc:...`, see [`crate::search`]; those fail
/// with [`EngineError::InvalidOption`] for a game without a determinizer).
pub fn make_bot<G: Game>(game: &G, spec: &str) -> Result<Box<dyn Bot<G>>> {
    let (name, param) = match spec.split_once(':') {
        Some((n, p)) => (n, Some(p)),
        None => (spec, None),
    };
    if name == "random" {
        if let Some(p) = param {
            return Err(EngineError::InvalidOption(format!(
                "bot random takes no parameter, got {p:?}"
            )));
        }
        return Ok(Box::new(RandomBot::default()));
    }
    if let Some(bot) = game.make_bot(name, param) {
        return bot;
    }
    match crate::search::make_search_bot(game, name, param) {
        Some(bot) => bot,
        None => {
            let mut known = vec!["random"];
            known.extend_from_slice(G::bot_names());
            if crate::search::has_determinizer(game) {
                known.extend_from_slice(crate::search::SEARCH_BOTS);
            }
            Err(EngineError::InvalidOption(format!(
                "{}: unknown bot {name:?}; built-in bots: {}",
                G::ID,
                known.join(", ")
            )))
        }
    }
}

/// Plays one whole seeded game with `bots` (one per seat); returns (decisions, chance steps) and
/// leaves the final state in `state`. The game is started by [`crate::step::start_game`] and
/// stepped by [`crate::step::step`].
#[inline(always)]
pub fn play_game<G: Game, B: SimSeat<G>>(
    game: &G,
    bots: &mut [B],
    game_seed: u64,
    state: &mut G::State,
    legal: &mut Vec<u32>,
    chance: &mut Vec<(u32, u64)>,
) -> Result<(u32, u32)> {
    let mut rng = SplitMix64::default();
    let (observing, mut chance_steps) =
        step::start_game(game, game_seed, state, &mut rng, bots, chance);
    let mut decisions = 0u32;
    loop {
        match step::step(
            game, state, &mut rng, bots, observing, legal, chance, &mut 0,
        )
        .map_err(step::StepError::into_error::<G>)?
        {
            Stepped::Terminal => return Ok((decisions, chance_steps)),
            Stepped::Chance => chance_steps += 1,
            Stepped::Decision => decisions += 1,
            Stepped::External => {
                let seat = game.current_player(state) as u32;
                return Err(step::StepError::NoBot(seat).into_error::<G>());
            }
        }
    }
}

/// Per-game output rows of one chunk: scores, winners (`count × players`) and lengths (`count`).
type Rows<'a> = (&'a mut [i16], &'a mut [bool], &'a mut [u32]);

fn empty_result(players: usize) -> SimResult {
    SimResult {
        seats: vec![
            SeatStats {
                score_min: i64::MAX,
                score_max: i64::MIN,
                ..Default::default()
            };
            players
        ],
        ..Default::default()
    }
}

/// The stop flags of the search bots seated by a run's chunks ([`Bot::stop_flag`]): a stop
/// request raises them, so that a search in progress ends its decision after the iteration it is
/// in instead of running its whole budget. A game played while they are raised is not recorded.
#[derive(Default)]
pub(crate) struct SearchStops(Mutex<Vec<Arc<AtomicBool>>>);

impl SearchStops {
    /// Keeps the stop flags of `bots` (bots without one add nothing).
    fn register<G: Game>(&self, bots: &[SeatBot<G>]) {
        self.add(bots.iter().filter_map(|b| match b {
            SeatBot::Other(bot) => bot.stop_flag(),
            SeatBot::Random(_) => None,
        }));
    }

    /// Keeps `flags`.
    pub(crate) fn add(&self, flags: impl IntoIterator<Item = Arc<AtomicBool>>) {
        if let Ok(mut list) = self.0.lock() {
            list.extend(flags);
        }
    }

    /// Raises every kept flag (after the run's own stop flag, which the games check after they
    /// end: a search that sees its flag raised therefore belongs to a game that is dropped).
    pub(crate) fn raise(&self) {
        if let Ok(list) = self.0.lock() {
            for flag in list.iter() {
                flag.store(true, Ordering::Release);
            }
        }
    }
}

/// One chunk of a run: the games `first..first + count` of the run seeded by `seeds`, what they
/// add up to (`out`) and their rows.
struct Chunk<'a, G: Game> {
    game: &'a G,
    seeds: SeedDeriver,
    first: u64,
    count: u64,
    /// Set when the run is to stop (checked before and after every game).
    stop: &'a AtomicBool,
    rows: Option<Rows<'a>>,
    out: SimResult,
    state: G::State,
}

impl<G: Game> Chunk<'_, G> {
    /// Plays the chunk's games with `play` (game seed, state to play from its start; returns the
    /// decisions and chance steps made), recording each. The loop runs with the CPU's bit
    /// instructions, so that the games' bit picks inline; each `play` compiles a loop of its own.
    #[inline(always)]
    fn play(
        &mut self,
        mut play: impl FnMut(u64, &mut G::State) -> Result<(u32, u32)>,
    ) -> Result<()> {
        crate::cpu::with_bit_instructions(
            #[inline(always)]
            || {
                let n = self.game.players();
                let mut scores = vec![0i64; n];
                for (i, g) in (self.first..self.first + self.count).enumerate() {
                    // Checked before every game, so that a stop request is honoured within one
                    // game.
                    if self.stop.load(Ordering::Relaxed) {
                        self.out.interrupted = true;
                        break;
                    }
                    let counts = play(self.seeds.derive(g), &mut self.state)?;
                    // A stop request during the game may have cut its search bots' decisions
                    // short (see `simulate`): the game is not recorded.
                    if self.stop.load(Ordering::Acquire) {
                        self.out.interrupted = true;
                        break;
                    }
                    let row = self.rows.as_mut().map(|(sc, wi, le)| {
                        (
                            &mut sc[i * n..(i + 1) * n],
                            &mut wi[i * n..(i + 1) * n],
                            &mut le[i],
                        )
                    });
                    step::record_game(
                        self.game,
                        &self.state,
                        counts,
                        &mut scores,
                        &mut self.out,
                        row,
                    );
                }
                Ok(())
            },
        )
    }
}

/// What a run's chunks share with each other and with the thread that reports progress.
#[derive(Default)]
struct RunSignals {
    /// Set when the run is to stop (checked before and after every game).
    stop: AtomicBool,
    /// Games completed so far.
    done: AtomicU64,
    /// The stop flags of the search bots the chunks seat.
    search_stops: SearchStops,
}

fn run_chunk<G: Game>(
    game: &G,
    config: &SimConfig,
    first: u64,
    count: u64,
    rows: Option<Rows<'_>>,
    signals: &RunSignals,
) -> Result<SimResult> {
    let (stop, done) = (&signals.stop, &signals.done);
    let n = game.players();
    if stop.load(Ordering::Relaxed) {
        let mut out = empty_result(n);
        out.interrupted = true;
        return Ok(out);
    }
    let mut bots = config
        .bots
        .iter()
        .map(|b| SeatBot::new(game, b))
        .collect::<Result<Vec<_>>>()?;
    signals.search_stops.register(&bots);
    let (mut legal, mut chance) = (Vec::new(), Vec::new());
    let mut chunk = Chunk {
        game,
        seeds: SeedDeriver::new(config.seed),
        first,
        count,
        stop,
        rows,
        out: empty_result(n),
        state: game.initial_state(),
    };
    // A table of `random` bots only plays each game in one call of the game's own playout (what
    // `play_game` does step by step), the bots' streams being `seats`. The two kinds of table are
    // two instances of the loop: the all-random loop's code then does not depend on how the bots'
    // stepping compiles.
    let played = if bots.iter().all(|b| matches!(b, SeatBot::Random(_))) {
        let mut seats = vec![SplitMix64::default(); n];
        chunk.play(
            #[inline(always)]
            |seed, state| {
                *state = game.initial_state();
                let mut rng = SplitMix64::new(seed);
                step::reset_random_seats(&mut seats, seed);
                game.random_playout(state, &mut rng, &mut seats, &mut legal, &mut chance)
                    .map_err(step::StepError::into_error::<G>)
            },
        )
    } else {
        chunk.play(
            #[inline(always)]
            |seed, state| play_game(game, &mut bots, seed, state, &mut legal, &mut chance),
        )
    };
    done.fetch_add(chunk.out.games_played, Ordering::Relaxed);
    played?;
    Ok(chunk.out)
}

fn merged(mut a: SimResult, b: SimResult) -> SimResult {
    a.merge(&b);
    a.interrupted |= b.interrupted;
    a
}

/// Refuses a run whose game numbers `first_game .. first_game + games` do not fit in 64 bits.
pub(crate) fn check_game_range(config: &SimConfig) -> Result<()> {
    if config.first_game.checked_add(config.games).is_none() {
        return Err(EngineError::InvalidOption(format!(
            "first_game + games must be at most {}, got {} + {}",
            u64::MAX,
            config.first_game,
            config.games
        )));
    }
    Ok(())
}

/// The per-game result arrays (scores and winners per seat-game, lengths per game) of a run
/// that keeps its games, allocated fallibly; empty without `keep_games`.
pub(crate) fn per_game_arrays(
    config: &SimConfig,
    n: usize,
) -> Result<(Vec<i16>, Vec<bool>, Vec<u32>)> {
    if !config.keep_games {
        return Ok((Vec::new(), Vec::new(), Vec::new()));
    }
    let g = usize::try_from(config.games)
        .map_err(|_| EngineError::TooLarge(format!("{} games: {KEEP_GAMES_HINT}", config.games)))?;
    let what = format!("the per-game results of {} games", config.games);
    let cells = checked_len(&[g, n], &what, KEEP_GAMES_HINT)?;
    // The three arrays together (3 bytes a seat-game and 4 a game) must fit in memory.
    let bytes = cells
        .checked_mul(3)
        .and_then(|b| b.checked_add(g.checked_mul(4)?));
    ensure_fits(bytes, &what, KEEP_GAMES_HINT)?;
    Ok((
        try_filled(cells, 0i16, &what, KEEP_GAMES_HINT)?,
        try_filled(cells, false, &what, KEEP_GAMES_HINT)?,
        try_filled(g, 0u32, &what, KEEP_GAMES_HINT)?,
    ))
}

/// A pool of `threads` worker threads (`None`: one per core).
pub(crate) fn thread_pool(threads: Option<usize>) -> Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .map_err(|e| EngineError::InvalidOption(format!("cannot start threads: {e}")))
}

/// The process that first used rayon's global pool (through [`run_watched_owned`]): a child of a
/// fork made after that has a copy of the pool without its threads.
static GLOBAL_POOL_PROCESS: std::sync::OnceLock<u32> = std::sync::OnceLock::new();

/// Runs `work` on its own thread and calls `tick` on the calling thread every `every` until the
/// work ends; the end (a return or a panic) wakes the calling thread at once, so a short piece of
/// work costs no more than its own time. The work's result, or the panic's payload.
pub fn run_watched<T: Send>(
    every: Duration,
    mut tick: impl FnMut(),
    work: impl FnOnce() -> T + Send,
) -> std::thread::Result<T> {
    std::thread::scope(|scope| {
        let (finished, wait) = mpsc::channel::<()>();
        let worker = scope.spawn(move || {
            // Dropped when the work returns or unwinds: either way the watcher wakes.
            let _finished = finished;
            work()
        });
        while let Err(mpsc::RecvTimeoutError::Timeout) = wait.recv_timeout(every) {
            tick();
        }
        worker.join()
    })
}

/// [`run_watched`] for work that owns what it uses: it runs on a thread of rayon's global pool,
/// so no thread is started for it. For calls made often with little work each (a run of Python
/// policies calls once a step), where starting a thread would cost more than the work.
///
/// In the child of a fork made after the pool started (multiprocessing's "fork" start method),
/// whose copy of the pool has no threads, the work gets a thread of its own instead.
pub fn run_watched_owned<T: Send + 'static>(
    every: Duration,
    mut tick: impl FnMut(),
    work: impl FnOnce() -> T + Send + 'static,
) -> std::thread::Result<T> {
    let (finished, wait) = mpsc::channel();
    let job = move || {
        // A panic is caught and handed back: one left to the pool would end the process.
        let _ = finished.send(std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)));
    };
    if *GLOBAL_POOL_PROCESS.get_or_init(std::process::id) == std::process::id() {
        rayon::spawn(job);
    } else {
        std::thread::spawn(job);
    }
    loop {
        match wait.recv_timeout(every) {
            Ok(result) => return result,
            Err(mpsc::RecvTimeoutError::Timeout) => tick(),
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(Box::new("the pool thread ended without an answer"))
            }
        }
    }
}

/// Runs `work` on its own thread while the calling thread calls `progress(done)` about ten
/// times a second with the count `done` the work keeps up to date; whenever `progress` returns
/// `false`, `stop` is called (it is to make the work end early). The work's result, or an error
/// if its thread failed.
///
/// A `progress` that panics stops the work the same way, and its panic resumes once the work has
/// ended (without the stop, the work ran to its end before the panic reached the caller).
pub(crate) fn while_reporting<T: Send>(
    done: &AtomicU64,
    progress: &dyn Fn(u64) -> bool,
    stop: impl Fn(),
    work: impl FnOnce() -> Result<T> + Send,
) -> Result<T> {
    let mut last_report = Instant::now();
    let mut panicked = None;
    let tick = || {
        if panicked.is_none() && last_report.elapsed() >= Duration::from_millis(100) {
            last_report = Instant::now();
            let count = done.load(Ordering::Relaxed);
            match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| progress(count))) {
                Ok(true) => {}
                Ok(false) => stop(),
                Err(payload) => {
                    stop();
                    panicked = Some(payload);
                }
            }
        }
    };
    let result = run_watched(Duration::from_millis(5), tick, work);
    if let Some(payload) = panicked {
        std::panic::resume_unwind(payload);
    }
    result.unwrap_or_else(|_| Err(EngineError::InvalidState("an engine thread failed".into())))
}

/// Runs `config.games` games of `game` on a thread pool.
///
/// `progress` is called from the calling thread about ten times a second with the number of games
/// completed so far; returning `false` stops the run after the chunks in progress (the result is
/// then marked `interrupted` and holds the completed games only).
pub fn simulate<G: Game>(
    game: &G,
    config: &SimConfig,
    progress: &dyn Fn(u64) -> bool,
) -> Result<SimResult> {
    let n = game.players();
    if config.bots.len() != n {
        return Err(EngineError::InvalidOption(format!(
            "{}: {} bots given for {n} players",
            G::ID,
            config.bots.len()
        )));
    }
    for spec in &config.bots {
        make_bot(game, spec)?;
    }
    check_threads(config.threads)?;
    check_game_range(config)?;
    let (mut scores, mut winners, mut lengths) = per_game_arrays(config, n)?;
    let pool = thread_pool(config.threads)?;
    let chunk = chunk_size(config.games, pool.current_num_threads());
    let total_chunks = config.games.div_ceil(chunk);
    let span = |c: u64| {
        (
            config.first_game + c * chunk,
            chunk.min(config.games - c * chunk),
        )
    };
    let signals = RunSignals::default();
    let (stop, done) = (&signals.stop, &signals.done);
    let stop_on_err = |part: Result<SimResult>| {
        if part.is_err() {
            stop.store(true, Ordering::Relaxed);
        }
        part
    };
    let stop_all = || {
        stop.store(true, Ordering::SeqCst);
        signals.search_stops.raise();
    };
    let outcome = while_reporting(done, progress, stop_all, || {
        pool.install(|| {
            if config.keep_games {
                // At most `CHUNK`, so it fits in `usize`.
                let chunk = chunk as usize;
                scores
                    .par_chunks_mut(chunk * n)
                    .zip(winners.par_chunks_mut(chunk * n))
                    .zip(lengths.par_chunks_mut(chunk))
                    .enumerate()
                    .map(|(c, ((sc, wi), le))| {
                        let (first, count) = span(c as u64);
                        let mut part = stop_on_err(run_chunk(
                            game,
                            config,
                            first,
                            count,
                            Some((&mut *sc, wi, le)),
                            &signals,
                        ))?;
                        let base = first - config.first_game;
                        place_wide_scores(&mut part.wide_scores, sc, base * n as u64);
                        Ok(part)
                    })
                    .try_reduce(|| empty_result(n), |a, b| Ok(merged(a, b)))
            } else {
                // Every worker takes the next chunk from a shared counter until none is left
                // or the run is stopped, so stopping never visits the chunks left over.
                let next = AtomicU64::new(0);
                let parts = pool.broadcast(|_| {
                    let mut acc = empty_result(n);
                    while !stop.load(Ordering::Relaxed) {
                        let c = next.fetch_add(1, Ordering::Relaxed);
                        if c >= total_chunks {
                            break;
                        }
                        let (first, count) = span(c);
                        let part =
                            stop_on_err(run_chunk(game, config, first, count, None, &signals))?;
                        acc = merged(acc, part);
                    }
                    Ok(acc)
                });
                parts
                    .into_iter()
                    .try_fold(empty_result(n), |a, b| Ok(merged(a, b?)))
            }
        })
    });
    let mut result = outcome?;
    result.interrupted |= result.games_played < config.games;
    result.scores = scores;
    result.winners = winners;
    result.lengths = lengths;
    progress(result.games_played);
    Ok(result)
}

#[cfg(test)]
mod reporting {
    use super::*;

    #[test]
    fn work_that_panics_is_an_error_not_a_hang() {
        let done = AtomicU64::new(0);
        let outcome: Result<()> = while_reporting(&done, &|_| true, || {}, || panic!("a bug"));
        assert_eq!(
            outcome,
            Err(EngineError::InvalidState("an engine thread failed".into()))
        );
    }

    #[test]
    fn a_progress_that_panics_stops_the_work_then_panics() {
        // It stood in the watcher's scope, which waited for the work to end by itself: a run of
        // a trillion games played on with nothing to report to.
        let done = AtomicU64::new(0);
        let stop = AtomicBool::new(false);
        let unwound = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            while_reporting(
                &done,
                &|_| panic!("a bug in the callback"),
                || stop.store(true, Ordering::Relaxed),
                || {
                    while !stop.load(Ordering::Relaxed) {
                        std::thread::sleep(Duration::from_millis(1));
                    }
                    Ok(())
                },
            )
        }));
        assert!(unwound.is_err());
        assert!(stop.load(Ordering::Relaxed));
    }

    #[test]
    fn short_work_ends_without_waiting_for_a_tick() {
        let started = Instant::now();
        let ticks = std::cell::Cell::new(0);
        for _ in 0..20 {
            let out = run_watched(Duration::from_secs(10), || ticks.set(ticks.get() + 1), || 3);
            assert_eq!(out.ok(), Some(3));
        }
        // Twenty waits of a 10 s tick would take 200 s; each ends when its work does.
        assert!(started.elapsed() < Duration::from_secs(5));
        assert_eq!(ticks.get(), 0);
    }

    #[test]
    fn owned_work_ends_without_a_tick_and_its_panic_is_handed_back() {
        let ticks = std::cell::Cell::new(0);
        let tick = || ticks.set(ticks.get() + 1);
        for i in 0..20u64 {
            let out = run_watched_owned(Duration::from_secs(10), tick, move || i * 2);
            assert_eq!(out.ok(), Some(i * 2));
        }
        assert_eq!(ticks.get(), 0);
        let failed = run_watched_owned(Duration::from_secs(10), tick, || -> u8 { panic!("a bug") });
        assert!(failed.is_err());
        // The pool thread lives on: the next work is done.
        assert_eq!(
            run_watched_owned(Duration::from_millis(1), tick, || 5).ok(),
            Some(5)
        );
    }

    #[test]
    fn owned_work_is_watched_while_it_runs() {
        let ticks = std::cell::Cell::new(0);
        let out = run_watched_owned(
            Duration::from_millis(1),
            || ticks.set(ticks.get() + 1),
            || std::thread::sleep(Duration::from_millis(50)),
        );
        assert!(out.is_ok());
        assert!(ticks.get() > 0);
    }

    #[test]
    fn a_refusing_progress_stops_the_work() {
        let done = AtomicU64::new(0);
        let stop = AtomicBool::new(false);
        let outcome = while_reporting(
            &done,
            &|_| false,
            || stop.store(true, Ordering::SeqCst),
            || {
                while !stop.load(Ordering::SeqCst) {
                    std::thread::sleep(Duration::from_millis(1));
                }
                Ok(7)
            },
        );
        assert_eq!(outcome, Ok(7));
    }
}

#[cfg(test)]
mod limits {
    use super::*;
    use crate::games::goofspiel::Goofspiel;
    use crate::registry;
    use serde_json::Map;
    use std::sync::Arc;

    fn config(games: u64, keep_games: bool) -> SimConfig {
        SimConfig {
            threads: Some(2),
            keep_games,
            ..SimConfig::new(games, 1, vec!["random".into(), "random".into()])
        }
    }

    #[test]
    fn sizes_that_cannot_be_held_or_counted_are_errors() {
        let game = registry::make(Goofspiel::ID, 2, &Map::new()).expect("goofspiel");
        let never = |_: u64| true;
        let err = game.simulate(&config(1 << 62, true), &never).unwrap_err();
        assert!(matches!(&err, EngineError::TooLarge(m) if m.contains("keep_games=False")));
        let mut late = config(10, false);
        late.first_game = u64::MAX - 5;
        assert!(matches!(
            game.simulate(&late, &never),
            Err(EngineError::InvalidOption(_))
        ));
        let mut threads = config(10, false);
        threads.threads = Some(MAX_THREADS + 1);
        assert!(matches!(
            game.simulate(&threads, &never),
            Err(EngineError::InvalidOption(_))
        ));
    }

    /// Kept scores as two games' rows would store them, set-aside ones placed from `base`.
    fn kept(rows: &[&[i64]], base: u64) -> SimResult {
        let mut result = SimResult::default();
        for row in rows {
            let from = result.wide_scores.len();
            let cells: Vec<i16> = row
                .iter()
                .map(|&s| kept_score(s, &mut result.wide_scores))
                .collect();
            let at = base + result.scores.len() as u64;
            place_wide_scores(&mut result.wide_scores[from..], &cells, at);
            result.scores.extend(cells);
        }
        result
    }

    #[test]
    fn kept_scores_are_16_bits_with_the_wider_ones_set_aside() {
        let mut small = kept(&[&[3, -32767], &[32767, 0]], 0);
        assert!(small.wide_scores.is_empty());
        assert_eq!(
            small.take_narrow_scores(),
            NarrowScores::I16(vec![3, -32767, 32767, 0])
        );
        let mut marker = kept(&[&[-32768, 1]], 0);
        assert_eq!(marker.wide_scores, vec![(0, -32768)]);
        assert_eq!(
            marker.take_narrow_scores(),
            NarrowScores::I16(vec![-32768, 1])
        );
        let mut mid = kept(&[&[1, 40_000], &[-70_000, 2]], 0);
        assert_eq!(
            mid.take_narrow_scores(),
            NarrowScores::I32(vec![1, 40_000, -70_000, 2])
        );
        // Parts merged in any order keep their cells.
        let mut a = kept(&[&[1 << 40, 5]], 0);
        let b = kept(&[&[7, -(1 << 33)]], 2);
        a.scores.extend_from_slice(&b.scores);
        a.merge(&b);
        assert_eq!(
            a.take_narrow_scores(),
            NarrowScores::I64(vec![1 << 40, 5, 7, -(1 << 33)])
        );
    }

    #[test]
    fn a_stop_request_ends_a_run_of_any_size_at_once() {
        let game = Arc::new(Goofspiel::from_options(2, &Map::new()).expect("goofspiel"));
        let start = Instant::now();
        let result =
            simulate(&*game, &config(u64::MAX, false), &|done| done == 0).expect("a valid run");
        assert!(result.interrupted);
        assert!(result.games_played > 0);
        assert!(start.elapsed() < Duration::from_secs(5));
    }
}
