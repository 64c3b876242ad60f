//! The `greedy` bot: a rule-of-thumb player that reads only what its seat's observation holds
//! (public dice, depths, money, mounted fish, face-up tops and discard piles; its own hand, items,
//! regret values, peeks and shop draws; the card data).
//!
//! At sea it drops a sinker when it has dice to spare, casts at the shoal with the best expected
//! fish it can pay for (face-up or peeked tops are known; face-down tops are judged by the depth's
//! averages), pays with the smallest die that completes the payment (else its largest die), uses
//! refresh and difficulty items when it cannot pay otherwise, declines worthless fish and passes
//! when nothing useful is left. It makes port to mount fish (the best one in the ×3 slot), buys
//! rods, reels and tackle dice with its money, discards its worst regrets when it can and draws
//! dinks while its regrets are low.
//!
//! Free actions: at sea it uses the Can of Worms on the shoal it is about to cast at while that
//! shoal's top is unseen (keeping a payable fish worth 2 or more on top); after its main action
//! it ends the turn unless a free action helps at once (see [`GreedyBot::act`]).
//!
//! Card abilities: it eats cheap fish whose eat ability adds the pips it needs for a catch, or discards
//! regrets when it holds many; it catches by showing or by discarding a cheaper fish instead of
//! paying; it peeks with the Whispering Skull, offers its worst regrets with the Iron Coffin,
//! mounts small fish on the Cloche, and answers every ability node with a simple rule (stay
//! unless deeper pays, give away the worst regrets, keep the Hadal Shade unless the swap gains
//! enough, choose the effect that discards regrets when it holds several).
//!
//! Must not: read anything its seat's observation does not show (other seats' hands, items and
//! regret values, face-down tops it has not peeked, the deck order); a test scrambles those and
//! checks that its choices stay the same.

use super::actions::{
    CAST, CATCH, CATCH_BY_DISCARDING, CATCH_BY_SHOWING, DECLINE, DIE, DIE_KIND, DIE_LAST, DINK,
    DINK_LAST, DISCARD_RANDOM_REGRET, DONE, DRAW_A_DINK, END_TURN, FIRST_EFFECT, FISH, FISH_LAST,
    FLIP_WORMS, GIVE_TO, HADAL, LEAVE_ON_TOP, MAKE_PORT, MOUNT, NO, PASS, PUT_AT_BOTTOM, REEL,
    REEL_LAST, ROD, ROD_LAST, SECOND_EFFECT, SELL, SHOP, SLOT, STAY_AT_SEA, SUPPLY, SUPPLY_LAST,
    USE_COFFIN, USE_LIFE_PRESERVER, USE_REEL, USE_SKULL, USE_WORMS, YES,
};
use super::data::{Prim, Who};
use super::{
    DeepRegrets, DeepRegretsState as S, ItemSrc, Node, CLASSES, CLASS_FACE, CLASS_KIND, NONE,
    TOP_CLASS,
};
use crate::game::Bot;
use crate::rng::SplitMix64;

/// Rods in order of preference (Lucky Pole, Narwhal Rod, the conditional ones).
const ROD_RANK: [u8; 10] = [6, 0, 1, 4, 5, 3, 2, 7, 8, 9];
/// Reels in order of preference.
const REEL_RANK: [u8; 10] = [5, 4, 1, 3, 0, 2, 7, 6, 8, 9];
/// Supplies in order of preference.
const SUPPLY_RANK: [u8; 20] = [
    10, 9, 6, 5, 1, 4, 0, 7, 8, 17, 2, 3, 12, 13, 14, 11, 15, 16, 18, 19,
];

/// The greedy heuristic player.
#[derive(Clone, Debug, Default)]
pub struct GreedyBot {
    seat: usize,
    /// Average value and difficulty of the in-play fish of each depth.
    avg_value: [f64; 3],
    avg_difficulty: [f64; 3],
}

fn rank_of(rank: &[u8], id: u32) -> usize {
    rank.iter()
        .position(|&r| u32::from(r) == id)
        .unwrap_or(rank.len())
}

