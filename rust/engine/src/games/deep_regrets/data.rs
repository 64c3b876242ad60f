//! The card data of Deep Regrets (`python/cardtable/data/deep_regrets.json`), embedded and parsed
//! once into plain static tables.
//!
//! Must not: hold rules (only what the file says, in typed form), or read the file from anywhere
//! but `crate::data::DEEP_REGRETS_JSON`.

use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::Value;
use std::sync::OnceLock;

/// The embedded data file, shared with the Python reference.
const RAW: &str = crate::data::DEEP_REGRETS_JSON;

/// Fish records (ids 0..134).
pub const FISH_COUNT: usize = 135;
/// Dink cards.
pub const DINK_COUNT: usize = 25;
/// Supply cards.
pub const SUPPLY_COUNT: usize = 20;
/// Rod cards.
pub const ROD_COUNT: usize = 10;
/// Reel cards.
pub const REEL_COUNT: usize = 10;
/// The fish sizes as the data file writes them (`size`), by [`Fish::size`] index: small,
/// middling, large.
pub const SIZE_NAMES: [&str; 3] = ["s", "m", "l"];

/// What a passive rod difficulty applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum When {
    /// Every fish.
    All,
    /// Fish of one alignment (`true` = foul).
    Foul(bool),
    /// Fish of one size (0 s, 1 m, 2 l).
    Size(u8),
    /// While the owner has caught no fish today.
    FirstCatch,
}

/// Which shoals a peek targets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PeekTarget {
    /// One shoal per pick.
    Shoal,
    /// A whole depth row.
    Row,
    /// A whole column.
    Column,
}

/// One effect primitive of an item use (contract §2.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prim {
    /// The current cast's difficulty changes by the (negative) amount.
    Difficulty(i8),
    /// The current cast's difficulty becomes 0.
    DifficultyZero,
    /// The pending shop discount grows.
    ShopDiscount(u8),
    /// Draw regrets.
    DrawRegret(u8),
    /// Discard regrets of the player's choice.
    DiscardRegret(u8),
    /// Discard random regrets.
    DiscardRandomRegret(u8),
    /// Roll Spent dice into Fresh.
    Refresh(u8),
    /// Reroll up to `max` Fresh dice (`None` = any number).
    Reroll(Option<u8>),
    /// Reroll every Fresh die showing at most the value, over its higher faces.
    RerollLow(u8),
    /// Turn Fresh dice to their top face.
    SetMax(u8),
    /// Boat goes down.
    DepthDown(u8),
    /// Boat goes to a depth.
    DepthTo(u8),
    /// Peek at face-down tops.
    Peek(PeekTarget, u8),
    /// Draw one regret per foul fish in the user's hand (one draw event).
    DrawRegretFoul,
    /// Increment Fresh dice (`amount` times).
    Increment(u8),
    /// Choose one of two effect lists (list ids).
    Choice(u16, u16),
    /// Flip a coin: heads list, tails list.
    Coin(u16, u16),
    /// Run a list for a group of seats.
    Each(Who, u16),
    /// Gain money.
    GainMoney(u8),
    /// Draw supplies from the supply deck.
    TakeSupply(u8),
    /// Draw dinks (one draw event).
    DrawDink(u8),
    /// Turn the Can of Worms over.
    FlipWorms,
    /// Discard a hand fish of a size.
    DiscardFish(u8),
    /// Discard an owned rod, reel or supply.
    DiscardItem,
    /// The ability's fish goes to its discard pile.
    DiscardThis,
    /// The ability's fish goes to a seat's hand.
    GiveThis(GiveTo),
    /// The cast ends after the list.
    EndCast,
    /// The cast ends after the list without using the main action.
    FreeCast,
    /// The fish is caught at once.
    AutoCatch,
    /// The cast's base difficulty.
    SetDifficulty(i8),
    /// Reroll every Fresh die.
    RerollAll,
    /// See the fish beneath the cast's top.
    PeekBeneath,
    /// Peek at the shoal of a depth in the cast's column.
    PeekDepth(u8),
    /// Peek at a whole row or column (one pick).
    PeekLine,
    /// Turn tops face up.
    Reveal(RevealTarget),
    /// Optionally reveal the new top of the cast's shoal.
    RevealBeneath,
    /// Discard `amount` tops of every shoal.
    DiscardTops(u8),
    /// Every boat at sea moves to a depth.
    MoveBoats(u8),
    /// Offer: draw regrets and move to a depth.
    MoveOffer(u8, u8),
    /// The Omen die joins the user's Spent pool.
    OmenDie,
    /// Deal n drawn regrets to the seats.
    DealRegrets,
    /// Give one regret to every other seat.
    GiveRegrets,
    /// Receive one regret from every other seat.
    ReceiveRegrets,
    /// Swap the caught fish for the fish beneath.
    SwapBeneath,
    /// Swap with a small hand fish.
    Mimic,
    /// Swap with a mounted fish of another seat, drawing regrets.
    HadalShade(u8),
    /// The fish goes back into its shoal at a random depth.
    ShuffleBack,
    /// The Plug leaves the sea.
    Plug,
    /// Every mounted fish returns to hand.
    ClawHammer,
    /// Mount a small fish on the Cloche.
    Cloche,
}

