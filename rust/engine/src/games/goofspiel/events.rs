//! Rule events of Goofspiel (contract, "Rule events"), found by comparing the states before and
//! after a step.

use super::{Goofspiel, GoofspielState};

crate::game::rule_events! {
    /// Bit of "tied bid": the step completed a turn (or two, with the forced last turn) whose two
    /// bids were equal.
    TIED_BID = "tied bid",
}

/// The rule events of the step from `before` to `after` (the game and the action are not needed).
pub(super) fn rule_events(
    _game: &Goofspiel,
    before: &GoofspielState,
    _action: u32,
    after: &GoofspielState,
) -> u64 {
    let done = after.done();
    let new = done.get(usize::from(before.turn)..).unwrap_or(&[]);
    if new.iter().any(|record| record.bids[0] == record.bids[1]) {
        TIED_BID
    } else {
        0
    }
}
