"""Deep Regrets by Judson Cowan: the reference rules (steps 1 and 2), one method per rule step.

The rules are ``rules/deep_regrets/README.md`` (with ``sources.md`` beside it); the node flow, the
action ids, labels, observation and canonical state are fixed by ``docs/games/deep_regrets.md``
(the contract), whose section numbers (§) the docstrings below cite. The card data is
``data/deep_regrets.json``, read by ``_deep_regrets/cards.py``. Step 1 covers the whole game flow
with every number and the items whose effects are plain modifiers; step 2 (§16, which overrides
the earlier sections) gives every fish ability and the remaining items their effect. Every ability
is data: a fish carries effect lists (``reveal``, ``catch``, ``eat``, ``not_caught``), standing
``rules`` and a ``front`` flag, and :meth:`DeepRegretsState._apply_effect` interprets one primitive
of that vocabulary (§16.7) for whichever card it comes from.

How this module is built: the game is one generator, :meth:`DeepRegretsState._game_flow`, that
reads like the rulebook. Every procedure of the contract (Muster, MakePort, the turn, a cast, a
shop visit, an item effect, ...) is a generator method; each ``yield`` is one node of the contract
(a decision of one seat, or a chance node) and receives the chosen action or outcome. The state of
the table lives in plain attributes, so the canonical state and the observations are read straight
from them; where the flow will continue lives only in the generator. A generator cannot be copied,
so :meth:`DeepRegretsState.clone` replays the history instead.

Where the rules are: the state is one class whose methods come in layers, one module of
``_deep_regrets/`` each, every layer building on the ones below it: ``board`` (the table in
attributes and its small helpers), ``scoring`` (§8), ``draws`` (§7.5), ``items`` (item use and the
effect primitives of §16.7), ``fishing`` (§16.4-§16.8), ``port`` (§7.1-§7.3), ``flow`` (the game,
the days, the phases and the turn), ``labels`` (§10) and ``views`` (§11). ``table`` holds the
numbers, action ids and the records of the table; ``cards`` reads the card data.

A game, as the engine sees it:

1. Setup (§5): the sea is dealt shoal by shoal (chance ``deal``), then the first day (Monday, or
   Tuesday with ``days = 5``) starts with its Refresh phase.
2. Each day (§6): Start phase (not on the first day; no nodes), Refresh phase (every seat musters,
   then the Life Preserver is thrown), Declaration phase (not on the first day), Actions phase.
3. The game ends after Saturday's Actions phase, or at once when the sea is empty (§8).

Every reading decided beyond the rules is listed in the contract's §15 "Decisions" (the readings
below are its items 71-84; the turn with free actions before and after the main action, the Can of
Worms, abandon ship, eating and the four items read from their card texts in ``items.csv`` (the
Centerpin Reel, the Rod of the Dead, the Rod of the Infinite and the Bone Wheel, §16.10) are items
10, 14, 19, 22, 38, 45, 46, 51 and 63-70; the not-caught clause as part of the Reveal ability is
item 37).

Decisions on points the rules docs and the contract leave open (the simplest reading each time):

- ``ctx.left`` is live only while one of the decision nodes that the contract lists for it is
  asked; at every other node, including the ``roll`` chance nodes that follow a
  ``muster_select``, ``refresh_die`` or ``reroll_select`` node, it holds its default 0.
- Labels use the whole id range of §9 for their node kind, whatever the player count or the
  options: e.g. ``give the Life Preserver to seat 4`` at a 3-player ``life_preserver`` node, and
  ``deal {fish} to shoal {s}`` for every fish id 0..134. The ``draw_bag`` labels substitute the
  colour word literally: ``draw a blue tackle die``, ``draw a green tackle die``,
  ``draw a orange tackle die``.
- Dice that Muster does not keep go to the Spent pool, tackle dice included (only *spending* a
  Fresh die sends a tackle die back to the bag, §3).
- An empty shoal shows ``face_up`` false.
- A seat that owns exactly one rod (reel) has it equipped at every Declaration, also if it already
  was.
- The options are listed in the contract's table order: ``days``, ``regret_split``,
  ``expansion_tentacles``.

Decisions of step 2 where §16 is silent (the simplest reading each time):

- ``ctx.cast`` stays live from the cast action to the cast end (§16.6 "Cast end: ctx.cast =
  null"): through the catch list, the overfishing draw, ``decline_die``, the dinks and the
  not-caught list. Its ``payment`` becomes ``[]`` as soon as the dice are spent or returned.
- In ``ctx.cast`` of the observation, ``fish``, ``difficulty`` and ``exact`` describe the current
  top of the cast's shoal when it is face up (after a catch: the next top), and "the caster" who
  sees ``beneath`` is the ``turn`` seat.
- Rods that reorder: the fish stay in the shoal while the ``reorder`` nodes are asked
  (``ctx.order`` lists the ones not yet placed); when the last is placed, the top fish of the
  shoal are rewritten in the chosen order.
- ``ctx.ability`` is set while a non-empty list runs. A list run inside another one (the catch
  list of an ``auto_catch`` in a reveal list) sets it for its own run, then the outer value comes
  back (so the overfishing draw of an auto-catch shows the reveal ability).
- The Dumbo Octopus's ``give_fish`` node leaves ``ctx.ability`` null (no trigger names a give-away
  action); its label names the Dumbo Octopus all the same.
- Primitives that act on the cast (``set_difficulty``, ``peek_beneath``, ``peek_depth``,
  ``reveal`` ``cast_column``, ``reveal_beneath``, ``swap_beneath``) do nothing without a cast; the
  ones that move "the fish (top of the cast's shoal)" (``give_this``, ``mimic``, ``shuffle_back``,
  ``plug``, ``auto_catch``, ``discard_this``) do nothing to the shoal when the ability's fish is no
  longer its top. ``give_this``, ``mimic``, ``plug`` and ``auto_catch`` end the cast all the same.
- ``draw_dink`` ``amount`` k runs DrawDinks(u) k times (the data only has k = 1: one event).
- If one list held both ``end_cast`` and ``free_cast``, ``free_cast`` would win (no card does).
- The start of a turn (§16.8, §16.11) first clears ``skull_used`` and ``coffin_used``, then The Plug
  discards a top.
- The die the Bone Wheel retains stays Fresh whatever the Fresh maximum.
- The Cloche: using it takes the card out of ``supplies`` without discarding it. At the end, a seat
  with the highest Regret Value loses its Cloche fish right after its §8 mounted-fish discard (seats
  in order 0..n-1); its ``cloche`` becomes null, and the Cloche card then leaves the game.
- Labels: ``hadal_shade`` 300+3q+k names seat q's fish in slot k, and gives ``action {a}`` when
  that slot is empty or q is not a seat; ``pay`` 20 gives ``action 20`` unless the cast fish has
  a ``worms_difficulty`` rule; the turn labels 21, 22 and 23 take the names of the fish that
  carry those rules; at ``after_main`` every id but 24 has its ``turn`` label.
- ``port_mount`` fish are mounted in fish id order if there were several (there is one).
- A reveal by an item or ability outside a cast (§16.11) that discards the sea's last card ends
  the game at once (Decision 83), like the checks at the cast end, the Start phase and The Plug.
"""

