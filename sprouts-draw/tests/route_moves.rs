//! Drawing moves: every legal move from the positions a few moves into small games is drawn
//! and reads back to the intended position; refusals leave the board as it was.
//!
//! The sweep goes level by level: the positions of one level (one picture per position up to
//! renumbering, `Position::canonical_unreduced`, the first met) each have every legal move
//! drawn on a copy of their board, in parallel (rayon); the drawn children not met before make
//! the next level.

use std::collections::{BTreeMap, HashSet};

use rayon::prelude::*;
use sprouts_draw::{Board, Refusal, Settings, WorldSize};

/// The area of the evidence: 2560 x 1383 pixels.
fn world() -> WorldSize {
    WorldSize::new(2560.0, 1383.0)
}

/// A refused move and how to make it again.
#[derive(Debug)]
struct Refused {
    /// The refusal's kind (its variant).
    kind: String,
    /// The start, the moves drawn to reach the picture, the refused move, the position (GLOP)
    /// and the refusal's detail.
    reproducer: String,
}

#[derive(Default, Debug)]
struct Tally {
    positions: usize,
    drawn: usize,
    refused: Vec<Refused>,
    wrong: Vec<String>,
}

/// What drawing every legal move of one board gives: the tally and the drawn boards.
fn draw_all(n: u32, board: &Board) -> (Tally, Vec<Board>) {
    let pos = board.position().clone();
    let mut tally = Tally {
        positions: 1,
        ..Tally::default()
    };
    let mut children = Vec::new();
    let history: Vec<String> = board.moves().iter().map(|m| m.words.clone()).collect();
    for mv in pos.moves() {
        let intended = pos.play(&mv).expect("a legal move");
        let mut b = board.clone();
        let before = b.to_json();
        match b.draw_move(&mv, &mut |_| {}) {
            Ok(d) => {
                tally.drawn += 1;
                let got = b.position();
                let same = got.game_key() == intended.game_key()
                    || got.canonical_unreduced() == intended.canonical_unreduced();
                if !same {
                    tally.wrong.push(format!(
                        "{n} spots, moves [{}], then {}",
                        history.join("; "),
                        mv.describe(&pos)
                    ));
                }
                assert_eq!(d.words, b.moves().last().expect("recorded").words);
                children.push(b);
            }
            Err(e) => {
                assert_eq!(b.to_json(), before, "a refusal changed the board");
                let debug = format!("{e:?}");
                let kind = debug
                    .split(|c: char| !c.is_alphanumeric())
                    .next()
                    .unwrap_or("")
                    .to_owned();
                tally.refused.push(Refused {
                    kind,
                    reproducer: format!(
                        "{n} spots, moves [{}], then {} (corners {:?} -> {:?}; position {}): {}",
                        history.join("; "),
                        mv.describe(&pos),
                        mv.from(),
                        mv.to(),
                        pos.to_glop(),
                        e.detail()
                    ),
                });
            }
        }
    }
    (tally, children)
}

/// Draws every legal move of every position reachable in `depth` moves from `n` spots.
fn run(n: u32, depth: u32) -> Tally {
    let start = Board::new(n, world(), Settings::default()).expect("the start");
    let mut seen = HashSet::new();
    seen.insert(start.position().canonical_unreduced());
    let mut level = vec![start];
    let mut all = Tally::default();
    for d in 0..=depth {
        let results: Vec<(Tally, Vec<Board>)> = level.par_iter().map(|b| draw_all(n, b)).collect();
        let mut next = Vec::new();
        for (t, children) in results {
            all.positions += t.positions;
            all.drawn += t.drawn;
            all.refused.extend(t.refused);
            all.wrong.extend(t.wrong);
            if d < depth {
                for c in children {
                    if seen.insert(c.position().canonical_unreduced()) {
                        next.push(c);
                    }
                }
            }
        }
        level = next;
    }
    all
}

