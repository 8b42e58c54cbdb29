//! Canonical forms are stable: the forms stored in `tests/data/12-spots.forms` (written by a
//! plain implementation of the same canonical form, without the fast paths) are reproduced byte
//! for byte, for the positions, their plain forms and the distinct children of each. A change
//! to a form is a change to every stored table keyed by forms, so it must be deliberate.

use sprouts_topo::Position;

#[test]
fn stored_forms_are_reproduced() {
    let path = format!("{}/tests/data/12-spots.forms", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut children: Option<(usize, Vec<String>, Vec<String>)> = None;
    let mut positions = 0;
    let check = |c: &Option<(usize, Vec<String>, Vec<String>)>| {
        if let Some((line, want, got)) = c {
            assert_eq!(got, want, "12-spots.forms:{line}: children differ");
        }
    };
    for (i, line) in text.lines().enumerate() {
        if line.starts_with('#') {
            continue;
        }
        if let Some(child) = line.strip_prefix('\t') {
            children
                .as_mut()
                .unwrap_or_else(|| panic!("12-spots.forms:{}: a child before a position", i + 1))
                .1
                .push(child.to_string());
            continue;
        }
        check(&children);
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(fields.len(), 3, "12-spots.forms:{}: three fields", i + 1);
        let pos = Position::parse_glop(fields[0])
            .unwrap_or_else(|e| panic!("12-spots.forms:{}: {e}", i + 1));
        let glop = pos.canonical();
        assert!(glop.is_exact());
        assert_eq!(glop.as_str(), fields[1], "12-spots.forms:{}: form", i + 1);
        assert_eq!(
            pos.canonical_unreduced().as_str(),
            fields[2],
            "12-spots.forms:{}: plain form",
            i + 1
        );
        let got = pos
            .distinct_children()
            .into_iter()
            .map(|c| c.into_string())
            .collect();
        children = Some((i + 1, Vec::new(), got));
        positions += 1;
    }
    check(&children);
    assert_eq!(positions, 250);
}