impl GreedyBot {
    /// My Fresh dice faces, highest first (at most 15).
    fn dice(st: &S, p: usize) -> ([u8; 16], usize) {
        let mut out = [0u8; 16];
        let mut n = 0;
        for c in (0..CLASSES).rev() {
            for _ in 0..st.seats[p].fresh[c] {
                if n < 16 {
                    out[n] = CLASS_FACE[c];
                    n += 1;
                }
            }
        }
        out[..n].sort_unstable_by(|a, b| b.cmp(a));
        (out, n)
    }

    /// Whether dice (highest first) can pay difficulty `d` (exactly `exact` dice when > 0).
    fn can_pay(dice: &[u8], d: i32, exact: usize) -> bool {
        if exact > 0 {
            dice.len() >= exact && dice[..exact].iter().map(|&f| i32::from(f)).sum::<i32>() >= d
        } else {
            dice.iter().map(|&f| i32::from(f)).sum::<i32>() >= d
        }
    }

    /// The rod modifier of my equipped rod for fish `f`.
    fn rod_mod(g: &DeepRegrets, st: &S, p: usize, f: usize) -> i32 {
        g.data
            .fish
            .get(f)
            .map_or(0, |fish| g.rod_modifier(&st.seats[p], fish))
    }

    /// The fish on top of shoal s if I can see it (face up or peeked).
    fn visible_top(st: &S, me: usize, s: usize) -> Option<u8> {
        let f = st.top_fish(s)?;
        let up = st.face_up >> s & 1 == 1;
        if up || st.known[me] >> s & 1 == 1 {
            Some(f)
        } else {
            None
        }
    }

    /// Expected worth of casting at shoal s with `dice`: (worth, payable).
    fn shoal_worth(&self, g: &DeepRegrets, st: &S, me: usize, s: usize, dice: &[u8]) -> f64 {
        match Self::visible_top(st, me, s) {
            Some(f) => {
                let Some(fish) = g.data.fish.get(usize::from(f)) else {
                    return -1.0;
                };
                if fish.special {
                    return 0.1;
                }
                let d =
                    (i32::from(fish.difficulty) + Self::rod_mod(g, st, me, usize::from(f))).max(0);
                if !Self::can_pay(dice, d, usize::from(fish.exact)) {
                    return -1.0;
                }
                let v = g.value(st, usize::from(f), me);
                if v <= 0 {
                    return -1.0;
                }
                f64::from(v) - 0.3 * f64::from(d)
            }
            None => {
                let depth = s / 3;
                let total: i32 = dice.iter().map(|&f| i32::from(f)).sum();
                let need = self.avg_difficulty[depth] - 0.5;
                if f64::from(total) < need {
                    return -1.0;
                }
                let madness = g.tier(st, me).fair;
                self.avg_value[depth] + 0.5 * f64::from(madness) - 0.3 * need - 0.5
            }
        }
    }

    /// Free actions of the card abilities worth taking at any `turn` node: the Whispering Skull,
    /// the Iron Coffin, eating, the Cloche.
    fn free_ability_action(&self, g: &DeepRegrets, st: &S, legal: &[u32]) -> Option<u32> {
        let me = self.seat;
        let seat = &st.seats[me];
        if legal.contains(&USE_SKULL) {
            return Some(USE_SKULL);
        }
        if legal.contains(&USE_COFFIN) && seat.regrets[2] + seat.regrets[3] > 0 {
            return Some(USE_COFFIN);
        }
        // eat a cheap fish that discards regrets when holding many
        if seat.regret_count() >= 4 {
            for &a in legal {
                if !(FISH..=FISH_LAST).contains(&a) {
                    continue;
                }
                let f = (a - FISH) as usize;
                let (_, _, discard, draw) = Self::eat_profile(g, f);
                if discard > draw && discard >= 1 && draw == 0 && g.value(st, f, me) <= 2 {
                    return Some(a);
                }
            }
        }
        // the Cloche in port: a small fish worth at least 2
        if seat.depth == 0 {
            for &a in legal {
                if (SUPPLY..=SUPPLY_LAST).contains(&a) {
                    let src = ItemSrc::Supply((a - SUPPLY) as u8);
                    let cloche = g.item(src).uses.iter().any(|u| u.contains(&Prim::Cloche));
                    if cloche {
                        let mut best = 0;
                        seat.hand.and(&g.sellable).each(|f| {
                            if g.data.fish.get(usize::from(f)).is_some_and(|x| x.size == 0) {
                                best = best.max(g.value(st, usize::from(f), me));
                            }
                        });
                        if best >= 2 {
                            return Some(a);
                        }
                    }
                }
            }
        }
        None
    }

