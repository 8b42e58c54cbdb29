//! Octal games against the literature and against independent solvers.

use proptest::prelude::*;

use super::*;
use crate::impartial::{
    Convention, Couple, CouplePosition, MisereSolver, Nimber, NimberSolver, OutcomeSolver,
    misere_nim_outcome, nimber_by_couples,
};

/// Kayles (0.77), n = 0..83: OEIS A002186 (Guy and Smith 1956).
const KAYLES: [u32; 84] = [
    0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7, 4, 1, 2, 8, 5, 4, 7, 2,
    1, 8, 6, 7, 4, 1, 2, 3, 1, 4, 7, 2, 1, 8, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 4, 2, 7, 4, 1, 2, 8,
    1, 4, 7, 2, 1, 8, 6, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7,
];

/// Dawson's chess, OEIS A002187: a row of n pins of Dawson's Kayles (0.07) is worth a(n - 1).
const DAWSONS_CHESS: [u32; 72] = [
    0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0, 4, 5, 2,
    7, 4, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0, 4,
    5, 3, 7, 4, 8, 1, 1, 2,
];

/// The four rule sets of the misère table.
const RULE_SETS: [&str; 4] = ["0.77", "0.07", "0.777", "0.707"];

fn code(text: &str) -> OctalCode {
    text.parse().expect("a valid code")
}

fn raw(values: &[Nimber]) -> Vec<u32> {
    values.iter().map(|v| v.0).collect()
}

#[track_caller]
fn check_period(text: &str, period: usize, preperiod: usize, last_exception: Option<usize>) {
    let mut table = GrundyTable::new(code(text));
    let found = find_period(&mut table, 4096).expect("a certified period");
    assert_eq!(
        (found.period, found.preperiod, found.last_exception()),
        (period, preperiod, last_exception),
        "period of {text}"
    );
    let t = code(text).max_removal();
    assert_eq!(found.checked_to, 2 * preperiod + 2 * period + t - 1);
}

#[test]
fn kayles_values_match_oeis_a002186() {
    assert_eq!(raw(&grundy_values(&code("0.77"), 83)), KAYLES);
}

#[test]
fn dawsons_kayles_values_match_oeis_a002187_shifted() {
    let values = raw(&grundy_values(&code("0.07"), DAWSONS_CHESS.len()));
    assert_eq!(values[0], 0, "no pin");
    assert_eq!(values[1..], DAWSONS_CHESS, "row n is a(n - 1)");
}

#[test]
fn periods_are_certified_by_guy_smith() {
    // Kayles: period 12 from n = 71 (Guy 1949); the literature's figures.
    check_period("0.77", 12, 71, Some(70));
    // Dawson's Kayles: A002187 has period 34 and its last exception at index 51, row 52 here.
    check_period("0.07", 34, 53, Some(52));
    check_period("0.707", 2, 0, None);
    check_period("0.0", 1, 0, None);
    // Dawson's chess (0.137) is A002187 itself: last exception at 51.
    check_period("0.137", 34, 52, Some(51));
    // Guiles (0.15): period 10 (Winning Ways, ch. 4).
    check_period("0.15", 10, 1, Some(0));
}

#[test]
fn a_wrongly_claimed_start_is_rejected() {
    let kayles = grundy_values(&code("0.77"), 200);
    let rejected = certify_period(&kayles, 2, 12, 70).expect_err("a start of 70 is wrong");
    assert_eq!(
        rejected.to_string(),
        "not periodic from 70 with period 12: G(70) = 6 but G(82) = 2"
    );
    assert_eq!(
        certify_period(&kayles, 2, 12, 70),
        Err(PeriodError::Broken {
            period: 12,
            preperiod: 70,
            n: 70,
            value: 6,
            later: 82,
            later_value: 2,
        })
    );
    assert_eq!(
        certify_period(&kayles[..=166], 2, 12, 71),
        Err(PeriodError::TooFewValues {
            needed: 167,
            available: 166,
        })
    );
    assert_eq!(
        certify_period(&kayles, 2, 0, 71),
        Err(PeriodError::ZeroPeriod)
    );
    // Period 24 holds from 71 too, but 12 is the least and 6 is broken.
    assert!(certify_period(&kayles, 2, 24, 71).is_ok());
    assert!(matches!(
        certify_period(&kayles, 2, 6, 71),
        Err(PeriodError::Broken { .. })
    ));
}

