//! A computer's move as plans (spec 5.9): its interchangeable boundaries chosen by the
//! nearest-cluster rule ([`cluster_side_a`]), the other choices to try when that one cannot be
//! drawn with the boundaries on their sides ([`other_choices`]), and a refusal that names the
//! move asked ([`naming_the_move_asked`]). Topology and distances only: preparing the plans
//! is `super::prepare_move`'s.

use sprouts_geom::Point;
use sprouts_topo::{BoundaryId, Move, Position};

use super::Refusal;
use super::plan::Want;
use super::planner::Scene;

/// Most other choices of interchangeable boundaries a computer's move refused for its
/// enclosure tries.
pub(super) const OTHER_CHOICES: usize = 3;

/// The interchangeable boundaries of a move chosen by the nearest-cluster rule of spec 5.9:
/// from the move's spots and the boundaries it must enclose, the nearest boundary of a kind
/// still wanted is added, then the next nearest to everything chosen so far, and so on.
pub(super) fn cluster_side_a(pos: &Position, scene: &Scene, mv: &Move) -> Vec<BoundaryId> {
    let Some(family) = pos
        .families()
        .into_iter()
        .find(|f| f.corners() == (mv.from(), mv.to()))
    else {
        return mv.side_a().to_vec();
    };
    let free = family.free_boundaries();
    let mut groups: Vec<&[BoundaryId]> = Vec::new();
    let mut at = 0;
    for &n in family.interchangeable_groups() {
        groups.push(&free[at..at + n as usize]);
        at += n as usize;
    }
    let side = mv.side_a();
    let point_of = |b: BoundaryId| -> Vec<Point> {
        pos.boundary(b)
            .map(|bd| {
                bd.corners()
                    .iter()
                    .filter_map(|&s| scene.spot(s).map(|x| x.0))
                    .collect()
            })
            .unwrap_or_default()
    };
    // Fixed: boundaries not in a group of two or more.
    let mut chosen: Vec<BoundaryId> = Vec::new();
    let mut wanted: Vec<(usize, usize)> = Vec::new(); // (group, how many)
    for (g, members) in groups.iter().enumerate() {
        let k = members.iter().filter(|b| side.contains(b)).count();
        if members.len() == 1 {
            chosen.extend(members.iter().filter(|b| side.contains(b)));
        } else if k > 0 {
            wanted.push((g, k));
        }
    }
    // Dead boundaries (not free) sent with B_a stay as they are.
    chosen.extend(side.iter().filter(|b| !free.contains(b)));
    let (a, b) = mv.spots();
    let mut anchors: Vec<Point> = [a, b]
        .iter()
        .filter_map(|&s| scene.spot(s).map(|x| x.0))
        .collect();
    let start = anchors.first().copied();
    let mut segs: Vec<(Point, Point)> = Vec::new();
    for &c in &chosen {
        for p in point_of(c) {
            anchors.push(p);
            if let Some(s) = start {
                segs.push((s, p));
            }
        }
    }
    let dist = |pts: &[Point], anchors: &[Point], segs: &[(Point, Point)]| -> f64 {
        pts.iter()
            .map(|p| {
                let d1 = anchors
                    .iter()
                    .map(|q| (p - q).norm())
                    .fold(f64::INFINITY, f64::min);
                let d2 = segs
                    .iter()
                    .map(|&(s, t)| sprouts_geom::point_segment_distance(*p, s, t))
                    .fold(f64::INFINITY, f64::min);
                d1.min(d2)
            })
            .fold(f64::INFINITY, f64::min)
    };
    loop {
        let mut best: Option<(f64, usize, BoundaryId)> = None;
        for (w, &(g, k)) in wanted.iter().enumerate() {
            if k == 0 {
                continue;
            }
            for &cand in groups[g] {
                if chosen.contains(&cand) {
                    continue;
                }
                let d = dist(&point_of(cand), &anchors, &segs);
                if best.is_none_or(|(bd, _, bb)| d < bd || (d == bd && cand < bb)) {
                    best = Some((d, w, cand));
                }
            }
        }
        let Some((_, w, cand)) = best else { break };
        wanted[w].1 -= 1;
        chosen.push(cand);
        for p in point_of(cand) {
            anchors.push(p);
            if let Some(s) = start {
                segs.push((s, p));
            }
        }
    }
    chosen.sort_unstable();
    chosen.dedup();
    chosen
}

