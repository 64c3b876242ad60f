//! The action ids of contract §9 and §16.12, named as the Python reference names them. A range
//! is named by its first id (`CAST + s`) and, where code matches on it, its last id
//! (`CAST_LAST`). An id's meaning depends on the node kind it is taken at.
//!
//! Must not: hold anything but id numbers; every other module takes its ids from here.

/// The size of the action space (ids 0..511).
pub(super) const NUM_ACTIONS: u32 = 512;

/// `turn`: pass. Id 0 is also roll now, keep all regrets, take nothing and done.
pub(super) const PASS: u32 = 0;
/// `muster_select` and `reroll_select`: roll the chosen dice now.
pub(super) const ROLL_NOW: u32 = 0;
/// `port_discard`: keep all regrets.
pub(super) const KEEP_ALL: u32 = 0;
/// `reward`: take nothing (offered only when no dink can be drawn, contract Decision 22);
/// `decline_die`: keep the dice and draw no dink (Decision 17).
pub(super) const TAKE_NOTHING: u32 = 0;
/// `sell`, `mount_slot`, `reveal_shoal`, `offer_regret`: done.
pub(super) const DONE: u32 = 0;
/// `declare`: stay at sea.
pub(super) const STAY_AT_SEA: u32 = 1;
/// `declare`: make port.
pub(super) const MAKE_PORT: u32 = 2;
/// `turn`, `after_main`: abandon ship.
pub(super) const ABANDON_SHIP: u32 = 3;
/// `worms`: leave the peeked fish on top.
pub(super) const LEAVE_ON_TOP: u32 = 4;
/// `worms`: put the peeked fish at the bottom of the shoal.
pub(super) const PUT_AT_BOTTOM: u32 = 5;
/// `pay`: catch (the payment is complete).
pub(super) const CATCH: u32 = 6;
/// `pay`: decline.
pub(super) const DECLINE: u32 = 7;
/// `reward`: draw a dink.
pub(super) const DRAW_A_DINK: u32 = 8;
/// `reward`: discard a random regret.
pub(super) const DISCARD_RANDOM_REGRET: u32 = 9;
/// `turn`: sell.
pub(super) const SELL: u32 = 10;
/// `turn`: mount.
pub(super) const MOUNT: u32 = 11;
/// `turn`, `after_main`, `pay`: use the Life Preserver.
pub(super) const USE_LIFE_PRESERVER: u32 = 12;
/// `turn`, `after_main`, `pay`: use the equipped reel.
pub(super) const USE_REEL: u32 = 13;
/// `choose_effect`: the first option.
pub(super) const FIRST_EFFECT: u32 = 14;
/// `choose_effect`: the second option.
pub(super) const SECOND_EFFECT: u32 = 15;
/// Yes at `swap_beneath`, `move_offer`, `ignore_reveal` and `ignore_catch` (resolve),
/// `reveal_beneath`, `accept_offer`.
pub(super) const YES: u32 = 16;
/// No at those nodes and at `hadal_shade`.
pub(super) const NO: u32 = 17;
/// `pay`: catch by showing a fish.
pub(super) const CATCH_BY_SHOWING: u32 = 18;
/// `pay`: catch by discarding a fish.
pub(super) const CATCH_BY_DISCARDING: u32 = 19;
/// `pay`: flip the Can of Worms for its difficulty.
pub(super) const FLIP_WORMS: u32 = 20;
/// `turn`: give the Dumbo Octopus away (main action).
pub(super) const GIVE_AWAY: u32 = 21;
/// `turn`, `after_main`: use the Whispering Skull (free).
pub(super) const USE_SKULL: u32 = 22;
/// `turn`, `after_main`: use the Iron Coffin (free).
pub(super) const USE_COFFIN: u32 = 23;
/// `after_main`: end the turn.
pub(super) const END_TURN: u32 = 24;

/// 32 + s: `turn`: cast at shoal s; `peek_shoal`: peek; `reveal_shoal`: reveal.
pub(super) const CAST: u32 = 32;
/// The last cast id (shoal 8).
pub(super) const CAST_LAST: u32 = CAST + 8;
/// 41 + s: `turn`, `after_main`: use the Can of Worms on shoal s (a free action).
pub(super) const USE_WORMS: u32 = 41;
/// The last Can of Worms id (shoal 8).
pub(super) const USE_WORMS_LAST: u32 = USE_WORMS + 8;
/// 50 + c: a die of class c (sinker, payment, select, keep, set, spend, increment).
pub(super) const DIE: u32 = 50;
/// The last die id (class 14, M4).
pub(super) const DIE_LAST: u32 = DIE + 14;
/// 65 + k: `refresh_die`: a Spent die of kind k (P B G O M).
pub(super) const DIE_KIND: u32 = 65;
/// 70 + v: a regret card of value v.
pub(super) const REGRET: u32 = 70;
/// The last regret id (value 3).
pub(super) const REGRET_LAST: u32 = REGRET + 3;
/// 74 + q: give to (or offer to) seat q.
pub(super) const GIVE_TO: u32 = 74;
/// The last seat id (seat 4).
pub(super) const GIVE_TO_LAST: u32 = GIVE_TO + 4;
/// 79 + k: `mount_slot`: mount slot k.
pub(super) const SLOT: u32 = 79;
/// The last slot id (slot 2).
pub(super) const SLOT_LAST: u32 = SLOT + 2;
/// 82 + 3k + t: `turn`: shop k at tier t.
pub(super) const SHOP: u32 = 82;
/// The last shop id (the tackle shop at tier 2).
pub(super) const SHOP_LAST: u32 = SHOP + 11;
/// 94 + r: peek at depth r + 1.
pub(super) const ROW: u32 = 94;
/// The last row id (depth III).
pub(super) const ROW_LAST: u32 = ROW + 2;
/// 97 + c: peek at (or reveal) column c.
pub(super) const COLUMN: u32 = 97;
/// The last column id (column 2).
pub(super) const COLUMN_LAST: u32 = COLUMN + 2;
/// 100 + d: use dink d.
pub(super) const DINK: u32 = 100;
/// The last dink id (dink 24).
pub(super) const DINK_LAST: u32 = DINK + 24;
/// 125 + i: use, keep or discard supply i.
pub(super) const SUPPLY: u32 = 125;
/// The last supply id (supply 19).
pub(super) const SUPPLY_LAST: u32 = SUPPLY + 19;
/// 145 + r: equip, keep or discard rod r.
pub(super) const ROD: u32 = 145;
/// The last rod id (rod 9).
pub(super) const ROD_LAST: u32 = ROD + 9;
/// 155 + r: equip, keep or discard reel r.
pub(super) const REEL: u32 = 155;
/// The last reel id (reel 9).
pub(super) const REEL_LAST: u32 = REEL + 9;
/// 165 + f: sell, mount, eat, discard, mimic or reorder fish f.
pub(super) const FISH: u32 = 165;
/// The last fish id (fish 134).
pub(super) const FISH_LAST: u32 = FISH + 134;
/// 300 + 3q + k: `hadal_shade`: swap with seat q's slot k.
pub(super) const HADAL: u32 = 300;
/// The last Hadal Shade id (seat 4, slot 2).
pub(super) const HADAL_LAST: u32 = HADAL + 14;
