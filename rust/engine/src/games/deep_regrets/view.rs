//! What the state shows (contract §10, §11): the canonical state (`to_dict()["state"]`), the
//! observation of a seat, and the action labels; the observation tensor is the submodule
//! [`tensor`].
//!
//! Must not: change the state, or show a seat anything §11.3 does not let it know (other seats'
//! hands, items and regret values, face-down tops it has not peeked, the order of the decks).

mod tensor;

use super::actions::{
    ABANDON_SHIP, CAST, CAST_LAST, CATCH, CATCH_BY_DISCARDING, CATCH_BY_SHOWING, COLUMN,
    COLUMN_LAST, DECLINE, DIE, DIE_KIND, DIE_LAST, DINK, DINK_LAST, DISCARD_RANDOM_REGRET, DONE,
    DRAW_A_DINK, END_TURN, FIRST_EFFECT, FISH, FISH_LAST, FLIP_WORMS, GIVE_AWAY, GIVE_TO,
    GIVE_TO_LAST, HADAL, HADAL_LAST, KEEP_ALL, LEAVE_ON_TOP, MAKE_PORT, MOUNT, NO, PASS,
    PUT_AT_BOTTOM, REEL, REEL_LAST, REGRET, REGRET_LAST, ROD, ROD_LAST, ROLL_NOW, ROW, ROW_LAST,
    SECOND_EFFECT, SELL, SHOP, SHOP_LAST, SLOT, SLOT_LAST, STAY_AT_SEA, SUPPLY, SUPPLY_LAST,
    TAKE_NOTHING, USE_COFFIN, USE_LIFE_PRESERVER, USE_REEL, USE_SKULL, USE_WORMS, USE_WORMS_LAST,
    YES,
};
use super::data::SIZE_NAMES;
use super::flow::first_kind;
use super::port::shop_base;
use super::{
    each_bit, DeepRegrets, DeepRegretsState as S, ItemSrc, Node, CLASSES, CLASS_FACE, CLASS_KIND,
    CLASS_NAME, CLOCHE_SLOT, KINDS, KIND_LETTER, NONE, SHOP_NAMES, TOP_CLASS,
};
use serde_json::{json, Value};

fn opt(x: u8) -> Value {
    if x == NONE {
        Value::Null
    } else {
        json!(x)
    }
}

/// `fields` (a JSON object) with the fields the canonical state and every observation share: the
/// day, the phase, the node and the seats to move.
fn with_clock(st: &S, mut fields: Value) -> Value {
    if let Value::Object(m) = &mut fields {
        m.insert("day".into(), json!(st.day));
        m.insert("phase".into(), json!(st.phase.name()));
        m.insert("node".into(), json!(st.node.name()));
        m.insert("actor".into(), opt(st.actor));
        m.insert("turn".into(), opt(st.turn));
        m.insert("first_player".into(), json!(st.first_player));
        m.insert("last_turns".into(), opt(st.last_turns));
        m.insert("life_preserver".into(), opt(st.life_preserver));
    }
    fields
}

fn dice(pool: &[u8; CLASSES]) -> Value {
    let mut v = Vec::new();
    for (c, &k) in pool.iter().enumerate() {
        for _ in 0..k {
            v.push(json!(CLASS_NAME[c]));
        }
    }
    Value::Array(v)
}

fn kinds(pool: &[u8; KINDS]) -> Value {
    let mut v = Vec::new();
    for (k, &c) in pool.iter().enumerate() {
        for _ in 0..c {
            v.push(json!(KIND_LETTER[k]));
        }
    }
    Value::Array(v)
}

fn ids(mask: u32) -> Value {
    let mut v = Vec::new();
    each_bit(mask, |b| v.push(json!(b)));
    Value::Array(v)
}

impl DeepRegrets {
    fn names(&self, mask: u32, list: &'static [super::data::Item]) -> Value {
        let mut v = Vec::new();
        each_bit(mask, |b| {
            v.push(json!(list.get(b as usize).map_or("?", |i| i.name.as_str())))
        });
        Value::Array(v)
    }

    fn item_name(&self, list: &'static [super::data::Item], id: u8) -> Value {
        if id == NONE {
            Value::Null
        } else {
            json!(list.get(usize::from(id)).map_or("?", |i| i.name.as_str()))
        }
    }

    fn fish_opt(&self, f: u8) -> Value {
        if f == NONE {
            Value::Null
        } else {
            json!(self.fish_name(usize::from(f)))
        }
    }