    fn turn_at_sea(&self, g: &DeepRegrets, st: &S, legal: &[u32]) -> u32 {
        let me = self.seat;
        let seat = &st.seats[me];
        // free actions first: the reel, refreshes, regret discards
        if legal.contains(&USE_REEL) {
            return USE_REEL;
        }
        if let Some(a) = self.free_ability_action(g, st, legal) {
            return a;
        }
        if let Some(a) = self.useful_free_item(g, st, legal) {
            return a;
        }
        let (dice, n) = Self::dice(st, me);
        let dice = &dice[..n];
        if n == 0 {
            return PASS;
        }
        // sinker: spend the lowest die when the rest still pays for the next depth
        let depth = usize::from(seat.depth);
        if depth < 3 && n >= 3 {
            let rest: i32 = dice[..n - 1].iter().map(|&f| i32::from(f)).sum();
            let next_nonempty = (depth * 3..depth * 3 + 3).any(|s| st.shoal_len[s] > 0);
            if next_nonempty && f64::from(rest) >= self.avg_difficulty[depth] + 1.0 {
                let low = (0..CLASSES).find(|&c| seat.fresh[c] > 0 && CLASS_FACE[c] == dice[n - 1]);
                if let Some(c) = low {
                    let a = DIE + c as u32;
                    if legal.contains(&a) {
                        return a;
                    }
                }
            }
        }
        let mut best: Option<(f64, u32)> = None;
        for s in 0..9 {
            let cast = CAST + s as u32;
            if !legal.contains(&cast) {
                continue;
            }
            let w = self.shoal_worth(g, st, me, s, dice);
            if w <= 0.0 {
                continue;
            }
            if best.is_none_or(|(b, _)| w > b) {
                best = Some((w, s as u32));
            }
        }
        // the Can of Worms first on the chosen shoal while its top is unseen (a free action:
        // the turn node comes back with the top known or a new top at the front)
        best.map_or(PASS, |(_, s)| {
            let worms = USE_WORMS + s;
            if legal.contains(&worms) && Self::visible_top(st, me, s as usize).is_none() {
                worms
            } else {
                CAST + s
            }
        })
    }

    /// After the main action: the free actions that help at once (regret discards, the
    /// Whispering Skull and Iron Coffin, regret-discarding eats, the Cloche), else end the turn.
    /// Each of them uses something up (a card, a fish, a once-per-turn rule), so this ends.
    fn after_main(&self, g: &DeepRegrets, st: &S, legal: &[u32]) -> u32 {
        self.free_ability_action(g, st, legal)
            .or_else(|| self.useful_free_item(g, st, legal))
            .unwrap_or(END_TURN)
    }

    /// Free items worth using whenever they are ready (regret discards, refreshes at sea).
    fn useful_free_item(&self, g: &DeepRegrets, st: &S, legal: &[u32]) -> Option<u32> {
        let at_sea = st.seats[self.seat].depth > 0;
        for &a in legal {
            let src = match a {
                DINK..=DINK_LAST => ItemSrc::Dink((a - DINK) as u8),
                SUPPLY..=SUPPLY_LAST => ItemSrc::Supply((a - SUPPLY) as u8),
                _ => continue,
            };
            let item = g.item(src);
            let Some(u) = item.uses.first() else { continue };
            let good = u.iter().all(|p| match p {
                Prim::DiscardRegret(_) | Prim::DiscardRandomRegret(_) => true,
                Prim::Refresh(_) => at_sea,
                _ => false,
            });
            if good {
                return Some(a);
            }
        }
        None
    }

    fn mountable(g: &DeepRegrets, st: &S, me: usize) -> ([(i32, u8); 16], usize) {
        let mut out = [(0i32, 0u8); 16];
        let mut n = 0;
        st.seats[me].hand.and(&g.sellable).each(|f| {
            if n < 16 {
                out[n] = (g.value(st, usize::from(f), me), f);
                n += 1;
            }
        });
        out[..n].sort_unstable_by(|a, b| b.cmp(a));
        (out, n)
    }

