//! The `greedy` bot's decisions, pinned over seeded games (see [`check_pinned_decisions`]): the
//! default's (the formula), and those of `greedy:3` and `greedy:8`, which are the default's of
//! earlier versions (3 and 8 sampled deals), so that their seeded results stay reproducible.

use super::super::{GreedyBot, Trafficars};
use crate::testing::{check_pinned_decisions, decision_runs, DecisionRun};
use serde_json::json;

/// `(label, decisions, fingerprint)` of each run of the tests with `greedy`, then the same with
/// `greedy:3` and with `greedy:8`, in order (one run a line). With `CARDTABLE_BLESS=1` each test prints its own
/// bot's `(label, decisions, fingerprint)` rows: the pair of columns to replace.
#[rustfmt::skip]
const PINNED: &[Row] = &[
    ("options 0 players 2 mask 0b11 seed 102", 306, 0x17312e957de22b91, 303, 0x46c87118192151af, 316, 0xe7e02ffc22e4e249),
    ("options 0 players 2 mask 0b1 seed 202", 75, 0xd963143de40b10af, 76, 0xb31292304089fa18, 75, 0xd606ddefbc58e7f9),
    ("options 0 players 2 mask 0b1 seed 302", 79, 0xba90344d0a322a3c, 76, 0xfe2788fdb934279b, 76, 0x8915ab2f757c43b3),
    ("options 0 players 3 mask 0b111 seed 103", 471, 0xe8f785f202598d21, 482, 0x27f6f8bb3221f31c, 474, 0x8841c7452b3d4102),
    ("options 0 players 3 mask 0b1 seed 203", 81, 0x6c4ebd8f1c42ee91, 84, 0xda9856f988d80977, 79, 0xda11741267a98496),
    ("options 0 players 3 mask 0b101 seed 303", 147, 0x4d54bfc03f1088af, 152, 0x5ffcb11da9cb4ad1, 154, 0x57d5ac43d0b44eda),
    ("options 0 players 4 mask 0b1111 seed 104", 617, 0xfc8d1b8bb1a2bb7e, 629, 0xf7ac445112ae2a86, 620, 0x828c94ab8d2048fc),
    ("options 0 players 4 mask 0b1 seed 204", 76, 0xcfd88f47edcf27cc, 78, 0x5435df9163dd1bc6, 80, 0x981fba1ef9c8aa43),
    ("options 0 players 4 mask 0b101 seed 304", 156, 0x7d6c2a0e810895d7, 155, 0x76e3b4ddb98e8940, 157, 0x72b408b57de3ae8c),
    ("options 0 players 5 mask 0b11111 seed 105", 774, 0xfa674785cd4b7b72, 779, 0x75efb6932aab8430, 766, 0x807f342332d3cc7e),
    ("options 0 players 5 mask 0b1 seed 205", 79, 0xdcf77675654b1672, 74, 0x1fe7994a56af6649, 81, 0x1e6a75b230a0ead7),
    ("options 0 players 5 mask 0b101 seed 305", 161, 0x5fa1faace5d9df8d, 173, 0x234a6fcf89b9da31, 166, 0xca5ea8c05b90b118),
    ("options 1 players 2 mask 0b11 seed 112", 317, 0xf936ceed6f1c1fb9, 303, 0x4478857e7280399d, 307, 0x459d03e8b5b12f40),
    ("options 1 players 2 mask 0b1 seed 212", 78, 0x01df9ce8b25e6047, 79, 0x2ad9f2d8f1a2ccb5, 79, 0x2c4a1cbbf9aa8ffe),
    ("options 1 players 2 mask 0b1 seed 312", 75, 0x70d753b56557b77b, 73, 0x291121aede5eab8a, 75, 0x945f8c31f2b03edf),
    ("options 1 players 3 mask 0b111 seed 113", 469, 0xad021a17faeb3113, 478, 0x00cbfdfb30ef4817, 467, 0x43e0948b3ce915e7),
    ("options 1 players 3 mask 0b1 seed 213", 80, 0xa0081271409df685, 79, 0xd878fafc39333830, 78, 0xd5fa547f09804ca2),
    ("options 1 players 3 mask 0b101 seed 313", 151, 0xe7e81879f31d0d5a, 155, 0x6cc573d586df13aa, 152, 0x9f853e2c51c5c57d),
    ("options 1 players 4 mask 0b1111 seed 114", 598, 0x35c502ab75e02adc, 616, 0x1bb933b0266e5adb, 608, 0x664ab3d34b593c74),
    ("options 1 players 4 mask 0b1 seed 214", 73, 0x140c2b00b6219c6c, 74, 0xb56bb00d2c4063df, 72, 0xf002db64725a5218),
    ("options 1 players 4 mask 0b101 seed 314", 163, 0x69f7e690c7ccee62, 163, 0xf7c1b2a6ead35088, 163, 0xbe94576eb1bcc5f2),
    ("options 1 players 5 mask 0b11111 seed 115", 762, 0x2af4871f2021f5b3, 781, 0x18f0bd334a84a739, 781, 0x1e64aace3b1a0dc2),
    ("options 1 players 5 mask 0b1 seed 215", 76, 0xb36e29eeb212f48f, 74, 0xdcadbf270c78a3b7, 79, 0x9bcdd28a1f524928),
    ("options 1 players 5 mask 0b101 seed 315", 156, 0x7f25863921058161, 160, 0x8351853e289e13b7, 154, 0xb084e3446452ced9),
    ("options 2 players 2 mask 0b11 seed 122", 365, 0x028bfc21e990ad9f, 365, 0x028bfc21e990ad9f, 359, 0x48972e500d3bf686),
    ("options 2 players 2 mask 0b1 seed 222", 90, 0x538bbd82131a8120, 90, 0x538bbd82131a8120, 92, 0x5eaead911ca3b03b),
    ("options 2 players 2 mask 0b1 seed 322", 93, 0x0f3a379be0d17ca9, 93, 0x0f3a379be0d17ca9, 92, 0x317b1cdb1bfa3ba7),
    ("options 2 players 3 mask 0b111 seed 123", 553, 0x6aa18cbaee1b2ee7, 554, 0xa8ef7374200a1155, 534, 0x298054b275882155),
    ("options 2 players 3 mask 0b1 seed 223", 90, 0x22ea4b55c35cdf76, 90, 0x22ea4b55c35cdf76, 87, 0xbda4a97935b22f66),
    ("options 2 players 3 mask 0b101 seed 323", 175, 0xf08328175a2aeb18, 174, 0x52f5ccac667a3a0e, 171, 0x9ceb26a79865f0dd),
    ("options 2 players 4 mask 0b1111 seed 124", 685, 0x06b388a84938c389, 696, 0x54575d1aa8666bab, 701, 0xf801c63e42865e75),
    ("options 2 players 4 mask 0b1 seed 224", 98, 0x66cb32e13bc6d553, 97, 0x10f883138c80cb3f, 99, 0x2f58081e88cf405c),
    ("options 2 players 4 mask 0b101 seed 324", 188, 0xd198210351fdf2fa, 188, 0x020c722129000ab5, 178, 0x4f65f5942e4ee58f),
    ("options 2 players 5 mask 0b11111 seed 125", 931, 0x7a3052eda9c2c253, 935, 0xfff93b55e64325d4, 924, 0x0b0678f035f83518),
    ("options 2 players 5 mask 0b1 seed 225", 93, 0x43ae7c3ec68b7ffb, 92, 0x8c6b879add55e8c0, 91, 0x18353604f2a84774),
    ("options 2 players 5 mask 0b101 seed 325", 196, 0x6fc31888189fc138, 196, 0x6fc31888189fc138, 184, 0xbb7e86e6f914c98a),
    ("options 3 players 2 mask 0b11 seed 132", 327, 0xb54acdcb846702a1, 316, 0x84b20bb109e52205, 318, 0x68d7f7bbb3ac37ba),
    ("options 3 players 2 mask 0b1 seed 232", 81, 0x3c7ed00e0122d80b, 85, 0x569d687b44c74091, 81, 0x5fc70359bc60264a),
    ("options 3 players 2 mask 0b1 seed 332", 84, 0xb58587bb1a4f994d, 83, 0x40645402d8201082, 81, 0x8695b1229f4eb202),
    ("options 3 players 3 mask 0b111 seed 133", 489, 0x5fe6e1c1095a4554, 479, 0xc18e2cadfc9978ed, 486, 0x4450888cd1fab876),
    ("options 3 players 3 mask 0b1 seed 233", 86, 0xae589bf650cf014e, 79, 0xfee1959c7dbf4255, 83, 0x2f707c9e3d055777),
    ("options 3 players 3 mask 0b101 seed 333", 159, 0x312309faaad94131, 155, 0x6ebae562c021746c, 157, 0x24bc22171b31ee1b),
    ("options 3 players 4 mask 0b1111 seed 134", 630, 0x97062aa262b2d808, 629, 0x912ce6acb1bf8448, 645, 0xedafa561645309f0),
    ("options 3 players 4 mask 0b1 seed 234", 72, 0x58907cf7150381e6, 75, 0x314dcf35f77ee4de, 73, 0x3de14cc194f21ee8),
    ("options 3 players 4 mask 0b101 seed 334", 158, 0xd8a2f142afbfc418, 152, 0x501f19fea0557418, 156, 0xb54cf0cbb86c93a0),
    ("options 3 players 5 mask 0b11111 seed 135", 798, 0x1ca1150ada455347, 789, 0xadcafab6afa40b77, 765, 0x1def3cb097547e93),
    ("options 3 players 5 mask 0b1 seed 235", 77, 0x83a97fe36d938a2a, 76, 0x640d96dce598b1c3, 79, 0xbbc12f0c155210ac),
    ("options 3 players 5 mask 0b101 seed 335", 157, 0xbb444ecb30bd3248, 155, 0x9abf1cd590a012ff, 157, 0xa2ae9427d0aa6bb6),
    ("options 4 players 2 mask 0b11 seed 142", 240, 0x1f2269abdae0c41b, 240, 0x1f2269abdae0c41b, 240, 0xb668d38e921ef7e4),
    ("options 4 players 2 mask 0b1 seed 242", 60, 0xea085ce3b7254740, 60, 0xea085ce3b7254740, 60, 0xd5823cc6ee2a1847),
    ("options 4 players 2 mask 0b1 seed 342", 60, 0xe5f354d03060da81, 60, 0x1d838df358125ccf, 60, 0x87dd3723a1cb22b0),
    ("options 4 players 3 mask 0b111 seed 143", 360, 0xb1af759af17a1e4b, 360, 0xd01db950fc3ef82b, 360, 0xa06365dc25d48cad),
    ("options 4 players 3 mask 0b1 seed 243", 60, 0x88cd318e736c7c0d, 60, 0x3ed408be3c4abd8c, 60, 0xe90504ec47bed4fa),
    ("options 4 players 3 mask 0b101 seed 343", 120, 0x9c8c557d886cbaa7, 120, 0xdaf73cff8785a6c1, 120, 0x0fab8ba4a41f1320),
    ("options 4 players 4 mask 0b1111 seed 144", 480, 0x086e62d381957569, 480, 0xe3d2e783d080746e, 480, 0x7838a5349eb14c4c),
    ("options 4 players 4 mask 0b1 seed 244", 60, 0x57afacad0083ed0c, 60, 0x8765f782a158ab1c, 60, 0x82b8e2c1242d8164),
    ("options 4 players 4 mask 0b101 seed 344", 120, 0xb1b135980c8418c8, 120, 0xfda0f6b0707a7ff2, 120, 0xaf293cdb9d3e5deb),
    ("options 4 players 5 mask 0b11111 seed 145", 600, 0xe0c43281a9d850c7, 600, 0x38a0a5d96b9fe514, 600, 0xeb4b241724e7ce05),
    ("options 4 players 5 mask 0b1 seed 245", 60, 0x5d4c2d0559a0ed1a, 60, 0x96c6ea36999619c6, 60, 0xf102b1baebcdd395),
    ("options 4 players 5 mask 0b101 seed 345", 120, 0x8691e54e63a7470a, 120, 0xe2d593a220a77a00, 120, 0xdbedcd3866a4d122),
    ("options 5 players 2 mask 0b11 seed 152", 269, 0x6652757686dc87b1, 260, 0xe935ea2921f292c5, 265, 0x63c5b5cd6d852bab),
    ("options 5 players 2 mask 0b1 seed 252", 62, 0x507debc86d905041, 62, 0xb3f8c70b6c5d92d0, 64, 0xf6cfe2fa04bc12ac),
    ("options 5 players 2 mask 0b1 seed 352", 71, 0x3a174fca14781642, 65, 0x759d754990c899c7, 67, 0xd4fb41e68f48c91b),
    ("options 5 players 3 mask 0b111 seed 153", 400, 0x0085be27b1bc5d11, 402, 0x5235328f31497055, 394, 0xda8c2273c2adf98a),
    ("options 5 players 3 mask 0b1 seed 253", 63, 0x24c97c8e3c5c9794, 64, 0x2e2da0e671d30478, 64, 0x039fa38bf734ced2),
    ("options 5 players 3 mask 0b101 seed 353", 132, 0xe5917e0857d09ae5, 128, 0xbbbfb5d344dd6638, 131, 0x0362cf68ee4741d9),
    ("options 5 players 4 mask 0b1111 seed 154", 530, 0xc04246760881e4a4, 529, 0xfbe0fc988fa9a06c, 536, 0x86a6089dd4bcd0df),
    ("options 5 players 4 mask 0b1 seed 254", 63, 0x9342315435390783, 66, 0x65a85790555b7113, 66, 0xe9b6fb20239a23c4),
    ("options 5 players 4 mask 0b101 seed 354", 139, 0x45534a530c40a7d4, 133, 0xc7cd53041ea1a267, 131, 0x7b97e82e31ae6b2c),
    ("options 6 players 2 mask 0b11 seed 162", 184, 0x1d1bacb1504a64e3, 182, 0xf21cea2f22c9204b, 185, 0x86fe3c18d4bd460e),
    ("options 6 players 2 mask 0b1 seed 262", 49, 0x2fda7bb15a4b0f52, 48, 0xc6a02fba0fe2995a, 48, 0x8db5fa5d8665bac1),
    ("options 6 players 2 mask 0b1 seed 362", 49, 0x72e7f41e3895fa55, 50, 0xd3b0562aa412c8a8, 50, 0x79c410d75e357537),
    ("options 6 players 3 mask 0b111 seed 163", 281, 0x845a93ea4af74560, 280, 0xd1003d14ab6ffb5b, 281, 0x704e7e1361671262),
    ("options 6 players 3 mask 0b1 seed 263", 49, 0x15f84c234671e0f6, 49, 0x96242ff844646a55, 50, 0x7ea1c111f7ceff12),
    ("options 6 players 3 mask 0b101 seed 363", 95, 0xea20d7093459f71f, 93, 0xb5fea199b84d456d, 95, 0xe50e736a18c23ca7),
    ("options 7 players 2 mask 0b11 seed 172", 601, 0x6b9cea4c18469445, 610, 0xcee4ca46142b4d95, 605, 0x8f6b65bac50ded63),
    ("options 7 players 2 mask 0b1 seed 272", 157, 0xd3a2704c1d321df9, 169, 0x077c050dd32a3178, 162, 0x64449efe8a118b6b),
    ("options 7 players 2 mask 0b1 seed 372", 150, 0x97292ec34e63c4d0, 151, 0xe859a60e1b66a3c8, 152, 0x1aca6341b6769cce),
    ("options 7 players 3 mask 0b111 seed 173", 949, 0x93902934a940d02f, 949, 0x0e1fa0cec9525de5, 955, 0xbe9fceae60a1ea1a),
    ("options 7 players 3 mask 0b1 seed 273", 149, 0x925a1d8e6432d1e2, 159, 0xfb96bb99b3033eb9, 150, 0xcc65d15934a4c30f),
    ("options 7 players 3 mask 0b101 seed 373", 300, 0x528706a94435e6d2, 306, 0xfb5d278d474077b1, 312, 0x0cfe9108de48e2cd),
];