    /// `ctx.left` as shown at the current node: `None` for `null`, else the number (0 at the
    /// nodes that do not use it). The observation and its tensor both read it here.
    pub(super) fn shown_left(st: &S) -> Option<u8> {
        match st.node {
            Node::MusterSelect => None,
            Node::RerollSelect => (st.left != NONE).then_some(st.left),
            Node::MusterKeep
            | Node::ShopKeep
            | Node::DiscardRegret
            | Node::RefreshDie
            | Node::SetMax
            | Node::PeekShoal
            | Node::PeekRow
            | Node::PeekColumn
            | Node::Increment
            | Node::PeekLine => Some(st.left),
            _ => Some(0),
        }
    }

    /// `ctx.left` as shown at the current node.
    fn left_json(&self, st: &S) -> Value {
        Self::shown_left(st).map_or(Value::Null, |x| json!(x))
    }

    fn item_json(&self, st: &S) -> Value {
        match st.item {
            None => Value::Null,
            Some(src) => {
                let (kind, id) = match src {
                    ItemSrc::Dink(i) => ("dink", json!(i)),
                    ItemSrc::Supply(i) => ("supply", json!(i)),
                    ItemSrc::Reel(i) => ("reel", json!(i)),
                    ItemSrc::LifePreserver => ("life_preserver", Value::Null),
                };
                json!({"kind": kind, "id": id})
            }
        }
    }