    fn turn_in_port(&self, g: &DeepRegrets, st: &S, legal: &[u32]) -> u32 {
        let me = self.seat;
        let seat = &st.seats[me];
        if let Some(a) = self.useful_free_item(g, st, legal) {
            return a;
        }
        if let Some(a) = self.free_ability_action(g, st, legal) {
            return a;
        }
        let (fish, n) = Self::mountable(g, st, me);
        if legal.contains(&MOUNT) && n > 0 && fish[0].0 >= 2 {
            return MOUNT;
        }
        let slots_full = !seat.mounted.contains(&NONE);
        if legal.contains(&SELL) && slots_full && st.day <= 4 && seat.money < 4 {
            return SELL;
        }
        // shops: the best tier affordable among rods (if none), reels (if none), tackle
        let wants = [
            (0usize, seat.rods == 0),
            (1, seat.reels == 0),
            (3, true),
            (2, seat.supplies.count_ones() < 2),
        ];
        for (k, want) in wants {
            if !want {
                continue;
            }
            for t in (0..3).rev() {
                let a = SHOP + 3 * k as u32 + t;
                if legal.contains(&a) {
                    // discounts first
                    for &d in legal {
                        if (DINK..=SUPPLY_LAST).contains(&d) || d == USE_LIFE_PRESERVER {
                            let src = match d {
                                USE_LIFE_PRESERVER => ItemSrc::LifePreserver,
                                DINK..=DINK_LAST => ItemSrc::Dink((d - DINK) as u8),
                                _ => ItemSrc::Supply((d - SUPPLY) as u8),
                            };
                            if g.item(src)
                                .uses
                                .iter()
                                .any(|u| u.iter().any(|p| matches!(p, Prim::ShopDiscount(_))))
                                && g.ready_use(st, me, src, Node::Turn).is_some_and(|i| {
                                    g.item(src).uses[i]
                                        .iter()
                                        .all(|p| matches!(p, Prim::ShopDiscount(_)))
                                })
                            {
                                return d;
                            }
                        }
                    }
                    return a;
                }
            }
        }
        PASS
    }

    fn pay(&self, g: &DeepRegrets, st: &S, legal: &[u32]) -> u32 {
        let a = self.pay_inner(g, st, legal);
        if legal.contains(&a) {
            a
        } else {
            // decline may be illegal (must_catch): keep paying with the largest die
            legal
                .iter()
                .copied()
                .filter(|&x| (DIE..=DIE_LAST).contains(&x))
                .max_by_key(|&x| CLASS_FACE[(x - DIE) as usize])
                .or_else(|| legal.iter().copied().find(|&x| x == CATCH))
                .unwrap_or(legal[0])
        }
    }

    /// (increment pips, refreshed dice, regret discards, regret draws) of fish f's eat list.
    fn eat_profile(g: &DeepRegrets, f: usize) -> (i32, i32, i32, i32) {
        let Some(fish) = g.data.fish.get(f) else {
            return (0, 0, 0, 9);
        };
        let mut r = (0, 0, 0, 0);
        let lists = &g.data.lists;
        let add = |prims: &[Prim], r: &mut (i32, i32, i32, i32)| {
            for p in prims {
                match *p {
                    Prim::Increment(k) => r.0 += i32::from(k),
                    Prim::Refresh(k) => r.1 += i32::from(k),
                    Prim::DiscardRegret(k) | Prim::DiscardRandomRegret(k) => r.2 += i32::from(k),
                    Prim::DrawRegret(k) => r.3 += i32::from(k),
                    Prim::Coin(_, _) | Prim::DealRegrets => r.3 += 2,
                    _ => {}
                }
            }
        };
        if let Some(prims) = lists.get(usize::from(fish.eat)) {
            add(prims, &mut r);
            for p in prims {
                if let Prim::Choice(a, b) = *p {
                    let mut ra = (0, 0, 0, 0);
                    let mut rb = (0, 0, 0, 0);
                    if let Some(x) = lists.get(usize::from(a)) {
                        add(x, &mut ra);
                    }
                    if let Some(x) = lists.get(usize::from(b)) {
                        add(x, &mut rb);
                    }
                    r.0 += ra.0.max(rb.0);
                    r.2 += ra.2.max(rb.2);
                }
            }
        }
        r
    }

