//! `check_picture` on pictures of random games drawn by the grid drawer: every one is reached
//! (with the number of moves played), and the moves found draw it legally one after another,
//! as `sprouts-topo` plays them; pictures spoiled by taking curves away or joining a move's two
//! curves into one are judged as the slow reference judges them, and are still valid.

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use sprouts_draw::testing::GridDrawer;
use sprouts_draw::{
    Board, Curve, Drawing, Half, Legality, MoveHistory, PictureError, Settings, analyse,
    check_picture, group_moves_by_peeling,
};
use sprouts_geom::Spline;
use sprouts_topo::SpotId;

/// A random game of up to `max_moves` moves from `n` seeds.
fn random_game(n: u32, max_moves: usize, seed: u64) -> Board {
    let mut drawer = GridDrawer::new(60, 45, 8.0, seed);
    let settings = Settings {
        spot_radius: 2.0,
        ..Settings::default()
    };
    let mut board = drawer.new_board(n, settings).expect("seeds fit");
    for _ in 0..max_moves {
        match drawer.random_move(&mut board, 60) {
            Ok(Some(_)) => {}
            Ok(None) => break,
            Err(refused) => panic!("seed {seed}: the board refused {:?}", refused.moves),
        }
    }
    board
}

/// The picture with nothing that tells its moves: no curve origins, curves and spots in a
/// shuffled order, each curve in a random direction.
fn anonymous(d: &Drawing, rng: &mut Xoshiro256PlusPlus) -> Drawing {
    let mut spots = d.spots().to_vec();
    let mut curves: Vec<Curve> = d
        .curves()
        .iter()
        .map(|c| {
            let flip = rng.random::<bool>();
            Curve {
                from: if flip { c.to } else { c.from },
                to: if flip { c.from } else { c.to },
                spline: if flip {
                    c.spline.reversed()
                } else {
                    c.spline.clone()
                },
                origin: None,
            }
        })
        .collect();
    for i in (1..spots.len()).rev() {
        spots.swap(i, rng.random_range(0..=i));
    }
    for i in (1..curves.len()).rev() {
        curves.swap(i, rng.random_range(0..=i));
    }
    Drawing::from_parts(d.world(), spots, curves).expect("the same parts")
}

/// Draws the moves found one after another from the seeds, renumbered so that each move's
/// middle is the position's next spot, and checks that each picture is the position before
/// it with a legal move played between the move's ends.
fn replay(d: &Drawing, history: &MoveHistory) {
    let mut renumber = std::collections::HashMap::new();
    for (k, &s) in history
        .seeds
        .iter()
        .chain(history.moves.iter().map(|m| &m.middle))
        .enumerate()
    {
        renumber.insert(s, SpotId::new(k as u32 + 1).expect("not zero"));
    }
    let to = |s: SpotId| renumber[&s];
    let mut picture = Drawing::new(d.world()).expect("a world");
    for &s in &history.seeds {
        let mut spot = *d.spot(s).expect("a seed");
        spot.id = to(s);
        picture.add_spot(spot).expect("new");
    }
    let mut pos = analyse(&picture).expect("seeds").position().clone();
    assert_eq!(pos.spot_count(), history.seeds.len());
    for m in &history.moves {
        let mut spot = *d.spot(m.middle).expect("a middle");
        spot.id = to(m.middle);
        picture.add_spot(spot).expect("new");
        for c in m.curves {
            let curve = &d.curves()[c.index()];
            picture
                .add_curve(Curve {
                    from: to(curve.from),
                    to: to(curve.to),
                    spline: curve.spline.clone(),
                    origin: None,
                })
                .expect("its spots are there");
        }
        let after = analyse(&picture)
            .unwrap_or_else(|e| panic!("the picture up to {m:?} is not a position: {e}"))
            .position()
            .clone();
        let ends = [to(m.from), to(m.to)];
        let played = pos.moves().any(|mv| {
            let (a, b) = mv.spots();
            (ends == [a, b] || ends == [b, a])
                && pos.play(&mv).is_ok_and(|p| p.same_position_as(&after))
        });
        assert!(played, "{m:?} is no legal move of {}", pos.to_glop());
        pos = after;
    }
}