    fn drawn<'a>(&self, st: &'a S) -> &'a [u8] {
        &st.drawn[..usize::from(st.drawn_len).min(st.drawn.len())]
    }

    fn seat_list<T: Into<Value>>(&self, f: impl Fn(usize) -> T) -> Value {
        Value::Array((0..self.n()).map(|p| f(p).into()).collect())
    }

    fn end_json(&self, st: &S, with_scores: bool, names: bool) -> Value {
        if !st.ended {
            return Value::Null;
        }
        let rv = self.seat_list(|p| json!(st.regret_values[p]));
        let discarded = self.seat_list(|p| {
            if names {
                self.fish_opt(st.discarded[p])
            } else {
                opt(st.discarded[p])
            }
        });
        let cloche = self.seat_list(|p| {
            if names {
                self.fish_opt(st.cloche_discarded[p])
            } else {
                opt(st.cloche_discarded[p])
            }
        });
        if with_scores {
            json!({"regret_value": rv, "discarded": discarded, "cloche_discarded": cloche,
                   "scores": self.seat_list(|p| json!(st.final_scores[p]))})
        } else {
            json!({"regret_value": rv, "discarded": discarded, "cloche_discarded": cloche})
        }
    }

    fn scores_json(&self, st: &S) -> Value {
        self.seat_list(|p| {
            if st.ended {
                json!(st.final_scores[p])
            } else {
                json!(0)
            }
        })
    }

    /// The canonical state (contract §11.2).
    pub(super) fn state_value(&self, st: &S) -> Value {
        let d = self.data;
        // A shoal keeps its top card last; the state lists it first.
        let shoals: Vec<Value> = (0..9)
            .map(|s| fish_list(st.shoals[s][..usize::from(st.shoal_len[s])].iter().rev()))
            .collect();
        let face_up: Vec<Value> = (0..9).map(|s| json!(st.face_up >> s & 1 == 1)).collect();
        let known = self.seat_list(|p| {
            let v: Vec<Value> = (0..9)
                .filter(|&s| st.known[p] >> s & 1 == 1)
                .map(|s| json!(s))
                .collect();
            Value::Array(v)
        });
        let discard: Vec<Value> = (0..3)
            .map(|d| fish_list(st.fish_discard[d][..usize::from(st.discard_len[d])].iter()))
            .collect();
        let players = self.seat_list(|p| {
            let s = &st.seats[p];
            let mut hand = Vec::new();
            s.hand.each(|f| hand.push(json!(f)));
            json!({
                "money": s.money,
                "depth": s.depth,
                "regrets": s.regrets.to_vec(),
                "fresh": dice(&s.fresh),
                "spent": kinds(&s.spent),
                "hand": hand,
                "mounted": s.mounted.iter().map(|&f| opt(f)).collect::<Vec<_>>(),
                "dinks": ids(s.dinks),
                "supplies": ids(s.supplies),
                "rods": ids(s.rods),
                "reels": ids(s.reels),
                "rod": opt(s.rod),
                "reel": opt(s.reel),
                "worms": s.worms,
                "lifeboat_used": s.lifeboat_used,
                "passed": s.passed,
                "reel_used": s.reel_used,
                "caught_today": s.caught_today,
                "shops_used": s.shops_used.to_vec(),
                "front": fish_ids(&s.front),
                "locks": bits3(s.locks),
                "cloche": opt(s.cloche),
                "skull_used": s.skull_used,
                "coffin_used": s.coffin_used,
            })
        });
        let cast = if st.cast_on {
            json!({"shoal": st.cast_shoal, "reduction": st.cast_reduction,
                   "zero": st.cast_zero, "payment": dice(&st.payment),
                   "base": st.cast_base, "beneath": opt(st.cast_beneath),
                   "ignored": st.cast_ignored, "revealed": st.cast_revealed})
        } else {
            Value::Null
        };
        let shop = if st.shop == NONE {
            Value::Null
        } else {
            json!({"shop": st.shop, "drawn": self.drawn(st).to_vec()})
        };
        let ctx = json!({
            "to_roll": kinds(&st.to_roll),
            "rolled": dice(&st.rolled),
            "left": self.left_json(st),
            "cast": cast,
            "peek": opt(st.peek),
            "shop": shop,
            "count": st.count,
            "foul": st.foul,
            "slot": opt(st.slot),
            "discount": st.discount,
            "item": self.item_json(st),
            "ability": self.ability_json(st, false),
            "pool": if st.pool_on { values(&st.pool) } else { Value::Null },
            "target": opt(st.target),
            "offer": values(&st.offer),
            "order": Value::Array(self.order(st).iter().map(|&f| json!(f)).collect()),
        });
        let _ = d;
        with_clock(
            st,
            json!({
            "shoals": shoals,
            "face_up": face_up,
            "known": known,
            "fish_discard": discard,
            "regret_deck": st.regret_deck.to_vec(),
            "regret_discard": st.regret_discard.to_vec(),
            "bag": st.bag.to_vec(),
            "dink_deck": ids(st.dink_deck),
            "dink_discard": ids(st.dink_discard),
            "supply_deck": ids(st.supply_deck),
            "supply_discard": ids(st.supply_discard),
            "rod_deck": ids(st.rod_deck),
            "rod_discard": ids(st.rod_discard),
            "reel_deck": ids(st.reel_deck),
            "reel_discard": ids(st.reel_discard),
            "players": players,
            "plug": st.plug,
            "ctx": ctx,
            "end": self.end_json(st, true, false),
            }),
        )
    }

    /// The observation of seat `me` (contract §11.3).
    pub(super) fn observation_json(&self, st: &S, me: usize) -> Value {
        let d = self.data;
        let me_seat = &st.seats[me.min(super::MAX_SEATS - 1)];
        let current = {
            use crate::game::Game;
            self.current_player(st)
        };
        let mut regrets = Vec::new();
        for (v, &c) in me_seat.regrets.iter().enumerate() {
            for _ in 0..c {
                regrets.push(json!(v));
            }
        }
        let mut hand = Vec::new();
        me_seat
            .hand
            .each(|f| hand.push(json!(self.fish_name(usize::from(f)))));
        let shoals: Vec<Value> = (0..9)
            .map(|s| {
                let up = st.face_up >> s & 1 == 1;
                let top = st.top_fish(s);
                let top_name = match top {
                    Some(f) if up => self.fish_opt(f),
                    _ => Value::Null,
                };
                let known = match top {
                    Some(f) if !up && st.known[me.min(4)] >> s & 1 == 1 => self.fish_opt(f),
                    _ => Value::Null,
                };
                // Decision 86: "the card back shows the size silhouette", face up or face down.
                let back = match self.top_size(st, s) {
                    Some(z) => json!(SIZE_NAMES[usize::from(z)]),
                    None => Value::Null,
                };
                json!({"size": st.shoal_len[s], "top": top_name, "known": known, "back": back})
            })
            .collect();
        let discard: Vec<Value> = (0..3)
            .map(|d| {
                let len = usize::from(st.discard_len[d]);
                Value::Array(
                    st.fish_discard[d][..len]
                        .iter()
                        .map(|&f| self.fish_opt(f))
                        .collect(),
                )
            })
            .collect();
        let count = |m: u32| m.count_ones();
        let decks = json!({
            "regret": st.regret_deck.iter().map(|&c| u32::from(c)).sum::<u32>(),
            "regret_discard": st.regret_discard.iter().map(|&c| u32::from(c)).sum::<u32>(),
            "dink": count(st.dink_deck),
            "dink_discard": count(st.dink_discard),
            "supply": count(st.supply_deck),
            "supply_discard": count(st.supply_discard),
            "rod": count(st.rod_deck),
            "rod_discard": count(st.rod_discard),
            "reel": count(st.reel_deck),
            "reel_discard": count(st.reel_discard),
        });
        let is_actor = usize::from(st.actor) == me;
        let cast = if st.cast_on {
            let s = usize::from(st.cast_shoal);
            let up = st.face_up >> s & 1 == 1;
            let top = st.top_fish(s).filter(|_| up);
            let fish = top.and_then(|f| d.fish.get(usize::from(f)));
            json!({
                "shoal": st.cast_shoal,
                "fish": top.map_or(Value::Null, |f| self.fish_opt(f)),
                "difficulty": if fish.is_some() {
                    json!(self.effective_difficulty(st, usize::from(st.turn).min(4)))
                } else {
                    Value::Null
                },
                "exact": match fish {
                    Some(f) if f.exact > 0 => json!(f.exact),
                    _ => Value::Null,
                },
                "payment": dice(&st.payment),
                "base": st.cast_base,
                "beneath": if usize::from(st.actor) == me || st.turn == me as u8 {
                    self.fish_opt(self.caster_beneath(st, me))
                } else {
                    Value::Null
                },
                "ignored": st.cast_ignored,
                "revealed": st.cast_revealed,
            })
        } else {
            Value::Null
        };
        let shop = if st.shop == NONE {
            Value::Null
        } else {
            let list: &'static [super::data::Item] = match st.shop {
                0 => &d.rods,
                1 => &d.reels,
                _ => &d.supplies,
            };
            let drawn: Vec<Value> = self
                .drawn(st)
                .iter()
                .map(|&i| {
                    if is_actor {
                        self.item_name(list, i)
                    } else {
                        Value::Null
                    }
                })
                .collect();
            json!({"shop": SHOP_NAMES[usize::from(st.shop).min(3)], "drawn": drawn})
        };
        let item = match st.item {
            None => Value::Null,
            Some(src) => json!(self.item(src).name),
        };
        let ctx = json!({
            "to_roll": kinds(&st.to_roll),
            "rolled": dice(&st.rolled),
            "left": self.left_json(st),
            "cast": cast,
            "peek": if is_actor && st.peek != NONE { self.fish_opt(st.peek) } else { Value::Null },
            "shop": shop,
            "count": st.count,
            "foul": st.foul,
            "slot": opt(st.slot),
            "discount": st.discount,
            "item": item,
            "ability": self.ability_json(st, true),
            "pool": if st.pool_on {
                if is_actor { values(&st.pool) } else { nulls(st.pool.iter().sum()) }
            } else {
                Value::Null
            },
            "target": opt(st.target),
            "offer": if st.turn == me as u8 || st.target == me as u8 {
                values(&st.offer)
            } else {
                nulls(st.offer.iter().sum())
            },
            "order": Value::Array(self.order(st).iter().map(|&f| {
                if is_actor { self.fish_opt(f) } else { Value::Null }
            }).collect()),
        });
        let mut obs = json!({
            "seat": me,
            "current_player": current,
            "money": self.seat_list(|p| json!(st.seats[p].money)),
            "depth": self.seat_list(|p| json!(st.seats[p].depth)),
            "regret_count": self.seat_list(|p| json!(st.seats[p].regret_count())),
            "regrets": regrets,
            "fresh": self.seat_list(|p| dice(&st.seats[p].fresh)),
            "spent": self.seat_list(|p| kinds(&st.seats[p].spent)),
            "hand": hand,
            "hand_count": self.seat_list(|p| json!(st.seats[p].hand.count())),
            "mounted": self.seat_list(|p| {
                Value::Array(st.seats[p].mounted.iter().map(|&f| self.fish_opt(f)).collect())
            }),
            "dinks": self.names(me_seat.dinks, &d.dinks),
            "supplies": self.names(me_seat.supplies, &d.supplies),
            "dink_count": self.seat_list(|p| json!(st.seats[p].dinks.count_ones())),
            "supply_count": self.seat_list(|p| json!(st.seats[p].supplies.count_ones())),
            "rods": self.seat_list(|p| self.names(st.seats[p].rods, &d.rods)),
            "reels": self.seat_list(|p| self.names(st.seats[p].reels, &d.reels)),
            "rod": self.seat_list(|p| self.item_name(&d.rods, st.seats[p].rod)),
            "reel": self.seat_list(|p| self.item_name(&d.reels, st.seats[p].reel)),
            "worms": self.seat_list(|p| json!(st.seats[p].worms)),
            "lifeboat_used": self.seat_list(|p| json!(st.seats[p].lifeboat_used)),
            "passed": self.seat_list(|p| json!(st.seats[p].passed)),
            "reel_used": self.seat_list(|p| json!(st.seats[p].reel_used)),
            "caught_today": self.seat_list(|p| json!(st.seats[p].caught_today)),
            "shops_used": self.seat_list(|p| json!(st.seats[p].shops_used.to_vec())),

            "shoals": shoals,
            "fish_discard": discard,
            "bag": st.bag.to_vec(),
            "decks": decks,
            "ctx": ctx,
            "scores": self.scores_json(st),
            "end": self.end_json(st, false, true),
        });
        if let Value::Object(m) = &mut obs {
            m.insert("plug".into(), json!(st.plug));
            m.insert(
                "front".into(),
                self.seat_list(|p| {
                    let mut v = Vec::new();
                    st.seats[p].front.each(|f| v.push(self.fish_opt(f)));
                    Value::Array(v)
                }),
            );
            m.insert("locks".into(), self.seat_list(|p| bits3(st.seats[p].locks)));
            m.insert(
                "cloche".into(),
                self.seat_list(|p| self.fish_opt(st.seats[p].cloche)),
            );
            m.insert(
                "skull_used".into(),
                self.seat_list(|p| json!(st.seats[p].skull_used)),
            );
            m.insert(
                "coffin_used".into(),
                self.seat_list(|p| json!(st.seats[p].coffin_used)),
            );
        }
        with_clock(st, obs)
    }

    /// `action_label` (contract §10).
    pub(super) fn label(&self, st: &S, a: u32) -> String {
        let d = self.data;
        let fallback = || {
            if st.node.is_chance() {
                format!("outcome {a}")
            } else {
                format!("action {a}")
            }
        };
        let die = |a: u32| CLASS_NAME.get(a.wrapping_sub(DIE) as usize).copied();
        let item_name = |list: &'static [super::data::Item], i: u32| {
            list.get(i as usize).map(|x| x.name.as_str())
        };
        let fish = |i: u32| d.fish.get(i as usize).map(|x| x.name.as_str());
        let r = |lo: u32, hi: u32| (lo..=hi).contains(&a);
        let out: Option<String> = match st.node {
            Node::Deal => fish(a).map(|f| format!("deal {f} to shoal {}", self.dealing_shoal(st))),
            Node::Roll | Node::RollHigh => (a <= 4).then(|| {
                let k = first_kind(&st.to_roll).map_or("?", |k| KIND_LETTER[k]);
                format!("{k} die rolls {a}")
            }),
            Node::DrawRegret => (a <= 3).then(|| format!("draw a regret of value {a}")),
            Node::StealRegret => (a <= 3).then(|| {
                let q = if st.victim == NONE {
                    "?".to_string()
                } else {
                    st.victim.to_string()
                };
                format!("take a regret of value {a} from seat {q}")
            }),
            Node::DiscardRandomRegret => {
                (a <= 3).then(|| format!("discard a random regret of value {a}"))
            }
            Node::DrawDink => item_name(&d.dinks, a).map(|n| format!("draw {n}")),
            Node::DrawSupply => item_name(&d.supplies, a).map(|n| format!("draw {n}")),
            Node::DrawRod => item_name(&d.rods, a).map(|n| format!("draw {n}")),
            Node::DrawReel => item_name(&d.reels, a).map(|n| format!("draw {n}")),
            Node::DrawBag => ["blue", "green", "orange"]
                .get(a as usize)
                .map(|c| format!("draw a {c} tackle die")),
            Node::MusterSelect | Node::RerollSelect => {
                if a == ROLL_NOW {
                    Some("roll".into())
                } else {
                    die(a).map(|x| format!("reroll {x}"))
                }
            }
            Node::MusterKeep => die(a).map(|x| format!("keep {x}")),
            Node::LifePreserver => r(GIVE_TO, GIVE_TO_LAST)
                .then(|| format!("give the Life Preserver to seat {}", a - GIVE_TO)),
            Node::Declare => match a {
                STAY_AT_SEA => Some("stay at sea".into()),
                MAKE_PORT => Some("make port".into()),
                _ => None,
            },
            Node::PortDiscard | Node::DiscardRegret => {
                if a == KEEP_ALL && st.node == Node::PortDiscard {
                    Some("keep all regrets".into())
                } else {
                    r(REGRET, REGRET_LAST)
                        .then(|| format!("discard a regret of value {}", a - REGRET))
                }
            }
            Node::EquipRod => {
                if r(ROD, ROD_LAST) {
                    item_name(&d.rods, a - ROD).map(|n| format!("equip {n}"))
                } else {
                    None
                }
            }
            Node::EquipReel => {
                if r(REEL, REEL_LAST) {
                    item_name(&d.reels, a - REEL).map(|n| format!("equip {n}"))
                } else {
                    None
                }
            }
            Node::AfterMain if a == END_TURN => Some("end turn".into()),
            Node::Turn | Node::Pay | Node::AfterMain => self.turn_pay_label(st, a),
            Node::Worms => match a {
                LEAVE_ON_TOP => Some("leave it on top".into()),
                PUT_AT_BOTTOM => Some("put it at the bottom".into()),
                _ => None,
            },
            Node::DeclineDie if a == TAKE_NOTHING => Some("take no dink".into()),
            Node::DeclineDie => die(a).map(|x| format!("spend {x} for a dink")),
            Node::Reward => match a {
                TAKE_NOTHING => Some("take nothing".into()),
                DRAW_A_DINK => Some("draw a dink".into()),
                DISCARD_RANDOM_REGRET => Some("discard a random regret".into()),
                _ => None,
            },
            Node::Sell => {
                if a == DONE {
                    Some("done selling".into())
                } else if r(FISH, FISH_LAST) {
                    fish(a - FISH).map(|f| format!("sell {f}"))
                } else {
                    None
                }
            }
            Node::MountSlot => {
                if a == DONE {
                    Some("done mounting".into())
                } else if r(SLOT, SLOT_LAST) {
                    let k = (a - SLOT) as usize;
                    Some(format!("mount in slot {k} (x{})", d.mount_multipliers[k]))
                } else {
                    None
                }
            }
            Node::MountFish => {
                if r(FISH, FISH_LAST) && st.slot == CLOCHE_SLOT {
                    fish(a - FISH).map(|f| format!("mount {f} on the Cloche"))
                } else if r(FISH, FISH_LAST) {
                    fish(a - FISH).map(|f| format!("mount {f}"))
                } else {
                    None
                }
            }
            Node::ShopKeep => {
                let base = shop_base(st.shop);
                let list: &'static [super::data::Item] = match st.shop {
                    0 => &d.rods,
                    1 => &d.reels,
                    _ => &d.supplies,
                };
                if a >= base {
                    item_name(list, a - base).map(|n| format!("keep {n}"))
                } else {
                    None
                }
            }
            Node::RefreshDie => KIND_LETTER
                .get(a.wrapping_sub(DIE_KIND) as usize)
                .map(|k| format!("refresh a {k} die")),
            Node::SetMax => die(a).map(|x| {
                let c = (a - DIE) as usize;
                let top = CLASS_FACE[usize::from(TOP_CLASS[usize::from(CLASS_KIND[c])])];
                format!("set {x} to {top}")
            }),
            Node::PeekShoal => r(CAST, CAST_LAST).then(|| format!("peek at shoal {}", a - CAST)),
            Node::PeekRow => r(ROW, ROW_LAST).then(|| format!("peek at depth {}", a - ROW + 1)),
            Node::PeekColumn => {
                r(COLUMN, COLUMN_LAST).then(|| format!("peek at column {}", a - COLUMN))
            }
            Node::Over => None,
            _ => self.ability_label(st, a),
        };
        out.unwrap_or_else(fallback)
    }

    fn turn_pay_label(&self, st: &S, a: u32) -> Option<String> {
        let d = self.data;
        let turn = st.node == Node::Turn || st.node == Node::AfterMain;
        let die = CLASS_NAME.get(a.wrapping_sub(DIE) as usize).copied();
        match a {
            PASS if turn => Some("pass".into()),
            ABANDON_SHIP if turn => Some("abandon ship".into()),
            CATCH if !turn => Some("catch".into()),
            DECLINE if !turn => Some("decline".into()),
            SELL if turn => Some("sell".into()),
            MOUNT if turn => Some("mount".into()),
            USE_LIFE_PRESERVER => Some("use the Life Preserver".into()),
            USE_REEL => Some("use the equipped reel".into()),
            CAST..=CAST_LAST if turn => Some(format!("cast at shoal {}", a - CAST)),
            USE_WORMS..=USE_WORMS_LAST if turn => {
                Some(format!("use the Can of Worms on shoal {}", a - USE_WORMS))
            }
            DIE..=DIE_LAST => die.map(|x| {
                if turn {
                    format!("drop a sinker with {x}")
                } else {
                    format!("pay with {x}")
                }
            }),
            SHOP..=SHOP_LAST if turn => {
                let k = (a - SHOP) as usize / 3;
                let price = d.shops[k][(a - SHOP) as usize % 3].price;
                Some(format!("{} shop ${price}", SHOP_NAMES[k]))
            }
            DINK..=DINK_LAST => d
                .dinks
                .get((a - DINK) as usize)
                .map(|x| format!("use {}", x.name)),
            SUPPLY..=SUPPLY_LAST => d
                .supplies
                .get((a - SUPPLY) as usize)
                .map(|x| format!("use {}", x.name)),
            CATCH_BY_SHOWING if !turn => Some("catch by showing a fish".into()),
            CATCH_BY_DISCARDING if !turn => Some("catch by discarding a fish".into()),
            // §16.14 (62): only a cast fish with a `worms_difficulty` rule names the label.
            FLIP_WORMS if !turn => self
                .cast_fish_data(st)
                .and_then(|f| f.rules.worms_difficulty)
                .map(|dd| format!("flip the Can of Worms: difficulty {dd}")),
            GIVE_AWAY if turn => Some(format!("give {} away", self.give_away_name())),
            USE_SKULL if turn => Some(format!("use {}", self.rule_fish_name(|r| r.front_peek > 0))),
            USE_COFFIN if turn => Some(format!(
                "use {}",
                self.rule_fish_name(|r| r.front_offer.is_some())
            )),
            FISH..=FISH_LAST => d
                .fish
                .get((a - FISH) as usize)
                .map(|x| format!("eat {}", x.name)),
            _ => None,
        }
    }
}

