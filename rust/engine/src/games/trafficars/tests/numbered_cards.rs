//! Scenarios of the numbered cards: the increasing and smallest-difference rules, a full lane taken
//! by the next car, cards too low for every lane (`too_low` take and insert), trailers, and small
//! option settings.

use super::*;

#[test]
fn increasing_and_smallest_difference_rules() {
    let g = game(2, json!({"hand_size": 2}));
    let mut s = deal(&g, &[12, 30, 41], &[&[35, 42], &[13, 31]]);
    let before = s.to_json()["history"].as_array().unwrap().len();
    // Seat 0 commits 35: hidden from seat 1.
    s.apply(35, Some(0)).unwrap();
    let o1 = g.observation(s.state(), 1);
    assert_eq!(o1["committed"], json!([true, false]));
    assert_eq!(o1["own_commitment"], Value::Null);
    assert_eq!(o1["hand"], json!([13, 31]));
    let o0 = g.observation(s.state(), 0);
    assert_eq!(o0["own_commitment"], json!(35));
    assert_eq!(o0["hand"], json!([42]));
    assert_eq!(sj(&g, s.state())["commitments"], json!([35, null]));
    assert_eq!(sj(&g, s.state())["hands"], json!([[42], [13, 31]]));
    s.apply(13, Some(1)).unwrap();
    // 13 is resolved first (lane 0: 12 < 13), then 35 goes to lane 1 (30 is closest below).
    let st = sj(&g, s.state());
    assert_eq!(st["lanes"], json!([[[12], [13]], [[30], [35]], [[41]]]));
    assert_eq!(st["turn"], 1);
    assert_eq!(st["revealed"], Value::Null);
    assert_eq!(st["commitments"], json!([null, null]));
    // Single options are applied automatically and never recorded.
    assert_eq!(s.to_json()["history"].as_array().unwrap().len(), before + 2);
    commit(&mut s, &[42, 31]);
    // 31: ends 13, 35, 41 → only 13 is below. 42: ends 31, 35, 41 → 41 is closest below.
    let st = sj(&g, s.state());
    assert_eq!(
        st["lanes"],
        json!([[[12], [13], [31]], [[30], [35]], [[41], [42]]])
    );
    assert_eq!(st["place_cars"], json!([[1, 1, 1], [1, 1], [1, 1]]));
    assert_eq!(st["phase"], "over");
    assert_eq!(st["turn"], 2);
    assert_eq!(g.current_player(s.state()), TERMINAL);
    assert_eq!(g.winners(s.state()), vec![0, 1]);
    assert_eq!(label(&g, s.state(), 100), "action 100");
    assert_eq!(label(&g, s.state(), 13), "action 13");
    let o = g.observation(s.state(), 0);
    assert_eq!(o["phase"], "over");
    assert_eq!(o["decision"], Value::Null);
    assert_eq!(o["cars"], json!([3, 2, 2]));
}

#[test]
fn a_full_lane_is_taken_by_the_next_car() {
    let g = game(2, json!({"hand_size": 3}));
    let mut s = deal_and_commit(&g, &[12, 30, 41], &[&[13, 15, 31], &[14, 16, 50]], 2);
    // 15 makes four cars; 16 (closest below: 15) finds the lane full and takes it.
    let st = sj(&g, s.state());
    assert_eq!(st["lanes"], json!([[[16]], [[30]], [[41]]]));
    assert_eq!(st["penalties"], json!([0, 4]));
    commit(&mut s, &[31, 50]);
    assert_eq!(
        sj(&g, s.state())["lanes"],
        json!([[[16]], [[30], [31]], [[41], [50]]])
    );
    // max_cars = 2: the third car takes the lane.
    let g = game(2, json!({"hand_size": 2, "max_cars": 2}));
    let s = deal_and_commit(&g, &[12, 30, 41], &[&[13, 1], &[14, 2]], 1);
    assert_eq!(sj(&g, s.state())["lanes"], json!([[[14]], [[30]], [[41]]]));
    assert_eq!(sj(&g, s.state())["penalties"], json!([0, 2]));
    // max_cars = null: lanes grow without limit.
    let g = game(2, json!({"hand_size": 3, "max_cars": null}));
    let mut s = deal(&g, &[12, 30, 41], &[&[13, 15, 17], &[14, 16, 18]]);
    for cards in [[13, 14], [15, 16], [17, 18]] {
        commit(&mut s, &cards);
    }
    let o = g.observation(s.state(), 0);
    assert_eq!(o["cars"], json!([7, 1, 1]));
    assert_eq!(o["penalties"], json!([0, 0]));
}

