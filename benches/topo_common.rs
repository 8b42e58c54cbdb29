//! Positions for the topological benches: a 12-spot game played by the specification's Random
//! player (section 5.2: a family uniformly, then how many of its free boundaries go inside
//! uniformly, then which), seeded with `Xoshiro256PlusPlus::seed_from_u64(979)`: the longest of
//! the games from seeds 0 to 2999 (33 moves). Stored as written by `Position::to_glop` after 10, 20
//! and 30 moves (stumps are the `3`s), with what the benches assert before timing.

/// One bench position and what it must give.
pub(crate) struct Case {
    /// A name for the bench.
    pub(crate) name: &'static str,
    /// The position, in GLOP notation.
    pub(crate) glop: &'static str,
    /// Its canonical form (GLOP's reductions).
    pub(crate) canonical: &'static str,
    /// The number of moves (every enclosure).
    pub(crate) moves: usize,
    /// The number of distinct moves (interchangeable boundaries counted).
    pub(crate) distinct_moves: usize,
    /// The number of distinct children (canonical forms).
    pub(crate) children: usize,
}

/// The positions after 10, 20 and 30 moves.
pub(crate) const CASES: [Case; 3] = [
    Case {
        name: "12-spots-after-10",
        glop: "a3A333313BCD3ab1b.0*4|CB333A3D+3A|3133A33a3333a",
        canonical: "0*4.1Aab1baBCD|ADCB+122",
        moves: 842,
        distinct_moves: 315,
        children: 230,
    },
    Case {
        name: "12-spots-after-20",
        glop: "3333+33+A3333333|333B|C3D|33333B3333333133a1a3A33CD+33+333333a1a.0+3333333333A|33333A+333333",
        canonical: "0.12+12AB2a1a|AB",
        moves: 41,
        distinct_moves: 41,
        children: 30,
    },
    Case {
        name: "12-spots-after-30",
        glop: "3333+33+33333333+33+333+3333+3333333333A|33333A+333+333333+333+333+333333333+33A|333333333333B|333333A33333B+3333333+33+33313A|33333333333A",
        canonical: "12+22",
        moves: 3,
        distinct_moves: 3,
        children: 3,
    },
];

/// Reads a case's position and asserts everything the case says about it.
pub(crate) fn checked(case: &Case) -> sprouts_topo::Position {
    let pos = sprouts_topo::Position::parse_glop(case.glop).expect("a bench position reads");
    let form = pos.canonical();
    assert_eq!(form.as_str(), case.canonical, "{}", case.name);
    assert!(form.is_exact(), "{}", case.name);
    assert_eq!(pos.moves().count(), case.moves, "{}", case.name);
    assert_eq!(
        pos.distinct_moves().count(),
        case.distinct_moves,
        "{}",
        case.name
    );
    assert_eq!(
        pos.distinct_children().len(),
        case.children,
        "{}",
        case.name
    );
    pos
}