    /// The cheapest hand fish (legal to eat) whose eat list adds at least `need` pips without
    /// drawing regrets, if it is worth less than `worth`.
    fn eat_for_pips(
        &self,
        g: &DeepRegrets,
        st: &S,
        legal: &[u32],
        need: i32,
        worth: i32,
    ) -> Option<u32> {
        let me = self.seat;
        let mut best: Option<(i32, u32)> = None;
        for &a in legal {
            if !(FISH..=FISH_LAST).contains(&a) {
                continue;
            }
            let f = (a - FISH) as usize;
            let (inc, refresh, _, draw) = Self::eat_profile(g, f);
            let gain = if draw == 0 { inc } else { 0 } + if draw <= 1 { 2 * refresh } else { 0 };
            let v = g.value(st, f, me);
            if gain >= need && v < worth && v <= 3 && best.is_none_or(|(b, _)| v < b) {
                best = Some((v, a));
            }
        }
        best.map(|(_, a)| a)
    }

    fn pay_inner(&self, g: &DeepRegrets, st: &S, legal: &[u32]) -> u32 {
        let me = self.seat;
        let s = usize::from(st.cast_shoal);
        let f = st.top_fish(s).map_or(0, usize::from);
        let value = g.value(st, f, me);
        if value <= 0 {
            return DECLINE;
        }
        if legal.contains(&CATCH) {
            return CATCH;
        }
        if legal.contains(&CATCH_BY_SHOWING) {
            return CATCH_BY_SHOWING;
        }
        if legal.contains(&CATCH_BY_DISCARDING) {
            // the cheapest large fish goes; only when it is worth less than this one
            let mut cheapest = i32::MAX;
            st.seats[me].hand.each(|h| {
                if g.data.fish.get(usize::from(h)).is_some_and(|x| x.size == 2) {
                    cheapest = cheapest.min(g.value(st, usize::from(h), me));
                }
            });
            if cheapest < value {
                return CATCH_BY_DISCARDING;
            }
        }
        let d = g.effective_difficulty(st, me);
        let exact = g.data.fish.get(f).map_or(0, |x| usize::from(x.exact));
        let (mut paid_n, mut paid) = (0usize, 0i32);
        for c in 0..CLASSES {
            paid_n += usize::from(st.payment[c]);
            paid += i32::from(st.payment[c]) * i32::from(CLASS_FACE[c]);
        }
        let (dice, n) = Self::dice(st, me);
        let dice = &dice[..n];
        let need = d - paid;
        let left_n = exact.saturating_sub(paid_n);
        let ok = if exact > 0 {
            Self::can_pay(dice, need, left_n) && left_n > 0
        } else {
            Self::can_pay(dice, need, 0)
        };
        if !ok && legal.contains(&FLIP_WORMS) && st.cast_base.is_none() {
            let printed = g.data.fish.get(f).map_or(0, |x| i32::from(x.difficulty));
            if printed > 4 {
                return FLIP_WORMS;
            }
        }
        if !ok && exact == 0 {
            let total: i32 = dice.iter().map(|&x| i32::from(x)).sum();
            if let Some(a) = self.eat_for_pips(g, st, legal, need - total, value) {
                return a;
            }
        }
        if ok {
            // the smallest die that completes, else the largest
            let pick = if exact > 0 && left_n > 1 {
                dice[0]
            } else {
                dice.iter()
                    .rev()
                    .copied()
                    .find(|&x| i32::from(x) >= need)
                    .unwrap_or(dice[0])
            };
            let c = (0..CLASSES).find(|&c| st.seats[me].fresh[c] > 0 && CLASS_FACE[c] == pick);
            if let Some(c) = c {
                let a = DIE + c as u32;
                if legal.contains(&a) {
                    return a;
                }
            }
        }
        // a difficulty item that makes it payable (never the regret-drawing Bucket of Chum)
        for &a in legal {
            let src = match a {
                USE_LIFE_PRESERVER => ItemSrc::LifePreserver,
                USE_REEL => ItemSrc::Reel(st.seats[me].reel),
                DINK..=DINK_LAST => ItemSrc::Dink((a - DINK) as u8),
                SUPPLY..=SUPPLY_LAST => ItemSrc::Supply((a - SUPPLY) as u8),
                _ => continue,
            };
            let Some(u) = g.ready_use(st, me, src, Node::Pay) else {
                continue;
            };
            let prims = &g.item(src).uses[u];
            let red: i32 = prims
                .iter()
                .map(|p| {
                    if let Prim::Difficulty(x) = p {
                        i32::from(*x)
                    } else {
                        0
                    }
                })
                .sum();
            let safe = prims
                .iter()
                .all(|p| matches!(p, Prim::Difficulty(_) | Prim::Refresh(_)));
            if !safe {
                continue;
            }
            let helps = if red < 0 {
                let need_after = (d + red).max(0) - paid;
                if exact > 0 {
                    left_n > 0 && Self::can_pay(dice, need_after, left_n)
                } else {
                    Self::can_pay(dice, need_after, 0)
                }
            } else {
                true
            };
            if helps {
                return a;
            }
        }
        DECLINE
    }
}

