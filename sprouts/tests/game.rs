//! `Game`: whole games under each convention and each player kind, with and without a
//! picture; turns, refusals that change nothing, undo and redo, jobs that come back stale.

use sprouts::draw::{DrawRequest, Settings, WorldSize};
use sprouts::topo::Position;
use sprouts::{Convention, Game, GameError, HumanInput, Limits, Seat};

const KINDS: [&str; 5] = [
    "random",
    "montecarlo:20",
    "parity-fast:depth=2",
    "parity-sharp:depth=2",
    "perfect:5s",
];

/// Plays a computer-against-computer game to the end, checking every step against a plain
/// replay in `sprouts-topo`.
fn play_out(game: &mut Game) {
    let mut replay = game.position().clone();
    let mut seat = game.to_move();
    while !game.is_over() {
        assert!(game.computer_to_move());
        let before = game.moves().len();
        let played = game
            .computer_step(&Limits::none())
            .expect("a computer move");
        assert_eq!(played.seat, seat, "seats alternate");
        assert_eq!(played.number, before + 1);
        assert_eq!(game.moves().len(), before + 1);
        let mv = played
            .notation
            .to_move(&replay)
            .expect("the notation names a move");
        replay = replay.play(&mv).expect("legal");
        assert!(game.position().same_game(&replay));
        seat = 1 - seat;
    }
    assert_eq!(game.to_move(), seat);
}

#[test]
fn whole_games_under_each_convention_and_player_kind() {
    for convention in [Convention::Normal, Convention::Misere] {
        for (i, a) in KINDS.iter().enumerate() {
            let b = KINDS[(i + 1) % KINDS.len()];
            let seats = [Seat::computer(a, 1).unwrap(), Seat::computer(b, 2).unwrap()];
            let mut game = Game::new(Position::new(4), seats).with_convention(convention);
            play_out(&mut game);
            let stuck = game.to_move();
            let expected = match convention {
                Convention::Normal => 1 - stuck,
                Convention::Misere => stuck,
            };
            assert_eq!(game.winner(), Some(expected), "{a} v {b}, {convention:?}");
            // Sprouts from n spots lasts between 2n and 3n - 1 moves.
            let k = game.moves().len();
            assert!((8..=11).contains(&k), "{k} moves");
            assert!(matches!(
                game.computer_step(&Limits::none()),
                Err(GameError::Over)
            ));
        }
    }
}

#[test]
fn the_perfect_player_wins_what_the_known_outcomes_say() {
    // Outcomes of the n-spot starts for the first player (Applegate, Jacobson and Sleator 1991;
    // misère: OEIS A164950): normal play 2 L, 3 W, 4 W; misère 2 L, 3 L, 4 L, 5 W.
    let known = [
        (Convention::Normal, 2, false),
        (Convention::Normal, 3, true),
        (Convention::Normal, 4, true),
        (Convention::Misere, 2, false),
        (Convention::Misere, 3, false),
        (Convention::Misere, 4, false),
        (Convention::Misere, 5, true),
    ];
    for (convention, n, first_wins) in known {
        for seed in 0..2 {
            let seats = [
                Seat::computer("perfect:5s", seed).unwrap(),
                Seat::computer("perfect:5s", seed + 10).unwrap(),
            ];
            let mut game = Game::new(Position::new(n), seats).with_convention(convention);
            play_out(&mut game);
            assert_eq!(
                game.winner() == Some(0),
                first_wins,
                "{n} spots, {convention:?}"
            );
        }
    }
}

#[test]
fn a_drawn_game_is_drawn_to_the_end_and_reads_back_as_played() {
    let seats = [
        Seat::computer("random", 3).unwrap(),
        Seat::computer("parity-fast:depth=1", 4).unwrap(),
    ];
    let mut game =
        Game::drawn_spots(5, WorldSize::new(900.0, 600.0), Settings::default(), seats).unwrap();
    play_out(&mut game);
    let board = game.board().expect("a picture");
    assert_eq!(board.moves().len(), game.moves().len());
    assert!(board.position().is_over());
    assert!(game.winner().is_some());
}

