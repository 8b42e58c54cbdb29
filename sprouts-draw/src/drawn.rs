//! Moves drawn on a board (spec 3, 5.9): the route's stages read the board through a
//! [`BoardView`] and give a [`Prepared`] move; the board plays it by its checked transaction
//! ([`Board::play_spline_cut`], with the picture the route's check already read). The loops
//! that try one plan after another (a person's corners, a computer's moves giving the same
//! game) live here, because each try may end in a play.

use sprouts_geom::Point;
use sprouts_topo::{Move, SpotId};

use crate::board::Board;
use crate::drawing::CurveId;
use crate::route::{
    self, BoardView, DrawRequest, EQUIVALENTS_TRIED, Equivalent, Prepared, Reachable, Refusal,
    RouteMethod, Side,
};

/// A move drawn on the board.
#[derive(Clone, Debug)]
pub struct DrawnMove {
    /// The move played (a move of the position before it).
    pub mv: Move,
    /// The move in words, as the board's history records it.
    pub words: String,
    /// The move's two curves.
    pub curves: (CurveId, CurveId),
    /// The relaxed route the spline was fitted to.
    pub route: Vec<Point>,
    /// The certified clearance of the spline (pixels).
    pub clearance: f64,
    /// How the route was found.
    pub method: RouteMethod,
    /// When the move drawn is not the move asked but another move of the position giving the
    /// same game (spec 5.9): the move asked and why it was refused ([`Board::draw_move`]).
    pub equivalent_of: Option<Box<Equivalent>>,
}

