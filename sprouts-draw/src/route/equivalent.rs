//! Drawing a move that gives the same game as the computer's move, when the computer's move
//! itself cannot be drawn (spec 5.9: after a computer move the drawn position is compared with
//! the intended one by its game key, its mirror image's, or the same canonical form).
//!
//! Many positions have several moves whose children are the same game: two loose seeds of one
//! region, symmetric spots, a move and its mirror image. The search cannot tell them apart,
//! but the picture can: one may have to cross a crowded place that another avoids. When the
//! move asked is refused, `crate::Board::draw_move` tries the other moves of the position whose
//! child is the same game ([`equivalent_moves`]), nearest and with the most room first, at
//! most [`EQUIVALENTS_TRIED`], each prepared and checked as the move asked is; the first that
//! is drawn is played and recorded as an [`Equivalent`] of the move asked.
//!
//! The sameness test ([`same_game`]) is exact: equal game keys (the same position, spot for
//! spot), or equal exact canonical forms without GLOP's reductions (the same position up to
//! renumbering and mirror image, dead regions and stumps dropped; spec 2.6). A cheap
//! invariant of the canonical form ([`Signature`]) rules most moves out before any form is
//! computed.

use std::fmt;

use sprouts_topo::{Move, Position, SpotId};

use super::planner::Scene;
use super::{BoardView, Refusal};

/// Most moves giving the same game that are tried when the move asked is refused.
pub(crate) const EQUIVALENTS_TRIED: usize = 6;

/// Most moves of the position examined for giving the same game (each needs its child; a
/// position with more distinct moves has its first ones examined).
const EQUIVALENTS_EXAMINED: usize = 4000;

/// A move drawn in place of the move asked: another move of the same position whose child is
/// the same game ([`crate::DrawnMove::equivalent_of`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Equivalent {
    /// The move asked (a move of the position before it).
    pub asked: Move,
    /// The move asked, in words.
    pub words: String,
    /// Why the move asked was refused.
    pub refusal: Refusal,
    /// The moves giving the same game tried before the one drawn, in words, each with its
    /// refusal.
    pub refused: Vec<(String, Refusal)>,
}

impl Equivalent {
    /// The substitution in words: "`asked` drawn as `drawn`", or, when the two read alike
    /// (the same spots and enclosure through other corners), "`asked` drawn through other
    /// corners of its spots".
    pub fn words_with(&self, drawn: &str) -> String {
        if drawn == self.words {
            format!("{} drawn through other corners of its spots", self.words)
        } else {
            format!("{} drawn as {drawn}", self.words)
        }
    }
}

impl Refusal {
    /// The refusal of the move asked: for [`Refusal::Equivalents`] the refusal of the
    /// computer's own move, for any other refusal itself.
    pub fn of_the_move_asked(&self) -> &Refusal {
        match self {
            Refusal::Equivalents { asked, .. } => asked,
            other => other,
        }
    }
}

/// Whether a refusal of the move asked is one another move giving the same game could avoid:
/// refusals of the drawing (no way, no room, wrong enclosure, certificate, fit, picture,
/// authority check), not of the move itself (unknown spot, no life, illegal): those that want
/// room ([`crate::ladder::wants_room`]), and the picture's and the authority check's.
pub(crate) fn worth_another_move(e: &Refusal) -> bool {
    crate::ladder::wants_room(e) || matches!(e, Refusal::Picture(_) | Refusal::Mismatch(_))
}

/// A cheap invariant of [`Position::canonical_unreduced`]: the total lives and the sorted
/// lives of the regions that keep two or more (the regions the form writes; renumbering and
/// the mirror image change none of it, and stumps have no lives). Positions with different
/// signatures are never the same game.
#[derive(PartialEq, Eq, Debug)]
pub(crate) struct Signature {
    lives: u32,
    regions: Vec<u32>,
}

impl Signature {
    pub(crate) fn of(pos: &Position) -> Signature {
        let mut regions: Vec<u32> = pos
            .regions()
            .map(|r| r.lives())
            .filter(|&l| l >= 2)
            .collect();
        regions.sort_unstable();
        Signature {
            lives: pos.total_lives(),
            regions,
        }
    }
}

/// Whether `a` and `b` are the same game ([`Position::same_game`], the one test the ladder,
/// self-play and network play share).
pub(crate) fn same_game(a: &Position, b: &Position) -> bool {
    a.same_game(b)
}