/// Other choices of a move's interchangeable boundaries than `chosen` (the nearest-cluster
/// rule's), to try when that one cannot be drawn with the boundaries on their sides: any
/// choice is the same game (spec 5.9 picks one only so that the drawing is predictable), but
/// a boundary the rule picks may lie where no way can go round it (behind a corridor narrower
/// than the clearance, or with a boundary that must stay out between it and the move's spots),
/// while an equal one elsewhere is easy to enclose. The move as asked first, then each choice
/// that swaps one chosen boundary of a group for an unchosen one of the same group, the
/// unchosen one nearest the move's spots first; at most `limit`.
pub(super) fn other_choices(
    pos: &Position,
    scene: &Scene,
    mv: &Move,
    chosen: &[BoundaryId],
    limit: usize,
) -> Vec<Vec<BoundaryId>> {
    let mut out: Vec<Vec<BoundaryId>> = Vec::new();
    let push = |mut c: Vec<BoundaryId>, out: &mut Vec<Vec<BoundaryId>>| {
        c.sort_unstable();
        c.dedup();
        if c != chosen && !out.contains(&c) {
            out.push(c);
        }
    };
    push(mv.side_a().to_vec(), &mut out);
    let Some(family) = pos
        .families()
        .into_iter()
        .find(|f| f.corners() == (mv.from(), mv.to()))
    else {
        out.truncate(limit);
        return out;
    };
    let (a, b) = mv.spots();
    let ends: Vec<Point> = [a, b]
        .iter()
        .filter_map(|&s| scene.spot(s).map(|x| x.0))
        .collect();
    // How far a boundary's nearest spot is from the move's spots.
    let far = |bd: BoundaryId| -> f64 {
        pos.boundary(bd)
            .map(|x| {
                x.corners()
                    .iter()
                    .filter_map(|&s| scene.spot(s).map(|y| y.0))
                    .flat_map(|p| ends.iter().map(move |q| (p - q).norm()))
                    .fold(f64::INFINITY, f64::min)
            })
            .unwrap_or(f64::INFINITY)
    };
    let free = family.free_boundaries();
    let mut swaps: Vec<(f64, Vec<BoundaryId>)> = Vec::new();
    let mut at = 0;
    for &n in family.interchangeable_groups() {
        let group = &free[at..at + n as usize];
        at += n as usize;
        for &u in group.iter().filter(|u| !chosen.contains(u)) {
            for &c in group.iter().filter(|c| chosen.contains(c)) {
                let mut alt: Vec<BoundaryId> = chosen.iter().copied().filter(|&x| x != c).collect();
                alt.push(u);
                swaps.push((far(u), alt));
            }
        }
    }
    swaps.sort_by(|x, y| x.0.total_cmp(&y.0));
    for (_, alt) in swaps {
        push(alt, &mut out);
    }
    out.truncate(limit);
    out
}

