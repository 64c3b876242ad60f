//! Rule events of the traffic jam (contract, "Rule events"). One step (the turn's last
//! commitment, or a resolution decision) may resolve several cards: every card with a single
//! option that follows is carried out within the same step. The step is therefore followed card
//! by card on a copy of the board (each card carried out as the rules do), and each card's events
//! are read here from the lanes as they stand just before it, with the rules' conditions (lane
//! ends, car counts, this turn's stacks) checked on the tokens directly.

use super::{
    tok_id, Board, Kind, Lane, Phase, Trafficars, TrafficarsState, DOUBLE, FREE, FREE_PLACE_OPTION,
    LANE_OPTION, START,
};

crate::game::rule_events! {
    LANE_TAKEN = "lane taken by the 5th car",
    TOO_LOW_TAKES = "too-low card takes a lane",
    TOO_LOW_INSERTED = "too-low card inserted",
    TRAILER_ON_FULL = "trailer on a full lane",
    STACKED_AMBULANCES = "stacked ambulances",
    AMBULANCE_FIFTH = "ambulance as 5th car",
    STACKED_POLICE = "stacked police cars",
    POLICE_EVERY_LANE_FULL = "police with every lane full",
    TOW_TRUCK_FIFTH = "tow truck as 5th car",
    FREE_PLACE_FILLED = "free place filled",
    FREE_PLACE_UNFILLED = "free place left unfilled",
}

/// The rule events of the step from `before` by `action` (`after` is not needed: the step is
/// followed again from `before`).
pub(super) fn rule_events(
    game: &Trafficars,
    before: &TrafficarsState,
    action: u32,
    _after: &TrafficarsState,
) -> u64 {
    let mut b = before.board;
    // The option chosen by this step for the first card it resolves (none after a reveal).
    let mut chosen = match before.phase {
        Phase::Commit => {
            let seat = game.committer(before);
            if seat + 1 != game.players {
                return 0;
            }
            let mut cards = before.commitments;
            if let Some(c) = cards.get_mut(seat) {
                *c = u8::try_from(action).unwrap_or(0);
            }
            game.reveal(&mut b, &cards);
            None
        }
        Phase::Resolve => Some(action),
        Phase::Deal | Phase::Over => return 0,
    };
    let mut events = 0;
    while let Some((seat, card, choice)) = game.head_choice(&b) {
        let option = match chosen.take() {
            Some(a) => a,
            None if choice.n == 1 => choice.acts().first().map_or(0, |&a| u32::from(a)),
            // A decision: the step ends here.
            None => return events,
        };
        events |= card_events(game, &b, card, option);
        let penalties = b.penalties;
        game.carry_out(&mut b, seat, card, choice.kind, option);
        game.next_card(&mut b, card);
        // Ambulances take nothing when placed: a penalty during the turn's last ambulance is
        // the check after it.
        if game.kind(card) == Kind::Ambulance && b.penalties != penalties {
            events |= AMBULANCE_FIFTH;
        }
    }
    // The queue is empty: the turn ends, and a free place still open disappears.
    if b.lanes[..game.lanes]
        .iter()
        .any(|lane| lane.toks().contains(&FREE))
    {
        events |= FREE_PLACE_UNFILLED;
    }
    events
}

/// The events of carrying out `option` for `card` on board `b` (read before it is carried out).
fn card_events(game: &Trafficars, b: &Board, card: u8, option: u32) -> u64 {
    let lanes = &b.lanes[..game.lanes];
    if option >= FREE_PLACE_OPTION {
        return FREE_PLACE_FILLED;
    }
    let Some(lane) = lanes.get(option.wrapping_sub(LANE_OPTION) as usize) else {
        return 0;
    };
    let full = |lane: &Lane| game.max_cars.is_some_and(|m| cars(lane) >= m);
    let this_turn = |id: u8| id != 0 && b.revealed.iter().take(game.players).any(|&c| c == id);
    match game.kind(card) {
        kind @ (Kind::Car | Kind::Trailer) => {
            let x = game.number(card);
            let fits = lanes.iter().any(|l| match end_value(game, l) {
                Some(None) => true,
                Some(Some(v)) => v < x,
                None => false,
            });
            match (fits, kind) {
                (false, _) if game.insert => TOO_LOW_INSERTED,
                (false, _) => TOO_LOW_TAKES,
                (true, Kind::Car) if full(lane) => LANE_TAKEN,
                (true, Kind::Trailer) if full(lane) => TRAILER_ON_FULL,
                _ => 0,
            }
        }
        Kind::Ambulance => {
            let front = lane.toks().first().map_or(0, |&t| tok_id(t));
            if game.kind(front) == Kind::Ambulance && this_turn(front) {
                STACKED_AMBULANCES
            } else {
                0
            }
        }
        Kind::Police => {
            let ends_in_police = |l: &Lane| {
                last_bottom(l).is_some_and(|id| game.kind(id) == Kind::Police && this_turn(id))
            };
            if ends_in_police(lane) {
                STACKED_POLICE
            } else if lanes.iter().all(|l| full(l) && !ends_in_police(l)) {
                POLICE_EVERY_LANE_FULL
            } else {
                0
            }
        }
        Kind::TowTruck => {
            if full(lane) {
                TOW_TRUCK_FIFTH
            } else {
                0
            }
        }
    }
}

/// cars(L): every place counts 1, a tow truck left alone 2, the free place 1.
fn cars(lane: &Lane) -> u32 {
    lane.toks()
        .iter()
        .filter(|&&t| t & START != 0)
        .map(|&t| 1 + u32::from(t & DOUBLE != 0))
        .sum()
}

/// The bottom card of the lane's last place.
fn last_bottom(lane: &Lane) -> Option<u8> {
    lane.toks()
        .iter()
        .rev()
        .find(|&&t| t & START != 0)
        .map(|&t| tok_id(t))
}

/// The value of the lane's end: `Some(Some(n))` for a number, `Some(None)` when its top card is
/// an ambulance or a police car (open), `None` for a lane without places. The lane's last token
/// is the top card of its last place (the last place is never the free place).
fn end_value(game: &Trafficars, lane: &Lane) -> Option<Option<u8>> {
    let top = tok_id(*lane.toks().last()?);
    Some(match game.kind(top) {
        Kind::Car | Kind::Trailer => Some(game.number(top)),
        Kind::Ambulance | Kind::Police | Kind::TowTruck => None,
    })
}
