//! Scenarios of the tow truck and the free place it opens: the free place as a permission under the
//! increasing rule, the unfilled free place counting two cars, the tow truck as the fifth car, and
//! two tow trucks in one lane.

use super::*;

/// "Jos pelaaja asettaa hinausauton jonon viidenneksi, hän lastaa auton ensin edeltävällä
/// autolla, ja kerää sitten jonon kolme ensimmäistä korttia sakoksi. Hinausauto ja sen päällä
/// oleva kortti jätetään uuden jonon ensimmäiseksi kortiksi." (A tow truck as the 5th car
/// loads the car before it, its player takes the first three cards, and the tow truck with its
/// load is left as the new lane's first card: no free place opens.)
#[test]
fn tow_truck_as_the_fifth_car_leaves_no_free_place() {
    let g = game(2, json!({"hand_size": 3}));
    let mut s = deal_and_commit(&g, &[2, 30, 40], &[&[3, 5, 60], &[4, 31, 1]], 3);
    choose(&mut s, 0, 100);
    let st = sj(&g, s.state());
    assert_eq!(st["lanes"][0], json!([[60, 5]]));
    assert_eq!(st["place_cars"][0], json!([1]));
    assert_eq!(st["penalties"], json!([3, 0]));
    // 1 is too low for every lane (5, 31, 40): seat 1 takes a lane.
    assert_eq!(g.observation(s.state(), 1)["decision"], "take");
    assert_eq!(legal(&g, s.state()), [100, 101, 102]);
    choose(&mut s, 1, 101);
    let st = sj(&g, s.state());
    assert_eq!(st["lanes"], json!([[[60, 5]], [[1]], [[40]]]));
    assert_eq!(st["penalties"], json!([3, 2]));
    assert_eq!(st["phase"], "over");
}

/// "Ensimmäisenä ehtivä saa asettaa korttinsa hinattavan auton vapauttamalle paikalle
/// noudattaen Pienimmästä isoimpaan -sääntöä." (The first to get there may put their card
/// into the place the towed car left, following the smallest-to-largest rule.)
#[test]
fn free_place_is_a_permission_under_the_increasing_rule() {
    let g = game(3, json!({}));
    let lanes: &[&[&[u32]]] = &[&[&[12], &[15], &[20]], &[&[30]], &[&[41]]];
    // 16 fits the free place (15 < 16) but no lane end: take a lane or fill it.
    let mut x = played(&g, lanes, &[&[60], &[16], &[17]]);
    step(&g, &mut x, 0, 100);
    assert_eq!(g.observation(&x, 1)["resolving"], json!(16));
    assert_eq!(legal(&g, &x), [100, 101, 102, 110]);
    // Seat 1 declines (takes lane 2); the free place stays open for 17, the next card.
    step(&g, &mut x, 1, 102);
    assert_eq!(pens(&x, 3), [0, 1, 0]);
    choose_among(&g, &mut x, 2, &[102, 110], 110);
    assert_eq!(
        sj(&g, &x)["lanes"],
        json!([[[12], [15], [17], [60, 20]], [[30]], [[16]]])
    );
    // A card that fits a lane end is not pulled into the free place by the smallest
    // difference: 21 (20 closest below) may still choose the free place (15 < 21).
    let mut x = played(&g, lanes, &[&[60], &[21], &[50]]);
    step(&g, &mut x, 0, 100);
    assert_eq!(g.observation(&x, 1)["decision"], "target");
    assert_eq!(legal(&g, &x), [100, 110]);
    // The free place never accepts a card not larger than the number before it.
    let mut x = played(&g, lanes, &[&[60], &[14], &[50]]);
    step(&g, &mut x, 0, 100);
    assert_eq!(legal(&g, &x), [100, 101, 102]);
    // Labels of 110 + k at take and insert nodes.
    let mut x = played(&g, lanes, &[&[60], &[16], &[50]]);
    step(&g, &mut x, 0, 100);
    assert_eq!(label(&g, &x, 110), "fill the free place in lane 0");
    assert_eq!(label(&g, &x, 112), "fill the free place in lane 2");
    assert_eq!(label(&g, &x, 113), "action 113");
    assert_eq!(g.penalty_of(&x.board, 16, Decision::Take, 110), 0);
    let gi = game(3, json!({"too_low": "insert"}));
    let mut x = position(&gi, lanes, &[&[60], &[16], &[50]]);
    play(&gi, &mut x, &[60, 16, 50]);
    step(&gi, &mut x, 0, 100);
    assert_eq!(gi.observation(&x, 1)["decision"], "insert");
    assert_eq!(legal(&gi, &x), [100, 101, 102, 110]);
    assert_eq!(label(&gi, &x, 110), "fill the free place in lane 0");
    assert_eq!(label(&gi, &x, 100), "insert into lane 0");
    // Inserting into lane 0 instead: 16 goes in front of the free place, never between
    // the free place and its tow truck (which then counts 2 at the end of the turn).
    step(&gi, &mut x, 1, 100);
    assert_eq!(
        sj(&gi, &x)["lanes"][0],
        json!([[12], [15], [16], null, [60, 20]])
    );
    step(&gi, &mut x, 2, 102);
    let st = sj(&gi, &x);
    assert_eq!(st["lanes"][0], json!([[12], [15], [16], [60, 20]]));
    assert_eq!(st["place_cars"][0], json!([1, 1, 1, 2]));
}

