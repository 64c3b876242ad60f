//! `cardtable._core`: the Python bindings of the Rust engine. This crate converts types and errors
//! and nothing else; every rule lives in `cardtable-engine`.
//!
//! It owns the mapping of engine errors to the Python exception classes (one site, in `convert`,
//! with the checks of arguments) and the conversion of values to and from Python objects and
//! NumPy arrays. It must not contain rules, stepping loops, seeding or statistics, and must never
//! let a Rust panic reach Python.

use cardtable_engine as engine;
use engine::{AnyGame, AnySession, EngineError};
use numpy::PyArrayMethods;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple, PyType};
use serde_json::{Map, Value};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, TryLockError};
use std::time::Duration;

mod convert;
mod vector;
use convert::{
    engine_int_arg, int_arg, is_bool, json_arg, list_arg, options_arg, shown, str_arg, to_py,
    to_py_err, uint_arg,
};
use vector::PyVectorEnv;

/// Runs `work` on a helper thread with the GIL released while this thread checks for signals every
/// few milliseconds; a signal (Ctrl-C) raises `cancel` (which `work` must honour promptly) and its
/// exception is returned once `work` has stopped.
fn run_interruptible<T: Send>(
    py: Python<'_>,
    cancel: &AtomicBool,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    run_stoppable(py, || cancel.store(true, Ordering::Relaxed), work)
}

/// [`run_interruptible`] with `stop` called on Ctrl-C (raising every flag the work reads).
fn run_stoppable<T: Send>(
    py: Python<'_>,
    stop: impl Fn() + Sync,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    watch_signals(py, stop, |check| {
        engine::sim::run_watched(SIGNAL_CHECKS, check, work)
    })
}

/// [`run_stoppable`] for work that owns what it uses (see `engine::sim::run_watched_owned`): no
/// thread is started for it, so a call that does little costs little.
fn run_stoppable_owned<T: Send + 'static>(
    py: Python<'_>,
    stop: impl Fn() + Sync,
    work: impl FnOnce() -> T + Send + 'static,
) -> PyResult<T> {
    watch_signals(py, stop, |check| {
        engine::sim::run_watched_owned(SIGNAL_CHECKS, check, work)
    })
}

/// Runs work that search bots may be deciding in through `run`, which is handed the call that
/// raises the bots' stop flags `stops` (for Ctrl-C; their decisions then end after the iteration
/// in progress). The flags are lowered once `run` returns; after a signal, `mark_broken` marks the
/// runner stopped part-way (only its results or a reset may follow) and the signal's exception
/// is raised.
fn with_stop_flags<T>(
    stops: &[Arc<AtomicBool>],
    run: impl FnOnce(&(dyn Fn() + Sync)) -> PyResult<engine::Result<T>>,
    mark_broken: impl FnOnce() -> PyResult<()>,
) -> PyResult<T> {
    let raise = || {
        for stop in stops {
            stop.store(true, Ordering::Release);
        }
    };
    let done = run(&raise);
    for stop in stops {
        stop.store(false, Ordering::Release);
    }
    match done {
        Ok(result) => result.map_err(to_py_err),
        Err(signal) => {
            mark_broken()?;
            Err(signal)
        }
    }
}

/// How often a thread waiting for engine work checks for signals.
const SIGNAL_CHECKS: Duration = Duration::from_millis(5);

/// Runs `watch` with the GIL released, handing it the check it is to call on this thread while
/// its work runs: a signal's exception is kept and `stop` called, and the exception is returned
/// once the work has stopped.
fn watch_signals<T: Send>(
    py: Python<'_>,
    stop: impl Fn() + Sync,
    watch: impl FnOnce(&mut dyn FnMut()) -> std::thread::Result<T> + Send,
) -> PyResult<T> {
    let mut signal: Option<PyErr> = None;
    let joined = py.detach(|| {
        let mut check = || {
            if signal.is_none() {
                if let Err(e) = Python::attach(|py| py.check_signals()) {
                    signal = Some(e);
                    stop();
                }
            }
        };
        watch(&mut check)
    });
    if let Some(e) = signal {
        return Err(e);
    }
    joined.map_err(|_| to_py_err(EngineError::InvalidState("an engine thread failed".into())))
}

/// An optional worker-thread count (`None`: all cores).
fn optional_threads(threads: Option<&Bound<'_, PyAny>>) -> PyResult<Option<usize>> {
    threads
        .filter(|t| !t.is_none())
        .map(|t| {
            uint_arg(
                t,
                "threads",
                engine::sim::MAX_THREADS,
                EngineError::InvalidOption,
            )
        })
        .transpose()
}

/// An engine object that Python methods reach through a lock, with the name the error of a
/// poisoned lock (a previous holder panicked) gives it.
struct Locked<T: ?Sized> {
    mutex: Mutex<Box<T>>,
    what: &'static str,
}

impl<T: ?Sized> Locked<T> {
    fn new(inner: Box<T>, what: &'static str) -> Self {
        Self {
            mutex: Mutex::new(inner),
            what,
        }
    }

