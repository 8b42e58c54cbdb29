//! `GameRecord`: a saved and loaded game is the same game field by field (seats, convention,
//! first player, moves, picture, undo history), in JSON and in postcard; tampered records are
//! refused with the reason.

use sprouts::draw::{Settings, WorldSize};
use sprouts::topo::Position;
use sprouts::{Convention, Game, GameRecord, HumanInput, Limits, RecordError, Seat, SeatRecord};

fn assert_same(a: &Game, b: &Game) {
    assert_eq!(a.seats(), b.seats());
    assert_eq!(a.convention(), b.convention());
    assert_eq!(a.first(), b.first());
    assert_eq!(a.moves(), b.moves());
    assert_eq!(a.start(), b.start());
    assert_eq!(a.position(), b.position());
    assert_eq!(a.to_move(), b.to_move());
    assert_eq!(
        a.board().map(|x| x.drawing()),
        b.board().map(|x| x.drawing())
    );
    assert_eq!(
        a.board().map(|x| *x.settings()),
        b.board().map(|x| *x.settings())
    );
}

/// A misère game against the perfect player, half played, with a picture or without.
fn half_played(drawn: bool) -> Game {
    let seats = [Seat::Human, Seat::computer("perfect:5s", 42).unwrap()];
    let game = if drawn {
        let settings = Settings {
            comfort_distance: 30.0,
            ..Settings::default()
        };
        Game::drawn_spots(4, WorldSize::new(900.0, 700.0), settings, seats).unwrap()
    } else {
        Game::new(Position::new(4), seats)
    };
    let mut game = game.with_convention(Convention::Misere).with_first(1);
    for _ in 0..2 {
        game.computer_step(&Limits::none()).unwrap();
        let mv = game.position().moves().next().unwrap();
        game.play_human(HumanInput::Move(mv)).unwrap();
    }
    game
}

#[test]
fn a_saved_and_loaded_game_is_the_same_game_field_by_field() {
    for drawn in [false, true] {
        let game = half_played(drawn);
        let record = game.record().with_log(&["game 1: a test".to_owned()]);
        let json = record.to_json();
        let back = GameRecord::from_json(&json).unwrap();
        assert_eq!(back.log, vec!["game 1: a test".to_owned()]);
        assert_eq!(
            back.seats[1],
            SeatRecord::Computer {
                spec: "perfect:5s".into(),
                seed: 42
            }
        );
        let loaded = Game::from_record(back).unwrap();
        assert_same(&game, &loaded);
        // The undo history comes back: every move can be undone, to the start.
        let mut undone = loaded.clone();
        let mut n = 0;
        while undone.can_undo() {
            undone.undo().unwrap();
            n += 1;
        }
        assert_eq!(n, game.moves().len(), "drawn: {drawn}");
        assert_eq!(undone.position().game_key(), game.start().game_key());
        // Postcard too.
        let bytes = record.to_postcard();
        let loaded = Game::from_record(GameRecord::from_postcard(&bytes).unwrap()).unwrap();
        assert_same(&game, &loaded);
        // And the loaded game plays on.
        let mut loaded = loaded;
        assert!(loaded.computer_to_move());
        loaded.computer_step(&Limits::none()).unwrap();
    }
}

#[test]
fn a_saved_game_of_the_drawing_layer_reads_as_a_record() {
    let game = half_played(true);
    let json = game.board().unwrap().to_json();
    let loaded = Game::from_record(GameRecord::from_json(&json).unwrap()).unwrap();
    assert_eq!(loaded.moves(), game.moves());
    assert!(loaded.seats().iter().all(Seat::is_human));
}

#[test]
fn tampered_records_are_refused_with_the_reason() {
    let good = half_played(false).record();
    let refuse = |r: GameRecord| Game::from_record(r).expect_err("refused");
    // Words that name another move.
    let mut r = good.clone();
    r.moves[1].words = "1 -> 1 enclosing nothing".into();
    let e = refuse(r).to_string();
    assert!(e.contains("move 1"), "{e}");
    // A notation that names no move.
    let mut r = good.clone();
    r.moves[0].notation = "9-9@1;1;1".into();
    assert!(refuse(r).to_string().contains("move 0"));
    // A seat that names no player.
    let mut r = good.clone();
    r.seats[0] = SeatRecord::Computer {
        spec: "oracle".into(),
        seed: 0,
    };
    assert!(refuse(r).to_string().starts_with("seat 0"));
    // A picture of another game.
    let drawn = half_played(true).record();
    let mut r = drawn.clone();
    r.moves.pop();
    assert!(refuse(r).to_string().contains("another game"));
    // Layout, format and version.
    assert!(matches!(
        GameRecord::from_json("{}"),
        Err(RecordError::Layout(_))
    ));
    assert!(matches!(
        GameRecord::from_json(r#"{"format": "chess", "version": 1}"#),
        Err(RecordError::Format(_))
    ));
    let json = good.to_json().replace("\"version\": 1", "\"version\": 9");
    assert!(matches!(
        GameRecord::from_json(&json),
        Err(RecordError::Version { found: 9, .. })
    ));
    let mut bytes = good.to_postcard();
    bytes.push(0);
    assert!(matches!(
        GameRecord::from_postcard(&bytes),
        Err(RecordError::Layout(_))
    ));
    for cut in 0..bytes.len() - 1 {
        assert!(GameRecord::from_postcard(&bytes[..cut]).is_err());
    }
}