#[test]
fn tow_truck_worked_example() {
    let g = game(3, json!({}));
    let lanes: &[&[&[u32]]] = &[&[&[12], &[15], &[20]], &[&[30]], &[&[41]]];
    let mut x = played(&g, lanes, &[&[60], &[18], &[25]]);
    assert_eq!(g.observation(&x, 1)["decision"], "tow_truck");
    assert_eq!(legal(&g, &x), [100, 101, 102]);
    assert_eq!(label(&g, &x, 100), "tow truck to lane 0");
    step(&g, &mut x, 0, 100);
    // 18 is too low for every lane end; besides taking a lane it may fill the free place
    // (15 < 18), its owner's choice.
    assert_eq!(g.observation(&x, 1)["decision"], "take");
    assert_eq!(legal(&g, &x), [100, 101, 102, 110]);
    assert_eq!(label(&g, &x, 110), "fill the free place in lane 0");
    step(&g, &mut x, 1, 110);
    // 25 then takes the full lane; the turn is over.
    let st = sj(&g, &x);
    assert_eq!(st["lanes"], json!([[[25]], [[30]], [[41]]]));
    assert_eq!(pens(&x, 3), [0, 0, 5]);
    assert_eq!(st["phase"], "over");

    // Checking the intermediate lane: stop before 18 with a second option for it.
    let lanes2: &[&[&[u32]]] = &[&[&[12], &[15], &[20]], &[&[30], &[57]], &[&[41]]];
    let mut x = played(&g, lanes2, &[&[60], &[18], &[25]]);
    step(&g, &mut x, 0, 100);
    let o = g.observation(&x, 2);
    assert_eq!(
        o["lanes"],
        json!([[[12], [15], null, [60, 20]], [[30], [57]], [[41]]])
    );
    assert_eq!(o["place_cars"], json!([[1, 1, 1, 1], [1, 1], [1]]));
    assert_eq!(o["cars"], json!([4, 2, 1]));
    choose_among(&g, &mut x, 1, &[101, 110], 110);
    assert_eq!(sj(&g, &x)["lanes"][0], json!([[12], [15], [18], [60, 20]]));
    assert_eq!(sj(&g, &x)["place_cars"][0], json!([1, 1, 1, 1]));
    // 25: 20 closest below (lane 0, 4 cars) or the open lane 1.
    choose_among(&g, &mut x, 2, &[100, 101], 100);
    assert_eq!(sj(&g, &x)["lanes"][0], json!([[25]]));
    assert_eq!(pens(&x, 3), [0, 0, 5]);

    // Seat 1 plays 33 instead: 25 first, lane 0 has 4 cars (the free place counts); 25 may
    // take that lane's end (20 is closest below) or fill the free place instead.
    let mut x = played(&g, lanes, &[&[60], &[33], &[25]]);
    step(&g, &mut x, 0, 100);
    assert_eq!(legal(&g, &x), [100, 110]);
    let mut y = x;
    step(&g, &mut y, 2, 100);
    assert_eq!(sj(&g, &y)["lanes"], json!([[[25]], [[30], [33]], [[41]]]));
    assert_eq!(pens(&y, 3), [0, 0, 4]);
    step(&g, &mut x, 2, 110);
    assert_eq!(
        sj(&g, &x)["lanes"],
        json!([[[12], [15], [25], [60, 20]], [[30], [33]], [[41]]])
    );
    assert_eq!(pens(&x, 3), [0, 0, 0]);
}

