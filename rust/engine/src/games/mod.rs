//! One module per game; the module name is the game id.

pub mod deep_regrets;
pub mod goofspiel;
pub mod trafficars;
pub mod trafficars_memory;
pub mod trafficars_overtaking;
pub mod turn_the_tide;
