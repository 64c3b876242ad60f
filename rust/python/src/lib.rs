//! `cardtable._core`: the Python bindings of the Rust engine. This crate converts types and errors
//! and nothing else; every rule lives in `cardtable-engine`.

use cardtable_engine as engine;
use engine::{AnyGame, AnySession, EngineError};
use numpy::PyArrayMethods;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple, PyType};
use serde_json::{Map, Value};

/// Converts an engine error to the class of the same name in `cardtable.errors` (the one mapping
/// site between the two error hierarchies).
fn to_py_err(err: EngineError) -> PyErr {
    Python::attach(|py| {
        let (class, msg) = match err {
            EngineError::IllegalAction(m) => ("IllegalActionError", m),
            EngineError::InvalidOption(m) => ("InvalidOptionError", m),
            EngineError::InvalidState(m) => ("InvalidStateError", m),
        };
        let cls = py
            .import("cardtable.errors")
            .and_then(|m| m.getattr(class))
            .and_then(|c| Ok(c.cast_into::<PyType>()?));
        match cls {
            Ok(cls) => PyErr::from_type(cls, msg),
            Err(e) => e,
        }
    })
}

/// An `int` argument (not a `bool`) as `i64`, or the given error.
fn int_arg(obj: &Bound<'_, PyAny>, what: &str, err: fn(String) -> EngineError) -> PyResult<i64> {
    if obj.is_instance_of::<pyo3::types::PyBool>() {
        return Err(to_py_err(err(format!("{what} must be an int, got {obj}"))));
    }
    obj.extract::<i64>()
        .map_err(|_| to_py_err(err(format!("{what} must be an int, got {obj}"))))
}

fn to_py(py: Python<'_>, value: &Value) -> PyResult<Py<PyAny>> {
    Ok(pythonize::pythonize(py, value)?.unbind())
}