from __future__ import annotations

from cardtable._rng import SplitMix64
from cardtable.observations.deep_regrets import DeepRegretsObservation
from cardtable.reference._base import CHANCE, TERMINAL, ReferenceGame, register
from cardtable.reference._deep_regrets import events
from cardtable.reference._deep_regrets.table import NUM_ACTIONS, OVER
from cardtable.reference._deep_regrets.tensor import tensor_size
from cardtable.reference._deep_regrets.views import Views
from cardtable.reference._options import (
    OptionReader,
    bool_option,
    choice_option,
    int_option,
)

__all__ = ["DeepRegretsGame", "DeepRegretsObservation", "DeepRegretsState"]


class DeepRegretsState(Views):
    """A game of Deep Regrets in progress."""

    def __init__(self, game: DeepRegretsGame) -> None:
        """§5 Setup, then the game flow runs to its first node."""
        super().__init__(
            game,
            days=game.days,
            regret_split=game.regret_split,
            expansion_tentacles=game.expansion_tentacles,
        )
        self._flow = self._game_flow()
        self._node = next(self._flow)
        self._twin: DeepRegretsState | None = None
        """A copy one step ahead or level with this state, kept by :meth:`rule_events_of`."""

    # ==================================================================================
    # Rule hooks
    # ==================================================================================

    def _current_player(self) -> int:
        if self._node is OVER:
            return TERMINAL
        if self._node.is_chance:
            return CHANCE
        assert self._node.actor is not None
        return self._node.actor

    def _legal_actions(self) -> list[int]:
        return list(self._node.legal)

    def _chance_outcomes(self) -> list[tuple[int, int]]:
        weights = self._node.weights
        if weights is None:
            return []
        return list(zip(self._node.legal, weights, strict=True))

    def _apply(self, action: int) -> None:
        try:
            self._node = self._flow.send(action)
        except StopIteration:
            self._node = OVER

    def clone(self) -> DeepRegretsState:
        """An independent copy, rebuilt by replaying the history (generators cannot be copied)."""
        twin: DeepRegretsState = self._game._initial_state()
        for action in self._history:
            twin._apply(action)
        twin._history = list(self._history)
        twin._rng = None if self._rng is None else SplitMix64(self._rng.state)
        return twin

    def __deepcopy__(self, memo: dict[int, object]) -> DeepRegretsState:
        return self.clone()

    def rule_events_of(self, action: int) -> list[str]:
        """The rule events applying ``action`` would trigger (see the base class).

        The state after the step comes from a copy (a replay of the history, as generators
        cannot be copied) that is kept: when this state then takes the same step, the copy is
        level with it again and the next call steps the copy on, one apply per call.
        """
        twin = self._twin
        if twin is None or twin._history != self._history:
            twin = self.clone()
            twin._rng = None
        twin.apply(action)  # raises on an illegal action, leaving the copy as it was
        self._twin = twin
        events_found = self._game.rule_events(self, action, twin)
        return [name for name in self._game.rule_event_names if name in events_found]

    def _scores(self) -> list[int]:
        """§8: "scores are 0 for every seat until the game is over", then the final scores."""
        if self._end is None:
            return [0] * self._n
        return list(self._end.scores)

    def _winners(self) -> list[int]:
        """§8 step 4: the winners.

        "highest score; ties: lower RV, then fewer regret cards; the rest share the win".
        """
        end = self._end
        assert end is not None

        def rank(p: int) -> tuple[int, int, int]:
            return (end.scores[p], -end.regret_value[p], -self._seats[p].regret_count)

        best = max(rank(p) for p in range(self._n))
        return [p for p in range(self._n) if rank(p) == best]