#[test]
fn too_low_takes_a_lane_of_choice() {
    let g = game(3, json!({"hand_size": 1}));
    let mut s = deal_and_commit(&g, &[12, 30, 41], &[&[5], &[51], &[3]], 1);
    // Order: 3 (seat 2), 5 (seat 0), trailer 51 = 10 (seat 1).
    let x = *s.state();
    assert_eq!(g.observation(&x, 0)["queue"], json!([2, 0, 1]));
    assert_eq!(g.current_player(&x), 2);
    choose(&mut s, 2, 101);
    // 5: 3 is below it now (lane 1), so it follows 3.
    // 10 (trailer): 5 is the closest below → stacked on 5.
    let st = sj(&g, s.state());
    assert_eq!(st["lanes"], json!([[[12]], [[3], [5, 51]], [[41]]]));
    assert_eq!(st["penalties"], json!([0, 0, 1]));
    // A too-low trailer starts a lane like a car.
    let g = game(2, json!({"hand_size": 1}));
    let mut s = deal_and_commit(&g, &[12, 30, 41], &[&[51], &[50]], 1);
    choose(&mut s, 0, 102);
    let st = sj(&g, s.state());
    assert_eq!(st["lanes"], json!([[[12]], [[30], [50]], [[51]]]));
    assert_eq!(st["penalties"], json!([1, 0]));
}

#[test]
fn too_low_insert() {
    let g = game(3, json!({"too_low": "insert"}));
    let mut x = played(
        &g,
        &[&[&[31], &[40]], &[&[25], &[27]], &[&[54], &[36]]],
        &[&[12], &[44], &[45]],
    );
    assert_eq!(g.observation(&x, 0)["decision"], "insert");
    assert_eq!(legal(&g, &x), [100, 101, 102]);
    assert_eq!(label(&g, &x, 102), "insert into lane 2");
    step(&g, &mut x, 0, 102);
    // 44: 40 closest below; 45: 44 closest below.
    assert_eq!(
        sj(&g, &x)["lanes"],
        json!([[[31], [40], [44], [45]], [[25], [27]], [[54], [12], [36]]])
    );
    assert_eq!(pens(&x, 3), [0, 0, 0]);
    // Insertion never takes a lane, even past max_cars; equal numbers: X goes in front.
    let g = game(2, json!({"too_low": "insert", "lanes": 2}));
    let mut x = position(
        &g,
        &[&[&[20], &[52, 53], &[33], &[36]], &[&[40]]],
        &[&[30, 1], &[2, 37]],
    );
    // 30 → lane 0 before the stack of value 30 (the trailer 30 on top of trailer 20);
    // 2 → insert into lane 0 before 20.
    play(&g, &mut x, &[30, 2]);
    step(&g, &mut x, 1, 100);
    assert_eq!(x.phase, Phase::Resolve);
    step(&g, &mut x, 0, 100);
    assert_eq!(
        sj(&g, &x)["lanes"],
        json!([[[2], [20], [30], [52, 53], [33], [36]], [[40]]])
    );
    assert_eq!(g.observation(&x, 0)["cars"], json!([6, 1]));
    assert_eq!(pens(&x, 2), [0, 0]);
    // A car into a lane with more than max_cars cars takes it (7 cards).
    play(&g, &mut x, &[1, 37]);
    step(&g, &mut x, 0, 101);
    assert_eq!(sj(&g, &x)["lanes"], json!([[[37]], [[1], [40]]]));
    assert_eq!(pens(&x, 2), [0, 7]);
    // A trailer is inserted as its own place.
    let g = game(2, json!({"too_low": "insert", "lanes": 1, "hand_size": 1}));
    let x = played(&g, &[&[&[12], &[41]]], &[&[51], &[60]]);
    // Tow truck lifts 41: [12, free, [60, 41]]; trailer 10 fits nowhere (free place value 12)
    // and is inserted before 12.
    assert_eq!(sj(&g, &x)["lanes"], json!([[[51], [12], [60, 41]]]));
    assert_eq!(sj(&g, &x)["place_cars"], json!([[1, 1, 2]]));
}

