//! Rule events of Deep Regrets (contract, "Rule events"), found by comparing the states before and
//! after a step: regret counts against the madness thresholds, the regret piles, the shoals, the
//! mount slots, the lifeboats and The Plug. Only the money cap needs the step's income, which is
//! worked out from the sale (or the Thursday payday) the step made.

use super::{DeepRegrets, DeepRegretsState, Node, MAX_SEATS, NONE};

/// Rule event names, bit `i` = `NAMES[i]`.
pub(super) const NAMES: &[&str] = &[
    "money cap hit",
    "madness tier 1-3",
    "madness tier 4-6",
    "madness tier 7-9",
    "madness tier 10-12",
    "madness tier 13+",
    "regret deck reshuffled",
    "regret stolen",
    "shop tier $1",
    "shop tier $3",
    "shop tier $5",
    "all mount slots filled",
    "overfishing",
    "depth emptied",
    "abandon ship",
    "abandon ship after all others passed",
    "The Plug",
];

const MONEY_CAP_HIT: u64 = 1 << 0;
/// Bit of "madness tier 1-3"; the next tiers follow.
const MADNESS_FIRST: u32 = 1;
const RESHUFFLED: u64 = 1 << 6;
const STOLEN: u64 = 1 << 7;
/// Bit of "shop tier $1"; $3 and $5 follow.
const SHOP_FIRST: u32 = 8;
const ALL_SLOTS: u64 = 1 << 11;
const OVERFISHING: u64 = 1 << 12;
const DEPTH_EMPTIED: u64 = 1 << 13;
const ABANDON: u64 = 1 << 14;
const ABANDON_LAST: u64 = 1 << 15;
const PLUG: u64 = 1 << 16;

/// The regret counts at which the madness tiers 1–3, 4–6, 7–9, 10–12 and 13+ begin.
const MADNESS_STARTS: [u32; 5] = [1, 4, 7, 10, 13];
/// Action ids of the shops: 82 + 3·shop + tier.
const SHOP_IDS: std::ops::RangeInclusive<u32> = 82..=93;
/// Action ids of the fish (`sell`: sell fish id − 165).
const FISH_IDS: std::ops::RangeInclusive<u32> = 165..=299;
/// Thursday, the payday.
const PAYDAY: u8 = 4;

/// The madness tier (0..=5) of a seat holding `count` regret cards.
fn madness_tier(count: u32) -> u32 {
    MADNESS_STARTS.iter().filter(|&&m| count >= m).count() as u32
}

/// Whether the step reaches the money cap with income to spare: a sale at the `sell` node or
/// the Thursday payday of the Start phase the step ran into.
fn money_cap_hit(
    game: &DeepRegrets,
    before: &DeepRegretsState,
    action: u32,
    after: &DeepRegretsState,
) -> bool {
    let cap = i32::from(game.data.money_cap);
    let mut money = [0i32; MAX_SEATS];
    for (m, seat) in money.iter_mut().zip(&before.seats).take(game.players) {
        *m = i32::from(seat.money);
    }
    let mut hit = false;
    if before.node == Node::Sell && FISH_IDS.contains(&action) {
        let p = usize::from(before.actor).min(MAX_SEATS - 1);
        let income = game.value(before, (action - 165) as usize, p);
        hit |= money[p] + income > cap;
        money[p] = (money[p] + income).min(cap);
    }
    if before.day < PAYDAY && after.day >= PAYDAY {
        let payday = i32::from(game.data.payday);
        hit |= money.iter().take(game.players).any(|&m| m + payday > cap);
    }
    hit
}

/// The rule events of the step from `before` by `action` to `after`.
pub(super) fn rule_events(
    game: &DeepRegrets,
    before: &DeepRegretsState,
    action: u32,
    after: &DeepRegretsState,
) -> u64 {
    let mut events = 0;
    if money_cap_hit(game, before, action, after) {
        events |= MONEY_CAP_HIT;
    }
    let seats = before.seats.iter().zip(&after.seats).take(game.players);
    for (p, (b, a)) in seats.enumerate() {
        for t in madness_tier(b.regret_count()) + 1..=madness_tier(a.regret_count()) {
            events |= 1 << (MADNESS_FIRST + t - 1);
        }
        let full = |mounted: &[u8; 3]| mounted.iter().all(|&f| f != NONE);
        if full(&a.mounted) && !full(&b.mounted) {
            events |= ALL_SLOTS;
        }
        if a.lifeboat_used && !b.lifeboat_used {
            events |= ABANDON;
            if before.last_turns != NONE {
                events |= ABANDON_LAST;
            }
        }
        // The catch that empties a shoal takes its last (bottom) fish into the caster's hand
        // (or in front of the caster).
        if p == usize::from(before.actor) {
            for s in 0..9 {
                if before.shoal_len[s] > 0 && after.shoal_len[s] == 0 {
                    let bottom = usize::from(before.shoals[s][0]);
                    if a.hand.contains(bottom) || a.front.contains(bottom) {
                        events |= OVERFISHING;
                    }
                }
            }
        }
    }
    // Only a reshuffle takes cards out of the regret discard pile.
    if (0..4).any(|v| after.regret_discard[v] < before.regret_discard[v]) {
        events |= RESHUFFLED;
    }
    if before.node == Node::StealRegret {
        events |= STOLEN;
    }
    if before.node == Node::Turn && SHOP_IDS.contains(&action) {
        events |= 1 << (SHOP_FIRST + (action - 82) % 3);
    }
    let empty = |st: &DeepRegretsState, d: usize| st.shoal_len[3 * d..3 * d + 3] == [0; 3];
    if (0..3).any(|d| !empty(before, d) && empty(after, d)) {
        events |= DEPTH_EMPTIED;
    }
    if after.plug && !before.plug {
        events |= PLUG;
    }
    events
}
