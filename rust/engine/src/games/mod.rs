//! The list of games: one line per game names its module (the game id, a folder under `games/`)
//! and its [`crate::Game`] type. That line declares the module and registers the game everywhere
//! a list of games is needed (the registry, the shared test kit), so adding a game is its folder
//! plus one line here. Nothing generic lives in this module.

/// Declares each game module and defines `for_each_game!`, which hands the whole list of
/// `module::Type` pairs to another macro (see [`crate::registry`]), and its public twin
/// `for_each_registered_game!` for code outside the crate.
macro_rules! declare_games {
    ($($module:ident :: $game:ident),* $(,)?) => {
        $(pub mod $module;)*

        /// Invokes `$callback!` with every registered game as `module::Type`, in registration
        /// order.
        macro_rules! for_each_game {
            ($callback:ident) => {
                $callback! { $($module::$game),* }
            };
        }
        pub(crate) use for_each_game;

        /// Invokes `$callback!` with every registered game's type as a path from the engine
        /// crate's root (`$crate::games::module::Type`), in registration order: the list of games
        /// for code outside the crate, such as the examples.
        #[macro_export]
        macro_rules! for_each_registered_game {
            ($callback:ident) => {
                $callback! { $($crate::games::$module::$game),* }
            };
        }
    };
}

declare_games! {
    turn_the_tide::TurnTheTide,
    trafficars::Trafficars,
    trafficars_memory::TrafficarsMemory,
    trafficars_overtaking::TrafficarsOvertaking,
    goofspiel::Goofspiel,
    deep_regrets::DeepRegrets,
}
