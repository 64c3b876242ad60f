//! Scenarios of the special cards other than the tow truck: the resolution order of a turn,
//! ambulances (stacking and the overflow check after the last one) and police cars (opening a
//! lane, stacking, taking a lane when every lane is full).

use super::*;

#[test]
fn resolution_order_specials_then_numbers() {
    let g = game(5, json!({}));
    let mut x = played(
        &g,
        &[&[&[12]], &[&[30]], &[&[41]]],
        &[&[20], &[52], &[60], &[57], &[54]],
    );
    let o = g.observation(&x, 0);
    assert_eq!(o["revealed"], json!([20, 52, 60, 57, 54]));
    assert_eq!(o["queue"], json!([4, 3, 2, 0, 1]));
    assert_eq!(o["decision"], "ambulance");
    assert_eq!(label(&g, &x, 102), "ambulance to lane 2");
    step(&g, &mut x, 4, 102);
    assert_eq!(g.observation(&x, 0)["decision"], "police");
    step(&g, &mut x, 3, 101);
    assert_eq!(g.observation(&x, 0)["decision"], "tow_truck");
    assert_eq!(label(&g, &x, 100), "tow truck to lane 0");
    assert_eq!(label(&g, &x, 111), "action 111");
    step(&g, &mut x, 2, 100);
    assert_eq!(
        sj(&g, &x)["lanes"],
        json!([[null, [60, 12]], [[30], [57]], [[54], [41]]])
    );
    // 20 (seat 0): free place of lane 0 (front: open), lane 1 (open); 12 is closest below.
    assert_eq!(g.observation(&x, 0)["queue"], json!([0, 1]));
    assert_eq!(legal(&g, &x), [100, 101, 110]);
    assert_eq!(label(&g, &x, 110), "fill the free place in lane 0");
    // Labels depend on the node and the id only, not on legality.
    assert_eq!(label(&g, &x, 112), "fill the free place in lane 2");
    assert_eq!(label(&g, &x, 113), "action 113");
    step(&g, &mut x, 0, 110);
    // Trailer 20 (seat 1): lane 0 now ends in 12 (the tow truck's load), lane 1 is open.
    choose_among(&g, &mut x, 1, &[100, 101], 100);
    let st = sj(&g, &x);
    assert_eq!(
        st["lanes"],
        json!([[[20], [60, 12, 52]], [[30], [57]], [[54], [41]]])
    );
    assert_eq!(st["place_cars"], json!([[1, 1], [1, 1], [1, 1]]));
    // Same specials: seat order, whatever the ids.
    let g = game(3, json!({}));
    let x = played(&g, &[&[&[12]], &[&[30]], &[&[41]]], &[&[56], &[55], &[54]]);
    assert_eq!(g.observation(&x, 0)["queue"], json!([0, 1, 2]));
}

#[test]
fn ambulances() {
    // Contract example: overflow, then a second ambulance stacks.
    let g = game(3, json!({}));
    let mut x = played(
        &g,
        &[&[&[20]], &[&[30], &[33], &[35], &[38]], &[&[41]]],
        &[&[45], &[54], &[55]],
    );
    step(&g, &mut x, 1, 101);
    // No check yet: the turn's second ambulance is still to come.
    assert_eq!(
        sj(&g, &x)["lanes"][1],
        json!([[54], [30], [33], [35], [38]])
    );
    assert_eq!(pens(&x, 3), [0, 0, 0]);
    step(&g, &mut x, 2, 101);
    // After the last ambulance: the topmost one's owner (seat 2) takes the other cards.
    assert_eq!(sj(&g, &x)["lanes"], json!([[[20]], [[54, 55]], [[41]]]));
    assert_eq!(pens(&x, 3), [0, 0, 4]);
    // 45: 41 closest below, lane 1 is open (ends in ambulances).
    choose_among(&g, &mut x, 0, &[101, 102], 101);
    assert_eq!(
        sj(&g, &x)["lanes"],
        json!([[[20]], [[54, 55], [45]], [[41]]])
    );
    assert_eq!(pens(&x, 3), [0, 0, 4]);

    // No overflow: the ambulance goes to the front; the lane is not open (end is a car).
    let g = game(2, json!({}));
    let mut x = played(
        &g,
        &[&[&[12], &[15]], &[&[30]], &[&[41]]],
        &[&[54, 13], &[1, 2]],
    );
    step(&g, &mut x, 0, 100);
    step(&g, &mut x, 1, 100);
    assert_eq!(sj(&g, &x)["lanes"], json!([[[1]], [[30]], [[41]]]));
    assert_eq!(pens(&x, 2), [0, 3]);
    // An ambulance of an earlier turn is not stacked on.
    let mut x = played(&g, &[&[&[54], &[20]], &[&[30]], &[&[41]]], &[&[55], &[44]]);
    step(&g, &mut x, 0, 100);
    assert_eq!(
        sj(&g, &x)["lanes"],
        json!([[[55], [54], [20]], [[30]], [[41], [44]]])
    );
    assert_eq!(g.observation(&x, 0)["cars"], json!([3, 1, 2]));
    // Stacking does not check overflow: lane with 4 cars, first ambulance overflows, the
    // second stacks; and with max_cars = null nothing ever overflows.
    let g = game(2, json!({"max_cars": null}));
    let mut x = played(&g, &[FULL_LANE, &[&[30]], &[&[41]]], &[&[54], &[55]]);
    step(&g, &mut x, 0, 100);
    step(&g, &mut x, 1, 100);
    assert_eq!(
        sj(&g, &x)["lanes"],
        json!([[[54, 55], [12], [13], [14], [15]], [[30]], [[41]]])
    );
    assert_eq!(pens(&x, 2), [0, 0]);
    // One lane: the only option is applied automatically.
    let g = game(2, json!({"lanes": 1, "hand_size": 1}));
    let x = played(&g, &[FULL_LANE], &[&[54], &[20]]);
    assert_eq!(sj(&g, &x)["lanes"], json!([[[54], [20]]]));
    assert_eq!(pens(&x, 2), [4, 0]);
    assert_eq!(x.phase, Phase::Over);
}