#[test]
fn trailers() {
    let g = game(2, json!({}));
    // A trailer on a full lane: stacked on the last place, no penalty, number becomes the end.
    let mut x = played(&g, &[FULL_LANE, &[&[30]], &[&[41]]], &[&[52, 1], &[2, 21]]);
    step(&g, &mut x, 1, 101);
    let st = sj(&g, &x);
    assert_eq!(
        st["lanes"],
        json!([[[12], [13], [14], [15, 52]], [[2]], [[41]]])
    );
    assert_eq!(g.observation(&x, 0)["cars"], json!([4, 1, 1]));
    assert_eq!(pens(&x, 2), [0, 1]);
    // 21: closest below is the trailer 20 (lane 0) → full → takes 5 cards.
    play(&g, &mut x, &[1, 21]);
    assert_eq!(g.current_player(&x), 0);
    step(&g, &mut x, 0, 101);
    assert_eq!(sj(&g, &x)["lanes"], json!([[[21]], [[1]], [[41]]]));
    assert_eq!(pens(&x, 2), [1, 6]);

    // A trailer on a police car cancels it: the lane is no longer open.
    let mut x = played(
        &g,
        &[&[&[12], &[57]], &[&[30]], &[&[41]]],
        &[&[51, 11], &[47, 5]],
    );
    assert_eq!(
        sj(&g, &x)["lanes"],
        json!([[[12], [57, 51]], [[30]], [[41], [47]]])
    );
    play(&g, &mut x, &[11, 5]);
    assert_eq!(g.observation(&x, 0)["decision"], "take");
    assert_eq!(g.current_player(&x), 1);
    step(&g, &mut x, 1, 101);
    assert_eq!(
        sj(&g, &x)["lanes"],
        json!([[[12], [57, 51], [11]], [[5]], [[41], [47]]])
    );

    // Equal values through a trailer: the owner chooses.
    let mut x = played(&g, &[&[&[20]], &[&[15, 52]], &[&[41]]], &[&[25], &[44]]);
    choose_among(&g, &mut x, 0, &[100, 101], 101);
    assert_eq!(
        sj(&g, &x)["lanes"],
        json!([[[20]], [[15, 52], [25]], [[41], [44]]])
    );
}

#[test]
fn trailer_and_car_of_equal_number_go_in_seat_order() {
    let g = game(3, json!({}));
    let mut x = played(&g, &[&[&[12]], &[&[30]], &[&[41]]], &[&[52], &[20], &[53]]);
    // Trailer 20 (seat 0) goes on 12, then car 20 (seat 1) is too low (the end of lane 0 is
    // now 20, not below 20) and takes a lane; trailer 30 (seat 2) comes last.
    assert_eq!(g.observation(&x, 0)["queue"], json!([1, 2]));
    assert_eq!(g.observation(&x, 0)["resolving"], json!(20));
    assert_eq!(g.observation(&x, 0)["decision"], "take");
    assert_eq!(sj(&g, &x)["lanes"][0], json!([[12, 52]]));
    step(&g, &mut x, 1, 100);
    assert_eq!(sj(&g, &x)["lanes"], json!([[[20, 53]], [[30]], [[41]]]));
    assert_eq!(pens(&x, 3), [0, 2, 0]);
    // Seat order the other way round: car 20 first, then trailer 20 is too low.
    let mut x = played(&g, &[&[&[12]], &[&[30]], &[&[41]]], &[&[20], &[52], &[50]]);
    assert_eq!(g.observation(&x, 0)["resolving"], json!(52));
    step(&g, &mut x, 1, 102);
    // 50: ends 20, 30 and the trailer's 20 → 30 is closest below.
    assert_eq!(
        sj(&g, &x)["lanes"],
        json!([[[12], [20]], [[30], [50]], [[52]]])
    );
    assert_eq!(pens(&x, 3), [0, 1, 0]);
}

#[test]
fn two_lanes_and_small_decks() {
    let g = game(
        2,
        json!({"lanes": 2, "hand_size": 5, "max_number": 20, "special_cards": false}),
    );
    let mut s = deal(&g, &[10, 15], &[&[11, 12, 13, 14, 16], &[1, 2, 3, 4, 5]]);
    let o = g.observation(s.state(), 0);
    assert_eq!(o["lanes"], json!([[[10]], [[15]]]));
    assert_eq!(o["penalties"], json!([0, 0]));
    commit(&mut s, &[11, 1]);
    assert_eq!(legal(&g, s.state()), [100, 101]);
    assert_eq!(label(&g, s.state(), 101), "take lane 1");
    assert_eq!(label(&g, s.state(), 102), "action 102");
    choose(&mut s, 1, 100);
    assert_eq!(sj(&g, s.state())["lanes"], json!([[[1], [11]], [[15]]]));
    let mut rng = SplitMix64::new(5);
    while g.current_player(s.state()) != TERMINAL {
        let l = legal(&g, s.state());
        let a = l[rng.below(l.len() as u64) as usize];
        s.apply(i64::from(a), None).unwrap();
    }
    assert_eq!(sj(&g, s.state())["turn"], 5);
    let o = g.observation(s.state(), 0);
    assert_eq!(o["lanes"].as_array().unwrap().len(), 2);
}
