//! The card data files the engine embeds, kept in the engine crate (`rust/engine/data/`) so the
//! crate packages on its own. The Python package reads the same files (`cardtable/data` links to
//! that folder, and the wheel includes them), so both implementations are built from one copy of
//! every table. This module only names the files; the games parse them.

/// The Trafficars deck table (ids 1..=62 with kind and number).
pub const TRAFFICARS_CARDS_JSON: &str = include_str!("../data/trafficars_cards.json");

/// The Deep Regrets card data (fish, dinks, supplies, regrets, ports, days).
pub const DEEP_REGRETS_JSON: &str = include_str!("../data/deep_regrets.json");