fn check(label: &str, t: &Tally) {
    eprintln!(
        "{label}: {} positions, {} moves drawn, {} refused, {} wrong",
        t.positions,
        t.drawn,
        t.refused.len(),
        t.wrong.len()
    );
    let mut kinds: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for r in &t.refused {
        kinds.entry(&r.kind).or_default().push(&r.reproducer);
    }
    for (k, rs) in &kinds {
        eprintln!("  {k}: {}", rs.len());
        for r in rs {
            eprintln!("    {r}");
        }
    }
    assert!(
        t.wrong.is_empty(),
        "drawn moves read back wrong: {:#?}",
        t.wrong
    );
    // Every move of these small positions is drawn without making room (spec 4).
    assert!(t.refused.is_empty(), "{:#?}", t.refused);
}

/// Every legal move from every position reachable in three moves from one spot, two moves from
/// two spots, and one move from three spots.
#[test]
fn every_move_from_small_positions() {
    for (n, depth) in [(1, 3), (2, 2), (3, 1)] {
        let t = run(n, depth);
        check(&format!("{n} spots, depth {depth}"), &t);
    }
}

/// The whole evidence: every legal move from every position reachable in three moves from
/// one, two and three spots (`cargo test --release -p sprouts-draw --test route_moves --
/// --ignored --nocapture`; `ROUTE_MOVES_SPOTS=3` for one start only).
#[test]
#[ignore = "minutes: cargo test -p sprouts-draw --test route_moves -- --ignored --nocapture every_move_three_deep"]
fn every_move_three_deep_from_one_two_three_spots() {
    let only: Option<u32> = std::env::var("ROUTE_MOVES_SPOTS")
        .ok()
        .and_then(|s| s.parse().ok());
    let mut all = Tally::default();
    for n in (1..=3).filter(|n| only.is_none_or(|o| o == *n)) {
        let t = run(n, 3);
        check(&format!("{n} spots, depth 3"), &t);
        all.positions += t.positions;
        all.drawn += t.drawn;
        all.wrong.extend(t.wrong);
        all.refused.extend(t.refused);
    }
    check("all", &all);
}

/// Replays `history` (moves in words, each the first legal move so described that draws, as
/// the sweep met them) on `n` spots.
fn replay(n: u32, history: &[&str]) -> Board {
    let mut board = Board::new(n, world(), Settings::default()).expect("the start");
    for w in history {
        let pos = board.position().clone();
        let drawn = pos.moves().into_iter().any(|mv| {
            if mv.describe(&pos) != *w {
                return false;
            }
            let mut b = board.clone();
            if b.draw_move(&mv, &mut |_| {}).is_ok() {
                board = b;
                true
            } else {
                false
            }
        });
        assert!(drawn, "{w} after {history:?} is not drawn");
    }
    board
}

/// The legal move of `board` with these words and corner indices.
fn find_move(board: &Board, words: &str, corners: (u32, u32)) -> sprouts_topo::Move {
    let pos = board.position();
    pos.moves()
        .into_iter()
        .find(|m| m.describe(pos) == words && (m.from().index, m.to().index) == corners)
        .unwrap_or_else(|| panic!("no move {words} with corners {corners:?}"))
}

/// Draws the move `words` between the corners with these indices on `board`: drawn, it must
/// read back to the intended position; refused, it must leave the board as it was.
fn draw_checked(board: &mut Board, words: &str, corners: (u32, u32)) -> Result<(), Refusal> {
    let pos = board.position().clone();
    let mv = find_move(board, words, corners);
    let intended = pos.play(&mv).expect("a legal move");
    let before = board.to_json();
    match board.draw_move(&mv, &mut |_| {}) {
        Ok(_) => {
            let got = board.position();
            assert!(
                got.game_key() == intended.game_key()
                    || got.canonical_unreduced() == intended.canonical_unreduced(),
                "{words} read back wrong"
            );
            Ok(())
        }
        Err(e) => {
            assert_eq!(board.to_json(), before, "a refusal changed the board");
            Err(e)
        }
    }
}

/// Replays `history` on `n` spots, then draws the move `words` between the corners with
/// these indices; the drawn move must read back to the intended position.
fn replay_and_draw(n: u32, history: &[&str], words: &str, corners: (u32, u32)) {
    let mut board = replay(n, history);
    if let Err(e) = draw_checked(&mut board, words, corners) {
        panic!("{words} after {history:?} refused: {}", e.detail());
    }
}