/// A group of seats for `each`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Who {
    /// Every seat.
    Everyone,
    /// Every seat but the user.
    Others,
    /// Every seat at sea.
    AtSea,
}

/// Who receives a `give_this` fish.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GiveTo {
    /// The user chooses.
    Choice,
    /// The seat on the left.
    Left,
    /// The seat on the right.
    Right,
    /// The seat with strictly the most regret cards.
    MostRegrets,
}

/// What a `reveal` primitive turns face up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RevealTarget {
    /// Every shoal of the cast's column.
    CastColumn,
    /// Every shoal.
    All,
    /// A column of the user's choice.
    Column,
    /// Shoals of the user's choice.
    Any,
}

/// The `per` of a `difficulty_per` rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Per {
    /// Fish in the caster's hand.
    HandFish,
    /// Seats at depth 2.
    #[serde(rename = "seats_at_depth_2")]
    SeatsAtDepth2,
}

/// What a `catch_by_showing` rule asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Show {
    /// A fish of a size.
    Size(u8),
    /// A Shark.
    Shark,
    /// The fish of that id.
    Fish(u8),
}

/// The standing rules of a fish (contract §16.3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rules {
    /// `difficulty_per`.
    pub per: Option<(Per, i8)>,
    /// `catch_by_showing`.
    pub show: Option<Show>,
    /// `catch_by_discarding` size.
    pub discard_size: Option<u8>,
    /// `worms_difficulty`.
    pub worms_difficulty: Option<i8>,
    /// `must_catch`.
    pub must_catch: bool,
    /// `port_mount`.
    pub port_mount: bool,
    /// `give_away_action` regrets the receiver discards.
    pub give_away: Option<u8>,
    /// `front_difficulty` (foul alignment, amount).
    pub front_difficulty: Option<(bool, i8)>,
    /// `front_extra_regret`.
    pub front_extra: u8,
    /// `front_column_lock`.
    pub column_lock: bool,
    /// `front_peek` amount.
    pub front_peek: u8,
    /// `front_offer` (max, refresh).
    pub front_offer: Option<(u8, u8)>,
}

/// One item card (dink, supply, rod, reel or the Life Preserver).
#[derive(Clone, Debug)]
pub struct Item {
    /// The card name.
    pub name: String,
    /// Alternative uses, each a list of primitives (empty: cannot be used).
    pub uses: Vec<Vec<Prim>>,
    /// A rod's passive difficulty modifier.
    pub rod_passive: Option<(i8, When)>,
    /// A reel's passive dink-draw count.
    pub dink_draw: Option<u8>,
    /// The dink-draw count holds only for draws of the owner's own cast (`"when": "own_cast"`).
    pub dink_draw_own_cast: bool,
    /// The uses as effect list ids (parallel to `uses`).
    pub use_lists: Vec<u16>,
    /// A rod's `reorder` passive (amount; no cost).
    pub reorder: Option<u8>,
    /// A rod's `ignore_abilities` passive covers Reveal abilities.
    pub ignore_reveal: bool,
    /// A rod's `ignore_abilities` passive covers Catch abilities.
    pub ignore_catch: bool,
    /// A reel's `retain_leftover` passive (Bone Wheel).
    pub retain_leftover: bool,
}

