//! One module per game; the module name is the game id.

pub mod turn_the_tide;
