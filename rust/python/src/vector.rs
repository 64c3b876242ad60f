//! `cardtable._core.VectorEnv`: the batch of games for learning agents, and its output arrays
//! (fresh dicts of NumPy arrays, a caller's arrays, or the packed arrays of `output_buffers()`).
//! Like the rest of the crate it converts types and errors only; the stepping is the engine's.

use super::convert::{list_arg, str_arg, to_py_err, uint_arg};
use super::{optional_threads, run_stoppable, with_stop_flags, Locked, PyGame, PyState};
use cardtable_engine as engine;
use engine::EngineError;
use numpy::{PyArrayMethods, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyMappingProxy, PyString, PyTuple};

/// Many games stepped together for learning agents; see `cardtable.VectorEnv`.
#[pyclass(module = "cardtable._core", name = "VectorEnv")]
pub(crate) struct PyVectorEnv {
    inner: Locked<dyn engine::AnyVectorEnv>,
    /// Whether fresh outputs hold observation tensors.
    observations: bool,
    num_envs: usize,
    shape: Vec<usize>,
    num_actions: usize,
    players: usize,
    /// The arrays `output_buffers()` hands out, made by its first call.
    packed: pyo3::sync::PyOnceLock<Packed>,
}

impl PyVectorEnv {
    /// Runs one operation on the envs without the GIL: with `out` (a mapping of arrays from an
    /// earlier call) `into` writes into those arrays and `out` is returned; without it `fresh`
    /// fills a new output, returned as a new dict. The mapping of `output_buffers()` is written
    /// through its three packed arrays.
    fn run<'py>(
        &self,
        py: Python<'py>,
        out: Option<&Bound<'py, PyAny>>,
        into: impl FnOnce(&mut dyn engine::AnyVectorEnv, engine::OutputSlices<'_>) -> engine::Result<()>
            + Send,
        fresh: impl FnOnce(&mut dyn engine::AnyVectorEnv, &mut engine::StepOutput) -> engine::Result<()>
            + Send,
    ) -> PyResult<Bound<'py, PyAny>> {
        let inner = &self.inner;
        let observations = self.observations;
        if let Some(mapping) = out {
            // The borrows of whichever arrays are written, held until the engine is done.
            let (mut floats, mut flags, mut ints, mut arrays);
            let packed = self.packed.get(py);
            let slices = if let Some(packed) = packed.filter(|p| mapping.is(p.mapping.bind(py))) {
                let in_use = |_| {
                    to_py_err(EngineError::InvalidOption(
                        "the arrays of out are not writeable or are in use".into(),
                    ))
                };
                floats = packed.floats.bind(py).try_readwrite().map_err(in_use)?;
                flags = packed.flags.bind(py).try_readwrite().map_err(in_use)?;
                ints = packed.ints.bind(py).try_readwrite().map_err(in_use)?;
                packed.slices(&mut floats, &mut flags, &mut ints)?
            } else {
                arrays = OutArrays::borrow(mapping)?;
                arrays.slices()?
            };
            self.stoppable(py, || into(&mut **inner.lock()?, slices))?;
            return Ok(mapping.clone());
        }
        let out = self.stoppable(py, || {
            let mut env = inner.lock()?;
            let mut out = env.try_output_with(observations)?;
            fresh(&mut **env, &mut out).map(|()| out)
        })?;
        Ok(self.output_to_py(py, out)?.into_any())
    }

    /// Runs `work` on the envs without the GIL. With search bots seated, Ctrl-C raises their stop
    /// flags (their decisions end after the iteration in progress), and once `work` returns the
    /// envs are marked part-way (only a reset may follow) and `KeyboardInterrupt` is raised.
    fn stoppable<T: Send>(
        &self,
        py: Python<'_>,
        work: impl FnOnce() -> engine::Result<T> + Send,
    ) -> PyResult<T> {
        let stops = self.inner.lock_py(py)?.stop_flags();
        if stops.is_empty() {
            return py.detach(work).map_err(to_py_err);
        }
        with_stop_flags(
            &stops,
            |raise| run_stoppable(py, raise, work),
            || self.inner.lock_py(py).map(|mut envs| envs.mark_broken()),
        )
    }

    /// The shape of a call's `obs` array: `[num_envs, *observation_shape]`, or `[num_envs, 0]`
    /// without observation tensors.
    fn obs_shape(&self) -> Vec<usize> {
        let mut shape = vec![self.num_envs];
        if self.observations {
            shape.extend_from_slice(&self.shape);
        } else {
            shape.push(0);
        }
        shape
    }

    /// The env indices a call names (`None`: every env, in order).
    fn env_indices(&self, envs: Option<numpy::PyReadonlyArray1<'_, i64>>) -> PyResult<Vec<usize>> {
        match envs {
            Some(a) => indices_arg(&a, "env", self.num_envs),
            None => Ok((0..self.num_envs).collect()),
        }
    }

    /// The buffers of one call as a dict of NumPy arrays.
    fn output_to_py<'py>(
        &self,
        py: Python<'py>,
        out: engine::StepOutput,
    ) -> PyResult<Bound<'py, PyDict>> {
        let n = self.num_envs;
        let d = PyDict::new(py);
        d.set_item(
            "obs",
            numpy::PyArray1::from_vec(py, out.obs).reshape(self.obs_shape())?,
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
        d.set_item(
            "scores",
            numpy::PyArray1::from_vec(py, out.scores).reshape([n, self.players])?,
        )?;
        Ok(d)
    }
}

