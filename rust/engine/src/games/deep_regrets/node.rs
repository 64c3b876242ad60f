//! The nodes a Deep Regrets state rests at (contract §10): their names in the state JSON and
//! which of them are chance nodes.

/// The kind of the node the state rests at (contract §10).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Node {
    /// Chance: a fish dealt to a shoal.
    Deal,
    /// Chance: the first die of `to_roll` is rolled.
    Roll,
    /// Chance: a low die is rolled over its higher faces.
    RollHigh,
    /// Chance: a regret drawn from the deck.
    DrawRegret,
    /// Chance: a regret taken from the victim.
    StealRegret,
    /// Chance: a random regret discarded.
    DiscardRandomRegret,
    /// Chance: a dink drawn.
    DrawDink,
    /// Chance: a supply drawn (shop).
    DrawSupply,
    /// Chance: a rod drawn (shop).
    DrawRod,
    /// Chance: a reel drawn (shop).
    DrawReel,
    /// Chance: a tackle die drawn from the bag.
    DrawBag,
    /// Choose Fresh dice to reroll at a muster.
    MusterSelect,
    /// Choose Fresh dice to reroll with a reel.
    RerollSelect,
    /// Choose rolled dice to keep.
    MusterKeep,
    /// Give the Life Preserver.
    LifePreserver,
    /// Stay at sea or make port.
    Declare,
    /// Discard a regret on making port.
    PortDiscard,
    /// Equip a rod.
    EquipRod,
    /// Equip a reel.
    EquipReel,
    /// A player's turn.
    Turn,
    /// The Can of Worms choice.
    Worms,
    /// Paying for the revealed fish.
    Pay,
    /// Spending a die after declining.
    DeclineDie,
    /// The pass reward.
    Reward,
    /// Selling fish.
    Sell,
    /// Choosing a mount slot.
    MountSlot,
    /// Choosing the fish to mount.
    MountFish,
    /// Keeping shop cards.
    ShopKeep,
    /// Discarding a regret of one's choice (item effect).
    DiscardRegret,
    /// Refreshing a Spent die (item effect).
    RefreshDie,
    /// Setting a die to its top face (item effect).
    SetMax,
    /// Peeking at a shoal.
    PeekShoal,
    /// Peeking at a row.
    PeekRow,
    /// Peeking at a column.
    PeekColumn,
    /// Terminal.
    Over,
    /// Chance: a coin flip.
    Coin,
    /// Chance: where a fish goes back into its shoal.
    ShuffleBack,
    /// Choose one of two effects.
    ChooseEffect,
    /// Increment a die.
    Increment,
    /// Discard a hand fish.
    DiscardFish,
    /// Discard an item.
    DiscardItem,
    /// Give a fish to a seat.
    GiveFish,
    /// Give a regret to `ctx.target`.
    GiveRegret,
    /// Swap the caught fish for the one beneath.
    SwapBeneath,
    /// Draw regrets and move, or stay.
    MoveOffer,
    /// Resolve or ignore a reveal ability (Rod of the Dead).
    IgnoreReveal,
    /// Reveal the new top of the cast's shoal or not.
    RevealBeneath,
    /// Resolve or ignore a catch ability (Rod of the Dead).
    IgnoreCatch,
    /// Choose the next fish from the top.
    Reorder,
    /// Reveal shoals.
    RevealShoal,
    /// Reveal a column.
    RevealColumn,
    /// Peek at a row or a column.
    PeekLine,
    /// The Mimic Octopus swap.
    Mimic,
    /// The Hadal Shade swap.
    HadalShade,
    /// Whom to offer regrets (Iron Coffin).
    OfferTarget,
    /// Regrets to offer.
    OfferRegret,
    /// Accept or refuse offered regrets.
    AcceptOffer,
    /// Free actions after the main action, or end the turn.
    AfterMain,
}

impl Node {
    /// The node kind's name in the contract.
    pub fn name(self) -> &'static str {
        match self {
            Node::Deal => "deal",
            Node::Roll => "roll",
            Node::RollHigh => "roll_high",
            Node::DrawRegret => "draw_regret",
            Node::StealRegret => "steal_regret",
            Node::DiscardRandomRegret => "discard_random_regret",
            Node::DrawDink => "draw_dink",
            Node::DrawSupply => "draw_supply",
            Node::DrawRod => "draw_rod",
            Node::DrawReel => "draw_reel",
            Node::DrawBag => "draw_bag",
            Node::MusterSelect => "muster_select",
            Node::RerollSelect => "reroll_select",
            Node::MusterKeep => "muster_keep",
            Node::LifePreserver => "life_preserver",
            Node::Declare => "declare",
            Node::PortDiscard => "port_discard",
            Node::EquipRod => "equip_rod",
            Node::EquipReel => "equip_reel",
            Node::Turn => "turn",
            Node::Worms => "worms",
            Node::Pay => "pay",
            Node::DeclineDie => "decline_die",
            Node::Reward => "reward",
            Node::Sell => "sell",
            Node::MountSlot => "mount_slot",
            Node::MountFish => "mount_fish",
            Node::ShopKeep => "shop_keep",
            Node::DiscardRegret => "discard_regret",
            Node::RefreshDie => "refresh_die",
            Node::SetMax => "set_max",
            Node::PeekShoal => "peek_shoal",
            Node::PeekRow => "peek_row",
            Node::PeekColumn => "peek_column",
            Node::Over => "over",
            Node::Coin => "coin",
            Node::ShuffleBack => "shuffle_back",
            Node::ChooseEffect => "choose_effect",
            Node::Increment => "increment",
            Node::DiscardFish => "discard_fish",
            Node::DiscardItem => "discard_item",
            Node::GiveFish => "give_fish",
            Node::GiveRegret => "give_regret",
            Node::SwapBeneath => "swap_beneath",
            Node::MoveOffer => "move_offer",
            Node::IgnoreReveal => "ignore_reveal",
            Node::RevealBeneath => "reveal_beneath",
            Node::IgnoreCatch => "ignore_catch",
            Node::Reorder => "reorder",
            Node::RevealShoal => "reveal_shoal",
            Node::RevealColumn => "reveal_column",
            Node::PeekLine => "peek_line",
            Node::Mimic => "mimic",
            Node::HadalShade => "hadal_shade",
            Node::OfferTarget => "offer_target",
            Node::OfferRegret => "offer_regret",
            Node::AcceptOffer => "accept_offer",
            Node::AfterMain => "after_main",
        }
    }

    /// Whether it is a chance node.
    pub fn is_chance(self) -> bool {
        matches!(
            self,
            Node::Deal
                | Node::Roll
                | Node::RollHigh
                | Node::DrawRegret
                | Node::StealRegret
                | Node::DiscardRandomRegret
                | Node::DrawDink
                | Node::DrawSupply
                | Node::DrawRod
                | Node::DrawReel
                | Node::DrawBag
                | Node::Coin
                | Node::ShuffleBack
        )
    }
}