/// "Jos kaksi pelaajaa pelaa ambulanssikortin, ja he haluavat korttinsa samaan paikkaan,
/// kortit pistetään päällekkäin. Jos ambulanssikortti on jonon viides kortti,
/// päällimmäisenä olevan ambulanssikortin pelannut pelaaja joutuu ottamaan jonon muut kortit
/// sakkona." (Two ambulances into the same place are stacked; if the ambulance is the lane's
/// 5th card, the player of the topmost ambulance takes the lane's other cards.)
#[test]
fn two_ambulances_the_topmost_owner_takes_the_lane() {
    let g = game(2, json!({"hand_size": 3}));
    let mut s = deal_and_commit(&g, &[2, 30, 40], &[&[3, 5, 54], &[4, 31, 55]], 2);
    assert_eq!(
        sj(&g, s.state())["lanes"],
        json!([[[2], [3], [4], [5]], [[30], [31]], [[40]]])
    );
    commit(&mut s, &[54, 55]);
    choose(&mut s, 0, 100);
    choose(&mut s, 1, 100);
    let st = sj(&g, s.state());
    assert_eq!(st["lanes"], json!([[[54, 55]], [[30], [31]], [[40]]]));
    assert_eq!(st["penalties"], json!([0, 4]));
    assert_eq!(st["phase"], "over");
}

/// The overflow check runs once after the turn's last ambulance, lane by lane, before any
/// police car: a lane emptied by it is no longer full for the police car.
#[test]
fn ambulance_overflow_is_checked_after_the_last_ambulance() {
    let g = game(3, json!({}));
    let mut x = played(
        &g,
        &[FULL_LANE, &[&[30], &[31], &[33], &[35]], &[&[41]]],
        &[&[54], &[55], &[57]],
    );
    step(&g, &mut x, 0, 100);
    step(&g, &mut x, 1, 101);
    assert_eq!(sj(&g, &x)["lanes"], json!([[[54]], [[55]], [[41]]]));
    assert_eq!(pens(&x, 3), [4, 4, 0]);
    // The police car sees the emptied lanes.
    assert_eq!(g.observation(&x, 2)["decision"], "police");
    assert_eq!(legal(&g, &x), [100, 101, 102]);
    // The bot's estimate of an ambulance's penalty: the owner pays if no ambulance follows.
    let mut y = played(&g, &[FULL_LANE, &[&[30]], &[&[41]]], &[&[54], &[55], &[50]]);
    assert_eq!(g.penalty_of(&y.board, 54, Decision::Ambulance, 100), 4);
    step(&g, &mut y, 0, 100);
    assert_eq!(g.penalty_of(&y.board, 55, Decision::Ambulance, 100), 4);
    assert_eq!(g.penalty_of(&y.board, 55, Decision::Ambulance, 101), 0);
}

