//! Rule events of Deep Regrets (contract, "Rule events"), found by comparing the states before and
//! after a step: regret counts against the madness thresholds, the regret piles, the shoals, the
//! mount slots, the lifeboats and The Plug. Only the money cap needs the step's income, which is
//! worked out from the sale (or the Thursday payday) the step made.

use super::{DeepRegrets, DeepRegretsState, Node, MAX_SEATS, NONE};

crate::game::rule_events! {
    MONEY_CAP_HIT = "money cap hit",
    /// The first madness tier; the next tiers follow.
    MADNESS_TIER_1 = "madness tier 1-3",
    MADNESS_TIER_2 = "madness tier 4-6",
    MADNESS_TIER_3 = "madness tier 7-9",
    MADNESS_TIER_4 = "madness tier 10-12",
    MADNESS_TIER_5 = "madness tier 13+",
    RESHUFFLED = "regret deck reshuffled",
    STOLEN = "regret stolen",
    /// The cheapest shop tier; $3 and $5 follow.
    SHOP_TIER_1 = "shop tier $1",
    SHOP_TIER_3 = "shop tier $3",
    SHOP_TIER_5 = "shop tier $5",
    ALL_SLOTS = "all mount slots filled",
    OVERFISHING = "overfishing",
    DEPTH_EMPTIED = "depth emptied",
    ABANDON = "abandon ship",
    ABANDON_LAST = "abandon ship after all others passed",
    PLUG = "The Plug",
}

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
            events |= MADNESS_TIER_1 << (t - 1);
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
        events |= SHOP_TIER_1 << ((action - 82) % 3);
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