impl Board {
    /// What the route reads of the board.
    pub(crate) fn view(&self) -> BoardView<'_> {
        BoardView {
            drawing: self.drawing(),
            analysis: self.analysis(),
            settings: self.settings(),
            move_index: u32::try_from(self.moves().len()).unwrap_or(u32::MAX),
        }
    }

    /// The spots a curve leaving `from` on `side` can reach, each with the side it would
    /// arrive on and the length of the way (spec 3.1: for lighting them up). If the side asked
    /// for leads nowhere and another side of the spot does, that one is taken. A spot reached
    /// only at the tight clearances the drawing falls back to (a corridor narrower than
    /// `2 d0`) is lit up too, so a spot left dark is one [`Board::draw_request`] cannot reach
    /// by the free space either (it may still refuse a lit one for other reasons).
    ///
    /// # Errors
    /// A [`Refusal`] for an unknown spot, a spot with no life, or a side it does not have.
    pub fn reachable(&self, from: SpotId, side: Side) -> Result<Reachable, Refusal> {
        route::reachable(&self.view(), from, side)
    }

    /// Draws a person's move (spec 3): from spot `a` on a side to spot `b` on a side, enclosing
    /// the marked spots' boundaries and no others (or the shortest way, without marks), along
    /// the stroke if it is usable. `observer` sees the route as it is found and relaxed. The
    /// move drawn is the one the curve makes, checked by the authority check.
    ///
    /// # Errors
    /// A [`Refusal`] saying why; the board is then exactly as it was.
    pub fn draw_request(
        &mut self,
        request: &DrawRequest,
        observer: &mut dyn FnMut(&[Point]),
    ) -> Result<DrawnMove, Refusal> {
        let _span = tracing::debug_span!("draw_request").entered();
        let mut last: Option<Refusal> = None;
        let mut plans = route::request_plans(&self.view(), request)?;
        // Sides read off a pointer near a spot with several curves can name a sector next to
        // the one meant: when the sides asked for face no common region, any sides of the two
        // spots that do are taken (the stroke, if any, still decides where the curve goes).
        if plans.is_empty()
            && (matches!(request.from_side, Side::Toward(_))
                || matches!(request.to_side, Side::Toward(_)))
        {
            let any_side = DrawRequest {
                from_side: Side::Any,
                to_side: Side::Any,
                ..request.clone()
            };
            plans = route::request_plans(&self.view(), &any_side)?;
        }
        // Each pair of corners in turn; a refused one leaves the board as it was.
        for plan in plans {
            let drawn = plan
                .and_then(|plan| route::prepare(&self.view(), &plan, true, observer))
                .and_then(|p| self.commit(p, observer));
            match drawn {
                Ok(d) => return Ok(d),
                Err(e) => last = Some(e),
            }
        }
        Err(last.unwrap_or(Refusal::NotInOneRegion(request.from, request.to)))
    }

    /// Draws the computer's move `mv` (a move of [`Board::position`]) as intended (spec 5.9):
    /// [`Board::draw_move_strict`], and if that refuses it, another move of the position whose
    /// child is the same game (an exact test: equal game keys or equal exact canonical forms),
    /// nearest and with the most room first, at most six; the [`DrawnMove`] then names the
    /// move asked ([`DrawnMove::equivalent_of`]).
    ///
    /// # Errors
    /// A [`Refusal`] saying why (for the ladder of spec 4.1 to act on;
    /// [`Refusal::Equivalents`] when moves giving the same game were tried too); the board is
    /// then exactly as it was.
    pub fn draw_move(
        &mut self,
        mv: &Move,
        observer: &mut dyn FnMut(&[Point]),
    ) -> Result<DrawnMove, Refusal> {
        match self.draw_move_strict(mv, observer) {
            Err(e) if route::worth_another_move(&e) => self.draw_equivalent(mv, e, observer),
            other => other,
        }
    }

    /// Draws the computer's move `mv` itself, never another move giving the same game: its
    /// interchangeable boundaries chosen by the nearest-cluster rule (or, when that choice
    /// cannot be drawn with the boundaries on their sides, another choice), a marked route,
    /// and if the marks cannot be applied the shortest way, kept only if it is the same game.
    /// A drawing that leaves live spots of a region with no way to one another at the router's
    /// tightest clearance (a corridor it splits too narrow for a later curve) is drawn again
    /// with the curve leaning to either side of its way, and the one that cuts off fewest is
    /// played.
    ///
    /// # Errors
    /// A [`Refusal`] saying why; the board is then exactly as it was.
    pub fn draw_move_strict(
        &mut self,
        mv: &Move,
        observer: &mut dyn FnMut(&[Point]),
    ) -> Result<DrawnMove, Refusal> {
        let _span = tracing::debug_span!("draw_move").entered();
        let prepared = route::prepare_strict(&self.view(), mv, observer)?;
        self.commit(prepared, observer)
    }

    /// The other moves of the position whose child is the same game as `mv`'s, in the order
    /// [`Board::draw_move`] tries them (nearest and with the most room first); one per family
    /// and count of interchangeable boundaries.
    pub fn equivalent_moves(&self, mv: &Move) -> Vec<Move> {
        route::equivalents_to_try(&self.view(), mv)
    }

    /// After the move asked `mv` was refused for `refusal`: the first of its
    /// [`Board::equivalent_moves`] (at most [`EQUIVALENTS_TRIED`]) that is drawn, each
    /// prepared as the move asked is (its own interchangeable choices, the shortest way) and
    /// accepted only if what is prepared is the same game as `mv`'s child; then played by the
    /// checked transaction, which reads the picture back to the drawn move's child. The
    /// [`DrawnMove`] names the move asked ([`DrawnMove::equivalent_of`]). When none is drawn:
    /// `refusal` itself if there is no move giving the same game, else
    /// [`Refusal::Equivalents`] naming the move asked and what each one tried was refused for
    /// (a wrong enclosure of one tried without the widest way that would sort its boundaries:
    /// the move asked's refusal explains the place). The board is then as it was.
    fn draw_equivalent(
        &mut self,
        mv: &Move,
        refusal: Refusal,
        observer: &mut dyn FnMut(&[Point]),
    ) -> Result<DrawnMove, Refusal> {
        let _span = tracing::debug_span!("draw_equivalent").entered();
        let pos = self.position().clone();
        let Ok(intended) = pos.play(mv) else {
            return Err(refusal);
        };
        let others = self.equivalent_moves(mv);
        if others.is_empty() {
            return Err(refusal);
        }
        let words = mv.describe(&pos);
        let same = |m: &Move| pos.play(m).is_ok_and(|p| route::same_game(&p, &intended));
        let mut tried: Vec<(String, Refusal)> = Vec::new();
        for other in others.iter().take(EQUIVALENTS_TRIED) {
            let other_words = other.describe(&pos);
            let drawn = route::prepare_equivalent(&self.view(), other, &same, &words, observer)
                .and_then(|p| self.commit(p, observer));
            match drawn {
                Ok(mut d) => {
                    tracing::debug!(asked = %words, drawn = %d.words, "drawn as an equivalent");
                    d.equivalent_of = Some(Box::new(Equivalent {
                        asked: mv.clone(),
                        words,
                        refusal,
                        refused: tried,
                    }));
                    return Ok(d);
                }
                Err(e) => tried.push((other_words, e)),
            }
        }
        Err(Refusal::Equivalents {
            words,
            asked: Box::new(refusal),
            tried,
        })
    }

    /// Plays a prepared move: the spline cut where the route put the new spot, the picture
    /// the route's check read taken as the transaction's reading when it is the picture made.
    fn commit(
        &mut self,
        p: Prepared,
        observer: &mut dyn FnMut(&[Point]),
    ) -> Result<DrawnMove, Refusal> {
        let words = p.mv.describe(self.position());
        let cut = p.cut();
        let played = self.play_spline_cut(&p.mv, || cut, Some(p.picture));
        let curves = played.map_err(Refusal::of_transaction)?;
        observer(&p.route);
        Ok(DrawnMove {
            mv: p.mv,
            words,
            curves,
            route: p.route,
            clearance: p.clearance,
            method: p.method,
            equivalent_of: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::Board;
    use crate::board::tally;
    use crate::drawing::{Settings, WorldSize};

    /// A drawn move is read off its picture once: the board's transaction takes the reading
    /// of the picture's check before play (the same picture) instead of analysing it again.
    /// Moves of a 5-spot game, the first legal move of each position in the order listed.
    #[test]
    fn a_drawn_move_is_analysed_once() {
        let mut board =
            Board::new(5, WorldSize::new(1200.0, 800.0), Settings::default()).expect("a board");
        let n = tally::analyses();
        let mut drawn = 0;
        for _ in 0..6 {
            let pos = board.position().clone();
            let Some(mv) = pos
                .moves()
                .find(|m| board.draw_move(m, &mut |_| {}).is_ok())
            else {
                break;
            };
            drawn += 1;
            assert_eq!(
                board.position().game_key(),
                pos.play(&mv).expect("legal").game_key()
            );
        }
        assert!(drawn >= 4, "{drawn} drawn");
        assert_eq!(tally::analyses(), n, "analysed twice");
    }
}