fn from_py(obj: &Bound<'_, PyAny>, err: fn(String) -> EngineError) -> PyResult<Value> {
    pythonize::depythonize::<Value>(obj)
        .map_err(|e| to_py_err(err(format!("not JSON-compatible: {e}"))))
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
        game_id: &str,
        players: &Bound<'_, PyAny>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let players = int_arg(players, "players", EngineError::InvalidOption)?;
        let options = match options {
            None => Map::new(),
            Some(d) => match from_py(d.as_any(), EngineError::InvalidOption)? {
                Value::Object(m) => m,
                _ => return Err(PyTypeError::new_err("options must be a dict")),
            },
        };
        let inner = engine::make(game_id, players, &options).map_err(to_py_err)?;
        Ok(Self { inner })
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
                        "seed must be None or an int in 0..2**64, got {s}"
                    )))
                };
                if s.is_instance_of::<pyo3::types::PyBool>() {
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
        let value = from_py(data, EngineError::InvalidState)?;
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

    /// Applies an action or chance outcome.
    #[pyo3(signature = (action, player=None))]
    fn apply(
        &mut self,
        action: &Bound<'_, PyAny>,
        player: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let a = int_arg(action, "action", EngineError::IllegalAction)?;
        let p = match player {
            None => None,
            Some(p) => Some(int_arg(p, "player", EngineError::IllegalAction)?),
        };
        self.inner.apply(a, p).map_err(to_py_err)
    }

    /// A readable label of an action id.
    fn action_label(&self, action: &Bound<'_, PyAny>) -> PyResult<String> {
        let a = int_arg(action, "action", EngineError::IllegalAction)?;
        self.inner.action_label(a).map_err(to_py_err)
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
        let p = int_arg(player, "player", EngineError::IllegalAction)?;
        let obs = self.inner.observation(p).map_err(to_py_err)?;
        to_py(py, &obs)
    }

    /// What seat `player` may know, as a float32 tensor.
    fn observation_tensor<'py>(
        &self,
        py: Python<'py>,
        player: &Bound<'_, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let p = int_arg(player, "player", EngineError::IllegalAction)?;
        let shape = self.inner.observation_shape();
        let mut out = vec![0.0f32; shape.iter().product()];
        self.inner
            .observation_tensor(p, &mut out)
            .map_err(to_py_err)?;
        Ok(numpy::PyArray1::from_vec(py, out)
            .reshape(shape)?
            .into_any())
    }

    /// `True` at every legal action (chance outcome at a chance node).
    fn legal_action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, numpy::PyArray1<bool>> {
        let mut out = vec![false; self.inner.num_actions() as usize];
        self.inner.legal_action_mask(&mut out);
        numpy::PyArray1::from_vec(py, out)
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

    fn __copy__(&self) -> Self {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.clone()
    }

    /// The number of distinct step sequences of length `depth` from this state (perft).
    fn perft(&self, py: Python<'_>, depth: u32) -> u64 {
        let session = &*self.inner;
        py.detach(|| session.perft(depth))
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
        let g = result.lengths.len();
        let scores = numpy::PyArray1::from_vec(py, result.scores).reshape([g, n])?;
        let winners = numpy::PyArray1::from_vec(py, result.winners)
            .reshape([g, n])?
            .call_method1("astype", ("bool",))?;
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
/// with `interrupted=True` (an exception raised by `progress` is re-raised instead).
#[pyfunction]
#[pyo3(signature = (game, *, games, seed, bots, threads=None, keep_games=true, first_game=0, progress=None))]
#[allow(clippy::too_many_arguments)]
fn simulate<'py>(
    py: Python<'py>,
    game: &PyGame,
    games: u64,
    seed: u64,
    bots: Vec<String>,
    threads: Option<usize>,
    keep_games: bool,
    first_game: u64,
    progress: Option<Py<PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let config = engine::SimConfig {
        games,
        first_game,
        seed,
        threads,
        bots,
        keep_games,
    };
    let failure: std::sync::Mutex<Option<PyErr>> = std::sync::Mutex::new(None);
    let interrupted = std::sync::atomic::AtomicBool::new(false);
    let report = |done: u64| -> bool {
        Python::attach(|py| {
            if py.check_signals().is_err() {
                interrupted.store(true, std::sync::atomic::Ordering::Relaxed);
                return false;
            }
            match &progress {
                None => true,
                Some(cb) => match cb.call1(py, (done,)) {
                    Ok(ret) => !matches!(ret.extract::<bool>(py), Ok(false)),
                    Err(e) => {
                        if let Ok(mut slot) = failure.lock() {
                            *slot = Some(e);
                        }
                        false
                    }
                },
            }
        })
    };
    let inner = &*game.inner;
    let result = py
        .detach(|| inner.simulate(&config, &report))
        .map_err(to_py_err)?;
    if let Some(err) = failure.lock().ok().and_then(|mut slot| slot.take()) {
        return Err(err);
    }
    result_to_py(py, result, inner.players(), keep_games)
}

/// A built-in bot seated in one game; see `cardtable.bot`.
#[pyclass(module = "cardtable._core", name = "Bot")]
struct PyBot {
    inner: std::sync::Mutex<Box<dyn engine::session::AnyBot>>,
    name: String,
    seat: usize,
}

impl PyBot {
    fn lock(&self) -> PyResult<std::sync::MutexGuard<'_, Box<dyn engine::session::AnyBot>>> {
        self.inner
            .lock()
            .map_err(|_| to_py_err(EngineError::InvalidState("bot was poisoned".into())))
    }
}