impl Bot<DeepRegrets> for GreedyBot {
    fn reset(&mut self, game: &DeepRegrets, seat: usize, _rng: SplitMix64) {
        self.seat = seat;
        let mut sum_v = [0f64; 3];
        let mut sum_d = [0f64; 3];
        let mut cnt = [0f64; 3];
        game.in_play.each(|f| {
            if let Some(fish) = game.data.fish.get(usize::from(f)) {
                let d = usize::from(fish.depth.clamp(1, 3) - 1);
                sum_v[d] += f64::from(fish.value.unwrap_or(0));
                sum_d[d] += f64::from(fish.difficulty);
                cnt[d] += 1.0;
            }
        });
        for d in 0..3 {
            self.avg_value[d] = sum_v[d] / cnt[d].max(1.0);
            self.avg_difficulty[d] = sum_d[d] / cnt[d].max(1.0);
        }
    }

    fn observes(&self) -> bool {
        false
    }

    fn act(&mut self, g: &DeepRegrets, st: &S, legal: &[u32]) -> u32 {
        let me = self.seat;
        let seat = &st.seats[me];
        let first = legal[0];
        let has = |a: u32| legal.contains(&a);
        match st.node {
            Node::MusterSelect | Node::RerollSelect => {
                for &a in legal {
                    if (DIE..=DIE_LAST).contains(&a) && CLASS_FACE[(a - DIE) as usize] <= 1 {
                        return a;
                    }
                }
                first
            }
            Node::MusterKeep => *legal
                .iter()
                .max_by_key(|&&a| (CLASS_FACE[(a - DIE) as usize], a))
                .unwrap_or(&first),
            Node::LifePreserver => *legal
                .iter()
                .min_by_key(|&&a| st.seats[(a - GIVE_TO) as usize].money)
                .unwrap_or(&first),
            Node::Declare => {
                let (fish, n) = Self::mountable(g, st, me);
                let empty = seat.mounted.iter().filter(|&&m| m == NONE).count();
                let good = fish[..n].iter().filter(|x| x.0 >= 3).count();
                let port =
                    empty > 0 && (good >= empty.min(2) || (st.day == 6 && n > 0 && fish[0].0 >= 2));
                if port {
                    MAKE_PORT
                } else {
                    STAY_AT_SEA
                }
            }
            Node::PortDiscard | Node::DiscardRegret => *legal.iter().max().unwrap_or(&first),
            Node::EquipRod => *legal
                .iter()
                .min_by_key(|&&a| rank_of(&ROD_RANK, a - ROD))
                .unwrap_or(&first),
            Node::EquipReel => *legal
                .iter()
                .min_by_key(|&&a| rank_of(&REEL_RANK, a - REEL))
                .unwrap_or(&first),
            Node::Turn => {
                if seat.depth > 0 {
                    self.turn_at_sea(g, st, legal)
                } else {
                    self.turn_in_port(g, st, legal)
                }
            }
            Node::Worms => {
                let f = usize::from(st.peek);
                let v = g.value(st, f, me);
                let fish = g.data.fish.get(f);
                let (dice, n) = Self::dice(st, me);
                let payable = fish.is_some_and(|x| {
                    Self::can_pay(
                        &dice[..n],
                        (i32::from(x.difficulty) + Self::rod_mod(g, st, me, f)).max(0),
                        usize::from(x.exact),
                    )
                });
                if v >= 2 && payable {
                    LEAVE_ON_TOP
                } else {
                    PUT_AT_BOTTOM
                }
            }
            Node::Pay => self.pay(g, st, legal),
            // The dink is always taken, for the die of the lowest face.
            Node::DeclineDie => *legal
                .iter()
                .filter(|&&a| a >= DIE)
                .min_by_key(|&&a| (CLASS_FACE[(a - DIE) as usize], a))
                .unwrap_or(&first),
            Node::Reward => {
                if has(DISCARD_RANDOM_REGRET) && (seat.regret_value() >= 3 || !has(DRAW_A_DINK)) {
                    DISCARD_RANDOM_REGRET
                } else {
                    DRAW_A_DINK
                }
            }
            Node::Sell => {
                let (fish, n) = Self::mountable(g, st, me);
                // sell the cheapest fish while money is short
                if seat.money < 5 && n > 0 {
                    let (_, f) = fish[n - 1];
                    let a = FISH + u32::from(f);
                    if has(a) {
                        return a;
                    }
                }
                if has(DONE) {
                    DONE
                } else {
                    first
                }
            }
            Node::MountSlot => {
                let (fish, n) = Self::mountable(g, st, me);
                if has(DONE) && (n == 0 || fish[0].0 < 2) {
                    return DONE;
                }
                for a in [SLOT + 1, SLOT, SLOT + 2] {
                    if has(a) {
                        return a;
                    }
                }
                first
            }
            Node::MountFish => {
                let (fish, n) = Self::mountable(g, st, me);
                fish[..n]
                    .iter()
                    .map(|x| FISH + u32::from(x.1))
                    .find(|a| has(*a))
                    .unwrap_or(first)
            }
            Node::AfterMain => self.after_main(g, st, legal),
            _ if st.node as usize >= Node::Coin as usize => self.ability_node(g, st, legal),
            Node::ShopKeep => {
                let rank: &[u8] = match st.shop {
                    0 => &ROD_RANK,
                    1 => &REEL_RANK,
                    _ => &SUPPLY_RANK,
                };
                let base = super::port::shop_base(st.shop);
                *legal
                    .iter()
                    .min_by_key(|&&a| rank_of(rank, a - base))
                    .unwrap_or(&first)
            }
            Node::RefreshDie => {
                // orange, green, player, blue
                for a in [DIE_KIND + 3, DIE_KIND + 2, DIE_KIND, DIE_KIND + 1] {
                    if has(a) {
                        return a;
                    }
                }
                first
            }
            Node::SetMax => *legal
                .iter()
                .max_by_key(|&&a| {
                    let c = (a - DIE) as usize;
                    CLASS_FACE[usize::from(TOP_CLASS[usize::from(CLASS_KIND[c])])] - CLASS_FACE[c]
                })
                .unwrap_or(&first),
            _ => first,
        }
    }
}