/// Sorted regret values from counts.
fn values(counts: &[u8; 4]) -> Value {
    let mut v = Vec::new();
    for (x, &c) in counts.iter().enumerate() {
        for _ in 0..c {
            v.push(json!(x));
        }
    }
    Value::Array(v)
}

/// `k` nulls.
fn nulls(k: u8) -> Value {
    Value::Array(vec![Value::Null; usize::from(k)])
}

/// Sorted fish ids of a set.
fn fish_ids(set: &super::FishSet) -> Value {
    let mut v = Vec::new();
    set.each(|f| v.push(json!(f)));
    Value::Array(v)
}

/// Sorted columns of a 3-bit mask.
fn bits3(m: u8) -> Value {
    Value::Array(
        (0..3)
            .filter(|c| m >> c & 1 == 1)
            .map(|c| json!(c))
            .collect(),
    )
}

impl DeepRegrets {
    fn order<'a>(&self, st: &'a S) -> &'a [u8] {
        &st.order[..usize::from(st.order_len).min(3)]
    }

    /// `cast.beneath` for the caster only.
    fn caster_beneath(&self, st: &S, me: usize) -> u8 {
        if st.turn == me as u8 {
            st.cast_beneath
        } else {
            NONE
        }
    }

    fn ability_json(&self, st: &S, names: bool) -> Value {
        if st.ability_fish == NONE {
            return Value::Null;
        }
        let trigger = super::abilities::TRIGGER_NAMES
            .get(usize::from(st.ability_trigger))
            .copied()
            .unwrap_or("reveal");
        let fish = if names {
            self.fish_opt(st.ability_fish)
        } else {
            json!(st.ability_fish)
        };
        json!({"fish": fish, "trigger": trigger})
    }

    /// The name of the fish with a give-away action.
    fn give_away_name(&self) -> &'static str {
        self.rule_fish_name(|r| r.give_away.is_some())
    }

    /// The name of the first fish whose rules match.
    fn rule_fish_name(&self, f: impl Fn(&super::data::Rules) -> bool) -> &'static str {
        self.data
            .fish
            .iter()
            .find(|x| f(&x.rules))
            .map_or("?", |x| x.name.as_str())
    }

    /// Labels of the nodes of the card abilities (contract §16.12).
    fn ability_label(&self, st: &S, a: u32) -> Option<String> {
        let d = self.data;
        let r = |lo: u32, hi: u32| (lo..=hi).contains(&a);
        let fish = |i: u32| d.fish.get(i as usize).map(|x| x.name.as_str());
        let die = CLASS_NAME.get(a.wrapping_sub(DIE) as usize).copied();
        let ability = if st.ability_fish == NONE {
            "?"
        } else {
            self.fish_name(usize::from(st.ability_fish))
        };
        // The fish of a fish action, and the label of a yes / no choice.
        let fish_a = if r(FISH, FISH_LAST) {
            fish(a - FISH)
        } else {
            None
        };
        let yes_no = |yes: &str, no: &str| match a {
            YES => Some(yes.to_string()),
            NO => Some(no.to_string()),
            _ => None,
        };
        let item = |list: &'static [super::data::Item], i: u32| {
            list.get(i as usize).map(|x| x.name.as_str())
        };
        match st.node {
            Node::Coin => match a {
                0 => Some("heads".into()),
                1 => Some("tails".into()),
                _ => None,
            },
            Node::ShuffleBack => r(0, 15).then(|| format!("put {ability} back under {a} fish")),
            Node::ChooseEffect => match a {
                FIRST_EFFECT => Some("choose the first effect".into()),
                SECOND_EFFECT => Some("choose the second effect".into()),
                _ => None,
            },
            Node::Increment => die.map(|x| format!("increment {x}")),
            Node::DiscardFish => fish_a.map(|f| format!("discard {f}")),
            Node::DiscardItem => {
                let name = match a {
                    SUPPLY..=SUPPLY_LAST => item(&d.supplies, a - SUPPLY),
                    ROD..=ROD_LAST => item(&d.rods, a - ROD),
                    REEL..=REEL_LAST => item(&d.reels, a - REEL),
                    _ => None,
                };
                name.map(|x| format!("discard {x}"))
            }
            Node::GiveFish => {
                let f = if st.give_fish == NONE {
                    ability
                } else {
                    self.fish_name(usize::from(st.give_fish))
                };
                r(GIVE_TO, GIVE_TO_LAST).then(|| format!("give {f} to seat {}", a - GIVE_TO))
            }
            Node::GiveRegret => r(REGRET, REGRET_LAST).then(|| {
                let t = if st.target == NONE {
                    "?".to_string()
                } else {
                    st.target.to_string()
                };
                format!("give a regret of value {} to seat {t}", a - REGRET)
            }),
            Node::SwapBeneath => yes_no("swap it for the fish beneath", "keep it"),
            Node::MoveOffer => yes_no(
                &format!("draw a regret and move to depth {}", st.move_depth),
                "stay",
            ),
            Node::IgnoreReveal => yes_no("resolve the reveal ability", "ignore the reveal ability"),
            Node::RevealBeneath => yes_no("reveal it", "leave it face down"),
            Node::IgnoreCatch => yes_no("resolve the catch ability", "ignore the catch ability"),
            Node::Reorder => fish_a.map(|f| format!("put {f} next from the top")),
            Node::RevealShoal => {
                if a == DONE {
                    Some("done revealing".into())
                } else {
                    r(CAST, CAST_LAST).then(|| format!("reveal shoal {}", a - CAST))
                }
            }
            Node::RevealColumn => {
                r(COLUMN, COLUMN_LAST).then(|| format!("reveal column {}", a - COLUMN))
            }
            Node::PeekLine => {
                if r(ROW, ROW_LAST) {
                    Some(format!("peek at depth {}", a - ROW + 1))
                } else {
                    r(COLUMN, COLUMN_LAST).then(|| format!("peek at column {}", a - COLUMN))
                }
            }
            Node::Mimic => fish_a.map(|f| format!("swap it for {f}")),
            Node::HadalShade => {
                if a == NO {
                    Some("keep it".into())
                } else if r(HADAL, HADAL_LAST) {
                    let q = ((a - HADAL) / 3) as usize;
                    let k = ((a - HADAL) % 3) as usize;
                    let name = st
                        .seats
                        .get(q)
                        .map(|s| s.mounted[k])
                        .filter(|&f| f != NONE)
                        .map_or("?", |f| self.fish_name(usize::from(f)));
                    Some(format!("swap it for seat {q}'s {name}"))
                } else {
                    None
                }
            }
            Node::OfferTarget => {
                r(GIVE_TO, GIVE_TO_LAST).then(|| format!("offer regrets to seat {}", a - GIVE_TO))
            }
            Node::OfferRegret => {
                if a == DONE {
                    Some("done offering".into())
                } else {
                    r(REGRET, REGRET_LAST)
                        .then(|| format!("offer a regret of value {}", a - REGRET))
                }
            }
            Node::AcceptOffer => yes_no("accept the regrets", "refuse the regrets"),
            _ => None,
        }
    }
}

/// Fish card ids as a JSON list, in the order given.
fn fish_list<'a>(ids: impl Iterator<Item = &'a u8>) -> Value {
    Value::Array(ids.map(|&f| json!(f)).collect())
}