/// One fish card.
#[derive(Clone, Debug)]
pub struct Fish {
    /// The card name.
    pub name: String,
    /// 1..=3.
    pub depth: u8,
    /// 0 small, 1 medium, 2 large.
    pub size: u8,
    /// Foul alignment.
    pub foul: bool,
    /// Printed value (`None` = no value).
    pub value: Option<i8>,
    /// Printed difficulty (null = 0).
    pub difficulty: i8,
    /// Exact number of dice (0 = any).
    pub exact: u8,
    /// In the base game (else Lamentable Tentacles).
    pub base: bool,
    /// A visitor/event card.
    pub special: bool,
    /// Cannot be sold or mounted.
    pub nosell: bool,
    /// Always worth 3.
    pub fixed3: bool,
    /// A Shark (name ends with " Shark").
    pub shark: bool,
    /// Goes in front of the catcher.
    pub front: bool,
    /// Effect list ids: reveal, catch, eat, not caught (0 = the empty list).
    pub reveal: u16,
    /// Catch list.
    pub catch: u16,
    /// Eat list.
    pub eat: u16,
    /// Not-caught list.
    pub not_caught: u16,
    /// Standing rules.
    pub rules: Rules,
}

impl Fish {
    /// Can be sold or mounted.
    pub fn sellable(&self) -> bool {
        self.value.is_some() && !self.nosell
    }
}

/// One madness tier.
#[derive(Clone, Copy, Debug, Default)]
pub struct Tier {
    /// Fewest regret cards of the tier.
    pub min_regrets: u8,
    /// Fair fish value modifier.
    pub fair: i8,
    /// Foul fish value modifier.
    pub foul: i8,
    /// Most Fresh dice.
    pub max_fresh: u8,
    /// Discount on every shop.
    pub shop_discount: u8,
}

/// One shop tier.
#[derive(Clone, Copy, Debug, Default)]
pub struct ShopTier {
    /// Price in $.
    pub price: u8,
    /// Cards drawn (card shops) or dice drawn (tackle).
    pub draw: u8,
    /// Cards kept (card shops).
    pub keep: u8,
}

/// Everything in the data file.
#[derive(Clone, Debug)]
pub struct Data {
    /// Fish by id.
    pub fish: Vec<Fish>,
    /// Dinks by id.
    pub dinks: Vec<Item>,
    /// Supplies by id.
    pub supplies: Vec<Item>,
    /// Rods by id.
    pub rods: Vec<Item>,
    /// Reels by id.
    pub reels: Vec<Item>,
    /// The Life Preserver.
    pub life_preserver: Item,
    /// Regret deck splits: (option string, copies of values 0..3).
    pub regret_decks: Vec<(String, [u8; 4])>,
    /// Faces of each die kind (P B G O M).
    pub faces: [[u8; 4]; 5],
    /// Dice of each kind in the bag at setup (B G O), and player dice per seat (P).
    pub dice_count: [u8; 5],
    /// Madness tiers.
    pub madness: [Tier; 6],
    /// Shops (rod, reel, supply, tackle) × tiers.
    pub shops: [[ShopTier; 3]; 4],
    /// Mount multipliers per slot.
    pub mount_multipliers: [u8; 3],
    /// Money cap.
    pub money_cap: u8,
    /// $ per point at the end.
    pub money_per_point: u8,
    /// Thursday's payday.
    pub payday: u8,
    /// Regret Value of a used lifeboat.
    pub lifeboat_regret_value: u8,
    /// Regrets drawn for overfishing.
    pub overfishing_regrets: u8,
    /// Every effect list (id 0 = the empty list).
    pub lists: Vec<Vec<Prim>>,
}

fn int(v: &Value) -> Result<i64, String> {
    v.as_i64()
        .ok_or_else(|| format!("expected an int, got {v}"))
}