#[pymethods]
impl PyBot {
    #[new]
    #[pyo3(signature = (game, name, seat, seed=None))]
    fn new(
        game: &PyGame,
        name: String,
        seat: &Bound<'_, PyAny>,
        seed: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let bad = |m: String| to_py_err(EngineError::InvalidOption(m));
        let seat = int_arg(seat, "seat", EngineError::InvalidOption)?;
        let seat =
            usize::try_from(seat).map_err(|_| bad(format!("seat {seat} is out of range")))?;
        // The whole u64 range: batch runs derive bot seeds over all 64 bits, and a replay of one
        // of their games must be able to seat the same bot.
        let seed = match seed {
            None => 0,
            Some(s) if s.is_instance_of::<pyo3::types::PyBool>() => {
                return Err(bad(format!("seed must be an int, got {s}")));
            }
            Some(s) => s
                .extract::<u64>()
                .map_err(|_| bad(format!("seed must be an int in 0..2**64, got {s}")))?,
        };
        let inner = game.inner.bot(&name, seat, seed).map_err(to_py_err)?;
        Ok(Self {
            inner: std::sync::Mutex::new(inner),
            name,
            seat,
        })
    }

    /// The bot's action for its seat in `state`.
    fn act(&self, state: &PyState) -> PyResult<u32> {
        self.lock()?.act(&*state.inner).map_err(to_py_err)
    }

    /// Lets a bot with memory see `state` (call after every step).
    fn observe(&self, state: &PyState) -> PyResult<()> {
        self.lock()?.observe(&*state.inner).map_err(to_py_err)
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
    inner: std::sync::Mutex<Box<dyn engine::lockstep::AnyLockstep>>,
    players: usize,
    keep_games: bool,
}

impl PyLockstep {
    fn lock(&self) -> PyResult<std::sync::MutexGuard<'_, Box<dyn engine::lockstep::AnyLockstep>>> {
        self.inner.lock().map_err(|_| {
            to_py_err(EngineError::InvalidState(
                "lockstep runner was poisoned".into(),
            ))
        })
    }
}

#[pymethods]
impl PyLockstep {
    #[new]
    #[pyo3(signature = (game, *, games, seed, bots, batch, keep_games=true))]
    fn new(
        game: &PyGame,
        games: u64,
        seed: u64,
        bots: Vec<Option<String>>,
        batch: usize,
        keep_games: bool,
    ) -> PyResult<Self> {
        let config = engine::SimConfig {
            games,
            first_game: 0,
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
            inner: std::sync::Mutex::new(inner),
            players: game.inner.players(),
            keep_games,
        })
    }

    /// `(game index, seat)` of every game waiting for a decision.
    fn pending(&self) -> PyResult<Vec<(u64, usize)>> {
        Ok(self.lock()?.pending())
    }

    /// The waiting seats' observations.
    fn observations(&self, py: Python<'_>) -> PyResult<Vec<Py<PyAny>>> {
        let obs = self.lock()?.observations();
        obs.iter().map(|o| to_py(py, o)).collect()
    }

    /// The waiting seats' legal actions.
    fn legal_actions(&self) -> PyResult<Vec<Vec<u32>>> {
        Ok(self.lock()?.legal_actions())
    }

    /// Applies one action per pending game, then plays on until the next decisions.
    fn act(&self, py: Python<'_>, actions: Vec<i64>) -> PyResult<()> {
        let runner: &mut dyn engine::lockstep::AnyLockstep = &mut **self.lock()?;
        py.detach(|| runner.act(&actions)).map_err(to_py_err)
    }

    /// Games completed so far.
    #[getter]
    fn games_played(&self) -> PyResult<u64> {
        Ok(self.lock()?.games_played())
    }

    /// Whether every game is finished.
    #[getter]
    fn is_done(&self) -> PyResult<bool> {
        Ok(self.lock()?.is_done())
    }

    /// The results (like `simulate`'s); interrupted if not done.
    fn take_result<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let result = self.lock()?.take_result();
        result_to_py(py, result, self.players, self.keep_games)
    }
}

/// Many games stepped together for learning agents; see `cardtable.VectorEnv`.
#[pyclass(module = "cardtable._core", name = "VectorEnv")]
struct PyVectorEnv {
    inner: std::sync::Mutex<Box<dyn engine::AnyVectorEnv>>,
    shape: Vec<usize>,
    num_actions: usize,
    players: usize,
}