/// The runs of the tests: each of these option sets with 2 to 5 players (an option set whose deck
/// is too small for a player count skips it).
fn runs() -> Vec<DecisionRun<Trafficars>> {
    let settings = [
        json!({}),
        json!({"max_cars": null}),
        json!({"too_low": "insert"}),
        json!({"lanes": 5, "max_cars": 2}),
        json!({"lanes": 1, "max_cars": 1, "too_low": "insert"}),
        json!({"special_cards": false, "lanes": 4}),
        json!({"max_number": 12, "hand_size": 5, "max_cars": 3}),
        json!({"hand_size": 20, "lanes": 2, "max_cars": 6}),
    ];
    // The seeds of the games the reference comparison played: 100, 200, 300 + 10 × option set
    // + players.
    let seed = |i: usize, n: usize, k: usize| 100 * (k as u64 + 1) + 10 * i as u64 + n as u64;
    decision_runs::<Trafficars>(&settings, 2..=5, [12, 6, 6], seed)
}

/// A run's label, then `(decisions, fingerprint)` of `greedy`, `greedy:3` and `greedy:8`.
type Row = (&'static str, usize, u64, usize, u64, usize, u64);

/// The rows of [`PINNED`] for one bot: `(label, decisions, fingerprint)` as `pick` takes them.
fn pinned(pick: impl Fn(&Row) -> (&'static str, usize, u64)) -> Vec<(&'static str, usize, u64)> {
    PINNED.iter().map(pick).collect()
}

/// `greedy` makes the pinned decisions.
#[test]
fn greedy_keeps_its_pinned_decisions() {
    let rows = pinned(|r| (r.0, r.1, r.2));
    let decisions = check_pinned_decisions(GreedyBot::default, &runs(), &rows);
    assert!(decisions > 10_000, "only {decisions} decisions checked");
}

/// `greedy:3` makes the decisions of the previous version's `greedy`.
#[test]
fn greedy_with_3_deals_keeps_the_previous_default_decisions() {
    let rows = pinned(|r| (r.0, r.3, r.4));
    let decisions = check_pinned_decisions(|| GreedyBot::with_samples(3), &runs(), &rows);
    assert!(decisions > 10_000, "only {decisions} decisions checked");
}

/// `greedy:8` makes the decisions of the first version's `greedy`.
#[test]
fn greedy_with_8_deals_keeps_the_earlier_default_decisions() {
    let rows = pinned(|r| (r.0, r.5, r.6));
    let decisions = check_pinned_decisions(|| GreedyBot::with_samples(8), &runs(), &rows);
    assert!(decisions > 10_000, "only {decisions} decisions checked");
}