/// An 11-spot computer move that the routing once refused for its enclosure (while the
/// nearest-cluster rule chose other boundaries): either it is drawn and reads back to the
/// intended game, or the refusal names the move asked and, in the detail, the rule's choice.
/// (The naming itself is checked in `route::naming_tests`.) The board is the one its two moves
/// (`3 -> 3 enclosing 1, 2, 4, 6, 7, 8, 9, 11`, `11 -> 11 enclosing 12-3, 8`) were drawn on
/// before the regions' pressure, saved: drawn with it, the second loop is refused as asked and
/// drawn as another move giving the same game, with other labels.
#[test]
fn an_eleven_spot_move_is_drawn_or_named_as_asked() {
    let asked = "13 -> 11 enclosing 1, 2, 6, 9";
    let mut board = Board::from_json(include_str!("data/eleven_spots_after_two_loops.json"))
        .expect("the saved board");
    let mv = find_move(&board, asked, (0, 1));
    let intended = board.position().play(&mv).expect("a legal move");
    match board.draw_move(&mv, &mut |_| {}) {
        Ok(_) => {
            let got = board.position();
            assert!(
                got.game_key() == intended.game_key()
                    || got.canonical_unreduced() == intended.canonical_unreduced()
            );
        }
        Err(e) => {
            assert!(e.to_string().contains(asked), "{e}");
            let detail = e.detail();
            assert!(detail.contains(&format!("for {asked}:")), "{detail}");
            assert!(
                detail.contains("the nearest-cluster rule chose 13 -> 11 enclosing 2, 4, 7, 9"),
                "{detail}"
            );
        }
    }
}

/// The last four moves the sweep refused (moves between two corners of a path's boundary where
/// the new curve must go round the far end so that `B_a` holds what it must): each drawn. They
/// were refused while the barrier trees were 8-connected, since a route stepping diagonally
/// slipped between two diagonal cells of a tree and every candidate sorted the loop wrongly.
#[test]
fn moves_between_corners_of_a_path_round_a_loop() {
    let cases: [(&[&str], &str, (u32, u32)); 4] = [
        (
            &["1 -> 1 enclosing nothing", "2 -> 3"],
            "2 -> 5 enclosing nothing",
            (0, 3),
        ),
        (
            &[
                "1 -> 1 enclosing nothing",
                "4 -> 1 enclosing nothing",
                "2 -> 3",
            ],
            "2 -> 6 enclosing nothing",
            (0, 3),
        ),
        (
            &[
                "1 -> 1 enclosing nothing",
                "2 -> 3",
                "2 -> 5 enclosing nothing",
            ],
            "2 -> 3 enclosing nothing",
            (1, 4),
        ),
        (
            &[
                "1 -> 1 enclosing nothing",
                "2 -> 3",
                "2 -> 3 enclosing nothing",
            ],
            "5 -> 2 enclosing 4-1",
            (0, 1),
        ),
    ];
    for (history, words, corners) in cases {
        replay_and_draw(3, history, words, corners);
    }
}

/// A 6-spot parity game's second move, once refused for its enclosure: after a loop at spot 1
/// round two seeds (through the new spot 7), the curve from 1 to 7 inside the loop that
/// encloses nothing hugs one half of the loop and goes round a seed between it and the loop.
/// It was refused while the barrier tree of the other side (the seeds and the loop's other
/// half) could run along the hugged half, which no tree joined, and shut the corridor.
#[test]
fn a_curve_between_two_corners_of_a_loop_enclosing_nothing() {
    replay_and_draw(
        6,
        &["1 -> 1 enclosing 2, 3"],
        "1 -> 7 enclosing nothing",
        (0, 1),
    );
}