#[test]
fn no_period_is_claimed_without_a_certificate() {
    // 0.777 shows no period among its first 4096 values.
    let mut table = GrundyTable::new(code("0.777"));
    assert_eq!(
        find_period(&mut table, 4096),
        Err(PeriodNotFound { searched_to: 4096 })
    );
    let mut kayles = GrundyTable::new(code("0.77"));
    assert_eq!(
        find_period(&mut kayles, 160),
        Err(PeriodNotFound { searched_to: 160 }),
        "Kayles needs values up to 167"
    );
}

#[test]
fn table_agrees_with_the_generic_solvers() {
    for text in RULE_SETS.iter().chain(&["0.137", "0.6", "4.07", "0.007"]) {
        let table = grundy_values(&code(text), 83);
        let game = OctalGame::new(code(text));
        let mut by_parts = NimberSolver::new(&game);
        let mut by_couples = OutcomeSolver::new(Couple(&game), Convention::Normal);
        for n in 0..=83u32 {
            let row = Rows::new([n]);
            assert_eq!(by_parts.nimber(&row), table[n as usize], "{text}, row {n}");
        }
        for n in 0..=14u32 {
            let row = Rows::new([n]);
            assert_eq!(
                nimber_by_couples(&mut by_couples, &row),
                table[n as usize],
                "{text}, row {n}"
            );
        }
    }
}

#[test]
fn the_decomposition_survives_every_16_cell_board() {
    for text in RULE_SETS {
        let values = grundy_values(&code(text), BOARD_CELLS as usize);
        let board = CellBoard::new(code(text), BOARD_CELLS).expect("a board");
        let check = check_decomposition(&board, &values);
        assert_eq!(
            check,
            DecompositionCheck {
                boards: 65_536,
                agreeing: 65_536,
                first_counterexample: None,
            },
            "{text}"
        );
    }
}

#[test]
fn rows_beside_their_value_are_lost_and_beside_any_other_heap_won() {
    for text in RULE_SETS {
        let values = grundy_values(&code(text), BOARD_CELLS as usize);
        let board = CellBoard::new(code(text), BOARD_CELLS).expect("a board");
        let check = play_the_definition(&board, &values, 15);
        assert_eq!(
            check,
            DefinitionCheck {
                games: 17 * 16,
                agreeing: 17 * 16,
                first_counterexample: None,
            },
            "{text}"
        );
    }
}

#[test]
fn a_wrong_value_is_caught_by_both_checks() {
    let mut values = grundy_values(&code("0.77"), 16);
    values[9] = Nimber(5);
    let board = CellBoard::new(code("0.77"), 12).expect("a board");
    let decomposition = check_decomposition(&board, &values);
    assert_eq!(decomposition.first_counterexample, Some(0b1_1111_1111));
    let definition = play_the_definition(&board, &values, 7);
    assert_eq!(definition.first_counterexample, Some((9, 4)));
    assert_eq!(
        definition.agreeing,
        definition.games - 2,
        "heaps 4 and 5 beside row 9"
    );
}

#[test]
fn boards_refuse_what_they_cannot_show() {
    assert!(matches!(
        CellBoard::new(code("4.07"), 16),
        Err(BoardError::SplitWithoutTaking { .. })
    ));
    assert_eq!(
        CellBoard::new(code("0.77"), 25).map(|b| b.cells()),
        Err(BoardError::TooManyCells { cells: 25 })
    );
}

#[test]
fn positions_by_pins_are_the_partitions() {
    let counts: Vec<usize> = (0..=12).map(|pins| Rows::with_pins(pins).len()).collect();
    assert_eq!(
        counts,
        [1, 1, 2, 3, 5, 7, 11, 15, 22, 30, 42, 56, 77],
        "OEIS A000041"
    );
    assert_eq!(Rows::new([3, 0, 1]).to_string(), "1+3");
    assert_eq!(Rows::new([5, 2]).pins(), 7);
}