#[test]
fn pictures_of_random_games_are_reached_by_as_many_moves() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let mut moves = 0;
    for seed in 0..40 {
        let n = 1 + (seed % 6) as u32;
        let board = random_game(n, 3 * n as usize, seed);
        let d = anonymous(board.drawing(), &mut rng);
        let legal = check_picture(&d, Legality::Reachable)
            .unwrap_or_else(|e| panic!("seed {seed}: refused: {e}"));
        let history = legal.history.expect("asked for");
        assert_eq!(history.moves.len(), board.moves().len(), "seed {seed}");
        assert!(legal.position.same_position_as(board.position()));
        replay(&d, &history);
        moves += history.moves.len();
    }
    assert!(moves > 150, "{moves}");
}

/// The spots and curve ends of a picture, for the reference.
fn graph(d: &Drawing) -> (Vec<SpotId>, Vec<(SpotId, SpotId)>) {
    (
        d.spots().iter().map(|s| s.id).collect(),
        d.curves().iter().map(|c| (c.from, c.to)).collect(),
    )
}

/// The picture with a move's two curves joined into one curve between its ends, its middle
/// spot gone (the move's middle must have only those two curves).
fn joined(d: &Drawing, move_index: u32) -> Option<Drawing> {
    let half = |h| {
        d.curves().iter().position(|c| {
            c.origin
                .is_some_and(|o| o.move_index == move_index && o.half == h)
        })
    };
    let (a, b) = (half(Half::First)?, half(Half::Second)?);
    let z = d.curves()[a].to;
    // A loop move's curves would join into a closed curve through one spot, which no
    // position has.
    if d.degree(z) != 2 || d.curves()[a].from == d.curves()[b].to {
        return None;
    }
    let spline = Spline::join(&d.curves()[a].spline, &d.curves()[b].spline).ok()?;
    let mut curves: Vec<Curve> = d
        .curves()
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != a && i != b)
        .map(|(_, c)| c.clone())
        .collect();
    curves.push(Curve {
        from: d.curves()[a].from,
        to: d.curves()[b].to,
        spline,
        origin: None,
    });
    let spots = d.spots().iter().filter(|s| s.id != z).copied().collect();
    Drawing::from_parts(d.world(), spots, curves).ok()
}

#[test]
fn spoiled_pictures_are_judged_as_the_reference_judges_them() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
    let (mut refused, mut accepted) = (0, 0);
    for seed in 100..160 {
        let n = 1 + (seed % 4) as u32;
        let board = random_game(n, 3 * n as usize - 1, seed);
        let d = board.drawing();
        if d.curves().len() < 4 {
            continue;
        }
        let mut spoiled = Vec::new();
        // One curve away; two curves away.
        let drop = |d: &Drawing, gone: &[usize]| {
            let curves = d
                .curves()
                .iter()
                .enumerate()
                .filter(|(i, _)| !gone.contains(i))
                .map(|(_, c)| c.clone())
                .collect();
            Drawing::from_parts(d.world(), d.spots().to_vec(), curves).expect("fewer curves")
        };
        let e = d.curves().len();
        let first = rng.random_range(0..e);
        spoiled.push(drop(d, &[first]));
        let second = (first + rng.random_range(1..e)) % e;
        spoiled.push(drop(d, &[first, second]));
        // A move's curves joined into one, and a curve away besides.
        for k in 0..board.moves().len() as u32 {
            if let Some(j) = joined(d, k) {
                let gone = rng.random_range(0..j.curves().len());
                spoiled.push(drop(&j, &[gone]));
                spoiled.push(j);
                break;
            }
        }
        for s in spoiled {
            let s = anonymous(&s, &mut rng);
            if let Err(e) = check_picture(&s, Legality::Valid) {
                panic!("seed {seed}: still valid, but {e}");
            }
            let (spots, curves) = graph(&s);
            let reference = group_moves_by_peeling(&spots, &curves);
            match check_picture(&s, Legality::Reachable) {
                Ok(legal) => {
                    let h = legal.history.expect("asked for");
                    assert_eq!(Some(h.moves.len()), reference, "seed {seed}");
                    replay(&s, &h);
                    accepted += 1;
                }
                Err(PictureError::Unreachable(why)) => {
                    assert_eq!(reference, None, "seed {seed}: refused: {why}");
                    refused += 1;
                }
                Err(other) => panic!("seed {seed}: {other}"),
            }
        }
    }
    assert!(refused > 50, "{refused}");
    assert!(accepted > 5, "{accepted}");
}
