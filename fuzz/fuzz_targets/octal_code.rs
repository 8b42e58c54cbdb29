//! Any text given as an octal code is parsed or refused with a reason; a parsed code prints and
//! parses back, and its values survive the independent checks on a small board.

#![no_main]

use libfuzzer_sys::fuzz_target;
use sprouts_ai::impartial::octal::{
    CellBoard, GrundyTable, OctalCode, check_decomposition, find_period, misere_figures,
};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let code = match text.parse::<OctalCode>() {
        Ok(code) => code,
        Err(err) => {
            assert!(!err.to_string().is_empty(), "an error explains itself");
            return;
        }
    };
    assert_eq!(
        code.to_string().parse::<OctalCode>(),
        Ok(code.clone()),
        "print and parse back"
    );
    let mut table = GrundyTable::new(code.clone());
    table.extend_to(12);
    if let Ok(found) = find_period(&mut table, 200) {
        assert!(
            found.period >= 1 && found.checked_to <= 200,
            "a period within the values"
        );
    }
    if let Ok(board) = CellBoard::new(code.clone(), 8) {
        let check = check_decomposition(&board, &table.values()[..=8]);
        assert_eq!(
            check.agreeing, check.boards,
            "the decomposition holds on 8 cells"
        );
    }
    let figures = misere_figures(&code, 6);
    assert_eq!(
        figures.exact_wins, figures.won_starts,
        "the exact player wins every won start"
    );
    assert_eq!(
        figures.tree_disagreements, 0,
        "trees agree with plain recursion"
    );
});