/// The other moves of `pos` whose child is the same game as `mv`'s ([`same_game`]), one per
/// family and count of interchangeable boundaries ([`Position::distinct_moves`]; the drawing
/// chooses which of them), in the order of `distinct_moves`; at most
/// [`EQUIVALENTS_EXAMINED`] moves are examined. Empty if `mv` is not a move of `pos`.
pub(crate) fn equivalent_moves(pos: &Position, mv: &Move) -> Vec<Move> {
    let Ok(child) = pos.play(mv) else {
        return Vec::new();
    };
    let key = child.game_key();
    let signature = Signature::of(&child);
    let form = child.canonical_unreduced();
    let mut out = Vec::new();
    let mut other = Position::new(0);
    for m in pos.distinct_moves().take(EQUIVALENTS_EXAMINED) {
        if m == *mv || pos.play_into(&m, &mut other).is_err() {
            continue;
        }
        if other.game_key() == key {
            out.push(m);
            continue;
        }
        if !form.is_exact() || Signature::of(&other) != signature {
            continue;
        }
        let f = other.canonical_unreduced();
        if f.is_exact() && f == form {
            out.push(m);
        }
    }
    out
}

/// The room round spot `s` (pixels): the distance from its disc to the nearest other spot's
/// disc and to the nearest curve that does not end at it, at most `cap`.
fn room_at(scene: &Scene, s: SpotId, cap: f64) -> f64 {
    let Some((c, r)) = scene.spot(s) else {
        return 0.0;
    };
    let mut room = cap;
    for &(id, q, rq) in &scene.spots {
        if id != s {
            room = room.min((q - c).norm() - rq - r);
        }
    }
    for (a, b, pts) in &scene.curves {
        if *a == s || *b == s {
            continue;
        }
        for w in pts.windows(2) {
            room = room.min(sprouts_geom::point_segment_distance(c, w[0], w[1]) - r);
        }
    }
    room.max(0.0)
}

/// How hard `mv` looks to draw (less first): the straight distance between its two spots (a
/// loop counted as `6 d0`, about the length of a small loop), less the room round each of
/// them (up to `4 d0` each): nearest and with the most room first.
fn effort(scene: &Scene, mv: &Move) -> f64 {
    let (a, b) = mv.spots();
    let cap = 4.0 * scene.d0;
    let length = match (scene.spot(a), scene.spot(b)) {
        _ if a == b => 6.0 * scene.d0,
        (Some((p, _)), Some((q, _))) => (p - q).norm(),
        _ => f64::INFINITY,
    };
    length - room_at(scene, a, cap) - room_at(scene, b, cap)
}

/// [`equivalent_moves`] in the order they are tried: the least [`effort`] first (ties in the
/// order of `distinct_moves`).
pub(crate) fn equivalents_to_try(view: &BoardView<'_>, mv: &Move) -> Vec<Move> {
    let pos = view.position();
    let scene = Scene::new(view.drawing, view.settings);
    let mut moves: Vec<(f64, Move)> = equivalent_moves(pos, mv)
        .into_iter()
        .map(|m| (effort(&scene, &m), m))
        .collect();
    moves.sort_by(|x, y| x.0.total_cmp(&y.0));
    moves.into_iter().map(|(_, m)| m).collect()
}

/// The status line of [`Refusal::Equivalents`].
pub(crate) fn status_line(
    f: &mut fmt::Formatter<'_>,
    words: &str,
    asked: &Refusal,
    tried: &[(String, Refusal)],
) -> fmt::Result {
    write!(f, "{words}: {asked}")?;
    match tried.len() {
        0 => Ok(()),
        1 => write!(
            f,
            "; the one move giving the same game tried could not be drawn either"
        ),
        n => write!(
            f,
            "; the {n} moves giving the same game tried could not be drawn either"
        ),
    }
}