impl GreedyBot {
    /// Rules for the nodes of the card abilities (contract §16).
    fn ability_node(&self, g: &DeepRegrets, st: &S, legal: &[u32]) -> u32 {
        let me = self.seat;
        let seat = &st.seats[me];
        let first = legal[0];
        let has = |a: u32| legal.contains(&a);
        let low_fish = |pred: &dyn Fn(u32) -> bool| {
            legal
                .iter()
                .copied()
                .filter(|&a| (FISH..=FISH_LAST).contains(&a) && pred(a))
                .min_by_key(|&a| (g.value(st, (a - FISH) as usize, me), a))
        };
        match st.node {
            Node::ChooseEffect => {
                // the option that discards regrets when holding several, else the first
                let (a, b) = st.branch;
                let discards = |l: u16| {
                    g.data.lists.get(usize::from(l)).is_some_and(|x| {
                        x.iter().any(|p| {
                            matches!(p, Prim::DiscardRegret(_) | Prim::DiscardRandomRegret(_))
                        })
                    })
                };
                if seat.regret_count() >= 3 && discards(b) && !discards(a) {
                    SECOND_EFFECT
                } else if seat.regret_count() >= 3 && discards(a) {
                    FIRST_EFFECT
                } else if discards(a) && seat.regret_count() == 0 {
                    SECOND_EFFECT
                } else {
                    FIRST_EFFECT
                }
            }
            Node::Increment => *legal
                .iter()
                .min_by_key(|&&a| (CLASS_FACE[(a - DIE) as usize], a))
                .unwrap_or(&first),
            Node::DiscardFish | Node::Mimic => low_fish(&|_| true).unwrap_or(first),
            Node::DiscardItem => {
                // the worst supply, else an unequipped rod or reel, else anything
                let sup = legal
                    .iter()
                    .copied()
                    .filter(|&a| (SUPPLY..=SUPPLY_LAST).contains(&a))
                    .max_by_key(|&a| rank_of(&SUPPLY_RANK, a - SUPPLY));
                if let Some(a) = sup {
                    return a;
                }
                legal
                    .iter()
                    .copied()
                    .find(|&a| {
                        (ROD..=ROD_LAST).contains(&a) && u32::from(seat.rod) != a - ROD
                            || (REEL..=REEL_LAST).contains(&a) && u32::from(seat.reel) != a - REEL
                    })
                    .unwrap_or(first)
            }
            Node::GiveFish => *legal
                .iter()
                .max_by_key(|&&a| st.seats[(a - GIVE_TO) as usize].money)
                .unwrap_or(&first),
            Node::GiveRegret | Node::OfferRegret => {
                if st.node == Node::OfferRegret
                    && has(DONE)
                    && seat.regrets[2] + seat.regrets[3] == 0
                {
                    return DONE;
                }
                *legal.iter().max().unwrap_or(&first)
            }
            Node::MoveOffer => {
                let deeper = st.move_depth > seat.depth;
                let (_, n) = Self::dice(st, me);
                if deeper && n >= 3 && seat.regret_count() <= 3 {
                    YES
                } else {
                    NO
                }
            }
            Node::IgnoreReveal | Node::IgnoreCatch => {
                let (f, list) = if st.node == Node::IgnoreReveal {
                    let f = st.top_fish(usize::from(st.cast_shoal)).unwrap_or(0);
                    (f, g.data.fish.get(usize::from(f)).map_or(0, |x| x.reveal))
                } else {
                    let f = st.catch_fish;
                    (f, g.data.fish.get(usize::from(f)).map_or(0, |x| x.catch))
                };
                let bad = f != NONE
                    && g.data.lists.get(usize::from(list)).is_some_and(|l| {
                        l.iter().any(|p| {
                            matches!(
                                p,
                                Prim::DrawRegret(_)
                                    | Prim::DrawRegretFoul
                                    | Prim::GiveThis(_)
                                    | Prim::DiscardThis
                                    | Prim::AutoCatch
                                    | Prim::Each(Who::Everyone, _)
                            )
                        })
                    });
                if bad {
                    NO
                } else {
                    YES
                }
            }
            Node::SwapBeneath | Node::RevealBeneath => NO,
            Node::AcceptOffer => {
                let sum: u32 = st
                    .offer
                    .iter()
                    .enumerate()
                    .map(|(v, &c)| v as u32 * u32::from(c))
                    .sum();
                if sum == 0 {
                    YES
                } else {
                    NO
                }
            }
            Node::Reorder => legal
                .iter()
                .copied()
                .max_by_key(|&a| (g.value(st, (a - FISH) as usize, me), a))
                .unwrap_or(first),
            Node::RevealShoal => DONE,
            Node::HadalShade => {
                let shade = g.value(st, usize::from(st.ability_fish), me);
                legal
                    .iter()
                    .copied()
                    .filter(|&a| a >= HADAL)
                    .map(|a| {
                        let q = ((a - HADAL) / 3) as usize;
                        let k = ((a - HADAL) % 3) as usize;
                        (g.value(st, usize::from(st.seats[q].mounted[k]), me), a)
                    })
                    .filter(|&(v, _)| v - shade >= 4)
                    .max()
                    .map_or(NO, |(_, a)| a)
            }
            _ => first,
        }
    }
}