fn small(v: &Value) -> Result<u8, String> {
    u8::try_from(int(v)?).map_err(|e| e.to_string())
}

fn signed(v: &Value) -> Result<i8, String> {
    i8::try_from(int(v)?).map_err(|e| e.to_string())
}

fn string(v: &Value) -> Result<String, String> {
    v.as_str()
        .map(str::to_string)
        .ok_or_else(|| format!("expected a string, got {v}"))
}

fn list(v: &Value) -> Result<&Vec<Value>, String> {
    v.as_array()
        .ok_or_else(|| format!("expected a list, got {v}"))
}

/// Reads the field `key` of `v` as a `T` named by its variant's name in snake case (the data's
/// spelling), e.g. `"at_sea"` for [`Who::AtSea`].
fn named<T: DeserializeOwned>(v: &Value, key: &str) -> Result<T, String> {
    T::deserialize(&v[key]).map_err(|e| format!("{key}: {e}"))
}

/// Collects effect lists while parsing.
struct Lists(Vec<Vec<Prim>>);

impl Lists {
    /// Parses a list and stores it (an empty list is id 0).
    fn add(&mut self, v: &Value) -> Result<u16, String> {
        let items = list(v)?;
        if items.is_empty() {
            return Ok(0);
        }
        let mut out = Vec::with_capacity(items.len());
        for p in items {
            out.push(self.prim(p)?);
        }
        self.0.push(out);
        u16::try_from(self.0.len() - 1).map_err(|e| e.to_string())
    }

    fn prim(&mut self, v: &Value) -> Result<Prim, String> {
        let amount = || small(&v["amount"]);
        let kind = v["kind"].as_str().unwrap_or("");
        let p = match kind {
            "increment" => Prim::Increment(amount()?),
            "choice" => {
                let o = list(&v["options"])?;
                if o.len() != 2 {
                    return Err("a choice needs two options".into());
                }
                Prim::Choice(self.add(&o[0])?, self.add(&o[1])?)
            }
            "coin" => Prim::Coin(self.add(&v["heads"])?, self.add(&v["tails"])?),
            "each" => Prim::Each(named(v, "who")?, self.add(&v["effects"])?),
            "gain_money" => Prim::GainMoney(amount()?),
            "take_supply" => Prim::TakeSupply(amount()?),
            "draw_dink" => Prim::DrawDink(amount()?),
            "flip_worms" => Prim::FlipWorms,
            "discard_fish" => Prim::DiscardFish(size_index(v["size"].as_str().unwrap_or(""))?),
            "discard_item" => Prim::DiscardItem,
            "discard_this" => Prim::DiscardThis,
            "give_this" => Prim::GiveThis(named(v, "to")?),
            "end_cast" => Prim::EndCast,
            "free_cast" => Prim::FreeCast,
            "auto_catch" => Prim::AutoCatch,
            "set_difficulty" => Prim::SetDifficulty(signed(&v["amount"])?),
            "reroll_all" => Prim::RerollAll,
            "peek_beneath" => Prim::PeekBeneath,
            "peek_depth" => Prim::PeekDepth(small(&v["depth"])?),
            "peek" if v["target"].as_str() == Some("line") => Prim::PeekLine,
            "reveal" => Prim::Reveal(named(v, "target")?),
            "reveal_beneath" => Prim::RevealBeneath,
            "discard_tops" => Prim::DiscardTops(amount()?),
            "move_boats" => Prim::MoveBoats(small(&v["depth"])?),
            "move_offer" => Prim::MoveOffer(small(&v["depth"])?, small(&v["regrets"])?),
            "omen_die" => Prim::OmenDie,
            "deal_regrets" => Prim::DealRegrets,
            "give_regrets" => Prim::GiveRegrets,
            "receive_regrets" => Prim::ReceiveRegrets,
            "swap_beneath" => Prim::SwapBeneath,
            "mimic" => Prim::Mimic,
            "hadal_shade" => Prim::HadalShade(small(&v["regrets"])?),
            "shuffle_back" => Prim::ShuffleBack,
            "plug" => Prim::Plug,
            "claw_hammer" => Prim::ClawHammer,
            "cloche" => Prim::Cloche,
            "draw_regret" if v["per"].as_str() == Some("foul_in_hand") => Prim::DrawRegretFoul,
            _ => prim(v)?,
        };
        Ok(p)
    }
}

