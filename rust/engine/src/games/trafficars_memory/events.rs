//! Rule events of the memory game (contract, "Rule events"), found by comparing the states before
//! and after a step.

use super::{
    contains_collectable, Phase, TrafficarsMemory, TrafficarsMemoryState, FIRST_JOKER, MAX_GRID,
    STOP,
};
use crate::bits;

crate::game::rule_events! {
    RUN_TAKEN = "run taken",
    JOKER_COMPLETES_RUN = "joker completes a run",
    RUN_BROKEN = "run broken",
    STALLED = "stalled game ended",
}

/// The missing numbers inside the span of the car bitset `cars` (not empty).
fn gaps(cars: u64) -> u32 {
    let span = 64 - cars.leading_zeros() - cars.trailing_zeros();
    span - bits::count(cars)
}

/// Splits cards into their car bitset and their joker count.
fn cars_and_jokers(cards: impl Iterator<Item = u8>) -> (u64, u32) {
    let (mut cars, mut jokers) = (0u64, 0u32);
    for card in cards {
        if u32::from(card) >= FIRST_JOKER {
            jokers += 1;
        } else {
            cars |= bits::bit_in(u32::from(card), 1, 63);
        }
    }
    (cars, jokers)
}

/// The rule events of the step from `before` by `action` to `after` (the game is not needed).
pub(super) fn rule_events(
    _game: &TrafficarsMemory,
    before: &TrafficarsMemoryState,
    action: u32,
    after: &TrafficarsMemoryState,
) -> u64 {
    if !matches!(before.phase, Phase::Flip) {
        return 0;
    }
    let mut events = 0;
    if action != STOP {
        // The flipped cards with the new one may not continue: it breaks the run.
        let card_at = |p: usize| before.layout.get(p).copied().unwrap_or(0);
        let flipped = before.flipped[..usize::from(before.flipped_len).min(MAX_GRID)]
            .iter()
            .map(|&p| card_at(usize::from(p)));
        let (cars, jokers) =
            cars_and_jokers(flipped.chain(std::iter::once(card_at(action as usize))));
        if bits::count(cars) >= 2 && gaps(cars) > jokers {
            events |= RUN_BROKEN;
        }
    }
    let gone = before.on_table & !after.on_table;
    if gone != 0 {
        events |= RUN_TAKEN;
        let taken = (0..MAX_GRID)
            .filter(|&p| gone >> p & 1 == 1)
            .map(|p| before.layout[p]);
        let (cars, jokers) = cars_and_jokers(taken);
        if jokers > 0 && cars != 0 && gaps(cars) > 0 {
            events |= JOKER_COMPLETES_RUN;
        }
    }
    // The game ended although the table still holds a collectable set: too many turns in a row
    // went by without progress (contract, Decision 11).
    if after.phase == Phase::Over && contains_collectable(after.table_cards) {
        events |= STALLED;
    }
    events
}