# ======================================================================================
# The game
# ======================================================================================


@register("deep_regrets", players=(2, 5))
class DeepRegretsGame(ReferenceGame[DeepRegretsState]):
    """Deep Regrets (steps 1 and 2) for 2 to 5 players with fixed options."""

    option_specs = (
        int_option("days", 6, 5, 6, "6 = Monday..Saturday; 5 = the short game from Tuesday"),
        choice_option(
            "regret_split",
            "6/24/20/10",
            ("6/24/20/10", "10/20/20/10"),
            "copies of regret values 0/1/2/3 in the 60-card regret deck",
        ),
        bool_option(
            "expansion_tentacles",
            False,
            "add the 18 Lamentable Tentacles fish (6 per depth) to the sea",
        ),
    )

    def _configure(self, options: OptionReader) -> None:
        self.days = options.int("days")
        self.regret_split = options.choice("regret_split")
        self.expansion_tentacles = options.bool("expansion_tentacles")

    num_actions = NUM_ACTIONS
    """512 (§9)."""

    @property
    def observation_shape(self) -> tuple[int, ...]:
        """``(2268 + 362 * players,)`` (§16.12)."""
        return (tensor_size(self.players),)

    @property
    def max_game_length(self) -> None:
        """None: the rules give no bound on the number of steps of a game."""
        return None

    rule_event_names = events.NAMES

    def rule_events(
        self, before: DeepRegretsState, action: int, after: DeepRegretsState
    ) -> frozenset[str]:
        """The contract's "Rule events" of the step (see :mod:`._deep_regrets.events`)."""
        return events.rule_events(before, action, after)

    def _initial_state(self) -> DeepRegretsState:
        return DeepRegretsState(self)