/// The keys of an output dict, interned, in the order of [`engine::OutputSlices`]' fields.
fn out_keys(py: Python<'_>) -> [&Bound<'_, PyString>; 9] {
    [
        pyo3::intern!(py, "obs"),
        pyo3::intern!(py, "action_mask"),
        pyo3::intern!(py, "rewards"),
        pyo3::intern!(py, "all_rewards"),
        pyo3::intern!(py, "terminated"),
        pyo3::intern!(py, "seat"),
        pyo3::intern!(py, "autoreset"),
        pyo3::intern!(py, "episode"),
        pyo3::intern!(py, "scores"),
    ]
}

/// The outputs of `VectorEnv.output_buffers()`: the nine arrays of a call are views of three
/// arrays, one per dtype, so a call borrows three arrays instead of nine (rust-numpy's run-time
/// borrow check of each array is most of what the binding adds to a call). They are handed out
/// in a read-only mapping, so that the mapping itself says where to write.
struct Packed {
    /// The mapping handed out (a `types.MappingProxyType` of a dict only this holds).
    mapping: Py<PyMappingProxy>,
    /// `obs`, `rewards` and `all_rewards`, end to end.
    floats: Py<numpy::PyArray1<f32>>,
    /// `action_mask`, `terminated` and `autoreset`.
    flags: Py<numpy::PyArray1<bool>>,
    /// `seat`, `episode` and `scores`.
    ints: Py<numpy::PyArray1<i64>>,
    /// Entries of `obs` (0 without observation tensors) and of `action_mask`.
    obs_len: usize,
    mask_len: usize,
    /// Number of envs.
    envs: usize,
}

