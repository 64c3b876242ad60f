"""§10 and §16.12: the label of every action and chance outcome.

One layer of the Deep Regrets reference (:mod:`cardtable.reference.deep_regrets`, whose docstring
tells how the rules are built); the section numbers (§) are those of ``docs/games/deep_regrets.md``.
"""

from __future__ import annotations

from cardtable.observations.deep_regrets import DeepRegretsNodeKind as NodeKind
from cardtable.reference._deep_regrets.cards import (
    CARDS,
    DIE_CLASSES,
    ITEM_KINDS,
    KIND_LETTERS,
    ItemKind,
    die_kind,
    die_string,
    fish_name,
)
from cardtable.reference._deep_regrets.flow import Days
from cardtable.reference._deep_regrets.table import (
    ABANDON_SHIP,
    CAST,
    CATCH,
    CATCH_BY_DISCARDING,
    CATCH_BY_SHOWING,
    CLOCHE_SLOT,
    COLUMN,
    DECLINE,
    DIE,
    DIE_KIND,
    DINK,
    DISCARD_RANDOM_REGRET,
    DONE,
    DRAW_A_DINK,
    END_TURN,
    FIRST_EFFECT,
    FISH,
    FLIP_WORMS,
    GIVE_TO,
    HADAL,
    ITEM_BASE,
    ITEM_DECK_SIZE,
    KEEP_ALL,
    LEAVE_ON_TOP,
    MAKE_PORT,
    MOUNT,
    NO,
    PASS,
    PUT_AT_BOTTOM,
    REEL,
    REGRET,
    ROD,
    ROLL_NOW,
    ROW,
    RULE_FISH,
    SELL,
    SHOP,
    SHOP_ITEMS,
    SHOP_NAMES,
    SLOT,
    STANDING_ACTIONS,
    STAY_AT_SEA,
    SUPPLY,
    TAKE_NOTHING,
    USE_LIFE_PRESERVER,
    USE_REEL,
    USE_WORMS,
    YES,
)