    /// Locks it; usable without the GIL.
    fn lock(&self) -> Result<MutexGuard<'_, Box<T>>, EngineError> {
        self.mutex.lock().map_err(|_| self.poisoned())
    }

    /// Locks it while the GIL is held, with the error as a Python exception. While another
    /// thread holds the lock, it is waited for with the GIL released, so that the waiting never
    /// stops the holder or any other Python thread (nor Ctrl-C's handler).
    fn lock_py(&self, py: Python<'_>) -> PyResult<MutexGuard<'_, Box<T>>>
    where
        T: Send,
    {
        loop {
            match self.mutex.try_lock() {
                Ok(guard) => return Ok(guard),
                Err(TryLockError::WouldBlock) => py.detach(|| drop(self.mutex.lock())),
                Err(TryLockError::Poisoned(_)) => return Err(to_py_err(self.poisoned())),
            }
        }
    }

    fn poisoned(&self) -> EngineError {
        EngineError::InvalidState(format!("{} was poisoned", self.what))
    }
}

/// Rebuilds a state from its canonical dict alone (the game is made from the dict's `game`,
/// `players` and `options`); what `pickle` calls to restore a `State`.
#[pyfunction]
fn _restore_state(data: &Bound<'_, PyAny>) -> PyResult<PyState> {
    let value = json_arg(data, EngineError::InvalidState)?;
    let bad = |m: &str| to_py_err(EngineError::InvalidState(m.to_string()));
    let id = value
        .get("game")
        .and_then(Value::as_str)
        .ok_or_else(|| bad("state dict lacks a str \"game\""))?;
    let players = value
        .get("players")
        .and_then(Value::as_i64)
        .ok_or_else(|| bad("state dict lacks an int \"players\""))?;
    let options = value
        .get("options")
        .and_then(Value::as_object)
        .ok_or_else(|| bad("state dict lacks a dict \"options\""))?;
    let game = engine::make(id, players, options)
        .map_err(|e| to_py_err(EngineError::InvalidState(e.to_string())))?;
    let inner = game.session_from_json(&value).map_err(to_py_err)?;
    Ok(PyState { inner })
}

/// A game with fixed options; creates states.
#[pyclass(module = "cardtable._core", name = "Game", frozen)]
struct PyGame {
    inner: Box<dyn AnyGame>,
}

#[pymethods]
impl PyGame {
    #[new]
    #[pyo3(signature = (game_id, players, options=None))]
    fn new(
        game_id: &Bound<'_, PyAny>,
        players: &Bound<'_, PyAny>,
        options: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        // In the reference's order: an unknown game, the player count's type, options that are
        // not JSON, then (engine::make) the player count's range and the options' values.
        // The id as Python shows it (`'nope'`, `5`), as the reference names it.
        let unknown = || {
            let shown = game_id
                .repr()
                .map_or_else(|_| "?".into(), |r| r.to_string());
            to_py_err(engine::unknown_game(&shown))
        };
        let Ok(id) = str_arg(game_id, "game id", EngineError::InvalidOption) else {
            // A non-str id is an unknown game, as for any other unregistered id.
            return Err(unknown());
        };
        if !engine::is_registered(&id) {
            return Err(unknown());
        }
        let players = int_arg(players, "players", EngineError::InvalidOption)?;
        let options = match options {
            None => Map::new(),
            Some(d) if d.is_none() => Map::new(),
            Some(d) => options_arg(&id, d)?,
        };
        let inner = engine::make(&id, players, &options).map_err(to_py_err)?;
        Ok(Self { inner })
    }

    /// Pickles as the constructor's arguments.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyType>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let me = slf.get();
        let options = to_py(py, &Value::Object(me.inner.options()))?;
        let args = PyTuple::new(
            py,
            [
                me.inner.id().into_pyobject(py)?.into_any(),
                me.inner.players().into_pyobject(py)?.into_any(),
                options.into_bound(py),
            ],
        )?;
        Ok((py.get_type::<Self>(), args))
    }

    /// A game is immutable: its copy is itself.
    fn __copy__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    /// A game is immutable: its copy is itself.
    fn __deepcopy__(slf: Py<Self>, _memo: &Bound<'_, PyAny>) -> Py<Self> {
        slf
    }

    /// The game id.
    #[getter]
    fn game_id(&self) -> &'static str {
        self.inner.id()
    }

    /// The number of players.
    #[getter]
    fn players(&self) -> usize {
        self.inner.players()
    }

    /// The size of the action space.
    #[getter]
    fn num_actions(&self) -> u32 {
        self.inner.num_actions()
    }

    /// Every option with its effective value.
    #[getter]
    fn options(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        to_py(py, &Value::Object(self.inner.options()))
    }

    /// The shape of the observation tensors.
    #[getter]
    fn observation_shape<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.inner.observation_shape())
    }

    /// Starts a game; with `seed` chance nodes resolve themselves.
    #[pyo3(signature = (seed=None))]
    fn new_state(&self, seed: Option<&Bound<'_, PyAny>>) -> PyResult<PyState> {
        let seed = match seed {
            None => None,
            Some(s) => {
                let bad = || {
                    to_py_err(EngineError::InvalidOption(format!(
                        "seed must be None or an int in 0..={}, got {}",
                        u64::MAX,
                        shown(s)
                    )))
                };
                if is_bool(s) {
                    return Err(bad());
                }
                Some(s.extract::<u64>().map_err(|_| bad())?)
            }
        };
        Ok(PyState {
            inner: self.inner.new_session(seed),
        })
    }

    /// Rebuilds a state from `State.to_dict()` output.
    fn state_from_dict(&self, data: &Bound<'_, PyAny>) -> PyResult<PyState> {
        let value = json_arg(data, EngineError::InvalidState)?;
        let inner = self.inner.session_from_json(&value).map_err(to_py_err)?;
        Ok(PyState { inner })
    }

    /// `<turn_the_tide game (rust): 4 players, rounds=4, ...>`, options as JSON values.
    fn __repr__(&self) -> String {
        let options: Vec<String> = self
            .inner
            .options()
            .iter()
            .map(|(name, value)| format!(", {name}={value}"))
            .collect();
        format!(
            "<{} game (rust): {} players{}>",
            self.inner.id(),
            self.inner.players(),
            options.concat()
        )
    }
}