/// An 11-spot computer move once refused: `14 -> 4` joins the two corners of the loop made by
/// `4 -> 4 enclosing 9`, round 5 with the loop's other half outside. The parity search's
/// route round 5 went round the loop the wrong way (the judge refused it), and its shortest
/// route with the own boundary's ray crossed the other way was a figure eight, while the
/// straight wall from the arc to 5 crossed the loop. A wall from the arc to 5 along a way
/// with room round the loop leaves the simple route.
#[test]
fn a_curve_between_the_corners_of_a_loop_round_a_far_seed() {
    replay_and_draw(
        11,
        &[
            "2 -> 2 enclosing nothing",
            "12 -> 2 enclosing 7",
            "4 -> 4 enclosing 9",
        ],
        "14 -> 4 enclosing 5",
        (0, 1),
    );
}

/// Draws the move with these words and corner indices on a saved board (a fixture written
/// from a game that stopped at that move); `Ok` if it was drawn and read back to the intended
/// position, the refusal otherwise (after checking it left the board as it was).
fn draw_on_fixture(json: &str, words: &str, corners: (u32, u32)) -> Result<(), String> {
    let mut board = Board::from_json(json).expect("a saved board");
    draw_checked(&mut board, words, corners).map_err(|e| format!("{e:?}"))
}

/// Loops round one far seed, refused for their enclosure in 6-spot parity games (`selfplay
/// --spots 6 --p1 parity-fast:depth=1 --p2 parity-fast:depth=1 --seed 7`, games 6 and 12).
/// In the first, spot 3 has one curve and 6 is reached only round the far end of the path
/// from 3: the wall along the sector's bisector led the way to 6 back over the spot, which
/// shut one side of the spot, and the parity search's route round 6 crossed itself. In the
/// second, 3 is a seed and the way to 6 passes a narrow place beside a small loop, where the
/// two strands and a thick wall do not fit. The walls now go out in a direction whose way
/// does not come back over the spot, and thin walls are a last try.
#[test]
fn loops_round_a_far_seed() {
    let one_curve = include_str!("data/loop_round_a_far_seed_one_curve.json");
    assert_eq!(
        draw_on_fixture(one_curve, "3 -> 3 enclosing 6", (5, 5)),
        Ok(())
    );
    let seed = include_str!("data/loop_at_a_seed_round_a_far_seed.json");
    assert_eq!(draw_on_fixture(seed, "3 -> 3 enclosing 6", (0, 0)), Ok(()));
}

/// A loop at a seed round two boundaries (a 7-spot random game of `route_games`'s classify
/// table), once refused for its enclosure: the wall straight towards the nearest boundary
/// turned, along its way, away from the side the ends were sorted by.
#[test]
fn a_loop_at_a_seed_round_two_boundaries() {
    let json = include_str!("data/loop_at_a_seed_round_two_boundaries.json");
    assert_eq!(
        draw_on_fixture(json, "6 -> 6 enclosing 7-8, 9-5", (0, 0)),
        Ok(())
    );
}

/// Two spots 30 px apart joined by a curve, in a narrow wedge (an 8-spot random game): the
/// route bowed out for the new spot's room went to the other side of their curve just outside
/// the spots' discs, which the certificate did not look at there, and the picture's check
/// refused the crossing. The bow now keeps its corners and crosses no curve, and the
/// certificate refuses a crossing outside the discs: the move is refused for its clearance
/// (the wedge is too narrow for the new spot), as the picture's check would.
#[test]
fn a_bowed_route_keeps_to_its_side_of_the_curve_between_close_spots() {
    let json = include_str!("data/close_spots_bowed_across_their_curve.json");
    match draw_on_fixture(json, "23 -> 4 enclosing nothing", (9, 10)) {
        Ok(()) => {}
        Err(e) => assert!(e.starts_with("Certificate"), "{e}"),
    }
}

/// A loop at a seed at the end of a pocket (an 8-spot parity game): its wall pointed into
/// the pocket's end, where no cell has room, so one side of the wall had no cell to leave
/// from and the move was refused for no room at the spot. A short wall in a direction with
/// room is tried now.
#[test]
fn a_loop_at_a_seed_at_the_end_of_a_pocket() {
    let json = include_str!("data/loop_at_a_seed_at_the_end_of_a_pocket.json");
    assert_eq!(
        draw_on_fixture(json, "4 -> 4 enclosing nothing", (0, 0)),
        Ok(())
    );
}
