//! Octal games and misère trees: Grundy values, period certification, the 16-cell board, misère
//! figures. Every bench checks what it computes before timing it.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use sprouts_ai::impartial::MisereStore;
use sprouts_ai::impartial::octal::{
    BOARD_CELLS, CellBoard, GrundyTable, OctalCode, find_period, grundy_values, misere_figures,
};

fn code(text: &str) -> OctalCode {
    text.parse().expect("a valid code")
}

fn values(c: &mut Criterion) {
    let kayles = code("0.77");
    let table = grundy_values(&kayles, 4000);
    assert_eq!(table[83].0, 7, "G(83) of Kayles");
    c.bench_function("kayles_values_4000", |b| {
        b.iter(|| grundy_values(black_box(&kayles), 4000))
    });
}

fn period(c: &mut Criterion) {
    let dawson = code("0.07");
    let found = find_period(&mut GrundyTable::new(dawson.clone()), 4096).expect("periodic");
    assert_eq!((found.period, found.preperiod), (34, 53), "Dawson's Kayles");
    c.bench_function("dawsons_kayles_find_period", |b| {
        b.iter(|| find_period(&mut GrundyTable::new(black_box(dawson.clone())), 4096))
    });
}

fn board(c: &mut Criterion) {
    let board = CellBoard::new(code("0.77"), BOARD_CELLS).expect("a board");
    let values = board.values();
    assert_eq!(
        values[0xFFFF].0, 1,
        "a full board is one row of 16: G(16) = 1"
    );
    assert_eq!(values[0b1110_1111].0, 1 ^ 3, "rows of 4 and 3: G(4) ^ G(3)");
    c.bench_function("kayles_board_16_cells", |b| {
        b.iter(|| black_box(&board).values())
    });
}

fn misere(c: &mut Criterion) {
    let kayles = code("0.77");
    let figures = misere_figures(&kayles, 16);
    assert_eq!(
        figures.exact_wins, figures.won_starts,
        "the exact player wins every won start"
    );
    c.bench_function("kayles_misere_figures_16_pins", |b| {
        b.iter(|| misere_figures(black_box(&kayles), 16))
    });
    c.bench_function("misere_games_born_by_day_4", |b| {
        b.iter(|| {
            let games = MisereStore::new().born_by_day(4).expect("small day");
            assert_eq!(games.len(), 22, "games born by day 4");
            games
        })
    });
}

criterion_group!(benches, values, period, board, misere);
criterion_main!(benches);
