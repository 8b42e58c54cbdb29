//! `Game::from_position`: a game from a custom start is drawn, played on by every player to
//! the end, undone back to its start and no further, and saved and loaded as the same game.

use sprouts::draw::{Settings, WorldSize};
use sprouts::topo::Position;
use sprouts::{Convention, Game, GameError, GameRecord, HumanInput, Limits, Seat};

const WORLD: WorldSize = WorldSize::new(900.0, 700.0);

/// A position three moves into a 4-spot game (its dead spots kept as spots).
fn start() -> Position {
    let mut pos = Position::new(4);
    for _ in 0..3 {
        let mv = pos.moves().last().expect("a move");
        pos = pos.play(&mv).expect("legal");
    }
    pos
}

/// Positions typed in GLOP without stumps are drawn as they read.
#[test]
fn typed_positions_are_drawn() {
    for text in [
        "0*3",
        "0.1a1a",
        "0*2.AB|AB",
        "0.1ab1bc2ca.ACB|0.ACB",
        "AB|0.AB",
    ] {
        let Ok(pos) = Position::parse_glop(text) else {
            continue;
        };
        if pos.check_drawable().is_err() {
            continue;
        }
        let game = Game::from_position(
            &pos,
            [Seat::Human, Seat::Human],
            Convention::Normal,
            WORLD,
            Settings::default(),
        )
        .unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(game.position().game_key(), pos.game_key(), "{text}");
    }
}

#[test]
fn a_game_from_a_position_is_played_to_the_end_by_every_player() {
    for spec in [
        "random",
        "montecarlo:20",
        "parity-fast:depth=2",
        "perfect:2s",
    ] {
        let seats = [
            Seat::computer(spec, 1).unwrap(),
            Seat::computer("random", 2).unwrap(),
        ];
        let mut game = Game::from_position(
            &start(),
            seats,
            Convention::Normal,
            WORLD,
            Settings::default(),
        )
        .unwrap();
        assert_eq!(game.start(), &start());
        assert!(game.board().is_some());
        while !game.is_over() {
            game.computer_step(&Limits::none())
                .unwrap_or_else(|e| panic!("{spec}: {e}"));
        }
        assert!(game.winner().is_some());
        assert!(game.moves().len() <= start().total_lives() as usize);
    }
}

#[test]
fn undo_stops_at_the_start_and_the_record_round_trips() {
    let seats = [Seat::Human, Seat::computer("random", 3).unwrap()];
    let mut game = Game::from_position(
        &start(),
        seats,
        Convention::Misere,
        WORLD,
        Settings::default(),
    )
    .unwrap();
    assert!(!game.can_undo());
    assert!(matches!(game.undo(), Err(GameError::NoHistory(_))));
    let mv = game.position().moves().next().unwrap();
    game.play_human(HumanInput::Move(mv)).unwrap();
    game.computer_step(&Limits::none()).unwrap();
    let json = game.record().to_json();
    let back = Game::from_record(GameRecord::from_json(&json).unwrap()).unwrap();
    assert_eq!(back.start(), game.start());
    assert_eq!(back.moves(), game.moves());
    assert_eq!(back.position(), game.position());
    assert_eq!(back.convention(), Convention::Misere);
    assert_eq!(
        back.board().map(|b| b.drawing()),
        game.board().map(|b| b.drawing())
    );
    let mut back = back;
    while back.can_undo() {
        back.undo().unwrap();
    }
    assert_eq!(back.position().game_key(), start().game_key());
    assert_eq!(back.moves().len(), 0);
}

#[test]
fn a_position_that_is_not_a_picture_is_refused_with_the_reason() {
    let reduced = Position::parse_glop("0.2").expect("GLOP reads it");
    let err = Game::from_position(
        &reduced,
        [Seat::Human, Seat::Human],
        Convention::Normal,
        WORLD,
        Settings::default(),
    )
    .expect_err("a 1-life spot met once is not a picture");
    assert!(err.to_string().contains("cannot be drawn"), "{err}");
}