fn prim(v: &Value) -> Result<Prim, String> {
    let amount = || small(&v["amount"]);
    Ok(match v["kind"].as_str().unwrap_or("") {
        "difficulty" => Prim::Difficulty(signed(&v["amount"])?),
        "difficulty_zero" => Prim::DifficultyZero,
        "shop_discount" => Prim::ShopDiscount(amount()?),
        "draw_regret" => Prim::DrawRegret(amount()?),
        "discard_regret" => Prim::DiscardRegret(amount()?),
        "discard_random_regret" => Prim::DiscardRandomRegret(amount()?),
        "refresh" => Prim::Refresh(amount()?),
        "reroll" => Prim::Reroll(if v["max"].is_null() {
            None
        } else {
            Some(small(&v["max"])?)
        }),
        "reroll_low" => Prim::RerollLow(small(&v["at_most"])?),
        "set_max" => Prim::SetMax(amount()?),
        "depth_down" => Prim::DepthDown(amount()?),
        "depth_to" => Prim::DepthTo(small(&v["depth"])?),
        "peek" => Prim::Peek(named(v, "target")?, amount()?),
        k => return Err(format!("unknown primitive {k:?}")),
    })
}

fn item(v: &Value, lists: &mut Lists) -> Result<Item, String> {
    let mut uses = Vec::new();
    let mut use_lists = Vec::new();
    if let Some(us) = v["uses"].as_array() {
        for u in us {
            let id = lists.add(u)?;
            use_lists.push(id);
            uses.push(if id == 0 {
                Vec::new()
            } else {
                lists.0[usize::from(id)].clone()
            });
        }
    }
    let mut rod_passive = None;
    let mut dink_draw = None;
    let mut dink_draw_own_cast = false;
    let mut reorder = None;
    let mut ignore_reveal = false;
    let mut ignore_catch = false;
    let mut retain_leftover = false;
    if let Some(ps) = v["passive"].as_array() {
        for p in ps {
            match p["kind"].as_str().unwrap_or("") {
                "dink_draw" => {
                    dink_draw = Some(small(&p["amount"])?);
                    dink_draw_own_cast = match &p["when"] {
                        Value::Null => false,
                        w if w.as_str() == Some("own_cast") => true,
                        w => return Err(format!("unknown dink_draw when {w}")),
                    };
                }
                "reorder" => {
                    if !p["cost"].is_null() {
                        return Err(format!("unsupported reorder cost {}", p["cost"]));
                    }
                    reorder = Some(small(&p["amount"])?);
                }
                "ignore_abilities" => {
                    for t in list(&p["triggers"])? {
                        match t.as_str() {
                            Some("reveal") => ignore_reveal = true,
                            Some("catch") => ignore_catch = true,
                            _ => return Err(format!("unknown ignore_abilities trigger {t}")),
                        }
                    }
                }
                "retain_leftover" => retain_leftover = true,
                "difficulty" => {
                    let w = &p["when"];
                    let when = if let Some(a) = w["alignment"].as_str() {
                        When::Foul(a == "foul")
                    } else if let Some(s) = w["size"].as_str() {
                        When::Size(size_index(s)?)
                    } else if w["first_catch"].as_bool() == Some(true) {
                        When::FirstCatch
                    } else {
                        When::All
                    };
                    rod_passive = Some((signed(&p["amount"])?, when));
                }
                k => return Err(format!("unknown passive {k:?}")),
            }
        }
    }
    Ok(Item {
        name: string(&v["name"])?,
        uses,
        rod_passive,
        dink_draw,
        dink_draw_own_cast,
        use_lists,
        reorder,
        ignore_reveal,
        ignore_catch,
        retain_leftover,
    })
}

fn size_index(s: &str) -> Result<u8, String> {
    SIZE_NAMES
        .iter()
        .position(|&name| name == s)
        .map(|i| i as u8)
        .ok_or_else(|| format!("unknown size {s:?}"))
}

