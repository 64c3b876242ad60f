//! The card data files the engine embeds. They are the same files the Python reference reads, so
//! both implementations are built from one copy of every table.

/// The Trafficars deck table (ids 1..=62 with kind and number).
pub const TRAFFICARS_CARDS_JSON: &str =
    include_str!("../../../python/cardtable/data/trafficars_cards.json");

/// The Deep Regrets card data (fish, dinks, supplies, regrets, ports, days).
pub const DEEP_REGRETS_JSON: &str =
    include_str!("../../../python/cardtable/data/deep_regrets.json");
