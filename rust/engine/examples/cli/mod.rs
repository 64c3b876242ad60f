//! Command-line parsing shared by the instruction-counting examples (`perf`, `search_perf`):
//! positional numbers and trailing `name=value` game options.

use serde_json::{Map, Value};

/// Prints `message` after the program's name and exits with status 2.
pub fn fail(message: &str) -> ! {
    let program = std::env::args().next().unwrap_or_default();
    let name = std::path::Path::new(&program)
        .file_stem()
        .map_or_else(|| program.clone(), |s| s.to_string_lossy().into_owned());
    eprintln!("{name}: {message}");
    std::process::exit(2);
}

/// Parses the positional argument `arg`, named `what` in the error.
pub fn number<T: std::str::FromStr>(arg: &str, what: &str) -> T {
    arg.parse()
        .unwrap_or_else(|_| fail(&format!("{what} must be an integer")))
}

/// Game options from `name=value` pairs: integers where they parse, otherwise strings.
pub fn options(pairs: &[String]) -> Map<String, Value> {
    let mut options = Map::new();
    for pair in pairs {
        let Some((name, value)) = pair.split_once('=') else {
            fail(&format!("option {pair:?} is not name=value"));
        };
        let value = value
            .parse::<i64>()
            .map_or_else(|_| Value::from(value), Value::from);
        options.insert(name.to_string(), value);
    }
    options
}