fn rules(v: &Value, names: &[String]) -> Result<Rules, String> {
    let mut r = Rules::default();
    for x in list(v)? {
        match x["kind"].as_str().unwrap_or("") {
            "difficulty_per" => {
                r.per = Some((named(x, "per")?, signed(&x["amount"])?));
            }
            "catch_by_showing" => {
                r.show = Some(if let Some(sz) = x["size"].as_str() {
                    Show::Size(size_index(sz)?)
                } else if x["shark"].as_bool() == Some(true) {
                    Show::Shark
                } else {
                    let name = x["name"].as_str().unwrap_or("");
                    let id = names
                        .iter()
                        .position(|n| n == name)
                        .ok_or_else(|| format!("unknown fish {name:?}"))?;
                    Show::Fish(id as u8)
                })
            }
            "catch_by_discarding" => {
                r.discard_size = Some(size_index(x["size"].as_str().unwrap_or(""))?)
            }
            "worms_difficulty" => r.worms_difficulty = Some(signed(&x["difficulty"])?),
            "must_catch" => r.must_catch = true,
            "port_mount" => r.port_mount = true,
            "give_away_action" => r.give_away = Some(small(&x["discard_regrets"])?),
            "front_difficulty" => {
                r.front_difficulty = Some((
                    x["alignment"].as_str() == Some("foul"),
                    signed(&x["amount"])?,
                ))
            }
            "front_extra_regret" => r.front_extra = small(&x["amount"])?,
            "front_column_lock" => r.column_lock = true,
            "front_peek" => r.front_peek = small(&x["amount"])?,
            "front_offer" => r.front_offer = Some((small(&x["max"])?, small(&x["refresh"])?)),
            k => return Err(format!("unknown rule {k:?}")),
        }
    }
    Ok(r)
}

fn fish(v: &Value, lists: &mut Lists, names: &[String]) -> Result<Fish, String> {
    let flags: Vec<&str> = list(&v["flags"])?
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let opt = |k: &str| -> Result<Option<i8>, String> {
        if v[k].is_null() {
            Ok(None)
        } else {
            signed(&v[k]).map(Some)
        }
    };
    Ok(Fish {
        name: string(&v["name"])?,
        depth: small(&v["depth"])?,
        size: size_index(v["size"].as_str().unwrap_or(""))?,
        foul: v["alignment"].as_str() == Some("foul"),
        value: opt("value")?,
        difficulty: opt("difficulty")?.unwrap_or(0),
        exact: opt("exact_dice")?.map_or(0, |x| x.max(0) as u8),
        base: v["expansion"].as_str() == Some("base"),
        special: flags.contains(&"special"),
        nosell: flags.contains(&"nosell"),
        fixed3: flags.contains(&"fixed3"),
        shark: v["name"].as_str().unwrap_or("").ends_with(" Shark"),
        front: v["front"].as_bool() == Some(true),
        reveal: lists.add(&v["reveal"])?,
        catch: lists.add(&v["catch"])?,
        eat: lists.add(&v["eat"])?,
        not_caught: lists.add(&v["not_caught"])?,
        rules: rules(&v["rules"], names)?,
    })
}

fn items(v: &Value, n: usize, lists: &mut Lists) -> Result<Vec<Item>, String> {
    let out = list(v)?
        .iter()
        .map(|x| item(x, lists))
        .collect::<Result<Vec<_>, _>>()?;
    if out.len() != n {
        return Err(format!("expected {n} items, got {}", out.len()));
    }
    Ok(out)
}

