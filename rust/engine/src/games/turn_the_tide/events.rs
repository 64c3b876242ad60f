//! Rule events of Turn the Tide (contract, "Rule events"). A step that resolves a hand (the last
//! commitment, or the highest seat's tide choice) may also end the round and start the next one,
//! so the hand's resolution is followed again here, on a copy of the seats' tides and lifebuoys
//! before the step, independently of the rules code.

use super::{seats, Phase, TurnTheTide, TurnTheTideState, HAND_SIZE, MAX_SEATS, TAKE_TIDE_A};

crate::game::rule_events! {
    TIE_AT_HIGHEST = "tie at the highest tide",
    ELIMINATION = "elimination",
    RECHECK = "elimination recheck",
    TWO_REMAINING = "round ended by two remaining players",
    BONUS_SHARED = "lowest-tide bonus shared",
}

/// The rule events of applying `action` to `before` (`after` is only used to know that the step
/// was legal and resolved a hand).
pub(super) fn rule_events(
    game: &TurnTheTide,
    before: &TurnTheTideState,
    action: u32,
    after: &TurnTheTideState,
) -> u64 {
    // A hand was resolved iff the step left the hand's play: the next seat to commit (or the
    // tide choice) is still within it otherwise.
    if matches!(after.phase, Phase::Play | Phase::ChooseTide) {
        return 0;
    }
    let mut commitments = before.commitments;
    let mut tide = before.tide;
    match before.phase {
        Phase::Play => {
            if game.highest_chooses_tide {
                return 0;
            }
            if let Some(c) = commitments.get_mut(usize::from(before.to_move)) {
                *c = u8::try_from(action).unwrap_or(0);
            }
            let (first, second) = top_two(before.in_round, &commitments);
            let (a, b) = (before.revealed[0], before.revealed[1]);
            tide[first] = a.min(b);
            tide[second] = a.max(b);
        }
        Phase::ChooseTide => {
            let (first, second) = top_two(before.in_round, &commitments);
            let (a, b) = (before.revealed[0], before.revealed[1]);
            let (mine, other) = if action == TAKE_TIDE_A {
                (a, b)
            } else {
                (b, a)
            };
            tide[first] = mine;
            tide[second] = other;
        }
        _ => return 0,
    }
    let mut events = 0;
    let mut lifebuoys = before.lifebuoys;
    let mut in_round = before.in_round;
    let mut pass = 0;
    let ended_early = loop {
        let highest = seats(in_round).map(|s| tide[s]).max().unwrap_or(0);
        let holders: Vec<usize> = if highest == 0 {
            Vec::new()
        } else {
            seats(in_round).filter(|&s| tide[s] == highest).collect()
        };
        if holders.len() >= 2 {
            events |= TIE_AT_HIGHEST;
        }
        if pass > 0 {
            events |= RECHECK;
        }
        let mut eliminated = false;
        for s in holders {
            if lifebuoys[s] > 0 {
                lifebuoys[s] -= 1;
            } else {
                in_round &= !(1 << s);
                tide[s] = 0;
                eliminated = true;
                events |= ELIMINATION;
            }
        }
        if in_round.count_ones() <= 2 {
            events |= TWO_REMAINING;
            break true;
        }
        if !(game.recheck_after_elimination && eliminated) {
            break false;
        }
        pass += 1;
    };
    if ended_early || usize::from(before.hand_index) + 1 >= HAND_SIZE {
        let without: usize = seats(in_round).filter(|&s| tide[s] == 0).count();
        let holders = if without > 0 {
            without
        } else {
            let lowest = seats(in_round).map(|s| tide[s]).min().unwrap_or(0);
            seats(in_round).filter(|&s| tide[s] == lowest).count()
        };
        if holders >= 2 {
            events |= BONUS_SHARED;
        }
    }
    events
}

/// The seats with the highest and second-highest commitment among the seats of `in_round`.
fn top_two(in_round: u8, commitments: &[u8; MAX_SEATS]) -> (usize, usize) {
    let mut ranked: Vec<usize> = seats(in_round).collect();
    ranked.sort_by_key(|&s| std::cmp::Reverse(commitments[s]));
    (
        ranked.first().copied().unwrap_or(0),
        ranked.get(1).copied().unwrap_or(0),
    )
}