impl Packed {
    /// Packs a fresh (zeroed) output of `env` and makes the dict of views: shapes as in
    /// `output_to_py`.
    fn new(py: Python<'_>, env: &PyVectorEnv, out: engine::StepOutput) -> PyResult<Self> {
        let n = env.num_envs;
        let (obs_len, mask_len) = (out.obs.len(), out.mask.len());
        let short = |_| {
            to_py_err(EngineError::TooLarge(format!(
                "the output buffers of {n} envs do not fit in memory; use fewer envs"
            )))
        };
        let floats = joined(out.obs, &[&out.rewards, &out.all_rewards]).map_err(short)?;
        let flags = joined(out.mask, &[&out.terminated, &out.autoreset]).map_err(short)?;
        let ints = joined(out.seat, &[&out.episode, &out.scores]).map_err(short)?;
        let ends = (floats.len(), flags.len(), ints.len());
        let floats = numpy::PyArray1::from_vec(py, floats);
        let flags = numpy::PyArray1::from_vec(py, flags);
        let ints = numpy::PyArray1::from_vec(py, ints);
        let views = [
            view(floats.as_any(), 0, obs_len, &env.obs_shape())?,
            view(flags.as_any(), 0, mask_len, &[n, env.num_actions])?,
            view(floats.as_any(), obs_len, obs_len + n, &[n])?,
            view(floats.as_any(), obs_len + n, ends.0, &[n, env.players])?,
            view(flags.as_any(), mask_len, mask_len + n, &[n])?,
            view(ints.as_any(), 0, n, &[n])?,
            view(flags.as_any(), mask_len + n, ends.1, &[n])?,
            view(ints.as_any(), n, 2 * n, &[n])?,
            view(ints.as_any(), 2 * n, ends.2, &[n, env.players])?,
        ];
        let dict = PyDict::new(py);
        for (key, value) in out_keys(py).into_iter().zip(views) {
            dict.set_item(key, value)?;
        }
        Ok(Self {
            mapping: PyMappingProxy::new(py, dict.as_mapping()).unbind(),
            floats: floats.unbind(),
            flags: flags.unbind(),
            ints: ints.unbind(),
            obs_len,
            mask_len,
            envs: n,
        })
    }

    /// The borrowed packed arrays cut into the engine's output slices.
    fn slices<'a>(
        &self,
        floats: &'a mut numpy::PyReadwriteArray1<'_, f32>,
        flags: &'a mut numpy::PyReadwriteArray1<'_, bool>,
        ints: &'a mut numpy::PyReadwriteArray1<'_, i64>,
    ) -> PyResult<engine::OutputSlices<'a>> {
        let bad = || {
            to_py_err(EngineError::InvalidOption(
                "the packed output arrays were resized".into(),
            ))
        };
        let n = self.envs;
        let floats = floats.as_slice_mut().map_err(|_| bad())?;
        let (obs, floats) = floats.split_at_mut_checked(self.obs_len).ok_or_else(bad)?;
        let (rewards, all_rewards) = floats.split_at_mut_checked(n).ok_or_else(bad)?;
        let flags = flags.as_slice_mut().map_err(|_| bad())?;
        let (mask, flags) = flags.split_at_mut_checked(self.mask_len).ok_or_else(bad)?;
        let (terminated, autoreset) = flags.split_at_mut_checked(n).ok_or_else(bad)?;
        let ints = ints.as_slice_mut().map_err(|_| bad())?;
        let (seat, ints) = ints.split_at_mut_checked(n).ok_or_else(bad)?;
        let (episode, scores) = ints.split_at_mut_checked(n).ok_or_else(bad)?;
        Ok(engine::OutputSlices {
            obs,
            mask,
            rewards,
            all_rewards,
            terminated,
            seat,
            autoreset,
            episode,
            scores,
        })
    }
}

/// `first` followed by every slice of `rest`, in `first`'s allocation grown once.
fn joined<T: Clone>(
    mut first: Vec<T>,
    rest: &[&[T]],
) -> Result<Vec<T>, std::collections::TryReserveError> {
    first.try_reserve_exact(rest.iter().map(|r| r.len()).sum())?;
    for r in rest {
        first.extend_from_slice(r);
    }
    Ok(first)
}

