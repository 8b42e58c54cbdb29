//! What the route reads of a board: [`BoardView`].

use sprouts_topo::Position;

use crate::analyse::Analysis;
use crate::drawing::{Drawing, Settings};

/// A read-only view of a board: the picture, what it reads as, the settings, and the index
/// the next move's curves get. Every stage of the route reads the board through one, and
/// none can change it: a stage's result (a certified curve, a [`super::Prepared`] move) is
/// played by the board's own checked transaction, so the route never depends on the board.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BoardView<'a> {
    /// The picture.
    pub(crate) drawing: &'a Drawing,
    /// The picture's analysis (its position, corners, regions, point location).
    pub(crate) analysis: &'a Analysis,
    /// The drawing settings.
    pub(crate) settings: &'a Settings,
    /// The index the next move's curves are recorded with (the number of moves played).
    pub(crate) move_index: u32,
}

impl<'a> BoardView<'a> {
    /// The position (the one read off the picture).
    pub(crate) fn position(&self) -> &'a Position {
        self.analysis.position()
    }
}