fn parse() -> Result<Data, String> {
    let v: Value = serde_json::from_str(RAW).map_err(|e| e.to_string())?;
    let mut lists = Lists(vec![Vec::new()]);
    let names: Vec<String> = list(&v["fish"])?
        .iter()
        .map(|f| string(&f["name"]))
        .collect::<Result<_, _>>()?;
    let fish = list(&v["fish"])?
        .iter()
        .map(|f| fish(f, &mut lists, &names))
        .collect::<Result<Vec<_>, _>>()?;
    if fish.len() != FISH_COUNT {
        return Err(format!("expected {FISH_COUNT} fish"));
    }
    let mut regret_decks = Vec::new();
    if let Some(m) = v["regret_decks"].as_object() {
        for (k, c) in m {
            let c = list(c)?;
            let mut a = [0u8; 4];
            for (i, x) in c.iter().enumerate().take(4) {
                a[i] = small(x)?;
            }
            regret_decks.push((k.clone(), a));
        }
    }
    let mut faces = [[0u8; 4]; 5];
    let mut dice_count = [0u8; 5];
    for (k, d) in list(&v["dice"])?.iter().enumerate().take(5) {
        for (i, f) in list(&d["faces"])?.iter().enumerate().take(4) {
            faces[k][i] = small(f)?;
        }
        dice_count[k] = small(&d["count"])?;
    }
    let mut madness = [Tier::default(); 6];
    for (i, t) in list(&v["madness"])?.iter().enumerate().take(6) {
        madness[i] = Tier {
            min_regrets: small(&t["min_regrets"])?,
            fair: signed(&t["fair"])?,
            foul: signed(&t["foul"])?,
            max_fresh: small(&t["max_fresh"])?,
            shop_discount: small(&t["shop_discount"])?,
        };
    }
    let mut shops = [[ShopTier::default(); 3]; 4];
    for (k, s) in list(&v["shops"])?.iter().enumerate().take(4) {
        for (t, tier) in list(&s["tiers"])?.iter().enumerate().take(3) {
            let draw = if tier["dice"].is_null() {
                &tier["draw"]
            } else {
                &tier["dice"]
            };
            shops[k][t] = ShopTier {
                price: small(&tier["price"])?,
                draw: small(draw)?,
                keep: if tier["keep"].is_null() {
                    0
                } else {
                    small(&tier["keep"])?
                },
            };
        }
    }
    let mut mount_multipliers = [0u8; 3];
    for (i, m) in list(&v["mount_multipliers"])?.iter().enumerate().take(3) {
        mount_multipliers[i] = small(m)?;
    }
    let dinks = items(&v["dinks"], DINK_COUNT, &mut lists)?;
    let supplies = items(&v["supplies"], SUPPLY_COUNT, &mut lists)?;
    let rods = items(&v["rods"], ROD_COUNT, &mut lists)?;
    let reels = items(&v["reels"], REEL_COUNT, &mut lists)?;
    let life_preserver = item(&v["life_preserver"], &mut lists)?;
    Ok(Data {
        fish,
        dinks,
        supplies,
        rods,
        reels,
        life_preserver,
        lists: lists.0,
        regret_decks,
        faces,
        dice_count,
        madness,
        shops,
        mount_multipliers,
        money_cap: small(&v["money_cap"])?,
        money_per_point: small(&v["money_per_point"])?,
        payday: small(&v["payday"])?,
        lifeboat_regret_value: small(&v["lifeboat_regret_value"])?,
        overfishing_regrets: small(&v["overfishing_regrets"])?,
    })
}

/// The parsed data, parsed on first use (an error means the embedded file is broken, which the
/// unit tests rule out).
pub fn data() -> Result<&'static Data, String> {
    static DATA: OnceLock<Result<Data, String>> = OnceLock::new();
    DATA.get_or_init(parse).as_ref().map_err(Clone::clone)
}

#[cfg(test)]
mod tests {
    use super::{named, Per, Who};
    use serde_json::json;

    /// A named field reads the data's snake-case spelling, and an unknown name or a missing field
    /// is an error that names the field.
    #[test]
    fn named_fields_read_the_data_spelling() {
        let v = json!({"who": "at_sea", "per": "seats_at_depth_2", "bad": "nobody"});
        assert_eq!(named::<Who>(&v, "who"), Ok(Who::AtSea));
        assert_eq!(named::<Per>(&v, "per"), Ok(Per::SeatsAtDepth2));
        let bad = named::<Who>(&v, "bad").unwrap_err();
        assert!(bad.starts_with("bad: unknown variant `nobody`"), "{bad}");
        assert!(named::<Who>(&v, "missing")
            .unwrap_err()
            .starts_with("missing: "));
    }
}