#[test]
fn tow_truck_unfilled_free_place_counts_two() {
    let g = game(3, json!({}));
    let lanes: &[&[&[u32]]] = &[&[&[12], &[15], &[20]], &[&[30]], &[&[41]]];
    let mut x = played(&g, lanes, &[&[60, 5], &[45, 21], &[42, 1]]);
    step(&g, &mut x, 0, 100);
    // 42 and 45 may each fill the free place (15 below them) and both decline.
    choose_among(&g, &mut x, 2, &[102, 110], 102);
    choose_among(&g, &mut x, 1, &[102, 110], 102);
    let st = sj(&g, &x);
    assert_eq!(
        st["lanes"],
        json!([[[12], [15], [60, 20]], [[30]], [[41], [42], [45]]])
    );
    assert_eq!(st["place_cars"], json!([[1, 1, 2], [1], [1, 1, 1]]));
    assert_eq!(g.observation(&x, 0)["cars"], json!([4, 1, 3]));
    // Next turn: 21 (closest below: 20 on the tow truck) finds lane 0 full: takes 4 cards.
    play(&g, &mut x, &[5, 21, 1]);
    // 1 (seat 2) is too low; then 5 (seat 0) follows it.
    step(&g, &mut x, 2, 101);
    let st = sj(&g, &x);
    assert_eq!(st["lanes"], json!([[[21]], [[1], [5]], [[41], [42], [45]]]));
    assert_eq!(pens(&x, 3), [0, 4, 1]);
}

#[test]
fn tow_truck_fifth_car_and_lifting_a_double_place() {
    let g = game(2, json!({}));
    let lanes: &[&[&[u32]]] = &[&[&[12]], &[&[5], &[9], &[14], &[22]], &[&[41]]];
    let mut x = played(&g, lanes, &[&[61], &[3]]);
    step(&g, &mut x, 0, 101);
    // No free place opens: 3 is too low for every lane and takes one.
    assert_eq!(pens(&x, 2), [3, 0]);
    assert_eq!(sj(&g, &x)["lanes"][1], json!([[61, 22]]));
    choose_among(&g, &mut x, 1, &[100, 101, 102], 100);
    assert_eq!(sj(&g, &x)["lanes"], json!([[[3]], [[61, 22]], [[41]]]));
    assert_eq!(sj(&g, &x)["place_cars"], json!([[1], [1], [1]]));
    assert_eq!(pens(&x, 2), [3, 1]);
    // The tow truck place counts 1 after the turn (no free place was left unfilled).
    let mut x = played(&g, lanes, &[&[61], &[45]]);
    step(&g, &mut x, 0, 101);
    assert_eq!(
        sj(&g, &x)["lanes"],
        json!([[[12]], [[61, 22]], [[41], [45]]])
    );
    assert_eq!(sj(&g, &x)["place_cars"], json!([[1], [1], [1, 1]]));
    // Lifting a place that counts 2: its count is forgotten.
    let mut x = position(
        &g,
        &[&[&[12], &[61, 22]], &[&[30]], &[&[41]]],
        &[&[62], &[50]],
    );
    double(&mut x, 0, 1);
    assert_eq!(g.observation(&x, 0)["cars"], json!([3, 1, 1]));
    play(&g, &mut x, &[62, 50]);
    step(&g, &mut x, 0, 100);
    choose_among(&g, &mut x, 1, &[102, 110], 102);
    let st = sj(&g, &x);
    assert_eq!(
        st["lanes"],
        json!([[[12], [62, 61, 22]], [[30]], [[41], [50]]])
    );
    assert_eq!(st["place_cars"], json!([[1, 2], [1], [1, 1]]));
    // 5th car with a double place: before = 4 (12 + 2 + 1).
    let mut x = position(
        &g,
        &[&[&[12], &[61, 22], &[25]], &[&[30]], &[&[41]]],
        &[&[62], &[50]],
    );
    double(&mut x, 0, 1);
    play(&g, &mut x, &[62, 50]);
    step(&g, &mut x, 0, 100);
    // 50 went after 41 at once (no free place, a single option).
    assert_eq!(
        sj(&g, &x)["lanes"],
        json!([[[62, 25]], [[30]], [[41], [50]]])
    );
    assert_eq!(pens(&x, 2), [3, 0]);
    assert_eq!(sj(&g, &x)["place_cars"][0], json!([1]));
    // max_cars = null: no 5th-car case.
    let g = game(2, json!({"max_cars": null}));
    let mut x = played(&g, lanes, &[&[61], &[45]]);
    step(&g, &mut x, 0, 101);
    choose_among(&g, &mut x, 1, &[102, 111], 102);
    assert_eq!(sj(&g, &x)["lanes"][1], json!([[5], [9], [14], [61, 22]]));
    assert_eq!(sj(&g, &x)["place_cars"][1], json!([1, 1, 1, 2]));
    assert_eq!(pens(&x, 2), [0, 0]);
}