/// `base[start:end].reshape(shape)`: a view of part of a one-dimensional array.
fn view<'py>(
    base: &Bound<'py, PyAny>,
    start: usize,
    end: usize,
    shape: &[usize],
) -> PyResult<Bound<'py, PyAny>> {
    let py = base.py();
    let index = |i: usize| {
        isize::try_from(i)
            .map_err(|_| to_py_err(EngineError::TooLarge(format!("an output of {i} entries"))))
    };
    // `slice(start, end)`, made by calling the type: `PySlice::new` leaks the three ints it
    // makes (`PySlice_New` does not take them over).
    let range = py
        .get_type::<pyo3::types::PySlice>()
        .call1((index(start)?, index(end)?))?;
    let part = base.get_item(range)?;
    part.call_method1("reshape", (PyTuple::new(py, shape)?,))
}

/// The arrays of an output dict, borrowed for writing (see `PyVectorEnv::step`).
struct OutArrays<'py> {
    obs: numpy::PyReadwriteArrayDyn<'py, f32>,
    mask: numpy::PyReadwriteArrayDyn<'py, bool>,
    rewards: numpy::PyReadwriteArrayDyn<'py, f32>,
    all_rewards: numpy::PyReadwriteArrayDyn<'py, f32>,
    terminated: numpy::PyReadwriteArrayDyn<'py, bool>,
    seat: numpy::PyReadwriteArrayDyn<'py, i64>,
    autoreset: numpy::PyReadwriteArrayDyn<'py, bool>,
    episode: numpy::PyReadwriteArrayDyn<'py, i64>,
    scores: numpy::PyReadwriteArrayDyn<'py, i64>,
}

impl<'py> OutArrays<'py> {
    /// Borrows every array of the mapping `dict`; fails on a missing key, a wrong dtype or an
    /// array in use.
    fn borrow(dict: &Bound<'py, PyAny>) -> PyResult<Self> {
        // The keys are interned strings ([`out_keys`]: made once, not at every call).
        fn get<'py, T: numpy::Element>(
            dict: &Bound<'py, PyAny>,
            key: &Bound<'py, pyo3::types::PyString>,
        ) -> PyResult<numpy::PyReadwriteArrayDyn<'py, T>> {
            let bad = |what: &str| {
                to_py_err(EngineError::InvalidOption(format!(
                    "out[{key:?}] {what}; pass the arrays an earlier reset() or step() returned"
                )))
            };
            let item = dict.get_item(key).map_err(|_| bad("is missing"))?;
            let array = item
                .cast::<numpy::PyArrayDyn<T>>()
                .map_err(|_| bad("is not an array of the right dtype"))?;
            array
                .try_readwrite()
                .map_err(|_| bad("is not writeable or is in use"))
        }
        let [obs, mask, rewards, all_rewards, terminated, seat, autoreset, episode, scores] =
            out_keys(dict.py());
        Ok(Self {
            obs: get(dict, obs)?,
            mask: get(dict, mask)?,
            rewards: get(dict, rewards)?,
            all_rewards: get(dict, all_rewards)?,
            terminated: get(dict, terminated)?,
            seat: get(dict, seat)?,
            autoreset: get(dict, autoreset)?,
            episode: get(dict, episode)?,
            scores: get(dict, scores)?,
        })
    }

    /// The arrays as the engine's output slices; fails unless every one is contiguous and aligned.
    fn slices(&mut self) -> PyResult<engine::OutputSlices<'_>> {
        let bad = || {
            to_py_err(EngineError::InvalidOption(
                "the arrays of out must be C-contiguous and aligned".into(),
            ))
        };
        Ok(engine::OutputSlices {
            obs: c_order(&mut self.obs).ok_or_else(bad)?,
            mask: c_order(&mut self.mask).ok_or_else(bad)?,
            rewards: c_order(&mut self.rewards).ok_or_else(bad)?,
            all_rewards: c_order(&mut self.all_rewards).ok_or_else(bad)?,
            terminated: c_order(&mut self.terminated).ok_or_else(bad)?,
            seat: c_order(&mut self.seat).ok_or_else(bad)?,
            autoreset: c_order(&mut self.autoreset).ok_or_else(bad)?,
            episode: c_order(&mut self.episode).ok_or_else(bad)?,
            scores: c_order(&mut self.scores).ok_or_else(bad)?,
        })
    }
}