#[test]
fn people_move_by_move_or_by_a_drawn_request_and_refusals_change_nothing() {
    let seats = [Seat::Human, Seat::computer("random", 9).unwrap()];
    let mut game =
        Game::drawn_spots(3, WorldSize::new(800.0, 500.0), Settings::default(), seats).unwrap();
    let pristine = game.record().to_json();
    // The computer may not move on a person's turn, nor a person on the computer's.
    assert!(matches!(
        game.computer_step(&Limits::none()),
        Err(GameError::HumanToMove)
    ));
    // An illegal move: a loop at a spot of another game's position.
    let other = Position::new(5);
    let far = other.moves().last().unwrap();
    assert!(game.play_human(HumanInput::Move(far)).is_err());
    assert_eq!(
        game.record().to_json(),
        pristine,
        "a refusal changes nothing"
    );
    // A drawn request: spot 1 to spot 2, the shortest way.
    let s = |n| sprouts::topo::SpotId::new(n).unwrap();
    let played = game
        .play_human(HumanInput::Request(DrawRequest::new(s(1), s(2))))
        .unwrap();
    assert_eq!(played.seat, 0);
    assert_eq!(played.words, "1 -> 2");
    let after_first = game.record().to_json();
    assert!(matches!(
        game.play_human(HumanInput::Request(DrawRequest::new(s(2), s(3)))),
        Err(GameError::ComputerToMove(_))
    ));
    assert_eq!(game.record().to_json(), after_first);
    game.computer_step(&Limits::none()).unwrap();
    // A topological move for the person, drawn by the ladder.
    let mv = game.position().moves().next().unwrap();
    let played = game.play_human(HumanInput::Move(mv)).unwrap();
    assert!(played.ladder.is_some());
    assert_eq!(game.moves().len(), 3);
}

#[test]
fn undo_and_redo_with_and_without_a_picture() {
    for drawn in [false, true] {
        let seats = [Seat::Human, Seat::computer("random", 5).unwrap()];
        let mut game = if drawn {
            Game::drawn_spots(4, WorldSize::new(800.0, 600.0), Settings::default(), seats).unwrap()
        } else {
            Game::new(Position::new(4), seats)
        };
        assert!(matches!(game.undo(), Err(GameError::NoHistory("undo"))));
        let start_key = game.position().game_key();
        let mv = game.position().moves().next().unwrap();
        game.play_human(HumanInput::Move(mv)).unwrap();
        game.computer_step(&Limits::none()).unwrap();
        let after_two = game.position().game_key();
        // Against the computer, undo goes back to the person's turn: both moves.
        let steps = game.undo_turn().unwrap();
        assert_eq!(steps.len(), 2, "drawn: {drawn}");
        assert_eq!(game.position().game_key(), start_key);
        assert!(game.human_to_move());
        let steps = game.redo_turn().unwrap();
        assert_eq!(steps.len(), 2);
        assert_eq!(game.position().game_key(), after_two);
        // One step at a time, then a new move clears what could be redone.
        game.undo().unwrap();
        assert!(game.can_redo());
        assert!(game.computer_to_move());
        game.computer_step(&Limits::none()).unwrap();
        assert!(!game.can_redo());
    }
}

#[test]
fn a_job_for_a_game_that_changed_is_dropped() {
    let seats = [
        Seat::computer("random", 1).unwrap(),
        Seat::computer("random", 2).unwrap(),
    ];
    let mut game = Game::new(Position::new(3), seats);
    game.computer_step(&Limits::none()).unwrap();
    let job = game.computer_job().unwrap();
    game.undo().unwrap();
    let before = game.record().to_json();
    let done = job.run(&Limits::none(), &mut |_| {});
    assert!(matches!(game.finish(done), Err(GameError::Stale)));
    assert_eq!(game.record().to_json(), before);
    // A job for the game as it is goes through.
    let job = game.computer_job().unwrap();
    let done = job.run(&Limits::none(), &mut |_| {});
    game.finish(done).unwrap();
    assert_eq!(game.moves().len(), 1);
}

