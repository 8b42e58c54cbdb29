//! `LandForm` against `Position`: every land of every position reachable from small starts, and
//! of random games.

use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::*;

use super::*;

/// The reference move count: the land read by the GLOP parser, its families' distinct moves
/// summed.
fn move_count_of_position(p: &Position) -> u32 {
    p.families()
        .iter()
        .map(|f| f.distinct_move_count())
        .fold(0u128, u128::saturating_add)
        .min(u128::from(u32::MAX)) as u32
}

/// Checks one land form against the position its text reads as.
#[track_caller]
fn check_form(form: &LandForm) {
    let text = form.as_str();
    let parsed = Position::parse_glop(text).unwrap();
    assert_eq!(form.to_position(), parsed, "{text}");
    assert_eq!(form.lives(), parsed.total_lives(), "{text}");
    assert_eq!(form.move_count(), move_count_of_position(&parsed), "{text}");
    assert_eq!(form.to_string(), text);
    assert_eq!(LandForm::parse(text).as_ref(), Ok(form), "{text}");
    // The form names its land: the position's canonical form is the form itself.
    assert_eq!(parsed.land_forms(), std::slice::from_ref(form), "{text}");
}

/// Checks a position's land forms against its canonical form, and every form against its
/// position.
#[track_caller]
fn check_position(p: &Position) -> Vec<LandForm> {
    let form = p.canonical();
    let lands = p.land_forms();
    assert_eq!(lands, form.land_forms(), "{form}");
    let texts: Vec<&str> = lands.iter().map(LandForm::as_str).collect();
    assert_eq!(texts, form.lands().collect::<Vec<_>>(), "{form}");
    for l in &lands {
        check_form(l);
    }
    assert_eq!(
        lands.iter().map(LandForm::lives).sum::<u32>(),
        form.lands()
            .map(|l| Position::parse_glop(l).unwrap().total_lives())
            .sum()
    );
    lands
}

/// Every position reachable from 1 to 4 seeds: land forms are the canonical form's lands and
/// agree with their positions; equal forms exactly for equal canonical forms (of one-land
/// positions); children of a land are the position's distinct children.
#[test]
fn land_forms_agree_with_positions_exhaustively() {
    let mut forms: BTreeMap<LandForm, String> = BTreeMap::new();
    let mut checked = 0;
    for n in 1..=4 {
        for p in crate::reachable_positions(n, usize::MAX) {
            for l in check_position(&p) {
                checked += 1;
                let canonical = l.to_position().canonical().into_string();
                if let Some(old) = forms.insert(l.clone(), canonical.clone()) {
                    assert_eq!(old, canonical);
                }
            }
        }
    }
    assert!(checked > 1000, "{checked}");
    // Distinct forms name distinct games, and the map's order is the texts' order.
    let canonical: BTreeSet<&String> = forms.values().collect();
    assert_eq!(canonical.len(), forms.len());
    let texts: Vec<&str> = forms.keys().map(LandForm::as_str).collect();
    assert!(texts.windows(2).all(|w| w[0] < w[1]));
    for l in forms.keys().take(300) {
        let children: Vec<String> = l
            .children()
            .iter()
            .map(|c| match c.is_empty() {
                true => "!".to_string(),
                false => c.iter().map(LandForm::as_str).collect::<Vec<_>>().join("+"),
            })
            .collect();
        let want: Vec<String> = l
            .to_position()
            .distinct_children()
            .into_iter()
            .map(|c| c.into_string())
            .collect();
        assert_eq!(children, want, "{l}");
    }
}