impl PyVectorEnv {
    fn lock(&self) -> PyResult<std::sync::MutexGuard<'_, Box<dyn engine::AnyVectorEnv>>> {
        self.inner
            .lock()
            .map_err(|_| to_py_err(EngineError::InvalidState("vector env was poisoned".into())))
    }

    /// The buffers of one call as a dict of NumPy arrays.
    fn output_to_py<'py>(
        &self,
        py: Python<'py>,
        out: engine::StepOutput,
    ) -> PyResult<Bound<'py, PyDict>> {
        let n = out.rewards.len();
        let mut obs_shape = vec![n];
        obs_shape.extend_from_slice(&self.shape);
        let d = PyDict::new(py);
        d.set_item(
            "obs",
            numpy::PyArray1::from_vec(py, out.obs).reshape(obs_shape)?,
        )?;
        d.set_item(
            "action_mask",
            numpy::PyArray1::from_vec(py, out.mask).reshape([n, self.num_actions])?,
        )?;
        d.set_item("rewards", numpy::PyArray1::from_vec(py, out.rewards))?;
        d.set_item(
            "all_rewards",
            numpy::PyArray1::from_vec(py, out.all_rewards).reshape([n, self.players])?,
        )?;
        d.set_item("terminated", numpy::PyArray1::from_vec(py, out.terminated))?;
        d.set_item("seat", numpy::PyArray1::from_vec(py, out.seat))?;
        d.set_item("autoreset", numpy::PyArray1::from_vec(py, out.autoreset))?;
        d.set_item("episode", numpy::PyArray1::from_vec(py, out.episode))?;
        Ok(d)
    }
}

#[pymethods]
impl PyVectorEnv {
    #[new]
    #[pyo3(signature = (game, *, num_envs, seed, agent_seats, opponents, reward, threads=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        game: &PyGame,
        num_envs: usize,
        seed: u64,
        agent_seats: Vec<usize>,
        opponents: Vec<String>,
        reward: &str,
        threads: Option<usize>,
    ) -> PyResult<Self> {
        let config = engine::VectorConfig {
            num_envs,
            seed,
            agent_seats,
            opponents,
            reward: engine::RewardKind::parse(reward).map_err(to_py_err)?,
            threads,
        };
        let inner = game.inner.vector_env(config).map_err(to_py_err)?;
        Ok(Self {
            inner: std::sync::Mutex::new(inner),
            shape: game.inner.observation_shape(),
            num_actions: game.inner.num_actions() as usize,
            players: game.inner.players(),
        })
    }

    /// Starts every env (game 0 of `seed` if given, else each env's next game); returns the
    /// buffers as a dict of arrays.
    #[pyo3(signature = (seed=None))]
    fn reset<'py>(&self, py: Python<'py>, seed: Option<u64>) -> PyResult<Bound<'py, PyDict>> {
        let out = {
            let env: &mut dyn engine::AnyVectorEnv = &mut **self.lock()?;
            py.detach(|| {
                let mut out = env.output();
                env.reset(seed, &mut out).map(|()| out)
            })
            .map_err(to_py_err)?
        };
        self.output_to_py(py, out)
    }

    /// Applies one action per env and plays on; returns the buffers as a dict of arrays.
    fn step<'py>(
        &self,
        py: Python<'py>,
        actions: numpy::PyReadonlyArray1<'py, i64>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let actions = actions.as_slice().map_err(|_| {
            to_py_err(EngineError::IllegalAction(
                "actions must be a contiguous array".into(),
            ))
        })?;
        let out = {
            let env: &mut dyn engine::AnyVectorEnv = &mut **self.lock()?;
            py.detach(|| {
                let mut out = env.output();
                env.step(actions, &mut out).map(|()| out)
            })
            .map_err(to_py_err)?
        };
        self.output_to_py(py, out)
    }

    /// Number of envs.
    #[getter]
    fn num_envs(&self) -> PyResult<usize> {
        Ok(self.lock()?.num_envs())
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
    m.add("CHANCE", engine::CHANCE)?;
    m.add("TERMINAL", engine::TERMINAL)?;
    Ok(())
}