/// A refusal of a computer's move that names the move asked (its own words), with the
/// move the nearest-cluster rule chose for it (spec 5.9, `chosen`) in the detail when that
/// reads differently.
pub(super) fn naming_the_move_asked(
    e: Refusal,
    asked: String,
    chosen: &Want,
    pos: &Position,
    mv: &Move,
) -> Refusal {
    let Refusal::WrongEnclosure {
        detail,
        widest,
        needed,
        spots,
        curves,
        ..
    } = e
    else {
        return e;
    };
    let chosen = match chosen {
        Want::SideA(s) => pos
            .make_move(mv.from(), mv.to(), s)
            .ok()
            .map(|m| m.describe(pos)),
        _ => None,
    };
    let detail = match chosen {
        Some(c) if c != asked => format!("{detail}; the nearest-cluster rule chose {c}"),
        _ => detail,
    };
    Refusal::WrongEnclosure {
        words: asked,
        detail,
        widest,
        needed,
        spots,
        curves,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyse::analyse;
    use crate::drawing::{CurveId, Drawing, Settings, WorldSize};
    use sprouts_topo::SpotId;

    /// A computer's move refused for its enclosure is named as asked; the nearest-cluster
    /// choice goes to the detail when it reads differently; other refusals pass unchanged.
    #[test]
    fn a_refusal_names_the_move_asked() {
        let pos = Position::new(3);
        let find = |w: &str| {
            pos.moves()
                .find(|m| m.describe(&pos) == w)
                .unwrap_or_else(|| panic!("no move {w}"))
        };
        let asked = find("1 -> 1 enclosing 2");
        let other = find("1 -> 1 enclosing 3");
        let refused = |words: &str| Refusal::WrongEnclosure {
            words: words.to_owned(),
            detail: "no candidate".to_owned(),
            widest: Some(2.5),
            needed: 6.0,
            spots: Vec::new(),
            curves: vec![CurveId(3)],
        };
        let chosen = Want::SideA(other.side_a().to_vec());
        match naming_the_move_asked(
            refused("1 -> 1 enclosing 3"),
            asked.describe(&pos),
            &chosen,
            &pos,
            &asked,
        ) {
            Refusal::WrongEnclosure {
                words,
                detail,
                widest,
                curves,
                ..
            } => {
                assert_eq!(words, "1 -> 1 enclosing 2");
                assert_eq!((widest, curves), (Some(2.5), vec![CurveId(3)]));
                assert_eq!(
                    detail,
                    "no candidate; the nearest-cluster rule chose 1 -> 1 enclosing 3"
                );
            }
            e => panic!("{e:?}"),
        }
        let same = Want::SideA(asked.side_a().to_vec());
        match naming_the_move_asked(refused("1 -> 1"), asked.describe(&pos), &same, &pos, &asked) {
            Refusal::WrongEnclosure { words, detail, .. } => {
                assert_eq!(words, "1 -> 1 enclosing 2");
                assert_eq!(detail, "no candidate");
            }
            e => panic!("{e:?}"),
        }
        let e = naming_the_move_asked(
            Refusal::NoLife(SpotId::new(1).expect("a spot")),
            asked.describe(&pos),
            &chosen,
            &pos,
            &asked,
        );
        assert!(matches!(e, Refusal::NoLife(_)));
    }

    /// The other choices of a loop's two seeds among four interchangeable ones: every one-seed
    /// swap once (two chosen, two not: four), none the first choice, each the same game as the
    /// move, the swapped-in seed nearest the loop's spot first; and the move as asked first when
    /// the first choice differs from it; at most `limit`.
    #[test]
    fn other_choices_swap_one_interchangeable_boundary_each() {
        let settings = Settings::default();
        let world = WorldSize::new(1200.0, 800.0);
        let drawing = Drawing::with_seeds(world, 5, settings.spot_radius).expect("a picture");
        let pos = analyse(&drawing).expect("a position").position().clone();
        let scene = Scene::new(&drawing, &settings);
        let mv = pos
            .moves()
            .find(|m| m.describe(&pos) == "1 -> 1 enclosing 2, 3")
            .expect("the move");
        let key = pos.play(&mv).expect("legal").canonical_unreduced();
        let chosen = mv.side_a().to_vec();
        let alts = other_choices(&pos, &scene, &mv, &chosen, 10);
        assert_eq!(alts.len(), 4, "{alts:?}");
        let (a, _) = mv.spots();
        let ca = scene.spot(a).expect("spot 1").0;
        let mut last = 0.0;
        for (k, alt) in alts.iter().enumerate() {
            assert_ne!(alt, &chosen);
            assert!(alts[..k].iter().all(|x| x != alt), "twice: {alt:?}");
            assert_eq!(alt.iter().filter(|b| !chosen.contains(b)).count(), 1);
            let m = pos.make_move(mv.from(), mv.to(), alt).expect("a move");
            assert_eq!(pos.play(&m).expect("legal").canonical_unreduced(), key);
            let new = *alt.iter().find(|b| !chosen.contains(b)).expect("one");
            let spot = pos.boundary(new).expect("a boundary").corners()[0];
            let d = (scene.spot(spot).expect("a spot").0 - ca).norm();
            assert!(d >= last, "not nearest first");
            last = d;
        }
        // Asked for another choice than the move's own: the move's first.
        let other = alts[0].clone();
        let again = other_choices(&pos, &scene, &mv, &other, 2);
        assert_eq!(again.len(), 2);
        assert_eq!(again[0], chosen);
    }
}
