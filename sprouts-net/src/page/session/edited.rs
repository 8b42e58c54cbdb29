//! A new game from a picture drawn in the page's editor (`edited_game`): the picture is checked
//! here for what is quick (its size, the players), made into a drawing, and checked for
//! legality by the setup job; a refusal is `picture_refused`, naming the spots and curves at
//! fault, and leaves the game in play as it was.

use sprouts::draw::{
    Drawing, HandCurve, HandPicture, Legality, MAX_HAND_CURVES, PictureError, Settings, WorldSize,
};
use sprouts::geom::Point;
use sprouts::topo::SpotId;
use sprouts::{Convention, Game, Seat};

use super::{MAX_SPOTS, MAX_STROKE_POINTS_SENT, Reply, Session, SetupKind, WORLD_MAX, WORLD_MIN};
use crate::page::protocol::{ConventionName, PictureMsg, PlayerSpec, ServerMsg};

/// A picture to start from, checked by the setup job.
#[derive(Debug)]
pub(super) struct PictureSetup {
    drawing: Drawing,
    legality: Legality,
    settings: Settings,
    seats: [Seat; 2],
    first: u8,
    convention: Convention,
}

/// A refusal: the reason, and the spots and curves it names.
pub(super) type Refusal = (String, (Vec<u32>, Vec<u32>));

fn refusal(e: &PictureError) -> Refusal {
    let (spots, curves) = e.marks();
    (
        e.to_string(),
        (
            spots.iter().map(|s| s.get()).collect(),
            curves.iter().map(|c| c.0).collect(),
        ),
    )
}

impl PictureSetup {
    /// Checks the picture and builds the game (blocking: the legality check certifies every
    /// curve and may search).
    pub(super) fn run(self) -> Result<(Game, Vec<String>), Refusal> {
        let (game, _) = Game::from_picture(
            self.drawing,
            self.legality,
            self.seats,
            self.convention,
            self.settings,
        )
        .map_err(|e| match e {
            sprouts::GameError::Picture(p) => refusal(&p),
            other => (other.to_string(), (Vec::new(), Vec::new())),
        })?;
        Ok((game.with_first(usize::from(self.first)), Vec::new()))
    }
}

fn refused(reason: impl Into<String>) -> Reply {
    Reply::msgs(vec![ServerMsg::PictureRefused {
        reason: reason.into(),
        spots: Vec::new(),
        curves: Vec::new(),
    }])
}

/// The picture of the message as a hand picture, its sizes checked.
fn hand_picture(picture: &PictureMsg) -> Result<HandPicture, String> {
    let in_range = |x: f64| x.is_finite() && (WORLD_MIN..=WORLD_MAX).contains(&x);
    if !(in_range(picture.width) && in_range(picture.height)) {
        return Err(format!(
            "the drawing area must be between {WORLD_MIN} and {WORLD_MAX} pixels a side"
        ));
    }
    if picture.spots.len() > MAX_SPOTS as usize {
        return Err(format!(
            "at most {MAX_SPOTS} spots a game here; the picture has {}",
            picture.spots.len()
        ));
    }
    if picture.curves.len() > MAX_HAND_CURVES {
        return Err(format!(
            "the picture has {} curves; at most {MAX_HAND_CURVES} are read",
            picture.curves.len()
        ));
    }
    let points: usize = picture.curves.iter().map(|c| c.points.len()).sum();
    if points > MAX_STROKE_POINTS_SENT {
        return Err(format!(
            "the curves have {points} points in all; at most {MAX_STROKE_POINTS_SENT} are read"
        ));
    }
    let spot = |n: u32| SpotId::new(n).ok_or_else(|| "spots are numbered from 1".to_string());
    let pt = |p: &[f64; 2]| Point::new(p[0], p[1]);
    Ok(HandPicture {
        world: WorldSize::new(picture.width, picture.height),
        spots: picture.spots.iter().map(pt).collect(),
        curves: picture
            .curves
            .iter()
            .map(|c| {
                Ok(HandCurve {
                    from: spot(c.from)?,
                    to: spot(c.to)?,
                    points: c.points.iter().map(pt).collect(),
                })
            })
            .collect::<Result<_, String>>()?,
    })
}

impl Session {
    /// A new game from a picture drawn in the editor (see the module docs).
    pub(super) fn edited_game(
        &mut self,
        picture: &PictureMsg,
        any_valid: bool,
        convention: ConventionName,
        players: [PlayerSpec; 2],
        first: u8,
    ) -> Reply {
        if first > 1 {
            return refused("`first` must be 0 (Blue) or 1 (Red)");
        }
        let hand = match hand_picture(picture) {
            Ok(h) => h,
            Err(why) => return refused(why),
        };
        let settings = self
            .game
            .as_ref()
            .map_or_else(Settings::default, |g| *g.board().settings());
        let drawing = match hand.to_drawing(settings.spot_radius) {
            Ok(d) => d,
            Err(e) => {
                let (reason, (spots, curves)) = refusal(&e);
                return Reply::msgs(vec![ServerMsg::PictureRefused {
                    reason,
                    spots,
                    curves,
                }]);
            }
        };
        if drawing.spots().is_empty() {
            return refused(PictureError::NoSpots.to_string());
        }
        let seats = match self.seats(&players) {
            Ok(s) => s,
            Err(e) => return refused(e),
        };
        self.start_setup(SetupKind::Picture(Box::new(PictureSetup {
            drawing,
            legality: if any_valid {
                Legality::Valid
            } else {
                Legality::Reachable
            },
            settings,
            seats,
            first,
            convention: match convention {
                ConventionName::Normal => Convention::Normal,
                ConventionName::Misere => Convention::Misere,
            },
        })))
    }
}