class Labels(Days):
    """§10 and §16.12: the label of every action and chance outcome."""

    # ----- labels (§10) -----

    def _action_label(self, action: int) -> str:
        node = self._node
        label = self._chance_label(action) if node.is_chance else self._decision_label(action)
        if label is not None:
            return label
        return f"outcome {action}" if node.is_chance else f"action {action}"

    def _chance_label(self, a: int) -> str | None:
        """§10 labels of the chance nodes (the whole outcome domain of §9)."""
        node = self._node
        kind = node.kind
        if kind == "deal" and a < len(CARDS.fish):
            return f"deal {fish_name(a)} to shoal {node.about}"
        if kind in ("roll", "roll_high") and a <= 4:
            return f"{KIND_LETTERS[self._ctx.to_roll[0]]} die rolls {a}"
        if kind == "draw_regret" and a <= 3:
            return f"draw a regret of value {a}"
        if kind == "steal_regret" and a <= 3:
            return f"take a regret of value {a} from seat {node.about}"
        if kind == "discard_random_regret" and a <= 3:
            return f"discard a random regret of value {a}"
        for item_kind in ITEM_KINDS:
            if kind == f"draw_{item_kind}" and a < ITEM_DECK_SIZE[item_kind]:
                return f"draw {CARDS.items[item_kind][a].name}"
        if kind == "draw_bag" and a <= 2:
            return f"draw a {('blue', 'green', 'orange')[a]} tackle die"
        if kind == "coin" and a <= 1:
            return ("heads", "tails")[a]
        if kind == "shuffle_back" and a <= 15 and node.about is not None:
            return f"put {fish_name(node.about)} back under {a} fish"
        return None

    def _decision_label(self, a: int) -> str | None:
        """§10 labels of the decision nodes."""
        kind = self._node.kind
        simple: dict[NodeKind, dict[int, str]] = {
            "muster_select": {ROLL_NOW: "roll"},
            "reroll_select": {ROLL_NOW: "roll"},
            "declare": {STAY_AT_SEA: "stay at sea", MAKE_PORT: "make port"},
            "port_discard": {KEEP_ALL: "keep all regrets"},
            "worms": {LEAVE_ON_TOP: "leave it on top", PUT_AT_BOTTOM: "put it at the bottom"},
            "pay": {CATCH: "catch", DECLINE: "decline"},
            "decline_die": {TAKE_NOTHING: "take no dink"},
            "reward": {
                TAKE_NOTHING: "take nothing",
                DRAW_A_DINK: "draw a dink",
                DISCARD_RANDOM_REGRET: "discard a random regret",
            },
            "sell": {DONE: "done selling"},
            "mount_slot": {DONE: "done mounting"},
            "turn": {PASS: "pass", ABANDON_SHIP: "abandon ship", SELL: "sell", MOUNT: "mount"},
            "reveal_shoal": {DONE: "done revealing"},
            "hadal_shade": {NO: "keep it"},
            "offer_regret": {DONE: "done offering"},
        }
        simple["after_main"] = simple["turn"]
        if a in simple.get(kind, {}):
            return simple[kind][a]
        numbered: dict[NodeKind, tuple[int, int, str]] = {  # first action, count, label of k
            "life_preserver": (GIVE_TO, 5, "give the Life Preserver to seat {k}"),
            "port_discard": (REGRET, 4, "discard a regret of value {k}"),
            "discard_regret": (REGRET, 4, "discard a regret of value {k}"),
            "peek_shoal": (CAST, 9, "peek at shoal {k}"),
            "reveal_shoal": (CAST, 9, "reveal shoal {k}"),
            "reveal_column": (COLUMN, 3, "reveal column {k}"),
            "offer_target": (GIVE_TO, 5, "offer regrets to seat {k}"),
            "offer_regret": (REGRET, 4, "offer a regret of value {k}"),
        }
        if kind in numbered:
            first, count, label = numbered[kind]
            return label.format(k=a - first) if first <= a < first + count else None
        in_die = DIE <= a < DIE + len(DIE_CLASSES)
        d = die_string(a - DIE) if in_die else ""
        of_die: dict[NodeKind, str] = {
            "muster_select": "reroll {d}",
            "reroll_select": "reroll {d}",
            "muster_keep": "keep {d}",
            "decline_die": "spend {d} for a dink",
        }
        if kind in of_die:
            return of_die[kind].format(d=d) if in_die else None
        match kind:
            case "set_max" if in_die:
                return f"set {d} to {CARDS.dice[die_kind(a - DIE)].top}"
            case "equip_rod" if ROD <= a < REEL:
                return f"equip {CARDS.items['rod'][a - ROD].name}"
            case "equip_reel" if REEL <= a < FISH:
                return f"equip {CARDS.items['reel'][a - REEL].name}"
            case "after_main" if a == END_TURN:
                return "end turn"
            case "turn" | "pay" | "after_main":
                return self._turn_or_pay_label(a, kind == "pay", d)
            case "sell" if FISH <= a < FISH + len(CARDS.fish):
                return f"sell {fish_name(a - FISH)}"
            case "mount_fish" if FISH <= a < FISH + len(CARDS.fish):
                if self._ctx.slot == CLOCHE_SLOT:
                    return f"mount {fish_name(a - FISH)} on the Cloche"
                return f"mount {fish_name(a - FISH)}"
            case "mount_slot" if SLOT <= a < SLOT + 3:
                k = a - SLOT
                return f"mount in slot {k} (x{CARDS.mount_multipliers[k]})"
            case "shop_keep":
                return self._shop_keep_label(a)
            case "refresh_die" if DIE_KIND <= a < DIE_KIND + 5:
                return f"refresh a {KIND_LETTERS[a - DIE_KIND]} die"
            case "peek_row" | "peek_line" if ROW <= a < ROW + 3:
                return f"peek at depth {a - ROW + 1}"
            case "peek_column" | "peek_line" if COLUMN <= a < COLUMN + 3:
                return f"peek at column {a - COLUMN}"
        return self._ability_node_label(a, d)

    def _ability_node_label(self, a: int, d: str) -> str | None:
        """§16.12 labels of the node kinds of the abilities and item effects."""
        node = self._node
        in_fish = FISH <= a < FISH + len(CARDS.fish)
        name = fish_name(a - FISH) if in_fish else ""
        yes_no: dict[NodeKind, tuple[str, str]] = {
            "swap_beneath": ("swap it for the fish beneath", "keep it"),
            "ignore_reveal": ("resolve the reveal ability", "ignore the reveal ability"),
            "ignore_catch": ("resolve the catch ability", "ignore the catch ability"),
            "reveal_beneath": ("reveal it", "leave it face down"),
            "accept_offer": ("accept the regrets", "refuse the regrets"),
            "move_offer": (f"draw a regret and move to depth {node.about}", "stay"),
        }
        if node.kind in yes_no and a in (YES, NO):
            return yes_no[node.kind][a - YES]
        of_fish: dict[NodeKind, str] = {
            "discard_fish": "discard {name}",
            "reorder": "put {name} next from the top",
            "mimic": "swap it for {name}",
        }
        if node.kind in of_fish:
            return of_fish[node.kind].format(name=name) if in_fish else None
        match node.kind:
            case "choose_effect" if a in (FIRST_EFFECT, FIRST_EFFECT + 1):
                return ("choose the first effect", "choose the second effect")[a - FIRST_EFFECT]
            case "increment" if d:
                return f"increment {d}"
            case "discard_item" if SUPPLY <= a < FISH:
                kind: ItemKind = "supply" if a < ROD else "rod" if a < REEL else "reel"
                return f"discard {CARDS.items[kind][a - ITEM_BASE[kind]].name}"
            case "give_fish" if GIVE_TO <= a < GIVE_TO + 5 and node.about is not None:
                return f"give {fish_name(node.about)} to seat {a - GIVE_TO}"
            case "give_regret" if REGRET <= a < REGRET + 4:
                return f"give a regret of value {a - REGRET} to seat {self._ctx.target}"
            case "hadal_shade" if HADAL <= a < HADAL + 15:
                q, k = divmod(a - HADAL, 3)
                f = self._seats[q].mounted[k] if q < self._n else None
                return None if f is None else f"swap it for seat {q}'s {fish_name(f)}"
        return None

    def _turn_or_pay_label(self, a: int, at_pay: bool, d: str) -> str | None:
        """§10 ``turn`` and ``pay`` labels."""
        if a == USE_LIFE_PRESERVER:
            return "use the Life Preserver"
        if a == USE_REEL:
            return "use the equipped reel"
        if DINK <= a < SUPPLY:
            return f"use {CARDS.items['dink'][a - DINK].name}"
        if SUPPLY <= a < ROD:
            return f"use {CARDS.items['supply'][a - SUPPLY].name}"
        if d:
            return f"pay with {d}" if at_pay else f"drop a sinker with {d}"
        if FISH <= a < FISH + len(CARDS.fish):
            return f"eat {fish_name(a - FISH)}"
        if at_pay:
            return self._catch_option_label(a)
        if a in STANDING_ACTIONS:
            rule, text = STANDING_ACTIONS[a]
            return f"{text.format(RULE_FISH[rule])}"
        if CAST <= a < CAST + 9:
            return f"cast at shoal {a - CAST}"
        if USE_WORMS <= a < USE_WORMS + 9:
            return f"use the Can of Worms on shoal {a - USE_WORMS}"
        if SHOP <= a < SHOP + 12:
            k, t = divmod(a - SHOP, 3)
            return f"{SHOP_NAMES[k]} shop ${CARDS.shops[k][t].price}"
        return None

    def _catch_option_label(self, a: int) -> str | None:
        """§16.12 ``pay`` labels 18, 19 and 20."""
        if a == CATCH_BY_SHOWING:
            return "catch by showing a fish"
        if a == CATCH_BY_DISCARDING:
            return "catch by discarding a fish"
        cast = self._ctx.cast
        if a == FLIP_WORMS and cast is not None and self._shoals[cast.shoal]:
            rules = self._cast_fish().rules_of("worms_difficulty")
            if rules:
                return f"flip the Can of Worms: difficulty {rules[0].difficulty}"
        return None

    def _shop_keep_label(self, a: int) -> str | None:
        """§10 ``shop_keep``: "the shop's item range: keep {name}"."""
        shop = self._ctx.shop
        assert shop is not None
        item_kind = SHOP_ITEMS[shop.shop]
        i = a - ITEM_BASE[item_kind]
        if 0 <= i < ITEM_DECK_SIZE[item_kind]:
            return f"keep {CARDS.items[item_kind][i].name}"
        return None