#[test]
fn police_opens_a_lane_and_the_owner_chooses() {
    let g = game(2, json!({"hand_size": 2}));
    let mut s = deal_and_commit(&g, &[12, 30, 41], &[&[57, 1], &[45, 2]], 1);
    let x = *s.state();
    assert_eq!(g.current_player(&x), 0);
    let o = g.observation(&x, 1);
    assert_eq!(o["phase"], "resolve");
    assert_eq!(o["decision"], "police");
    assert_eq!(o["revealed"], json!([57, 45]));
    assert_eq!(o["resolving"], json!(57));
    assert_eq!(o["queue"], json!([0, 1]));
    assert_eq!(o["committed"], json!([false, false]));
    assert_eq!(legal(&g, &x), [100, 101, 102]);
    assert_eq!(label(&g, &x, 101), "police to lane 1");
    assert_eq!(label(&g, &x, 103), "action 103");
    assert_eq!(label(&g, &x, 110), "action 110");
    choose(&mut s, 0, 100);
    // 45: 41 is closest below, lane 0 ends in a police car (open): two options.
    let x = *s.state();
    assert_eq!(g.current_player(&x), 1);
    assert_eq!(g.observation(&x, 0)["decision"], "target");
    assert_eq!(g.observation(&x, 0)["queue"], json!([1]));
    assert_eq!(legal(&g, &x), [100, 102]);
    assert_eq!(label(&g, &x, 100), "to lane 0");
    assert_eq!(label(&g, &x, 102), "to lane 2");
    choose(&mut s, 1, 100);
    assert_eq!(
        sj(&g, s.state())["lanes"],
        json!([[[12], [57], [45]], [[30]], [[41]]])
    );
    // Lane 0 is no longer open: 1 is too low everywhere; then 2 follows 1.
    commit(&mut s, &[1, 2]);
    let x = *s.state();
    assert_eq!(g.observation(&x, 0)["decision"], "take");
    assert_eq!(legal(&g, &x), [100, 101, 102]);
    assert_eq!(label(&g, &x, 101), "take lane 1");
    choose(&mut s, 0, 101);
    let st = sj(&g, s.state());
    assert_eq!(st["lanes"], json!([[[12], [57], [45]], [[1], [2]], [[41]]]));
    assert_eq!(st["penalties"], json!([1, 0]));
    let mut sc = [0i64; 2];
    g.scores(s.state(), &mut sc);
    assert_eq!(sc, [1, 0]);
    assert_eq!(g.winners(s.state()), vec![1]);
}

#[test]
fn police_cars() {
    let g = game(3, json!({}));
    // Full lanes are not legal; a second police car stacks even on a (now) full lane.
    let mut x = played(
        &g,
        &[FULL_LANE, &[&[30], &[31], &[33]], &[&[41]]],
        &[&[57], &[58], &[50]],
    );
    choose_among(&g, &mut x, 0, &[101, 102], 101);
    assert_eq!(g.observation(&x, 0)["cars"], json!([4, 4, 1]));
    choose_among(&g, &mut x, 1, &[101, 102], 101);
    assert_eq!(
        sj(&g, &x)["lanes"],
        json!([
            [[12], [13], [14], [15]],
            [[30], [31], [33], [57, 58]],
            [[41]]
        ])
    );
    // 50: 41 closest below; lane 1 open but full: the owner chooses.
    choose_among(&g, &mut x, 2, &[101, 102], 101);
    assert_eq!(
        sj(&g, &x)["lanes"],
        json!([[[12], [13], [14], [15]], [[50]], [[41]]])
    );
    assert_eq!(pens(&x, 3), [0, 0, 5]);

    // Every lane full: the police car takes a lane of the owner's choice.
    let g = game(2, json!({"lanes": 2}));
    let mut x = played(
        &g,
        &[FULL_LANE, &[&[30], &[31], &[33], &[35, 53]]],
        &[&[59], &[58]],
    );
    // Police cars in seat order: seat 0's 59 first.
    assert_eq!(g.current_player(&x), 0);
    assert_eq!(g.observation(&x, 0)["decision"], "police_take");
    assert_eq!(label(&g, &x, 100), "take lane 0");
    assert_eq!(label(&g, &x, 102), "action 102");
    step(&g, &mut x, 0, 101);
    assert_eq!(pens(&x, 2), [5, 0]);
    // Seat 1: lane 1 stacks on the police car revealed this turn (its only legal lane, lane 0
    // is full), applied automatically.
    assert_eq!(g.current_player(&x), TERMINAL);
    assert_eq!(
        sj(&g, &x)["lanes"],
        json!([[[12], [13], [14], [15]], [[59, 58]]])
    );
    // max_cars = null: every lane is always legal.
    let g = game(2, json!({"lanes": 2, "max_cars": null}));
    let mut x = played(&g, &[FULL_LANE, &[&[30]]], &[&[59], &[5]]);
    choose_among(&g, &mut x, 0, &[100, 101], 100);
    assert_eq!(
        sj(&g, &x)["lanes"],
        json!([[[12], [13], [14], [15], [59], [5]], [[30]]])
    );
}

#[test]
fn police_stacking_needs_a_police_car_of_this_turn() {
    let g = game(2, json!({"lanes": 2}));
    let mut x = played(
        &g,
        &[&[&[12], &[13], &[14], &[57]], &[&[30], &[31], &[33], &[35]]],
        &[&[58], &[20]],
    );
    assert_eq!(g.observation(&x, 0)["decision"], "police_take");
    step(&g, &mut x, 0, 100);
    // 20 → open lane 0 ([58]) only (35 is not below 20).
    assert_eq!(
        sj(&g, &x)["lanes"],
        json!([[[58], [20]], [[30], [31], [33], [35]]])
    );
    assert_eq!(pens(&x, 2), [4, 0]);
}