#[test]
fn second_tow_truck_in_the_same_lane() {
    let g = game(3, json!({}));
    let mut x = played(
        &g,
        &[&[&[20]], &[&[30], &[57]], &[&[7], &[13]]],
        &[&[60, 1], &[45, 2], &[62, 3]],
    );
    step(&g, &mut x, 0, 102);
    assert_eq!(sj(&g, &x)["lanes"][2], json!([[7], null, [60, 13]]));
    step(&g, &mut x, 2, 102);
    let o = g.observation(&x, 1);
    assert_eq!(o["lanes"][2], json!([[7], null, [62, 60, 13]]));
    assert_eq!(o["place_cars"][2], json!([1, 1, 1]));
    assert_eq!(o["cars"][2], json!(3));
    // 45: 20 is the closest lane end below, lane 1 is open; the free place (7 before it)
    // accepts 45 too.
    choose_among(&g, &mut x, 1, &[100, 101, 112], 100);
    let st = sj(&g, &x);
    assert_eq!(
        st["lanes"],
        json!([[[20], [45]], [[30], [57]], [[7], [62, 60, 13]]])
    );
    assert_eq!(st["place_cars"], json!([[1, 1], [1, 1], [1, 2]]));
    let lanes: &[&[&[u32]]] = &[&[&[20]], &[&[30]], &[&[7], &[13]]];
    // 10 fills the free place (7 < 10 < 13); 14 follows the tow truck (13 < 14).
    let mut x = played(&g, lanes, &[&[60], &[10], &[14]]);
    step(&g, &mut x, 0, 102);
    // 10 is too low for every lane end: take a lane or fill the free place.
    choose_among(&g, &mut x, 1, &[100, 101, 102, 112], 112);
    assert_eq!(sj(&g, &x)["lanes"][2], json!([[7], [10], [60, 13], [14]]));
    // A trailer may fill a free place too (7 < 10).
    let mut x = played(&g, lanes, &[&[60], &[51], &[2]]);
    step(&g, &mut x, 0, 102);
    // 2: too low everywhere (the free place's value is 7) → take.
    step(&g, &mut x, 2, 100);
    // Trailer 51 (10): after the end of lane 0 (now 2) or, its owner's choice, the free place.
    choose_among(&g, &mut x, 1, &[100, 112], 112);
    assert_eq!(
        sj(&g, &x)["lanes"],
        json!([[[2]], [[30]], [[7], [51], [60, 13]]])
    );
    assert_eq!(pens(&x, 3), [0, 0, 1]);
    // Taking a lane with a free place removes the free place too.
    let mut x = played(&g, lanes, &[&[60], &[1], &[2]]);
    step(&g, &mut x, 0, 102);
    step(&g, &mut x, 1, 102);
    assert_eq!(sj(&g, &x)["lanes"], json!([[[20]], [[30]], [[1], [2]]]));
    assert_eq!(sj(&g, &x)["place_cars"], json!([[1], [1], [1, 1]]));
    assert_eq!(pens(&x, 3), [0, 3, 0]);
}