/// One game in progress.
#[pyclass(module = "cardtable._core", name = "State")]
struct PyState {
    inner: Box<dyn AnySession>,
}

#[pymethods]
impl PyState {
    /// The seat to move, `CHANCE` (-1) or `TERMINAL` (-2).
    #[getter]
    fn current_player(&self) -> i32 {
        self.inner.current_player()
    }

    /// Whether a chance outcome is due.
    #[getter]
    fn is_chance_node(&self) -> bool {
        self.inner.current_player() == engine::CHANCE
    }

    /// Whether the game is over.
    #[getter]
    fn is_terminal(&self) -> bool {
        self.inner.current_player() == engine::TERMINAL
    }

    /// Sorted legal actions, or the chance outcomes at a chance node.
    fn legal_actions(&self) -> Vec<u32> {
        self.inner.legal_actions()
    }

    /// `(outcome, probability)` pairs at a chance node.
    fn chance_outcomes(&self) -> Vec<(u32, f64)> {
        self.inner.chance_outcomes()
    }

    /// Applies an action or chance outcome. A state that a bot or a search reads in another
    /// thread (with the GIL released) cannot change until it is done: that is an
    /// `InvalidStateError`, not PyO3's borrow error.
    #[pyo3(signature = (action, player=None))]
    fn apply(
        slf: &Bound<'_, Self>,
        action: &Bound<'_, PyAny>,
        player: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let a = engine_int_arg(action, "action", EngineError::IllegalAction)?;
        let p = match player {
            None => None,
            Some(p) => Some(engine_int_arg(p, "player", EngineError::IllegalAction)?),
        };
        let mut state = slf.try_borrow_mut().map_err(|_| {
            to_py_err(EngineError::InvalidState(
                "this state is being read in another thread (a bot's decision or a search on \
                 it); apply to a copy (copy.copy(state)) or once that is done"
                    .into(),
            ))
        })?;
        let restored = |e| match &p {
            Some(p) => p.restore(a.restore(e)),
            None => a.restore(e),
        };
        state
            .inner
            .apply(a.value, p.as_ref().map(|p| p.value))
            .map_err(|e| to_py_err(restored(e)))
    }

    /// A readable label of an action id.
    fn action_label(&self, action: &Bound<'_, PyAny>) -> PyResult<String> {
        let a = engine_int_arg(action, "action", EngineError::IllegalAction)?;
        let label = self.inner.action_label(a.value);
        label.map_err(|e| to_py_err(a.restore(e)))
    }

    /// The rule events applying `action` would trigger (the state is unchanged).
    fn rule_events_of(&self, action: &Bound<'_, PyAny>) -> PyResult<Vec<&'static str>> {
        let a = engine_int_arg(action, "action", EngineError::IllegalAction)?;
        let events = self.inner.rule_events_of(a.value);
        events.map_err(|e| to_py_err(a.restore(e)))
    }

    /// Every rule event name of the game.
    #[getter]
    fn rule_event_names(&self) -> Vec<&'static str> {
        self.inner.rule_event_names().to_vec()
    }

    /// Running points per seat.
    #[getter]
    fn scores(&self) -> Vec<i64> {
        self.inner.scores()
    }

    /// The winning seats (empty before the end).
    #[getter]
    fn winners(&self) -> Vec<usize> {
        self.inner.winners()
    }

    /// What seat `player` may know.
    fn observation(&self, py: Python<'_>, player: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let p = engine_int_arg(player, "player", EngineError::IllegalAction)?;
        let obs = self
            .inner
            .observation(p.value)
            .map_err(|e| to_py_err(p.restore(e)))?;
        to_py(py, &obs)
    }

