//! `Game::from_picture`: a picture drawn by hand starts a drawn game that every player plays to
//! the end and that saves and loads as the same game; a picture that is not legal (or not
//! reached by moves, unless any valid position will do) is refused with the reason.

use sprouts::draw::{HandCurve, HandPicture, Legality, PictureError, Settings, WorldSize};
use sprouts::geom::Point;
use sprouts::topo::SpotId;
use sprouts::{Convention, Game, GameError, GameRecord, Limits, Seat};

fn s(n: u32) -> SpotId {
    SpotId::new(n).expect("not zero")
}

fn curve(from: u32, to: u32, points: &[(f64, f64)]) -> HandCurve {
    HandCurve {
        from: s(from),
        to: s(to),
        points: points.iter().map(|&(x, y)| Point::new(x, y)).collect(),
    }
}

/// Four seeds; the move 1 - 5 - 2 drawn above them, and a bare curve 3 - 4 below.
fn picture(bare: bool) -> HandPicture {
    let mut curves = vec![
        curve(1, 5, &[(150.0, 100.0)]),
        curve(5, 2, &[(350.0, 100.0)]),
    ];
    if bare {
        curves.push(curve(3, 4, &[(250.0, 380.0)]));
    }
    HandPicture {
        world: WorldSize::new(500.0, 400.0),
        spots: [
            (100.0, 200.0),
            (400.0, 200.0),
            (150.0, 300.0),
            (350.0, 300.0),
            (250.0, 80.0),
        ]
        .iter()
        .map(|&(x, y)| Point::new(x, y))
        .collect(),
        curves,
    }
}

fn start(pic: &HandPicture, legality: Legality, seats: [Seat; 2]) -> Result<Game, GameError> {
    let drawing = pic
        .to_drawing(Settings::default().spot_radius)
        .expect("a drawing");
    Game::from_picture(
        drawing,
        legality,
        seats,
        Convention::Normal,
        Settings::default(),
    )
    .map(|(g, _)| g)
}

#[test]
fn a_picture_drawn_by_hand_is_played_to_the_end_and_saved() {
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
        let mut game = start(&picture(false), Legality::Reachable, seats).unwrap();
        assert_eq!(game.start().spot_count(), 5);
        assert_eq!(game.position().total_lives(), 5 * 3 - 4);
        while !game.is_over() {
            game.computer_step(&Limits::none())
                .unwrap_or_else(|e| panic!("{spec}: {e}"));
        }
        assert!(
            game.moves().len() >= 4,
            "{spec}: a move per life pair at least"
        );
        let record = GameRecord::from_json(&game.record().to_json()).unwrap();
        let again = record.into_game().unwrap();
        assert_eq!(again.position().game_key(), game.position().game_key());
        assert_eq!(again.start().game_key(), game.start().game_key());
        // Undo stops at the picture drawn.
        let mut back = again;
        while back.can_undo() {
            back.undo().unwrap();
        }
        assert_eq!(back.moves().len(), 0);
        assert_eq!(back.position().game_key(), game.start().game_key());
    }
}

#[test]
fn a_picture_not_reached_by_moves_is_refused_unless_any_valid_position_will_do() {
    let seats = || [Seat::Human, Seat::Human];
    let err = start(&picture(true), Legality::Reachable, seats()).unwrap_err();
    match &err {
        GameError::Picture(PictureError::Unreachable(_)) => {}
        other => panic!("{other}"),
    }
    assert!(err.to_string().contains("odd number"), "{err}");
    let game = start(&picture(true), Legality::Valid, seats()).unwrap();
    assert_eq!(game.position().total_lives(), 5 * 3 - 6);
    // Crossing curves are refused either way.
    let mut crossing = picture(false);
    crossing.curves.push(curve(3, 4, &[(250.0, 20.0)]));
    for legality in [Legality::Reachable, Legality::Valid] {
        let err = start(&crossing, legality, seats()).unwrap_err();
        assert!(err.to_string().contains("cross"), "{err}");
    }
}
