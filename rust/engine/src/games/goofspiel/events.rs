//! Rule events of Goofspiel (contract, "Rule events"), found by comparing the states before and
//! after a step.

use super::GoofspielState;

/// Rule event names, bit `i` = `NAMES[i]`.
pub(super) const NAMES: &[&str] = &["tied bid"];

/// Bit of "tied bid": the step completed a turn (or two, with the forced last turn) whose two
/// bids were equal.
const TIED_BID: u64 = 1;

/// The rule events of the step from `before` to `after`.
pub(super) fn rule_events(before: &GoofspielState, after: &GoofspielState) -> u64 {
    let done = after.done();
    let new = done.get(usize::from(before.turn)..).unwrap_or(&[]);
    if new.iter().any(|record| record.bids[0] == record.bids[1]) {
        TIED_BID
    } else {
        0
    }
}