/// [`Refusal::detail`] of [`Refusal::Equivalents`].
pub(crate) fn detail(words: &str, asked: &Refusal, tried: &[(String, Refusal)]) -> String {
    let mut out = format!("{words}: {}", asked.detail());
    for (w, e) in tried {
        out.push_str(&format!("; tried instead {w}: {}", e.detail()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use sprouts_topo::GameKey;

    /// Every position reachable in at most `depth` moves from `n` spots, one per game key.
    fn reachable(n: u32, depth: u32) -> Vec<Position> {
        let mut seen: std::collections::BTreeSet<GameKey> = Default::default();
        let mut layer = vec![Position::new(n)];
        let mut out = Vec::new();
        for _ in 0..=depth {
            let mut next = Vec::new();
            for p in layer {
                if !seen.insert(p.game_key()) {
                    continue;
                }
                next.extend(p.distinct_moves().filter_map(|m| p.play(&m).ok()));
                out.push(p);
            }
            layer = next;
        }
        out
    }

    /// The reference: the same game key, or the same exact canonical form without reductions
    /// (each child's form computed on its own, no signature).
    fn reference(a: &Position, b: &Position) -> bool {
        let (fa, fb) = (a.canonical_unreduced(), b.canonical_unreduced());
        a.game_key() == b.game_key() || (fa.is_exact() && fb.is_exact() && fa == fb)
    }

    /// The sorted canonical forms of a position's children: equal for the same game.
    fn children(p: &Position) -> Vec<String> {
        let mut v: Vec<String> = p
            .distinct_moves()
            .map(|m| p.play(&m).unwrap().canonical().into_string())
            .collect();
        v.sort();
        v
    }

    /// Checks [`same_game`] and [`equivalent_moves`] on every pair of distinct moves of `pos`;
    /// returns the number of pairs judged the same game with different game keys.
    fn check_position(pos: &Position) -> usize {
        let moves: Vec<Move> = pos.distinct_moves().collect();
        let kids: Vec<Position> = moves.iter().map(|m| pos.play(m).unwrap()).collect();
        let mut renamed_pairs = 0;
        for (i, a) in kids.iter().enumerate() {
            let want: Vec<&Move> = (0..kids.len())
                .filter(|&j| j != i && reference(a, &kids[j]))
                .map(|j| &moves[j])
                .collect();
            let got = equivalent_moves(pos, &moves[i]);
            assert_eq!(
                got.iter().collect::<Vec<_>>(),
                want,
                "{pos}: the moves giving the same game as {}",
                moves[i].describe(pos)
            );
            for b in &kids {
                let same = same_game(a, b);
                assert_eq!(same, reference(a, b), "{pos}: {a} and {b}");
                if same {
                    // The same game: the same GLOP form and the same children.
                    assert_eq!(a.canonical(), b.canonical(), "{a} and {b}");
                    assert_eq!(children(a), children(b), "{a} and {b}");
                    if a.game_key() != b.game_key() {
                        renamed_pairs += 1;
                    }
                }
            }
        }
        renamed_pairs
    }

    /// Every position reachable in three moves from one and two spots and in two from three:
    /// the sameness test agrees with comparing the children's canonical forms, the moves
    /// listed as giving the same game are exactly those, and every pair judged the same game
    /// has the same GLOP form and the same children.
    #[test]
    fn the_sameness_test_agrees_with_canonical_forms_exhaustively() {
        let mut renamed = 0;
        let mut positions = 0;
        for (n, depth) in [(1, 3), (2, 3), (3, 2)] {
            for pos in reachable(n, depth) {
                renamed += check_position(&pos);
                positions += 1;
            }
        }
        assert!(positions > 100, "{positions}");
        // Many moves give the same game as another move with different spots.
        assert!(renamed > 100, "{renamed}");
    }

    /// The test itself: a position is the same game as itself renumbered and as its mirror
    /// image, and a move's child is not the same game as its parent.
    #[test]
    fn renumbered_and_mirrored_positions_are_the_same_game() {
        for pos in reachable(3, 3) {
            for seed in 0..3 {
                let other = sprouts_topo::checks::renumbered(&pos, seed);
                assert!(same_game(&pos, &other), "{pos} and {other}");
            }
            assert!(same_game(&pos, &pos.mirrored()), "{pos}");
            if let Some(m) = pos.distinct_moves().next() {
                assert!(!same_game(&pos, &pos.play(&m).unwrap()));
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        /// Random positions of 3 to 7 spots, up to 12 moves in: the same checks on every pair
        /// of their moves.
        #[test]
        fn the_sameness_test_agrees_on_random_positions(
            n in 3u32..=7,
            choices in proptest::collection::vec(any::<u16>(), 0..12),
        ) {
            let mut pos = Position::new(n);
            for c in choices {
                let moves: Vec<Move> = pos.distinct_moves().collect();
                if moves.is_empty() {
                    break;
                }
                pos = pos.play(&moves[usize::from(c) % moves.len()]).unwrap();
            }
            check_position(&pos);
        }
    }
}