    /// What seat `player` may know, as a float32 tensor.
    fn observation_tensor<'py>(
        &self,
        py: Python<'py>,
        player: &Bound<'_, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let p = engine_int_arg(player, "player", EngineError::IllegalAction)?;
        let shape = self.inner.observation_shape();
        let mut out = vec![0.0f32; shape.iter().product()];
        self.inner
            .observation_tensor(p.value, &mut out)
            .map_err(|e| to_py_err(p.restore(e)))?;
        Ok(numpy::PyArray1::from_vec(py, out)
            .reshape(shape)?
            .into_any())
    }

    /// `True` at every legal action (chance outcome at a chance node).
    fn legal_action_mask<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<Bound<'py, numpy::PyArray1<bool>>> {
        let mut out = vec![false; self.inner.num_actions() as usize];
        self.inner.legal_action_mask(&mut out).map_err(to_py_err)?;
        Ok(numpy::PyArray1::from_vec(py, out))
    }

    /// The canonical full state.
    fn to_dict(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        to_py(py, &self.inner.to_json())
    }

    /// An independent copy.
    fn clone(&self) -> Self {
        Self {
            inner: self.inner.clone_box(),
        }
    }

    /// A full state sampled from what seat `observer` can know here (a determinization).
    fn resample(&self, observer: &Bound<'_, PyAny>, seed: &Bound<'_, PyAny>) -> PyResult<Self> {
        let observer = engine_int_arg(observer, "observer", EngineError::IllegalAction)?;
        let seed = uint_arg(seed, "seed", u64::MAX, EngineError::InvalidOption)?;
        let inner = self
            .inner
            .resample(observer.value, seed)
            .map_err(|e| to_py_err(observer.restore(e)))?;
        Ok(Self { inner })
    }

    fn __copy__(&self) -> Self {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.clone()
    }

    /// Pickles through the canonical dict (see `_restore_state`).
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        if self.inner.is_sample() {
            return Err(to_py_err(EngineError::InvalidState(
                "a state sampled by resample() cannot be pickled: it has no past, its history \
                 holds only the steps played on from it (pickle the real state and resample it \
                 where it is unpickled, or clone() the sample)"
                    .into(),
            )));
        }
        let restore = py.import("cardtable._core")?.getattr("_restore_state")?;
        let data = to_py(py, &self.inner.to_json())?;
        Ok((restore, PyTuple::new(py, [data])?))
    }

    /// The number of distinct step sequences of length `depth` from this state (perft).
    ///
    /// Runs on all cores with the GIL released; Ctrl-C stops it at once.
    fn perft(slf: &Bound<'_, Self>, depth: &Bound<'_, PyAny>) -> PyResult<u64> {
        let py = slf.py();
        let depth = uint_arg(
            depth,
            "depth",
            u64::from(u32::MAX),
            EngineError::InvalidOption,
        )?;
        let depth = u32::try_from(depth).unwrap_or(u32::MAX);
        // A copy, so that no borrow of this object is held while the GIL is released.
        let session = slf.borrow().inner.clone_box();
        let cancel = AtomicBool::new(false);
        let counted = run_interruptible(py, &cancel, || session.perft(depth, &cancel))?;
        counted.map_err(|stop| {
            to_py_err(match stop {
                engine::session::PerftStop::Overflow => EngineError::TooLarge(format!(
                    "the perft count at depth {depth} does not fit in 64 bits"
                )),
                engine::session::PerftStop::Cancelled => {
                    EngineError::InvalidState("perft was cancelled".into())
                }
            })
        })
    }

    /// Every applied action and chance outcome.
    #[getter]
    fn history<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, self.inner.history())
    }

    /// The full view as an SVG picture, drawn by the Python package `cardtable.render` (Jupyter
    /// shows states with it); the bindings only hand the state over.
    fn _repr_svg_(slf: &Bound<'_, Self>) -> PyResult<Py<PyAny>> {
        let render = slf.py().import("cardtable.render")?;
        Ok(render.getattr("svg")?.call1((slf,))?.unbind())
    }

    /// `<goofspiel state (rust): seat 1 to move after 3 steps>`, at the end with the scores and
    /// winners.
    fn __repr__(&self) -> String {
        let game = self.inner.to_json();
        let id = game
            .get("game")
            .and_then(Value::as_str)
            .unwrap_or("cardtable");
        let steps = self.inner.history().len();
        let after = format!("after {steps} step{}", if steps == 1 { "" } else { "s" });
        match self.inner.current_player() {
            engine::TERMINAL => format!(
                "<{id} state (rust): terminal {after}, scores {:?}, winners {:?}>",
                self.inner.scores(),
                self.inner.winners()
            ),
            engine::CHANCE => format!("<{id} state (rust): chance node {after}>"),
            seat => format!("<{id} state (rust): seat {seat} to move {after}>"),
        }
    }
}

/// Converts a batch result to the dict `cardtable.sim` reads (NumPy arrays for per-game data).
fn result_to_py(
    py: Python<'_>,
    result: engine::SimResult,
    n: usize,
    keep_games: bool,
) -> PyResult<Bound<'_, PyDict>> {
    let out = PyDict::new(py);
    out.set_item("games_played", result.games_played)?;
    out.set_item("interrupted", result.interrupted)?;
    out.set_item("decisions", result.decisions)?;
    out.set_item("chance_steps", result.chance_steps)?;
    out.set_item("share_denominator", engine::sim::SHARE_DENOMINATOR)?;
    let seats = PyList::empty(py);
    for s in &result.seats {
        let d = PyDict::new(py);
        d.set_item("wins", s.wins)?;
        d.set_item("win_shares", s.win_shares)?;
        d.set_item("score_sum", s.score_sum)?;
        d.set_item("score_sq_sum", s.score_sq_sum)?;
        d.set_item("score_min", s.score_min)?;
        d.set_item("score_max", s.score_max)?;
        seats.append(d)?;
    }
    out.set_item("seats", seats)?;
    if keep_games {
        let mut result = result;
        let g = result.lengths.len();
        let scores = match result.take_narrow_scores() {
            engine::sim::NarrowScores::I16(v) => {
                numpy::PyArray1::from_vec(py, v).reshape([g, n])?.into_any()
            }
            engine::sim::NarrowScores::I32(v) => {
                numpy::PyArray1::from_vec(py, v).reshape([g, n])?.into_any()
            }
            engine::sim::NarrowScores::I64(v) => {
                numpy::PyArray1::from_vec(py, v).reshape([g, n])?.into_any()
            }
        };
        let winners =
            numpy::PyArray1::from_vec(py, std::mem::take(&mut result.winners)).reshape([g, n])?;
        out.set_item("scores", scores)?;
        out.set_item("winners", winners)?;
        out.set_item("lengths", numpy::PyArray1::from_vec(py, result.lengths))?;
    }
    Ok(out)
}

