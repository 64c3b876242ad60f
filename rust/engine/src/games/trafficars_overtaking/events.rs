//! Rule events of the overtaking lane (contract, "Rule events"), found by comparing the states
//! before and after a step.

use super::{
    Phase, TrafficarsOvertaking, TrafficarsOvertakingState, HIGHEST_CARD, LOWEST_CARD, PASS,
};
use crate::bits;

crate::game::rule_events! {
    OVERTAKE = "overtake",
    MULTI_CARD_OVERTAKE = "multi-card overtake",
    ALL_PASS = "all pass",
}

/// The rule events of the step from `before` by `action` to `after`.
pub(super) fn rule_events(
    game: &TrafficarsOvertaking,
    before: &TrafficarsOvertakingState,
    action: u32,
    after: &TrafficarsOvertakingState,
) -> u64 {
    match before.phase {
        Phase::Play if action == PASS => {
            // The pass that makes every player in turn have passed.
            ALL_PASS * u64::from(usize::from(before.passes) + 1 == game.players)
        }
        Phase::Play | Phase::Overtake => {
            // Cards that joined the row, besides the card played: the overtaking cards (a play
            // or an overtake never clears the row).
            let played = bits::bit_in(action, LOWEST_CARD, HIGHEST_CARD);
            let overtaking = bits::count(after.row & !before.row & !played);
            match overtaking {
                0 => 0,
                1 => OVERTAKE,
                _ => OVERTAKE | MULTI_CARD_OVERTAKE,
            }
        }
        _ => 0,
    }
}