#[pymethods]
impl PyVectorEnv {
    #[new]
    #[pyo3(signature = (
        game, *, num_envs, seed, agent_seats, opponents, reward, threads=None, observations=true,
        rotate_seats=false, keep_histories=false
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        game: &PyGame,
        num_envs: &Bound<'_, PyAny>,
        seed: &Bound<'_, PyAny>,
        agent_seats: &Bound<'_, PyAny>,
        opponents: &Bound<'_, PyAny>,
        reward: &Bound<'_, PyAny>,
        threads: Option<&Bound<'_, PyAny>>,
        observations: bool,
        rotate_seats: bool,
        keep_histories: bool,
    ) -> PyResult<Self> {
        let opt = EngineError::InvalidOption;
        let config = engine::VectorConfig {
            num_envs: uint_arg(num_envs, "num_envs", usize::MAX, opt)?,
            seed: uint_arg(seed, "seed", u64::MAX, opt)?,
            agent_seats: list_arg(agent_seats, "agent_seats", opt, |s| {
                uint_arg(s, "an agent seat", usize::MAX, opt)
            })?,
            opponents: list_arg(opponents, "opponents", opt, |b| str_arg(b, "a bot", opt))?,
            reward: engine::RewardKind::parse(&str_arg(reward, "reward", opt)?)
                .map_err(to_py_err)?,
            threads: optional_threads(threads)?,
            rotate_seats,
            keep_histories,
        };
        let inner = game.inner.vector_env(config).map_err(to_py_err)?;
        Ok(Self {
            num_envs: inner.num_envs(),
            inner: Locked::new(inner, "vector env"),
            observations,
            shape: game.inner.observation_shape(),
            num_actions: game.inner.num_actions() as usize,
            players: game.inner.players(),
            packed: pyo3::sync::PyOnceLock::new(),
        })
    }

    /// One set of output arrays for `reset` and `step` to write into, in a read-only mapping,
    /// the same at every call (made by the first): pass it as their `out`. Its eight arrays are
    /// views of three arrays, so a call that writes into them costs less than one given other
    /// arrays.
    fn output_buffers<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyMappingProxy>> {
        let packed = self.packed.get_or_try_init(py, || {
            let out = self
                .inner
                .lock_py(py)?
                .try_output_with(self.observations)
                .map_err(to_py_err)?;
            Packed::new(py, self, out)
        })?;
        Ok(packed.mapping.bind(py).clone())
    }

    /// Starts every env (game 0 of `seed` if given, else each env's next game); returns the
    /// buffers as a dict of arrays, or writes into `out` (as `step` does) and returns it.
    ///
    /// The envs are locked only while the GIL is released (as in `step`), so two threads sharing
    /// one env take turns instead of waiting on each other.
    #[pyo3(signature = (seed=None, out=None))]
    fn reset<'py>(
        &self,
        py: Python<'py>,
        seed: Option<&Bound<'py, PyAny>>,
        out: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let seed = seed
            .filter(|s| !s.is_none())
            .map(|s| uint_arg(s, "seed", u64::MAX, EngineError::InvalidOption))
            .transpose()?;
        self.run(
            py,
            out,
            |env, slices| env.reset_into(seed, slices),
            |env, out| env.reset(seed, out),
        )
    }

    /// Applies one action per env and plays on; returns the buffers as a dict of arrays.
    ///
    /// With `out` (a mapping of arrays as returned by an earlier call or `output_buffers()`),
    /// writes into those arrays instead and returns `out`.
    #[pyo3(signature = (actions, out=None))]
    fn step<'py>(
        &self,
        py: Python<'py>,
        actions: numpy::PyReadonlyArray1<'py, i64>,
        out: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let actions = actions.as_slice().map_err(|_| {
            to_py_err(EngineError::IllegalAction(
                "actions must be a contiguous, aligned array".into(),
            ))
        })?;
        self.run(
            py,
            out,
            |env, slices| env.step_into(actions, slices),
            |env, out| env.step(actions, out),
        )
    }

    /// The observation tensors of `envs` (all envs if `None`) for `seats` (one per env asked;
    /// `None`: the seat of each env's last observation), as a new array `[len(envs), *shape]`
    /// or written into `out`, which is returned.
    #[pyo3(signature = (envs=None, seats=None, out=None))]
    fn observe<'py>(
        &self,
        py: Python<'py>,
        envs: Option<numpy::PyReadonlyArray1<'py, i64>>,
        seats: Option<numpy::PyReadonlyArray1<'py, i64>>,
        out: Option<&Bound<'py, numpy::PyArrayDyn<f32>>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let opt = |m: String| to_py_err(EngineError::InvalidOption(m));
        let envs = self.env_indices(envs)?;
        let seats = seats
            .map(|a| indices_arg(&a, "seat", self.players))
            .transpose()?;
        let inner = &self.inner;
        if let Some(array) = out {
            let mut rw = array
                .try_readwrite()
                .map_err(|_| opt("out is not writeable or is in use".into()))?;
            let slice = c_order(&mut rw)
                .ok_or_else(|| opt("out must be C-contiguous and aligned".into()))?;
            py.detach(|| inner.lock()?.observe_into(&envs, seats.as_deref(), slice))
                .map_err(to_py_err)?;
            return Ok(array.clone().into_any());
        }
        let rows = envs.len();
        let filled = py
            .detach(|| inner.lock()?.observe(&envs, seats.as_deref()))
            .map_err(to_py_err)?;
        let mut shape = vec![rows];
        shape.extend_from_slice(&self.shape);
        Ok(numpy::PyArray1::from_vec(py, filled)
            .reshape(shape)?
            .into_any())
    }

    /// The current games of `envs` (all envs if `None`) as states with their whole histories,
    /// seeded with each env's chance stream (see `cardtable.VectorEnv.states`).
    #[pyo3(signature = (envs=None))]
    fn states(
        &self,
        py: Python<'_>,
        envs: Option<numpy::PyReadonlyArray1<'_, i64>>,
    ) -> PyResult<Vec<PyState>> {
        let envs = self.env_indices(envs)?;
        let inner = &self.inner;
        let sessions = py
            .detach(|| inner.lock()?.sessions(&envs))
            .map_err(to_py_err)?;
        Ok(sessions
            .into_iter()
            .map(|inner| PyState { inner })
            .collect())
    }

    /// Number of envs.
    #[getter]
    fn num_envs(&self) -> usize {
        self.num_envs
    }
}

/// The indices in `array`, each naming one of `count` `what`s (a negative one is refused here,
/// one too large by the engine, with the same message).
fn indices_arg(
    array: &numpy::PyReadonlyArray1<'_, i64>,
    what: &str,
    count: usize,
) -> PyResult<Vec<usize>> {
    array
        .as_array()
        .iter()
        .map(|&x| {
            usize::try_from(x).map_err(|_| {
                to_py_err(EngineError::InvalidOption(format!(
                    "{what} {x} is out of range {}",
                    engine::error::indices(count as u64)
                )))
            })
        })
        .collect()
}

/// The elements of `array` in row-major order, if it is C-contiguous (`as_slice_mut` alone also
/// accepts a Fortran-ordered array, whose elements it would hand over in column-major order).
fn c_order<'a, T: numpy::Element, D: numpy::ndarray::Dimension>(
    array: &'a mut numpy::PyReadwriteArray<'_, T, D>,
) -> Option<&'a mut [T]> {
    if array.is_c_contiguous() {
        array.as_slice_mut().ok()
    } else {
        None
    }
}