/// Runs a batch of whole games inside Rust with the GIL released; see `cardtable.simulate`.
///
/// `progress(done)` is called about ten times a second (with the GIL); if it returns `False`, raises,
/// or Ctrl-C is pressed, the run stops after the chunks in progress and the partial result comes back
/// with `interrupted=True` (an exception raised by `progress`, or by a signal handler other than
/// Ctrl-C's `KeyboardInterrupt`, is re-raised instead).
#[pyfunction]
#[pyo3(signature = (game, *, games, seed, bots, threads=None, keep_games=true, first_game=0, progress=None))]
#[allow(clippy::too_many_arguments)]
fn simulate<'py>(
    py: Python<'py>,
    game: &PyGame,
    games: &Bound<'py, PyAny>,
    seed: &Bound<'py, PyAny>,
    bots: &Bound<'py, PyAny>,
    threads: Option<&Bound<'py, PyAny>>,
    keep_games: bool,
    first_game: u64,
    progress: Option<Py<PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let opt = EngineError::InvalidOption;
    let config = engine::SimConfig {
        games: uint_arg(games, "games", u64::MAX, opt)?,
        seed: uint_arg(seed, "seed", u64::MAX, opt)?,
        bots: list_arg(bots, "bots", opt, |b| str_arg(b, "a bot", opt))?,
        threads: optional_threads(threads)?,
        first_game,
        keep_games,
    };
    // Ctrl-C ends the run with what it has; any other exception a signal handler raises (an
    // alarm's timeout, say) is the caller's, and is raised again.
    let reporter = Reporter::new(progress);
    let inner = &*game.inner;
    let result = py
        .detach(|| inner.simulate(&config, &|done| reporter.report(done)))
        .map_err(to_py_err)?;
    reporter.finish(!result.interrupted)?;
    result_to_py(py, result, inner.players(), keep_games)
}

/// The engine's `progress(done)` callback for a long call made with the GIL released: it calls
/// the Python callback `progress(done)` (if any) and checks for signals; Ctrl-C, another signal
/// handler's exception, the callback raising or returning `False` all ask the work to stop. The
/// exception is kept for [`Reporter::raise`], but a `KeyboardInterrupt`: the caller returns
/// what was done before the stop (`simulate` its games, `search` its decisions).
struct Reporter {
    progress: Option<Py<PyAny>>,
    failure: Mutex<Option<PyErr>>,
    /// The `KeyboardInterrupt` of a Ctrl-C that stopped the work (see [`Reporter::finish`]).
    interrupt: Mutex<Option<PyErr>>,
}

impl Reporter {
    fn new(progress: Option<Py<PyAny>>) -> Self {
        Self {
            progress,
            failure: Mutex::new(None),
            interrupt: Mutex::new(None),
        }
    }

    /// Whether the work may go on after `done` steps of it.
    fn report(&self, done: u64) -> bool {
        Python::attach(|py| {
            let go_on = py.check_signals().and_then(|()| match &self.progress {
                None => Ok(true),
                Some(cb) => cb
                    .call1(py, (done,))
                    .map(|ret| !matches!(ret.extract::<bool>(py), Ok(false))),
            });
            go_on.unwrap_or_else(|e| {
                // Ctrl-C stops the work the same way whether it comes between two calls of the
                // callback or while the callback runs (raised inside it).
                if e.is_instance_of::<pyo3::exceptions::PyKeyboardInterrupt>(py) {
                    keep(&self.interrupt, e);
                } else {
                    keep(&self.failure, e);
                }
                false
            })
        })
    }

    /// After the work: raises the exception kept, if any; then, if the work was `complete`
    /// although Ctrl-C was pressed (at its last report, after the last game: a short run's
    /// only one), raises that `KeyboardInterrupt`, as Python would have right after the call.
    /// Work that Ctrl-C cut short returns what it did instead (its caller says so).
    fn finish(&self, complete: bool) -> PyResult<()> {
        if let Some(err) = self.failure.lock().ok().and_then(|mut slot| slot.take()) {
            return Err(err);
        }
        match self.interrupt.lock().ok().and_then(|mut slot| slot.take()) {
            Some(err) if complete => Err(err),
            _ => Ok(()),
        }
    }
}

/// Keeps `e` in `slot` unless an earlier exception is there (the first one is raised).
fn keep(slot: &Mutex<Option<PyErr>>, e: PyErr) {
    if let Ok(mut slot) = slot.lock() {
        slot.get_or_insert(e);
    }
}

/// Search statistics as Python receives them: `(actions, visits, values, choices, iterations,
/// chosen)` (see `engine::SearchStats`).
type StatsTuple = (Vec<u32>, Vec<u32>, Vec<f64>, Vec<u32>, u32, u32);

fn stats_tuple(s: engine::SearchStats) -> StatsTuple {
    (
        s.actions,
        s.visits,
        s.values,
        s.choices,
        s.iterations,
        s.chosen,
    )
}

