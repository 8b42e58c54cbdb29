//! `analyse` and the board's transaction on a 30-spot game in the middle (40 moves drawn by the
//! grid drawer on a 1280 x 800 world), asserted then timed. `analyse` runs after every
//! operation on a picture, so it must stay well under 5 ms.

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use sprouts_draw::testing::GridDrawer;
use sprouts_draw::{Board, Settings, analyse};

/// The game: 30 seeds, 40 random moves, fixed seed.
const SEED: u64 = 30;
const MOVES: usize = 40;
/// Behaviour checksums: the picture's legs at the working refinement and its position.
const LEGS: usize = 4350;

fn mid_game() -> Board {
    let mut drawer = GridDrawer::new(320, 200, 4.0, SEED).with_reach(40).smooth();
    let settings = Settings {
        spot_radius: 1.5,
        ..Settings::default()
    };
    let mut board = drawer.new_board(30, settings).expect("30 seeds fit");
    for k in 0..MOVES {
        drawer
            .random_move(&mut board, 500)
            .expect("the board accepts the drawer's moves")
            .unwrap_or_else(|| panic!("move {k} drawn"));
    }
    board
}

fn bench(c: &mut Criterion) {
    let board = mid_game();
    assert_eq!(board.drawing().spots().len(), 30 + MOVES);
    assert_eq!(board.drawing().curves().len(), 2 * MOVES);
    let a = analyse(board.drawing()).expect("a picture of a position");
    assert_eq!(a.position().game_key(), board.position().game_key());
    let legs: usize = board
        .drawing()
        .curves()
        .iter()
        .map(|c| {
            sprouts_geom::refined_polygon(
                &c.spline,
                sprouts_draw::CERTIFY_EPS,
                sprouts_draw::CERTIFY_MAX_LEG,
            )
            .expect("refinable")
            .n_legs()
        })
        .sum();
    assert_eq!(legs, LEGS, "the game or the refinement changed");

    c.bench_function("draw/analyse_30_spots_40_moves", |b| {
        b.iter(|| analyse(std::hint::black_box(board.drawing())).unwrap())
    });
    c.bench_function("draw/rearrange_noop_30_spots_40_moves", |b| {
        b.iter_batched(
            || board.clone(),
            |mut board| {
                board
                    .rearrange("nothing", |_| Ok::<(), ()>(()))
                    .expect("the same picture");
                board
            },
            BatchSize::SmallInput,
        )
    });
    let text = board.to_json();
    c.bench_function("draw/load_saved_game_30_spots_40_moves", |b| {
        b.iter(|| Board::from_json(std::hint::black_box(&text)).unwrap())
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