/// The misère table of `cargo run --example kayles`: every position of 1 to 24 pins.
#[test]
fn misere_figures_for_the_four_rule_sets() {
    let expected = [
        // code, positions, called correctly, won starts, bot wins
        ("0.77", 7337, 7111, 6071, 12),
        ("0.07", 7313, 4435, 5146, 937),
        ("0.777", 7337, 7278, 6248, 12),
        ("0.707", 7337, 0, 4114, 4114),
    ];
    for (text, positions, called_correctly, won_starts, bot_wins) in expected {
        let figures = misere_figures(&code(text), 24);
        assert_eq!(
            (
                figures.positions,
                figures.called_correctly,
                figures.won_starts,
                figures.bot_wins
            ),
            (positions, called_correctly, won_starts, bot_wins),
            "{text}"
        );
        assert_eq!(
            figures.exact_wins, figures.won_starts,
            "{text}: the exact player wins every won start"
        );
        assert_eq!(
            figures.tree_disagreements, 0,
            "{text}: trees against plain recursion"
        );
    }
}

#[test]
fn misere_kayles_rows_are_heaps_up_to_4_and_row_5_is_told_apart_by_a_heap() {
    let game = OctalGame::new(code("0.77"));
    let mut solver = MisereSolver::new(&game);
    let mut plain = OutcomeSolver::new(Couple(&game), Convention::Misere);
    let beside = |plain: &mut OutcomeSolver<Couple<&OctalGame>>, n: u32, heap: u32| {
        plain.outcome(&CouplePosition {
            position: Rows::new([n]),
            heap: Nimber(heap),
        })
    };
    for n in 0..=4 {
        let tree = solver.tree(&Rows::new([n]));
        let heap = solver.store().heap_size(tree).expect("a heap");
        assert_eq!(
            Nimber(heap),
            grundy_values(&code("0.77"), 4)[n as usize],
            "row {n}"
        );
        for h in 0..8 {
            assert_eq!(
                beside(&mut plain, n, h),
                misere_nim_outcome([heap, h]),
                "row {n} + *{h}"
            );
        }
    }
    // Row 5 is not a heap in misère play: a heap tells it apart from *4, its normal-play value.
    let tree = solver.tree(&Rows::new([5]));
    assert_eq!(solver.store().heap_size(tree), None);
    let told_apart = (0..8).find(|&h| beside(&mut plain, 5, h) != misere_nim_outcome([4, h]));
    assert!(
        told_apart.is_some(),
        "some heap distinguishes row 5 from *4"
    );
}

fn any_code() -> impl Strategy<Value = OctalCode> {
    (
        prop_oneof![Just(0u8), Just(4u8)],
        prop::collection::vec(0u8..8, 1..=4),
    )
        .prop_map(|(d0, digits)| {
            let text: String = digits.iter().map(|d| char::from(b'0' + d)).collect();
            code(&format!("{d0}.{text}"))
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn codes_print_and_parse_back(code in any_code()) {
        prop_assert_eq!(code.to_string().parse::<OctalCode>(), Ok(code));
    }

    #[test]
    fn table_agrees_with_mex_by_parts(code in any_code()) {
        let table = grundy_values(&code, 24);
        let mut solver = NimberSolver::new(OctalGame::new(code.clone()));
        for n in 0..=24u32 {
            prop_assert_eq!(solver.nimber(&Rows::new([n])), table[n as usize], "row {}", n);
        }
    }

    #[test]
    fn decomposition_holds_on_10_cells(code in any_code()) {
        prop_assume!(!code.splits_without_taking());
        let values = grundy_values(&code, 10);
        let board = CellBoard::new(code, 10).expect("a board");
        let check = check_decomposition(&board, &values);
        prop_assert_eq!(check.agreeing, check.boards);
    }

    #[test]
    fn any_text_parses_or_explains(text in ".{0,12}") {
        match text.parse::<OctalCode>() {
            Ok(code) => prop_assert_eq!(code.to_string().parse::<OctalCode>(), Ok(code)),
            Err(err) => prop_assert!(!err.to_string().is_empty()),
        }
    }
}