#[test]
fn seats_and_specs_are_checked() {
    assert!(matches!(
        Seat::computer("grandmaster", 0),
        Err(GameError::Player(_))
    ));
    let long = format!("random{}", " ".repeat(10) + &"x".repeat(100));
    assert!(Seat::computer(&long, 0).is_err());
    // Surrounding spaces are not kept.
    assert_eq!(
        Seat::computer("  random  ", 0).unwrap().spec(),
        Some("random")
    );
    let mut game = Game::new(Position::new(2), [Seat::Human, Seat::Human]);
    assert!(matches!(
        game.set_seat(2, Seat::Human),
        Err(GameError::NoSuchSeat(2))
    ));
    assert!(matches!(
        game.redraw_fresh(Default::default()),
        Err(GameError::NoPicture)
    ));
    let s = |n| sprouts::topo::SpotId::new(n).unwrap();
    assert!(matches!(
        game.play_human(HumanInput::Request(DrawRequest::new(s(1), s(2)))),
        Err(GameError::NoPicture)
    ));
}

#[test]
fn a_game_goes_on_without_its_picture_with_the_move_chosen_in_the_picture() {
    let seats = [
        Seat::computer("random", 11).unwrap(),
        Seat::computer("random", 12).unwrap(),
    ];
    let mut game =
        Game::drawn_spots(4, WorldSize::new(700.0, 500.0), Settings::default(), seats).unwrap();
    for _ in 0..3 {
        game.computer_step(&Limits::none()).unwrap();
    }
    let key = game.position().game_key();
    // Every move of the picture's position stays a move after the picture is dropped.
    let moves: Vec<_> = game.position().moves().collect();
    game.drop_picture();
    assert!(game.board().is_none());
    assert_eq!(game.position().game_key(), key);
    assert_eq!(game.moves().len(), 3);
    for mv in &moves {
        assert!(game.position().is_legal(mv));
    }
    game.play_move(&moves[0]).unwrap();
    play_out(&mut game);
    // Undo goes back through the replayed positions to the start.
    while game.can_undo() {
        game.undo().unwrap();
    }
    assert_eq!(game.position().game_key(), Position::new(4).game_key());
}

#[test]
fn r_as_a_job_relaxes_the_picture_in_one_undo_step() {
    use sprouts::draw::{RelaxMode, RelaxOptions};
    let seats = [
        Seat::computer("random", 21).unwrap(),
        Seat::computer("random", 22).unwrap(),
    ];
    let mut game =
        Game::drawn_spots(4, WorldSize::new(700.0, 500.0), Settings::default(), seats).unwrap();
    for _ in 0..4 {
        game.computer_step(&Limits::none()).unwrap();
    }
    let key = game.position().game_key();
    let before = game.board().unwrap().drawing().clone();
    let job = game
        .relax_job(RelaxMode::Rearrange, RelaxOptions::default())
        .unwrap();
    let report = match game.finish(job.run(&Limits::none(), &mut |_| {})).unwrap() {
        sprouts::JobEvent::Relaxed(r) => r,
        other => panic!("{other:?}"),
    };
    assert_eq!(report.mode, RelaxMode::Rearrange);
    assert_eq!(game.position().game_key(), key);
    assert_ne!(game.board().unwrap().drawing(), &before);
    assert_eq!(game.moves().len(), 4);
    game.undo().expect("the relaxation is undone");
    assert_eq!(game.board().unwrap().drawing(), &before);
    assert_eq!(game.moves().len(), 4);
    // Bad options are refused and change nothing.
    let bad = RelaxOptions {
        rounds: 0,
        ..RelaxOptions::default()
    };
    assert!(game.relax(RelaxMode::Adjust, bad).is_err());
    assert_eq!(game.board().unwrap().drawing(), &before);
    let mut plain = Game::new(Position::new(2), [Seat::Human, Seat::Human]);
    assert!(matches!(
        plain.relax(RelaxMode::Rearrange, RelaxOptions::default()),
        Err(GameError::NoPicture)
    ));
}
