//! The card data of Deep Regrets (`python/cardtable/data/deep_regrets.json`), embedded and parsed
//! once into plain static tables.

use serde_json::Value;
use std::sync::OnceLock;

/// The embedded data file, shared with the Python reference.
const RAW: &str = include_str!("../../../../../python/cardtable/data/deep_regrets.json");

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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
        "peek" => {
            let target = match v["target"].as_str().unwrap_or("") {
                "shoal" => PeekTarget::Shoal,
                "row" => PeekTarget::Row,
                "column" => PeekTarget::Column,
                t => return Err(format!("unknown peek target {t:?}")),
            };
            Prim::Peek(target, amount()?)
        }
        k => return Err(format!("unknown primitive {k:?}")),
    })
}

fn item(v: &Value) -> Result<Item, String> {
    let mut uses = Vec::new();
    if let Some(us) = v["uses"].as_array() {
        for u in us {
            uses.push(list(u)?.iter().map(prim).collect::<Result<Vec<_>, _>>()?);
        }
    }
    let mut rod_passive = None;
    let mut dink_draw = None;
    if let Some(ps) = v["passive"].as_array() {
        for p in ps {
            match p["kind"].as_str().unwrap_or("") {
                "dink_draw" => dink_draw = Some(small(&p["amount"])?),
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
    })
}

fn size_index(s: &str) -> Result<u8, String> {
    match s {
        "s" => Ok(0),
        "m" => Ok(1),
        "l" => Ok(2),
        _ => Err(format!("unknown size {s:?}")),
    }
}

fn fish(v: &Value) -> Result<Fish, String> {
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
    })
}

fn items(v: &Value, n: usize) -> Result<Vec<Item>, String> {
    let out = list(v)?.iter().map(item).collect::<Result<Vec<_>, _>>()?;
    if out.len() != n {
        return Err(format!("expected {n} items, got {}", out.len()));
    }
    Ok(out)
}

fn parse() -> Result<Data, String> {
    let v: Value = serde_json::from_str(RAW).map_err(|e| e.to_string())?;
    let fish = list(&v["fish"])?
        .iter()
        .map(fish)
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
    Ok(Data {
        fish,
        dinks: items(&v["dinks"], DINK_COUNT)?,
        supplies: items(&v["supplies"], SUPPLY_COUNT)?,
        rods: items(&v["rods"], ROD_COUNT)?,
        reels: items(&v["reels"], REEL_COUNT)?,
        life_preserver: item(&v["life_preserver"])?,
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