/// The decision of a fresh built-in bot `bot` in the seat to move of each of `states`, with the
/// GIL released; see `cardtable.search` and `engine::search::decide_all` (`seed` an int) or
/// `decide_seeded` (`seed` a list, one per state). Each decision is
/// `(action, stats)`, `stats` as `Bot.search_stats` gives them. `progress(done)` is called about
/// ten times a second; Ctrl-C or `progress` returning `False` stops the batch, and a state the
/// stop left undecided gets `None` (the caller raises `SearchInterrupted`); an exception that
/// `progress` raises, other than `KeyboardInterrupt`, stops it too and is raised.
#[pyfunction]
#[pyo3(signature = (game, states, *, bot, seed, threads=None, progress=None))]
#[allow(clippy::type_complexity)]
fn decide_all(
    py: Python<'_>,
    game: &PyGame,
    states: &Bound<'_, PyAny>,
    bot: &Bound<'_, PyAny>,
    seed: &Bound<'_, PyAny>,
    threads: Option<&Bound<'_, PyAny>>,
    progress: Option<Py<PyAny>>,
) -> PyResult<Vec<Option<(u32, Option<StatsTuple>)>>> {
    let opt = EngineError::InvalidOption;
    let spec = str_arg(bot, "bot", opt)?;
    // One seed for the batch, or one per state.
    let seeds = if seed.is_instance_of::<pyo3::types::PyList>() {
        Some(list_arg(seed, "seed", opt, |s| {
            uint_arg(s, "a seed", u64::MAX, opt)
        })?)
    } else {
        None
    };
    let seed = match seeds {
        Some(_) => 0,
        None => uint_arg(seed, "seed", u64::MAX, opt)?,
    };
    let threads = optional_threads(threads)?;
    let states = list_arg(states, "states", opt, |s| {
        s.extract::<Py<PyState>>().map_err(|_| {
            to_py_err(opt(format!(
                "states must hold engine states, got {}",
                shown(s)
            )))
        })
    })?;
    // Borrowed for the whole batch: a thread that tries to step one of them meanwhile is
    // refused instead of changing it under the bot.
    let states = states
        .iter()
        .enumerate()
        .map(|(i, s)| {
            s.try_borrow(py).map_err(|_| {
                to_py_err(EngineError::InvalidState(format!(
                    "state {i} is being changed by another thread"
                )))
            })
        })
        .collect::<PyResult<Vec<PyRef<'_, PyState>>>>()?;
    let sessions: Vec<&dyn AnySession> = states.iter().map(|s| &*s.inner).collect();
    let reporter = Reporter::new(progress);
    let inner = &*game.inner;
    let decided = py
        .detach(|| {
            let progress = |done| reporter.report(done);
            match &seeds {
                Some(seeds) => engine::search::decide_seeded(
                    inner, &sessions, &spec, seeds, threads, &progress,
                ),
                None => {
                    engine::search::decide_all(inner, &sessions, &spec, seed, threads, &progress)
                }
            }
        })
        .map_err(to_py_err)?;
    reporter.finish(decided.iter().all(Option::is_some))?;
    Ok(decided
        .into_iter()
        .map(|d| d.map(|d| (d.action, d.stats.map(stats_tuple))))
        .collect())
}

/// Raises `CapacityError` if `nbytes` bytes for `what` cannot be held: the engine's own rule
/// (`engine::error::ensure_fits`), for memory the Python layer allocates (a saved run loaded).
#[pyfunction]
fn ensure_fits(nbytes: u128, what: &str, hint: &str) -> PyResult<()> {
    engine::error::ensure_fits(usize::try_from(nbytes).ok(), what, hint).map_err(to_py_err)
}

/// A built-in bot seated in one game; see `cardtable.bot`.
#[pyclass(module = "cardtable._core", name = "Bot")]
struct PyBot {
    /// The bot. Never locked while the GIL is released: the bot's work is short.
    inner: Locked<dyn engine::session::AnyBot>,
    name: String,
    seat: usize,
}

#[pymethods]
impl PyBot {
    #[new]
    #[pyo3(signature = (game, name, seat, seed))]
    fn new(
        game: &PyGame,
        name: &Bound<'_, PyAny>,
        seat: &Bound<'_, PyAny>,
        seed: &Bound<'_, PyAny>,
    ) -> PyResult<Self> {
        let bad = |m: String| to_py_err(EngineError::InvalidOption(m));
        let name = str_arg(name, "bot name", EngineError::InvalidOption)?;
        let seat = int_arg(seat, "seat", EngineError::InvalidOption)?;
        let seat =
            usize::try_from(seat).map_err(|_| bad(format!("seat {seat} is out of range")))?;
        // The whole u64 range: batch runs derive bot seeds over all 64 bits, and a replay of one
        // of their games must be able to seat the same bot.
        if is_bool(seed) {
            return Err(bad(format!("seed must be an int, got {}", shown(seed))));
        }
        let seed = seed.extract::<u64>().map_err(|_| {
            bad(format!(
                "seed must be an int in 0..={}, got {}",
                u64::MAX,
                shown(seed)
            ))
        })?;
        let inner = game.inner.bot(&name, seat, seed).map_err(to_py_err)?;
        Ok(Self {
            inner: Locked::new(inner, "bot"),
            name,
            seat,
        })
    }

    /// The bot's action for its seat in `state`. A bot whose decisions can take long (a search)
    /// decides with the GIL released, and Ctrl-C ends its decision and raises
    /// `KeyboardInterrupt`.
    fn act(&self, py: Python<'_>, state: &PyState) -> PyResult<u32> {
        let Some(stop) = self.inner.lock_py(py)?.stop_flag() else {
            return self
                .inner
                .lock_py(py)?
                .act(&*state.inner)
                .map_err(to_py_err);
        };
        let (inner, session) = (&self.inner, &*state.inner);
        let decided = run_interruptible(py, &stop, || inner.lock()?.act(session));
        stop.store(false, Ordering::Relaxed);
        decided?.map_err(to_py_err)
    }

    /// Lets a bot with memory see `state` (call after every step).
    fn observe(&self, py: Python<'_>, state: &PyState) -> PyResult<()> {
        self.inner
            .lock_py(py)?
            .observe(&*state.inner)
            .map_err(to_py_err)
    }

