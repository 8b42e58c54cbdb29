//! Checks shared by the fuzz targets and by the tests that replay the fuzz corpus. Each one panics
//! when the property it checks fails, which is how a fuzzer reports a finding.

use crate::notation;
use crate::position::Position;
use crate::spot::SpotId;

/// The files of one fuzz target's corpus in this workspace (`fuzz/corpus/<target>/`: named seeds
/// and any regression kept there), as (file name, bytes), sorted by name: what the tests that
/// replay a corpus as ordinary tests read. Panics if the folder cannot be read or is empty.
pub fn fuzz_corpus(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = format!("{}/../fuzz/corpus/{target}", env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .map(|e| {
            let e = e.unwrap_or_else(|e| panic!("{dir}: {e}"));
            let bytes = std::fs::read(e.path())
                .unwrap_or_else(|err| panic!("{}: {err}", e.path().display()));
            (e.file_name().to_string_lossy().into_owned(), bytes)
        })
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{dir} is empty");
    files
}

/// The position with its spots renamed by a permutation drawn from `seed`.
pub fn renumbered(pos: &Position, seed: u64) -> Position {
    let ids: Vec<SpotId> = pos.spots().map(|(s, _)| s).collect();
    let mut shuffled = ids.clone();
    // A small deterministic shuffle (an LCG), enough to move every spot around.
    let mut state = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    for i in (1..shuffled.len()).rev() {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let j = (state >> 33) as usize % (i + 1);
        shuffled.swap(i, j);
    }
    let map = |s: SpotId| shuffled[ids.binary_search(&s).expect("a spot of the position")];
    let mut setup = pos.to_setup();
    for region in &mut setup.regions {
        for boundary in region.iter_mut() {
            for c in boundary.iter_mut() {
                *c = map(*c);
            }
        }
    }
    for (s, _) in &mut setup.lives {
        *s = map(*s);
    }
    match Position::from_setup(setup) {
        Ok(p) => p,
        Err(e) => e.ignore_incomplete().expect("renaming keeps the rules"),
    }
}

/// Reading a land form never panics; a text it accepts is the canonical form of one land, written
/// back unchanged, and the form's position, lives and move count are those of the position the
/// GLOP parser reads from the text. Returns whether the text was accepted.
pub fn land_form_parse(data: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(data) else {
        return false;
    };
    if text.len() > 2048 {
        return false;
    }
    let Ok(form) = crate::LandForm::parse(text) else {
        return false;
    };
    assert_eq!(form.to_string(), text, "a land form writes back its text");
    let parsed = notation::parse(text).expect("an accepted land form reads as GLOP");
    assert_eq!(form.to_position(), parsed, "{text:?}: the form's position");
    assert_eq!(form.lives(), parsed.total_lives(), "{text:?}: lives");
    // The reference count lists the families (pairs of corners): quadratic in the spots, so
    // it is taken only on lands of a size a game reaches (`0*21111` is seven bytes).
    if parsed.spot_count() > 300 {
        return true;
    }
    let moves = parsed
        .families()
        .iter()
        .map(|f| f.distinct_move_count())
        .fold(0u128, u128::saturating_add)
        .min(u128::from(u32::MAX)) as u32;
    assert_eq!(form.move_count(), moves, "{text:?}: distinct moves");
    assert_eq!(
        parsed.land_forms(),
        [form],
        "{text:?}: the canonical form's one land"
    );
    true
}

/// Parsing never panics; a parsed position keeps its invariants, writes to a text that reads back
/// as the same position (written GLOP's way and SPOTS's way), and its canonical form is a fixed
/// point.
pub fn notation_roundtrip(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if text.len() > 2048 {
        return;
    }
    match notation::parse(text) {
        Ok(p) => {
            if let Err(e) = p.check_invariants() {
                panic!("{text:?} parsed to a position breaking its rules: {e}");
            }
            let written = p.to_glop();
            let q = notation::parse(&written).unwrap_or_else(|e| {
                panic!("{text:?} was written as {written:?}, which does not read: {e}")
            });
            assert_eq!(q, p, "{text:?} -> {written:?} reads as another position");
            assert_eq!(q.to_glop(), written, "writing is not stable for {text:?}");
            let spots = notation::write_spots(&p);
            let r = notation::parse(&spots).unwrap_or_else(|e| {
                panic!("{text:?} was written SPOTS's way as {spots:?}, which does not read: {e}")
            });
            assert_eq!(r, p, "{text:?} -> {spots:?} reads as another position");
            if p.spot_count() <= 64 {
                let c = p.canonical();
                let back = notation::parse(c.as_str()).unwrap_or_else(|e| {
                    panic!("the canonical form {c} of {text:?} does not read: {e}")
                });
                assert_eq!(
                    back.canonical(),
                    c,
                    "the canonical form of {text:?} is not a fixed point"
                );
                let m = p.mirrored();
                assert_eq!(
                    m.canonical(),
                    c,
                    "the mirror image of {text:?} has another form"
                );
            }
        }
        Err(e) => assert!(
            e.offset() <= text.len(),
            "error offset past the end for {text:?}"
        ),
    }
}

/// Plays the moves `choices` picks (indices into the move list) from a start of `1 + spots % 6`
/// seeds, checking that every listed move is legal and that the counts of families, moves and
/// distinct moves agree.
pub fn legal_moves_are_legal(spots: u8, choices: &[u16]) {
    let mut pos = Position::new(1 + u32::from(spots % 6));
    for &choice in choices {
        let families = pos.families();
        let all: Vec<_> = pos.moves().collect();
        let expected: u128 = families.iter().map(|f| f.move_count()).sum();
        assert_eq!(
            all.len() as u128,
            expected,
            "moves and families disagree in {pos:?}"
        );
        let distinct: u128 = families.iter().map(|f| f.distinct_move_count()).sum();
        assert_eq!(pos.distinct_moves().count() as u128, distinct);
        assert_eq!(
            all.is_empty(),
            pos.is_over(),
            "moves exist exactly when the game is not over"
        );
        for mv in &all {
            assert!(pos.is_legal(mv), "listed move {mv:?} is illegal in {pos:?}");
        }
        if all.is_empty() {
            return;
        }
        let mv = &all[usize::from(choice) % all.len()];
        pos = pos.play(mv).expect("a listed move plays");
    }
}

/// Plays the distinct moves `choices` picks from a start of `1 + spots % 7` seeds, checking the
/// position's invariants after every move, the conservation of lives, and that canonical forms do
/// not depend on the spots' names, the rotation of boundaries or the mirror image.
pub fn play_preserves_invariants(spots: u8, choices: &[u16]) {
    let mut pos = Position::new(1 + u32::from(spots % 7));
    for &c in choices {
        let moves: Vec<_> = pos.distinct_moves().collect();
        if moves.is_empty() {
            assert!(pos.is_over());
            return;
        }
        let mv = &moves[usize::from(c) % moves.len()];
        let next = pos.play(mv).expect("a listed move plays");
        if let Err(e) = next.check_invariants() {
            panic!(
                "{} in {pos:?} gives an invalid position: {e}",
                mv.describe(&pos)
            );
        }
        if let Err(e) = next.check_drawable() {
            panic!(
                "{} in {pos:?} gives a position that cannot be drawn: {e}",
                mv.describe(&pos)
            );
        }
        assert!(next.is_complete(), "a played position is complete");
        assert_eq!(
            next.total_lives() + 1,
            pos.total_lives(),
            "a move removes one life"
        );
        assert_eq!(
            next.spot_count(),
            pos.spot_count() + 1,
            "a move adds one spot"
        );
        let canon = next.canonical();
        assert!(canon.is_exact());
        let renamed = renumbered(&next, u64::from(c) * 7919 + 1);
        assert_eq!(
            renamed.canonical(),
            canon,
            "renumbering changed the form of {next:?}"
        );
        assert_eq!(
            next.mirrored().canonical(),
            canon,
            "the mirror image changed the form of {next:?}"
        );
        assert_eq!(
            next.mirrored().game_key(),
            next.game_key(),
            "the game key is mirror-invariant"
        );
        let reread = Position::parse_glop(&next.to_glop()).expect("written positions read back");
        assert_eq!(
            reread.canonical(),
            canon,
            "writing and reading changed the form of {next:?}"
        );
        pos = next;
    }
}
