//! Computer moves from real games (8-spot random games as the refusal classification of
//! `route_games` plays them, saved before the move) that the router refuses as asked and
//! draws as another move giving the same game (`Board::draw_move`, spec 5.9).

use sprouts_draw::{Board, Refusal};

/// Move `k` of the saved game's position (in `Position::moves` order), which must read
/// `words`: refused by `draw_move_strict` with the board unchanged, then drawn by `draw_move`
/// as another move whose child is the same game, recorded as such; the picture reads back to
/// the drawn move's child exactly. Returns the drawn move's words.
fn drawn_as_an_equivalent(saved: &str, k: usize, words: &str) -> String {
    let mut board = Board::from_json(saved).expect("the saved game loads");
    let pos = board.position().clone();
    let mv = pos.moves().nth(k).expect("the move");
    assert_eq!(mv.describe(&pos), words);
    let intended = pos.play(&mv).expect("a legal move");
    let before = board.to_json();
    let listed = board.equivalent_moves(&mv);
    let strict = board.draw_move_strict(&mv, &mut |_| {});
    let refusal = strict.expect_err("the move as asked is refused");
    assert_eq!(board.to_json(), before, "a refusal changed the board");
    let drawn = board
        .draw_move(&mv, &mut |_| {})
        .unwrap_or_else(|e| panic!("{words}: {}", e.detail()));
    let eq = drawn
        .equivalent_of
        .as_ref()
        .expect("recorded as an equivalent");
    assert_eq!(eq.asked, mv);
    assert_eq!(eq.words, words);
    assert_eq!(eq.refusal, refusal, "the same refusal of the move asked");
    assert_ne!(drawn.mv, mv);
    // The authority check: the picture is the drawn move's child exactly...
    let child = pos.play(&drawn.mv).expect("the drawn move is legal");
    assert_eq!(board.position().game_key(), child.game_key());
    // ... and that is the same game as the move asked's (the same form, the same children).
    let (a, b) = (child.canonical_unreduced(), intended.canonical_unreduced());
    assert!(a.is_exact() && a == b, "{a} / {b}");
    // One of the moves listed as giving the same game (its interchangeable boundaries chosen
    // by the drawing).
    assert!(
        listed
            .iter()
            .any(|m| (m.from(), m.to()) == (drawn.mv.from(), drawn.mv.to()))
    );
    drawn.words
}

/// `3 -> 3 enclosing 7-9` (a loop at spot 3 round the path 7-9): every way drawn crosses a
/// curve (`Picture`); the loop round spot 4's seed, the same game, is drawn.
#[test]
fn a_loop_refused_is_drawn_round_another_boundary_giving_the_same_game() {
    let saved = include_str!("data/loop_drawn_round_an_equivalent_seed.json");
    let words = drawn_as_an_equivalent(saved, 2, "3 -> 3 enclosing 7-9");
    assert_eq!(words, "3 -> 3 enclosing 4");
}

/// `17 -> 19` (no way: its widest way has 2.9 px of clearance, 6 needed): drawn as `16 ->
/// 17`, the same game.
#[test]
fn a_move_with_no_way_is_drawn_between_other_spots_giving_the_same_game() {
    let saved = include_str!("data/move_drawn_between_other_spots_of_the_same_game.json");
    let words = drawn_as_an_equivalent(saved, 4, "17 -> 19 enclosing nothing");
    assert_eq!(words, "16 -> 17");
}

/// A refusal when moves giving the same game were tried too names the move asked, keeps its
/// own refusal (for the making of room) and says what each one tried was refused for.
#[test]
fn a_refusal_names_the_move_asked_and_the_equivalents_tried() {
    let e = Refusal::Equivalents {
        words: "1 -> 2".into(),
        asked: Box::new(Refusal::NoRoomAtSpot(sprouts_topo::SpotId::new(1).unwrap())),
        tried: vec![("3 -> 4".into(), Refusal::Fit("too few points".into()))],
    };
    assert_eq!(
        e.of_the_move_asked(),
        &Refusal::NoRoomAtSpot(sprouts_topo::SpotId::new(1).unwrap())
    );
    let line = e.to_string();
    assert!(line.starts_with("1 -> 2: there is no room"), "{line}");
    assert!(line.contains("the one move giving the same game"), "{line}");
    let detail = e.detail();
    assert!(
        detail.contains("tried instead 3 -> 4: fit failed: too few points"),
        "{detail}"
    );
}

/// The substitution in words, also when the two moves read alike.
#[test]
fn an_equivalent_says_what_was_drawn_for_what() {
    let pos = sprouts_topo::Position::new(2);
    let mv = pos.moves().next().expect("a move");
    let e = sprouts_draw::Equivalent {
        asked: mv,
        words: "1 -> 14 enclosing nothing".into(),
        refusal: Refusal::Fit("x".into()),
        refused: Vec::new(),
    };
    assert_eq!(
        e.words_with("16 -> 17"),
        "1 -> 14 enclosing nothing drawn as 16 -> 17"
    );
    assert_eq!(
        e.words_with("1 -> 14 enclosing nothing"),
        "1 -> 14 enclosing nothing drawn through other corners of its spots"
    );
}
