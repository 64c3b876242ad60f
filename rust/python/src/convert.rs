//! Arguments from Python and errors to it: the one mapping of engine errors to the classes of
//! `cardtable.errors`, integers, strings and lists checked as the reference checks them, and
//! JSON-compatible values read with bounded depth and size. Conversion only, no rule.

use cardtable_engine::EngineError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple, PyType};
use serde_json::{Map, Number, Value};

/// Deepest nesting of lists and dicts accepted in an argument converted to JSON (the canonical
/// dicts nest far less); deeper input is refused before it is walked any further.
const MAX_DEPTH: usize = 64;

/// Most values (containers and scalars, counted as they are read) in an argument converted to
/// JSON; the canonical dicts hold a few thousand. A tree whose lists share their items is read in
/// full, so without this bound a few shared levels would take time and memory exponential in
/// the nesting.
const MAX_VALUES: usize = 1_000_000;

/// Converts an engine error to the class of the same name in `cardtable.errors` (the one mapping
/// site between the two error hierarchies).
pub(crate) fn to_py_err(err: EngineError) -> PyErr {
    Python::attach(|py| {
        let (class, msg) = match err {
            EngineError::IllegalAction(m) => ("IllegalActionError", m),
            EngineError::InvalidOption(m) => ("InvalidOptionError", m),
            EngineError::InvalidState(m) => ("InvalidStateError", m),
            EngineError::TooLarge(m) => ("CapacityError", m),
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

/// Whether `obj` is a `bool` or a NumPy boolean scalar (`numpy.bool_`, named `numpy.bool` since
/// NumPy 2), which NumPy 1.x still lets pass for an integer through `__index__`.
pub(crate) fn is_bool(obj: &Bound<'_, PyAny>) -> bool {
    if obj.is_instance_of::<PyBool>() {
        return true;
    }
    if obj.is_exact_instance_of::<PyInt>() {
        return false;
    }
    let ty = obj.get_type();
    ty.module()
        .is_ok_and(|m| m.to_str().is_ok_and(|m| m == "numpy"))
        && ty
            .name()
            .is_ok_and(|n| matches!(n.to_str(), Ok("bool_" | "bool")))
}

/// `repr(obj)` for an error message, whatever `obj`: the package's own rule
/// (`cardtable._inputs.shown`: an int too long for Python to write described by its size, a
/// container holding one item by item, an object whose `repr` fails by its type), so that both
/// backends name a value alike, without the "Exception ignored" report that formatting it with
/// `{:?}` would print. Should that rule itself fail (a value nested too deeply), by its type.
pub(crate) fn shown(obj: &Bound<'_, PyAny>) -> String {
    let by_the_package = obj
        .py()
        .import("cardtable._inputs")
        .and_then(|m| m.getattr("shown")?.call1((obj,))?.extract::<String>());
    by_the_package.unwrap_or_else(|_| match obj.get_type().name() {
        Ok(name) => format!("<unprintable {} object>", name.to_string_lossy()),
        Err(_) => "<unprintable object>".to_owned(),
    })
}

/// An integer argument (an `int` or any integer type with `__index__`, never a `bool`) as `i64`,
/// or the given error.
pub(crate) fn int_arg(
    obj: &Bound<'_, PyAny>,
    what: &str,
    err: fn(String) -> EngineError,
) -> PyResult<i64> {
    if is_bool(obj) {
        return Err(to_py_err(err(format!(
            "{what} must be an int, got {}",
            shown(obj)
        ))));
    }
    obj.extract::<i64>().map_err(|_| {
        // An integer that does not fit (its `__index__` works) is out of range, not a non-int.
        let message = if obj.call_method0("__index__").is_ok() {
            format!("{what} {} is out of range", shown(obj))
        } else {
            format!("{what} must be an int, got {}", shown(obj))
        };
        to_py_err(err(message))
    })
}

/// An integer argument of a state's method as the engine takes it (see [`engine_int_arg`]).
pub(crate) struct EngineInt {
    /// The value; for an integer too wide for `i64`, the nearest `i64`, which the engine refuses
    /// as out of range like any other id or seat it does not have.
    pub(crate) value: i64,
    /// For an integer too wide for `i64`: the caller's number, as errors name it.
    wide: Option<String>,
}

impl EngineInt {
    /// The engine's error, with the caller's number where the engine named the stand-in.
    pub(crate) fn restore(&self, err: EngineError) -> EngineError {
        let Some(shown) = &self.wide else {
            return err;
        };
        let stand_in = self.value.to_string();
        let put_back = |m: String| m.replacen(&stand_in, shown, 1);
        match err {
            EngineError::IllegalAction(m) => EngineError::IllegalAction(put_back(m)),
            EngineError::InvalidOption(m) => EngineError::InvalidOption(put_back(m)),
            EngineError::InvalidState(m) => EngineError::InvalidState(put_back(m)),
            EngineError::TooLarge(m) => EngineError::TooLarge(put_back(m)),
        }
    }
}

/// An integer argument (as [`int_arg`]) for the engine to check: one too wide for `i64` goes
/// to the engine as the nearest `i64`, so that it is refused by the engine's own checks in their
/// order (the game being over before the range) and with their words and ranges, with the
/// caller's number put back ([`EngineInt::restore`]), as the reference refuses it.
pub(crate) fn engine_int_arg(
    obj: &Bound<'_, PyAny>,
    what: &str,
    err: fn(String) -> EngineError,
) -> PyResult<EngineInt> {
    if !is_bool(obj) {
        if let Ok(value) = obj.extract::<i64>() {
            return Ok(EngineInt { value, wide: None });
        }
        // An integer too wide for `i64`: no `i64`, but an `__index__`.
        if let Ok(index) = obj.call_method0("__index__") {
            let value = if index.lt(0)? { i64::MIN } else { i64::MAX };
            // Named as the number it stands for (a NumPy integer as a plain int).
            return Ok(EngineInt {
                value,
                wide: Some(shown(&index)),
            });
        }
    }
    // A bool or a non-integer: `int_arg`'s error.
    int_arg(obj, what, err).map(|value| EngineInt { value, wide: None })
}

/// An integer argument in `0..=max` (same types as [`int_arg`]) as a `u64` or a `usize`, or the
/// given error.
pub(crate) fn uint_arg<T>(
    obj: &Bound<'_, PyAny>,
    what: &str,
    max: T,
    err: fn(String) -> EngineError,
) -> PyResult<T>
where
    T: Copy + std::fmt::Display + TryFrom<u64> + TryInto<u64>,
{
    let bad = || {
        to_py_err(err(format!(
            "{what} must be an int in 0..={max}, got {}",
            shown(obj)
        )))
    };
    if is_bool(obj) {
        return Err(bad());
    }
    let max_u64 = max.try_into().unwrap_or(u64::MAX);
    obj.extract::<u64>()
        .ok()
        .filter(|v| *v <= max_u64)
        .and_then(|v| T::try_from(v).ok())
        .ok_or_else(bad)
}

/// A list or tuple argument, each item converted by `item`.
pub(crate) fn list_arg<T>(
    obj: &Bound<'_, PyAny>,
    what: &str,
    err: fn(String) -> EngineError,
    item: impl Fn(&Bound<'_, PyAny>) -> PyResult<T>,
) -> PyResult<Vec<T>> {
    let items: Vec<Bound<'_, PyAny>> = if let Ok(l) = obj.cast::<PyList>() {
        l.iter().collect()
    } else if let Ok(t) = obj.cast::<PyTuple>() {
        t.iter().collect()
    } else {
        return Err(to_py_err(err(format!(
            "{what} must be a list, got {}",
            shown(obj)
        ))));
    };
    items.iter().map(item).collect()
}

/// A `str` argument, or the given error.
pub(crate) fn str_arg(
    obj: &Bound<'_, PyAny>,
    what: &str,
    err: fn(String) -> EngineError,
) -> PyResult<String> {
    obj.cast::<PyString>()
        .ok()
        .and_then(|s| s.to_str().ok().map(str::to_owned))
        .ok_or_else(|| {
            let message = if obj.is_instance_of::<PyString>() {
                format!(
                    "{what} must be valid UTF-8 (it holds a lone surrogate), got {}",
                    shown(obj)
                )
            } else {
                format!("{what} must be a str, got {}", shown(obj))
            };
            to_py_err(err(message))
        })
}

pub(crate) fn to_py(py: Python<'_>, value: &Value) -> PyResult<Py<PyAny>> {
    Ok(pythonize::pythonize(py, value)?.unbind())
}

/// Converts a Python value to JSON under the package's input rules (`docs/errors.md`): `None`,
/// `bool`, integers (`int` or `__index__`, in `-2**63..2**64`), finite floats, `str`, lists and
/// tuples, dicts with `str` keys, nested at most [`MAX_DEPTH`] deep and [`MAX_VALUES`] values in
/// all (`left` counts down what may still be read); anything else is refused.
pub(crate) fn json_value(
    obj: &Bound<'_, PyAny>,
    depth: usize,
    left: &mut usize,
) -> Result<Value, String> {
    *left = left
        .checked_sub(1)
        .ok_or_else(|| format!("more than {MAX_VALUES} values"))?;
    if obj.is_none() {
        return Ok(Value::Null);
    }
    if let Ok(b) = obj.cast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return s
            .to_str()
            .map(|s| Value::String(s.to_owned()))
            .map_err(|_| "a str that is not valid UTF-8".to_string());
    }
    if let Ok(f) = obj.cast::<PyFloat>() {
        let v = f.value();
        return Number::from_f64(v)
            .map(Value::Number)
            .ok_or_else(|| format!("{v} is not a finite number"));
    }
    let is_dict = obj.cast::<PyDict>().is_ok();
    let is_seq = obj.cast::<PyList>().is_ok() || obj.cast::<PyTuple>().is_ok();
    if is_dict || is_seq {
        if depth >= MAX_DEPTH {
            return Err(format!("nested deeper than {MAX_DEPTH} levels"));
        }
        if let Ok(d) = obj.cast::<PyDict>() {
            let mut map = Map::new();
            for (k, v) in d.iter() {
                map.insert(dict_key(&k)?, json_value(&v, depth + 1, left)?);
            }
            return Ok(Value::Object(map));
        }
        let items: Vec<Bound<'_, PyAny>> = match obj.cast::<PyList>() {
            Ok(l) => l.iter().collect(),
            Err(_) => obj
                .cast::<PyTuple>()
                .map(|t| t.iter().collect())
                .unwrap_or_default(),
        };
        return items
            .iter()
            .map(|v| json_value(v, depth + 1, left))
            .collect::<Result<Vec<_>, _>>()
            .map(Value::Array);
    }
    if !is_bool(obj) {
        if let Ok(i) = obj.extract::<i64>() {
            return Ok(Value::from(i));
        }
        if let Ok(u) = obj.extract::<u64>() {
            return Ok(Value::from(u));
        }
        // An integer whose `__index__` works but does not fit.
        if obj.call_method0("__index__").is_ok() {
            return Err(format!(
                "the integer {} is out of range {}..={}",
                shown(obj),
                i64::MIN,
                u64::MAX
            ));
        }
    }
    // `numpy.bool` rather than `bool`, which would read as if plain bools were refused.
    let kind = obj
        .get_type()
        .fully_qualified_name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into());
    Err(format!("a value of type {kind} is not accepted"))
}

/// A key of a dict that [`json_value`] reads: a `str` of valid UTF-8.
pub(crate) fn dict_key(key: &Bound<'_, PyAny>) -> Result<String, String> {
    match key.cast::<PyString>() {
        Ok(s) => s
            .to_str()
            .map(str::to_owned)
            .map_err(|_| "a dict key that is not valid UTF-8".to_string()),
        Err(_) => {
            let shown = key.repr().map_or_else(|_| "?".into(), |r| r.to_string());
            Err(format!("dict key {shown} is not a str"))
        }
    }
}

/// The options given to game `game`: a dict read as [`json_value`] reads one, but a value that is
/// not JSON (NaN, say) is refused naming the game and the option, as the reference does:
/// `turn_the_tide: option rounds: not JSON-compatible: NaN is not a finite number`.
pub(crate) fn options_arg(game: &str, obj: &Bound<'_, PyAny>) -> PyResult<Map<String, Value>> {
    let bad = |m: String| to_py_err(EngineError::InvalidOption(m));
    let Ok(dict) = obj.cast::<PyDict>() else {
        json_arg(obj, EngineError::InvalidOption)?;
        return Err(bad(format!("options must be a dict, got {}", shown(obj))));
    };
    let mut left = MAX_VALUES - 1; // the dict of the options is one value
    let mut map = Map::new();
    for (k, v) in dict.iter() {
        let name = dict_key(&k).map_err(|e| bad(format!("not JSON-compatible: {e}")))?;
        let value = json_value(&v, 1, &mut left)
            .map_err(|e| bad(format!("{game}: option {name}: not JSON-compatible: {e}")))?;
        map.insert(name, value);
    }
    Ok(map)
}

/// [`json_value`] with the refusal as the given error.
pub(crate) fn json_arg(obj: &Bound<'_, PyAny>, err: fn(String) -> EngineError) -> PyResult<Value> {
    let mut left = MAX_VALUES;
    json_value(obj, 0, &mut left).map_err(|e| to_py_err(err(format!("not JSON-compatible: {e}"))))
}