/// Lands with many letters (extended names), runs of seeds and boundaries read as the reference
/// reads them.
#[test]
fn written_lands_agree_with_positions() {
    for text in [
        "0*12",
        "0*8.AB|0*3.AB",
        "0.1a1a.AB|AB",
        "0*4.1Aab1baBCD|ADCB",
        "1ab1ba.1cd1dc.0.0.2",
        "abcdefghijklm(13)m(13)lkjihgfedcba.1",
        "ABCDEFGHIJKLMNOPQRSTUVWXYZ(26)|0.Z(26)YXWVUTSRQPONMLKJIHGFEDCBA",
        "22",
        "0",
        "0.1a1b1c1d1e1f1g1h1i1j1k1l1m(13)1m(13)1l1k1j1i1h1g1f1e1d1c1b1a",
        concat!(
            "Z(1)Z(2).Z(3)Z(4)|0*2.Z(5)Z(6).Z(1)Z(2)|Z(7)Z(8).Z(5)Z(6)|Z(9)Z(10).Z(7)Z(8)|Z(9",
            ")Z(10)|Z(11)Z(12).Z(13)Z(14)Z(15)Z(16).Z(3)Z(4)|0*2.Z(11)Z(12)|Z(17)Z(18).Z(13)Z",
            "(16)Z(15)Z(14)|Z(19)Z(20)Z(17)Z(18)|Z(21)Z(22)Z(20)Z(19)|Z(23)Z(24).Z(25)Z(26).Z",
            "(21)Z(22)|0.Z(27)Z(23)|Z(24)Z(27)|0.Z(25)Z(26)",
        ),
    ] {
        let p = Position::parse_glop(text).unwrap();
        for l in check_position(&p) {
            assert_eq!(
                l.to_position().canonical().land_forms(),
                std::slice::from_ref(&l)
            );
        }
    }
}

#[test]
fn texts_that_are_not_one_canonical_land_are_refused() {
    assert!(matches!(
        LandForm::parse("0*2.Q"),
        Err(LandFormError::Parse(_))
    ));
    assert!(matches!(
        LandForm::parse("0+0"),
        Err(LandFormError::NotOneLand { lands: 2 })
    ));
    assert!(matches!(
        LandForm::parse("2"),
        Err(LandFormError::NotOneLand { lands: 0 })
    ));
    assert_eq!(
        LandForm::parse("0.0"),
        Err(LandFormError::NotCanonical {
            canonical: "0*2".into()
        })
    );
    assert!(LandForm::parse("0*2").is_ok());
}

/// Sums compare as their canonical forms' texts, also where a land's text is a prefix of
/// another's followed by a byte that sorts before `+` (`0` against `0*2`).
#[test]
fn sums_compare_as_their_texts() {
    let lands: Vec<LandForm> = [
        "0", "0*2", "0*3", "0.1a1a", "0*2.1a1a", "0.AB|AB", "22", "0.2", "0*2.2",
    ]
    .iter()
    .map(|t| LandForm::parse(t).unwrap())
    .collect();
    let mut sums: Vec<Vec<LandForm>> = vec![Vec::new()];
    for a in &lands {
        sums.push(vec![a.clone()]);
        for b in &lands {
            let mut s = vec![a.clone(), b.clone()];
            s.sort();
            sums.push(s);
        }
    }
    let text = |s: &[LandForm]| match s.is_empty() {
        true => "!".to_string(),
        false => s.iter().map(LandForm::as_str).collect::<Vec<_>>().join("+"),
    };
    for a in &sums {
        for b in &sums {
            assert_eq!(
                LandForm::cmp_sums(a, b),
                text(a).cmp(&text(b)),
                "{} {}",
                text(a),
                text(b)
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    /// Random games from 1 to 14 seeds: every land's form reads back, names its position and
    /// counts its lives and moves as the position does; the lands' forms are the canonical
    /// form's lands.
    #[test]
    fn land_forms_round_trip_in_random_games(
        n in 1u32..=14,
        choices in prop::collection::vec(any::<u16>(), 0..40),
    ) {
        for p in crate::random_game(n, &choices) {
            for l in check_position(&p) {
                let read: LandForm = l.to_string().parse().unwrap();
                prop_assert_eq!(&read, &l);
                prop_assert_eq!(read.lives(), l.lives());
                prop_assert_eq!(l.to_position().land_forms(), vec![l.clone()]);
            }
        }
    }
}