    /// The search statistics of the bot's latest decision (see [`StatsTuple`]); `None` for a bot
    /// that does not search or a decision that needed no search.
    fn search_stats(&self, py: Python<'_>) -> PyResult<Option<StatsTuple>> {
        Ok(self.inner.lock_py(py)?.search_stats().map(stats_tuple))
    }

    /// The bot's name.
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    /// The bot's seat.
    #[getter]
    fn seat(&self) -> usize {
        self.seat
    }

    fn __repr__(&self) -> String {
        format!("<Bot {} in seat {}>", self.name, self.seat)
    }
}

/// Games stepped together for Python policies; see `cardtable.sim`.
#[pyclass(module = "cardtable._core", name = "Lockstep")]
struct PyLockstep {
    /// The runner, locked while the GIL is held only for short reads. `act` takes the lock after
    /// releasing the GIL instead, so a thread waiting for it never blocks the holder.
    inner: Arc<Locked<dyn engine::lockstep::AnyLockstep>>,
    players: usize,
    keep_games: bool,
    shape: Vec<usize>,
    /// The Python int of every action id, made once: the legal-action lists share them.
    actions: Vec<Py<PyAny>>,
}

#[pymethods]
impl PyLockstep {
    #[new]
    #[pyo3(signature = (game, *, games, seed, bots, batch, keep_games=true, first_game=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        game: &PyGame,
        games: &Bound<'_, PyAny>,
        seed: &Bound<'_, PyAny>,
        bots: &Bound<'_, PyAny>,
        batch: &Bound<'_, PyAny>,
        keep_games: bool,
        first_game: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let opt = EngineError::InvalidOption;
        let games = uint_arg(games, "games", u64::MAX, opt)?;
        let seed = uint_arg(seed, "seed", u64::MAX, opt)?;
        let first_game = match first_game {
            Some(first) => uint_arg(first, "first_game", u64::MAX, opt)?,
            None => 0,
        };
        let bots = list_arg(bots, "bots", opt, |b| {
            if b.is_none() {
                Ok(None)
            } else {
                str_arg(b, "a bot", opt).map(Some)
            }
        })?;
        let batch = uint_arg(batch, "batch size", engine::lockstep::MAX_BATCH, opt)?;
        let config = engine::SimConfig {
            games,
            first_game,
            seed,
            threads: Some(1),
            bots: Vec::new(),
            keep_games,
        };
        let inner = game
            .inner
            .lockstep(config, bots, batch)
            .map_err(to_py_err)?;
        Ok(Self {
            inner: Arc::new(Locked::new(inner, "lockstep runner")),
            players: game.inner.players(),
            keep_games,
            shape: game.inner.observation_shape(),
            actions: (0..game.inner.num_actions())
                .map(|a| Ok(a.into_pyobject(py)?.into_any().unbind()))
                .collect::<PyResult<_>>()?,
        })
    }

    /// `(game index, seat)` of every game waiting for a decision.
    fn pending(&self, py: Python<'_>) -> PyResult<Vec<(u64, usize)>> {
        Ok(self.inner.lock_py(py)?.pending())
    }

    /// The waiting seats' observations.
    fn observations(&self, py: Python<'_>) -> PyResult<Vec<Py<PyAny>>> {
        let obs = self.inner.lock_py(py)?.observations();
        obs.iter().map(|o| to_py(py, o)).collect()
    }

    /// The waiting seats' legal actions, one list per pending game, each built at its length
    /// from the action ids' Python ints (made once, shared by every list).
    fn legal_actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let runner = self.inner.lock_py(py)?;
        let int = |&a: &u32| -> Bound<'py, PyAny> {
            match self.actions.get(a as usize) {
                Some(obj) => obj.bind(py).clone(),
                None => match a.into_pyobject(py) {
                    Ok(obj) => obj.into_any(),
                    Err(never) => match never {},
                },
            }
        };
        let rows = runner
            .legal_actions()
            .into_iter()
            .map(|row| PyList::new(py, row.iter().map(int)))
            .collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, rows)
    }

    /// The pending games as NumPy arrays `(games uint64, seats uint32, legal uint32, offsets
    /// uint64)`: game `r`'s legal actions are `legal[offsets[r]:offsets[r + 1]]`.
    #[allow(clippy::type_complexity)]
    fn pending_flat<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(
        Bound<'py, numpy::PyArray1<u64>>,
        Bound<'py, numpy::PyArray1<u32>>,
        Bound<'py, numpy::PyArray1<u32>>,
        Bound<'py, numpy::PyArray1<u64>>,
    )> {
        let flat = self.inner.lock_py(py)?.pending_flat();
        Ok((
            numpy::PyArray1::from_vec(py, flat.games),
            numpy::PyArray1::from_vec(py, flat.seats),
            numpy::PyArray1::from_vec(py, flat.legal),
            numpy::PyArray1::from_vec(py, flat.offsets),
        ))
    }

    /// The waiting seats' `observation_tensor` rows as one float32 array
    /// `[pending, *observation_shape]`.
    fn observation_tensors<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let runner = self.inner.lock_py(py)?;
        let size: usize = self.shape.iter().product();
        let rows = runner.pending_count();
        let mut buf = vec![0.0f32; size * rows];
        runner.observation_tensors(&mut buf).map_err(to_py_err)?;
        let mut shape = vec![rows];
        shape.extend_from_slice(&self.shape);
        Ok(numpy::PyArray1::from_vec(py, buf)
            .reshape(shape)?
            .into_any())
    }

    /// The waiting seats' legal-action masks as one bool array `[pending, num_actions]`.
    fn legal_masks<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let runner = self.inner.lock_py(py)?;
        let rows = runner.pending_count();
        let mut buf = vec![false; self.actions.len() * rows];
        runner.legal_masks(&mut buf).map_err(to_py_err)?;
        Ok(numpy::PyArray1::from_vec(py, buf)
            .reshape([rows, self.actions.len()])?
            .into_any())
    }

    /// Plays chance and the built-in bots up to the first decisions of the external seats (call
    /// once, before reading them). Ctrl-C raises `KeyboardInterrupt`; see [`PyLockstep::stoppable`].
    fn advance(&self, py: Python<'_>) -> PyResult<()> {
        self.stoppable(py, |runner| runner.advance())
    }

    /// Applies one action per pending game, then plays on until the next decisions.
    ///
    /// `actions` is a sequence of ints, or (faster) a contiguous int64 NumPy array. Ctrl-C raises
    /// `KeyboardInterrupt`; see [`PyLockstep::stoppable`].
    fn act(&self, py: Python<'_>, actions: &Bound<'_, PyAny>) -> PyResult<()> {
        let ill = EngineError::IllegalAction;
        let actions = if let Ok(list) = actions.cast::<PyList>() {
            // The common answer of a policy: read in place, without collecting the items first.
            let mut v = Vec::with_capacity(list.len());
            for a in list.iter() {
                v.push(int_arg(&a, "an action", ill)?);
            }
            v
        } else {
            match actions.cast::<numpy::PyArray1<i64>>() {
                // A strided view (e.g. a column of a 2-d array) is read element by element.
                Ok(array) => match array.try_readonly() {
                    Ok(view) => match view.as_slice() {
                        Ok(slice) => slice.to_vec(),
                        Err(_) => view.as_array().iter().copied().collect(),
                    },
                    Err(_) => list_arg(actions, "actions", ill, |a| int_arg(a, "an action", ill))?,
                },
                Err(_) => list_arg(actions, "actions", ill, |a| int_arg(a, "an action", ill))?,
            }
        };
        self.stoppable(py, move |runner| runner.act(&actions))
    }

    /// Games completed so far.
    #[getter]
    fn games_played(&self, py: Python<'_>) -> PyResult<u64> {
        Ok(self.inner.lock_py(py)?.games_played())
    }

    /// Whether every game is finished.
    #[getter]
    fn is_done(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(self.inner.lock_py(py)?.is_done())
    }

    /// The results (like `simulate`'s); interrupted if not done or stopped by Ctrl-C.
    fn take_result<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let result = self.inner.lock_py(py)?.take_result();
        result_to_py(py, result, self.players, self.keep_games)
    }
}

impl PyLockstep {
    /// Runs `work` on the runner without the GIL. With search bots seated, Ctrl-C raises the
    /// run's stop flags (their decisions end after the iteration in progress, and no game that
    /// ends after that is recorded); once `work` returns, the run is marked stopped part-way
    /// (only `take_result` may follow) and `KeyboardInterrupt` is raised. Without search bots
    /// the built-in bots' steps are short, and Ctrl-C is seen when `work` returns.
    fn stoppable(
        &self,
        py: Python<'_>,
        work: impl FnOnce(&mut dyn engine::lockstep::AnyLockstep) -> engine::Result<()> + Send + 'static,
    ) -> PyResult<()> {
        let inner = &self.inner;
        let stops = inner.lock_py(py)?.stop_flags();
        if stops.is_empty() {
            return py.detach(|| work(&mut **inner.lock()?)).map_err(to_py_err);
        }
        let runner = Arc::clone(inner);
        with_stop_flags(
            &stops,
            |raise| run_stoppable_owned(py, raise, move || work(&mut **runner.lock()?)),
            || inner.lock_py(py).map(|mut runner| runner.mark_broken()),
        )
    }
}

/// The registered games with their player ranges, options and built-in bots.
#[pyfunction]
fn games(py: Python<'_>) -> PyResult<Py<PyAny>> {
    let list: Vec<Value> = engine::games()
        .into_iter()
        .map(|g| {
            serde_json::json!({
                "id": g.id,
                "min_players": g.players.0,
                "max_players": g.players.1,
                "bots": g.bots,
                "search_bots": g.search_bots,
                "bot_usages": g.usages,
                "higher_score_is_better": g.higher_score_is_better,
                "options": g.options.iter().map(|o| serde_json::json!({
                    "name": o.name,
                    "type": o.kind.name(),
                    "default": o.default,
                    "choices": match o.kind {
                        engine::OptionKind::Choice(c) => c.to_vec(),
                        _ => Vec::new(),
                    },
                    "doc": o.doc,
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    to_py(py, &Value::Array(list))
}

/// The compiled module.
#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyGame>()?;
    m.add_class::<PyState>()?;
    m.add_class::<PyLockstep>()?;
    m.add_class::<PyBot>()?;
    m.add_class::<PyVectorEnv>()?;
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_function(wrap_pyfunction!(simulate, m)?)?;
    m.add_function(wrap_pyfunction!(decide_all, m)?)?;
    m.add_function(wrap_pyfunction!(ensure_fits, m)?)?;
    m.add_function(wrap_pyfunction!(_restore_state, m)?)?;
    m.add("CHANCE", engine::CHANCE)?;
    m.add("TERMINAL", engine::TERMINAL)?;
    Ok(())
}
