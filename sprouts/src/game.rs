//! [`Game`]: the one game loop of the workspace. Turn order, the winner, human and computer
//! moves, undo and redo live here and nowhere else; frontends only show the game and pass on
//! what people do.

use std::sync::atomic::AtomicBool;

use sprouts_ai::Limits;
use sprouts_ai::impartial::Convention;
use sprouts_ai::players::Report;
use sprouts_draw::{
    Board, BoardError, DrawRequest, Drawing, FreshOptions, FreshReport, LadderOptions,
    LadderRefusal, LadderReport, LegalPicture, Legality, PlayedMove, Refusal, RelaxMode,
    RelaxOptions, RelaxReport, RoomStep, Settings, StepKind, TransactionError, check_picture,
};
use sprouts_geom::Point;
use sprouts_topo::{Move, MoveNotation, Position, SpotId};

use crate::job::{Done, Job, JobDone, JobEvent, Work};
use crate::seat::Seat;

/// Why a game refused to do something. A refused action leaves the game exactly as it was.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GameError {
    /// The game is over: no one can move.
    #[error("the game is over")]
    Over,
    /// A person tried to move while a computer is to move.
    #[error("it is the computer's turn ({0}), not a person's")]
    ComputerToMove(String),
    /// A computer was asked to move while a person is to move.
    #[error("it is a person's turn, not the computer's")]
    HumanToMove,
    /// The move is not a move of the position.
    #[error("not a legal move: {0}")]
    Illegal(String),
    /// The picture cannot take a person's move.
    #[error("{0}")]
    Refused(Box<Refusal>),
    /// No rung of the ladder could draw the move (the computer's, a move typed in, a move from
    /// the network). The move itself is legal: [`Game::drop_picture`] and
    /// [`Game::play_move`] go on without a picture.
    #[error("the move {words} could not be drawn: {refusal}")]
    NotDrawn {
        /// The move (of the position it was chosen in).
        mv: Move,
        /// The move in words.
        words: String,
        /// What every rung said.
        refusal: Box<LadderRefusal>,
        /// What the player concluded, when a computer chose the move.
        report: Option<Box<Report>>,
    },
    /// The picture read back is not the same game as the move makes: never kept.
    #[error("the move {words} was drawn as another game; refused")]
    WrongGame {
        /// The move, in words.
        words: String,
        /// The move (of the position it was chosen in).
        mv: Move,
    },
    /// The action needs a picture and the game has none.
    #[error("this game has no picture")]
    NoPicture,
    /// A job's result for a game that has changed since the job started.
    #[error("the game changed while the job ran; its result is dropped")]
    Stale,
    /// A bad player spec.
    #[error("{0}")]
    Player(String),
    /// The computer found no move (the position has none).
    #[error("the computer found no move")]
    NoMove,
    /// Nothing to undo or redo.
    #[error("there is nothing to {0}")]
    NoHistory(&'static str),
    /// Seats are numbered 0 and 1.
    #[error("there is no seat {0}: seats are 0 and 1")]
    NoSuchSeat(usize),
    /// The picture could not be changed (bad settings, a failed rearrangement).
    #[error("{0}")]
    Board(String),
    /// A picture drawn by hand is not a legal Sprouts picture ([`Game::from_picture`]).
    #[error("{0}")]
    Picture(#[from] sprouts_draw::PictureError),
    /// A game record could not be read or does not make a game.
    #[error(transparent)]
    Record(#[from] crate::RecordError),
}

/// What a person does on their turn.
#[derive(Clone, Debug)]
pub enum HumanInput {
    /// A move in topological form (chosen from a list, typed in): drawn by the ladder when the
    /// game has a picture.
    Move(Move),
    /// A move drawn on the picture (spots, sides, marks, the stroke): the move is the one the
    /// curve makes. Needs a picture.
    Request(DrawRequest),
}

/// A move played: who, what, and how it was drawn.
#[derive(Clone, Debug)]
pub struct Played {
    /// The move's number in the game (1 for the first move).
    pub number: usize,
    /// The seat that played it (0 or 1).
    pub seat: usize,
    /// The move as chosen or asked (a move of the position before it). The move drawn may be
    /// another move giving the same game ([`Played::words`], [`Played::notation`]).
    pub chosen: Move,
    /// The move in words, as the history records it.
    pub words: String,
    /// The move's notation.
    pub notation: MoveNotation,
    /// What the player concluded, for a computer's move.
    pub report: Option<Report>,
    /// How the ladder drew it, for a move drawn by the ladder.
    pub ladder: Option<LadderReport>,
    /// Lines for the log, in order.
    pub log: Vec<String>,
}

/// A game without a picture: the positions and the moves between them.
#[derive(Clone, Debug)]
pub(crate) struct Plain {
    pub(crate) start: Position,
    /// `positions[k]` is the position after `k` moves (`positions[0]` the start).
    pub(crate) positions: Vec<Position>,
    pub(crate) moves: Vec<PlayedMove>,
    /// Undone moves, the next to redo last.
    pub(crate) redo: Vec<(PlayedMove, Position)>,
}

impl Plain {
    pub(crate) fn new(start: Position) -> Plain {
        Plain {
            positions: vec![start.clone()],
            start,
            moves: Vec::new(),
            redo: Vec::new(),
        }
    }

    fn position(&self) -> &Position {
        self.positions.last().expect("the start is always there")
    }

    /// Plays a legal move.
    pub(crate) fn play(&mut self, mv: &Move) -> Result<PlayedMove, GameError> {
        let pos = self.position();
        let after = pos
            .play(mv)
            .map_err(|e| GameError::Illegal(e.to_string()))?;
        let notation =
            MoveNotation::from_move(pos, mv).map_err(|e| GameError::Illegal(e.to_string()))?;
        let played = PlayedMove {
            words: mv.describe(pos),
            notation,
        };
        self.positions.push(after);
        self.moves.push(played.clone());
        self.redo.clear();
        Ok(played)
    }
}

/// Where a game's position lives: on a board with its picture, or on its own.
#[derive(Clone, Debug)]
pub(crate) enum Surface {
    Drawn(Box<Board>),
    Plain(Plain),
}

/// A game in progress (see the crate docs): the position with or without its picture, the
/// seats, the play convention, whose turn it is.
///
/// The seat to move is `(first + moves played) mod 2`. Under normal play the player who cannot
/// move loses; under misère play they win. Every action that changes the game bumps
/// [`Game::version`], so a [`Job`] started before a change is refused when it comes back.
#[derive(Clone, Debug)]
pub struct Game {
    pub(crate) surface: Surface,
    seats: [Seat; 2],
    first: usize,
    convention: Convention,
    ladder: LadderOptions,
    version: u64,
}

impl Game {
    /// A game without a picture from `start` (`Position::new(n)` for `n` spots, or any
    /// position), seat 0 to move first, normal play.
    pub fn new(start: Position, seats: [Seat; 2]) -> Game {
        Game::with_surface(Surface::Plain(Plain::new(start)), seats)
    }

    /// A game on a board: every move is drawn, and checked by the board's authority check.
    pub fn drawn(board: Board, seats: [Seat; 2]) -> Game {
        Game::with_surface(Surface::Drawn(Box::new(board)), seats)
    }

    /// A drawn game of `n` seeds laid out evenly in a drawing area of `world`.
    ///
    /// # Errors
    /// [`GameError::Board`] for bad settings or a bad world size.
    pub fn drawn_spots(
        n: u32,
        world: sprouts_draw::WorldSize,
        settings: Settings,
        seats: [Seat; 2],
    ) -> Result<Game, GameError> {
        let board = Board::new(n, world, settings).map_err(board_error)?;
        Ok(Game::drawn(board, seats))
    }

    /// A drawn game from any position (a custom start, typed in GLOP notation or built in
    /// code): the picture is drawn afresh from the position alone (Z of spec 4.6, see
    /// [`Board::from_position`]), seat 0 moves first under `convention`. Every player plays on
    /// it; undo stops at the start; [`crate::GameRecord`] keeps the start with its spots.
    ///
    /// # Errors
    /// [`GameError::Board`] for bad settings, a bad world, or a position that cannot be drawn
    /// (GLOP's reduced positions, with a 1-life spot met once or stumps written apart, are
    /// games but not pictures): the message names the rule it breaks.
    pub fn from_position(
        position: &Position,
        seats: [Seat; 2],
        convention: Convention,
        world: sprouts_draw::WorldSize,
        settings: Settings,
    ) -> Result<Game, GameError> {
        let board = Board::from_position(position, world, settings, &FreshOptions::default())
            .map_err(board_error)?;
        Ok(Game::drawn(board, seats).with_convention(convention))
    }

    /// A drawn game from a picture drawn by hand (the page's editor): the picture is checked
    /// to be a legal Sprouts picture ([`sprouts_draw::check_picture`]: a valid position, and
    /// with [`Legality::Reachable`] one reached by moves from some n-spot start) and becomes
    /// the game's start as it is drawn, with no moves behind it (undo stops there); seat 0
    /// moves first under `convention`. The legality check's answer comes back with the game
    /// (the moves found, when they were asked for).
    ///
    /// # Errors
    /// [`GameError::Picture`] with the reason the picture is refused; [`GameError::Board`] for
    /// bad settings. Nothing is built on error.
    pub fn from_picture(
        drawing: Drawing,
        legality: Legality,
        seats: [Seat; 2],
        convention: Convention,
        settings: Settings,
    ) -> Result<(Game, LegalPicture), GameError> {
        let legal = check_picture(&drawing, legality)?;
        let board = Board::from_game(legal.position.clone(), &[], drawing, settings)
            .map_err(board_error)?;
        Ok((Game::drawn(board, seats).with_convention(convention), legal))
    }

    fn with_surface(surface: Surface, seats: [Seat; 2]) -> Game {
        Game {
            surface,
            seats,
            first: 0,
            convention: Convention::Normal,
            ladder: LadderOptions::default(),
            version: 0,
        }
    }

    /// The same game under `convention`.
    pub fn with_convention(mut self, convention: Convention) -> Game {
        self.convention = convention;
        self
    }

    /// The same game with seat `first` (0 or 1; 1 for any other number) moving first.
    pub fn with_first(mut self, first: usize) -> Game {
        self.first = first.min(1);
        self
    }

    /// The same game with these ladder options for moves drawn in topological form.
    pub fn with_ladder(mut self, ladder: LadderOptions) -> Game {
        self.ladder = ladder;
        self
    }

    /// The position now.
    pub fn position(&self) -> &Position {
        match &self.surface {
            Surface::Drawn(b) => b.position(),
            Surface::Plain(p) => p.position(),
        }
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        match &self.surface {
            Surface::Drawn(b) => b.start(),
            Surface::Plain(p) => &p.start,
        }
    }

    /// The board, when the game has a picture.
    pub fn board(&self) -> Option<&Board> {
        match &self.surface {
            Surface::Drawn(b) => Some(b),
            Surface::Plain(_) => None,
        }
    }

    /// The moves played, in order.
    pub fn moves(&self) -> &[PlayedMove] {
        match &self.surface {
            Surface::Drawn(b) => b.moves(),
            Surface::Plain(p) => &p.moves,
        }
    }

    /// The seats.
    pub fn seats(&self) -> &[Seat; 2] {
        &self.seats
    }

    /// The seat that moves first (0 or 1).
    pub fn first(&self) -> usize {
        self.first
    }

    /// The play convention.
    pub fn convention(&self) -> Convention {
        self.convention
    }

    /// The ladder's options for moves drawn in topological form.
    pub fn ladder(&self) -> &LadderOptions {
        &self.ladder
    }

    /// Counts the changes of the game (moves, undo, redo, rearrangements, seats, settings).
    pub fn version(&self) -> u64 {
        self.version
    }

    /// The seat to move (0 or 1), also when the game is over (the one who cannot move).
    pub fn to_move(&self) -> usize {
        (self.first + self.moves().len()) % 2
    }

    /// Whether the player to move has no move.
    pub fn is_over(&self) -> bool {
        self.position().is_over()
    }

    /// The winning seat once the game is over: the one not to move under normal play, the one
    /// to move (who cannot) under misère play.
    pub fn winner(&self) -> Option<usize> {
        if !self.is_over() {
            return None;
        }
        let stuck = self.to_move();
        Some(match self.convention {
            Convention::Normal => 1 - stuck,
            Convention::Misere => stuck,
        })
    }

    /// Whether a person is to move in a game not over.
    pub fn human_to_move(&self) -> bool {
        !self.is_over() && self.seats[self.to_move()].is_human()
    }

    /// Whether a computer is to move in a game not over.
    pub fn computer_to_move(&self) -> bool {
        !self.is_over() && !self.seats[self.to_move()].is_human()
    }

    /// Whether a person sits in either seat.
    pub fn has_human(&self) -> bool {
        self.seats.iter().any(Seat::is_human)
    }

    fn changed(&mut self) {
        self.version += 1;
    }

    /// Puts `seat` in seat `index`.
    ///
    /// # Errors
    /// [`GameError::NoSuchSeat`].
    pub fn set_seat(&mut self, index: usize, seat: Seat) -> Result<(), GameError> {
        let slot = self
            .seats
            .get_mut(index)
            .ok_or(GameError::NoSuchSeat(index))?;
        *slot = seat;
        self.changed();
        Ok(())
    }

    /// Changes the play convention.
    pub fn set_convention(&mut self, convention: Convention) {
        self.convention = convention;
        self.changed();
    }

    /// Changes the ladder's options.
    pub fn set_ladder(&mut self, ladder: LadderOptions) {
        self.ladder = ladder;
        self.changed();
    }

    /// Changes the drawing settings.
    ///
    /// # Errors
    /// [`GameError::NoPicture`], or [`GameError::Board`] for bad settings (nothing changes).
    pub fn set_settings(&mut self, settings: Settings) -> Result<(), GameError> {
        let Surface::Drawn(b) = &mut self.surface else {
            return Err(GameError::NoPicture);
        };
        b.set_settings(settings)
            .map_err(|e| GameError::Board(e.to_string()))?;
        self.changed();
        Ok(())
    }

    /// Goes on without the picture (when a move cannot be drawn and the game should go on):
    /// the moves and the position stay, the undo history keeps the moves.
    pub fn drop_picture(&mut self) {
        if let Surface::Drawn(b) = &self.surface {
            let mut plain = Plain::new(b.start().clone());
            for m in b.moves() {
                let pos = plain.position();
                let Ok(mv) = m.notation.to_move(pos) else {
                    break;
                };
                let Ok(after) = pos.play(&mv) else { break };
                plain.positions.push(after);
                plain.moves.push(m.clone());
            }
            // The position goes on as the picture read it: moves chosen in it stay moves of it.
            if plain.moves.len() == b.moves().len() {
                *plain.positions.last_mut().expect("the start is there") = b.position().clone();
            }
            self.surface = Surface::Plain(plain);
            self.changed();
        }
    }

    fn check_turn(&self, human: bool) -> Result<(), GameError> {
        if self.is_over() {
            return Err(GameError::Over);
        }
        match (&self.seats[self.to_move()], human) {
            (Seat::Computer(c), true) => Err(GameError::ComputerToMove(c.spec().to_owned())),
            (Seat::Human, false) => Err(GameError::HumanToMove),
            _ => Ok(()),
        }
    }

    /// Plays `mv` for whoever is to move (a move typed in, a move from the other computer in
    /// network play): drawn by the ladder when the game has a picture.
    ///
    /// # Errors
    /// [`GameError::Over`], [`GameError::Illegal`], [`GameError::NotDrawn`]; the game is then
    /// exactly as it was.
    pub fn play_move(&mut self, mv: &Move) -> Result<Played, GameError> {
        self.play_move_observed(mv, &mut |_| {})
    }

    /// [`Game::play_move`], with `observer` seeing the routes as they are found.
    ///
    /// # Errors
    /// As [`Game::play_move`].
    pub fn play_move_observed(
        &mut self,
        mv: &Move,
        observer: &mut dyn FnMut(&[Point]),
    ) -> Result<Played, GameError> {
        if self.is_over() {
            return Err(GameError::Over);
        }
        let job = self.move_job(mv.clone(), None)?;
        let done = job.run(&Limits::none(), observer);
        match self.finish(done)? {
            JobEvent::Moved(p) => Ok(*p),
            JobEvent::Redrawn(_) | JobEvent::Relaxed(_) => unreachable!("a move job plays a move"),
        }
    }

    /// A person's move (see [`HumanInput`]), drawn now on this thread; use
    /// [`Game::human_job`] to draw it on another.
    ///
    /// # Errors
    /// [`GameError::ComputerToMove`], [`GameError::Over`], [`GameError::Illegal`],
    /// [`GameError::Refused`], [`GameError::NoPicture`], [`GameError::NotDrawn`].
    pub fn play_human(&mut self, input: HumanInput) -> Result<Played, GameError> {
        let job = self.human_job(input)?;
        match self.finish(job.run(&Limits::none(), &mut |_| {}))? {
            JobEvent::Moved(p) => Ok(*p),
            JobEvent::Redrawn(_) | JobEvent::Relaxed(_) => unreachable!("a human job plays a move"),
        }
    }

    /// The computer to move chooses and plays its move within `limits` (and its own budget),
    /// on this thread. A stop flag in `limits` ends the thinking and the ladder's search for
    /// moves giving the same game.
    ///
    /// # Errors
    /// [`GameError::HumanToMove`], [`GameError::Over`], [`GameError::NoMove`],
    /// [`GameError::NotDrawn`].
    pub fn computer_step(&mut self, limits: &Limits) -> Result<Played, GameError> {
        let job = self.computer_job()?;
        match self.finish(job.run(limits, &mut |_| {}))? {
            JobEvent::Moved(p) => Ok(*p),
            JobEvent::Redrawn(_) | JobEvent::Relaxed(_) => {
                unreachable!("a computer job plays a move")
            }
        }
    }

    /// The computer's move as a job to run on another thread ([`Job::run`]); its result goes
    /// back to [`Game::finish`].
    ///
    /// # Errors
    /// [`GameError::HumanToMove`], [`GameError::Over`].
    pub fn computer_job(&self) -> Result<Job, GameError> {
        self.check_turn(false)?;
        let Seat::Computer(c) = &self.seats[self.to_move()] else {
            unreachable!("checked by check_turn")
        };
        Ok(self.job(Work::Computer {
            player: c.player(),
            spec: c.spec().to_owned(),
            position: self.position().clone(),
            convention: self.convention,
            board: self.board().cloned().map(Box::new),
            ladder: self.ladder.clone(),
        }))
    }

    /// A person's move as a job to run on another thread (drawing a stroke takes a while).
    ///
    /// # Errors
    /// [`GameError::ComputerToMove`], [`GameError::Over`], [`GameError::NoPicture`] for a
    /// drawn request in a game without a picture, [`GameError::Illegal`].
    pub fn human_job(&self, input: HumanInput) -> Result<Job, GameError> {
        self.check_turn(true)?;
        match input {
            HumanInput::Move(mv) => self.move_job(mv, None),
            HumanInput::Request(request) => self.request_job(request, None),
        }
    }

    /// A person's move drawn on the picture that waited for room, drawn again with `pressed`,
    /// the Room step pressed by hand (spec 4.1): the step changes the picture, then the move
    /// is drawn, and the checked steps above it follow while it still finds no room. As
    /// [`Game::human_job`], the change and the move one undo step.
    ///
    /// # Errors
    /// As [`Game::human_job`].
    pub fn human_room_job(
        &self,
        request: DrawRequest,
        pressed: RoomStep,
    ) -> Result<Job, GameError> {
        self.check_turn(true)?;
        self.request_job(request, Some(pressed))
    }

    /// A person's curve kept exactly as drawn (heroic mode, spec 4.7): `stroke` from spot
    /// `from` to spot `to` in straight pieces, the move the one it makes
    /// ([`sprouts_draw::Board::draw_exact`]); nothing is routed, smoothed or moved.
    ///
    /// # Errors
    /// As [`Game::human_job`].
    pub fn human_exact_job(
        &self,
        from: SpotId,
        to: SpotId,
        stroke: Vec<Point>,
    ) -> Result<Job, GameError> {
        self.check_turn(true)?;
        let board = self.board().ok_or(GameError::NoPicture)?;
        Ok(self.job(Work::Exact {
            board: Box::new(board.clone()),
            from,
            to,
            stroke,
        }))
    }

    fn request_job(
        &self,
        request: DrawRequest,
        pressed: Option<RoomStep>,
    ) -> Result<Job, GameError> {
        let board = self.board().ok_or(GameError::NoPicture)?;
        Ok(self.job(Work::Request {
            board: Box::new(board.clone()),
            request,
            ladder: self.ladder.clone(),
            pressed,
        }))
    }

    /// The computer's move `mv` that could not be drawn ([`GameError::NotDrawn`]), tried once
    /// more (after the picture was changed by hand, spec 5.9): the same move, not thought
    /// again, drawn by the ladder.
    ///
    /// # Errors
    /// [`GameError::Over`], [`GameError::HumanToMove`], [`GameError::Illegal`] for a move that
    /// is not one of the position.
    pub fn computer_retry_job(&self, mv: Move, report: Option<Report>) -> Result<Job, GameError> {
        self.check_turn(false)?;
        self.move_job(mv, report)
    }

    /// A job that plays `mv` (legal in the position) for the seat to move.
    fn move_job(&self, mv: Move, report: Option<Report>) -> Result<Job, GameError> {
        if !self.position().is_legal(&mv) {
            return Err(GameError::Illegal(format!(
                "{} is not a move of {}",
                mv.describe(self.position()),
                self.position().to_glop()
            )));
        }
        Ok(self.job(Work::Move {
            mv,
            report,
            position: self.position().clone(),
            board: self.board().cloned().map(Box::new),
            ladder: self.ladder.clone(),
        }))
    }

    /// The whole picture drawn afresh (Z of spec 4.6) as a job: a rearrangement, undoable.
    ///
    /// # Errors
    /// [`GameError::NoPicture`].
    pub fn redraw_job(&self, options: FreshOptions) -> Result<Job, GameError> {
        let board = self.board().ok_or(GameError::NoPicture)?;
        Ok(self.job(Work::Redraw {
            board: Box::new(board.clone()),
            options,
        }))
    }

    /// The whole picture drawn afresh, on this thread.
    ///
    /// # Errors
    /// [`GameError::NoPicture`], [`GameError::Board`] when the layout is refused.
    pub fn redraw_fresh(&mut self, options: FreshOptions) -> Result<FreshReport, GameError> {
        let job = self.redraw_job(options)?;
        match self.finish(job.run(&Limits::none(), &mut |_| {}))? {
            JobEvent::Redrawn(r) => Ok(r),
            JobEvent::Moved(_) | JobEvent::Relaxed(_) => {
                unreachable!("a redraw job plays no move")
            }
        }
    }

    /// The whole picture relaxed by A or R (spec 4.5) as a job: a rearrangement, undoable;
    /// the stop flag of the job's limits ends the descent where it is.
    ///
    /// # Errors
    /// [`GameError::NoPicture`].
    pub fn relax_job(&self, mode: RelaxMode, options: RelaxOptions) -> Result<Job, GameError> {
        let board = self.board().ok_or(GameError::NoPicture)?;
        Ok(self.job(Work::Relax {
            board: Box::new(board.clone()),
            mode,
            options,
        }))
    }

    /// The whole picture relaxed by A or R, on this thread.
    ///
    /// # Errors
    /// [`GameError::NoPicture`], [`GameError::Board`] when the result is refused (the game is
    /// then as it was).
    pub fn relax(
        &mut self,
        mode: RelaxMode,
        options: RelaxOptions,
    ) -> Result<RelaxReport, GameError> {
        let job = self.relax_job(mode, options)?;
        match self.finish(job.run(&Limits::none(), &mut |_| {}))? {
            JobEvent::Relaxed(r) => Ok(r),
            JobEvent::Moved(_) | JobEvent::Redrawn(_) => unreachable!("a relax job only relaxes"),
        }
    }

    fn job(&self, work: Work) -> Job {
        Job {
            version: self.version,
            k: self.moves().len(),
            seat: self.to_move(),
            work,
        }
    }

    /// Takes a job's result: applies it if the game has not changed since the job started.
    ///
    /// # Errors
    /// [`GameError::Stale`] for a result the game has moved on from; the job's own error
    /// (a refusal, no move, a move not drawn); [`GameError::WrongGame`] if a drawn picture is
    /// not the same game as the move makes (never kept). The game is then as it was.
    pub fn finish(&mut self, done: JobDone) -> Result<JobEvent, GameError> {
        if done.version != self.version || done.k != self.moves().len() {
            return Err(GameError::Stale);
        }
        let seat = done.seat;
        match done.outcome? {
            Done::Moved {
                mv,
                report,
                board,
                ladder,
                mut log,
            } => {
                let before = self.position().clone();
                let intended = before
                    .play(&mv)
                    .map_err(|e| GameError::Illegal(e.to_string()))?;
                let played = match board {
                    Some(board) => {
                        if !matches!(self.surface, Surface::Drawn(_)) {
                            return Err(GameError::Stale);
                        }
                        if !board.position().same_game(&intended) {
                            return Err(GameError::WrongGame {
                                words: mv.describe(&before),
                                mv,
                            });
                        }
                        let played = board.moves().last().cloned().ok_or(GameError::Stale)?;
                        self.surface = Surface::Drawn(board);
                        played
                    }
                    None => {
                        let Surface::Plain(p) = &mut self.surface else {
                            return Err(GameError::Stale);
                        };
                        p.play(&mv)?
                    }
                };
                if let Some(l) = &ladder {
                    log.extend(l.log.iter().cloned());
                }
                self.changed();
                Ok(JobEvent::Moved(Box::new(Played {
                    number: self.moves().len(),
                    seat,
                    chosen: mv,
                    words: played.words,
                    notation: played.notation,
                    report,
                    ladder,
                    log,
                })))
            }
            Done::Redrawn { board, report } => {
                if !matches!(self.surface, Surface::Drawn(_)) {
                    return Err(GameError::Stale);
                }
                self.surface = Surface::Drawn(board);
                self.changed();
                Ok(JobEvent::Redrawn(report))
            }
            Done::Relaxed { board, report } => {
                if !matches!(self.surface, Surface::Drawn(_)) {
                    return Err(GameError::Stale);
                }
                self.surface = Surface::Drawn(board);
                self.changed();
                Ok(JobEvent::Relaxed(report))
            }
        }
    }

    /// Whether there is a step to undo.
    pub fn can_undo(&self) -> bool {
        match &self.surface {
            Surface::Drawn(b) => b.can_undo(),
            Surface::Plain(p) => !p.moves.is_empty(),
        }
    }

    /// Whether there is a step to redo.
    pub fn can_redo(&self) -> bool {
        match &self.surface {
            Surface::Drawn(b) => b.can_redo(),
            Surface::Plain(p) => !p.redo.is_empty(),
        }
    }

    /// Undoes one step (a move, or a rearrangement of the picture); returns what it did.
    ///
    /// # Errors
    /// [`GameError::NoHistory`].
    pub fn undo(&mut self) -> Result<Vec<StepKind>, GameError> {
        let step = match &mut self.surface {
            Surface::Drawn(b) => b.undo(),
            Surface::Plain(p) => p.moves.pop().map(|m| {
                let pos = p.positions.pop().expect("one position a move");
                p.redo.push((m.clone(), pos));
                vec![StepKind::Move(m)]
            }),
        }
        .ok_or(GameError::NoHistory("undo"))?;
        self.changed();
        Ok(step)
    }

    /// Redoes the last undone step; returns what it did.
    ///
    /// # Errors
    /// [`GameError::NoHistory`].
    pub fn redo(&mut self) -> Result<Vec<StepKind>, GameError> {
        let step = match &mut self.surface {
            Surface::Drawn(b) => b.redo(),
            Surface::Plain(p) => p.redo.pop().map(|(m, pos)| {
                p.moves.push(m.clone());
                p.positions.push(pos);
                vec![StepKind::Move(m)]
            }),
        }
        .ok_or(GameError::NoHistory("redo"))?;
        self.changed();
        Ok(step)
    }

    /// Undo as a person against a computer expects it: steps back until a person is to move
    /// (or nothing is left to undo). Between people or between computers, one step.
    ///
    /// # Errors
    /// [`GameError::NoHistory`].
    pub fn undo_turn(&mut self) -> Result<Vec<Vec<StepKind>>, GameError> {
        self.step_turn(true)
    }

    /// Redo as a person against a computer expects it (see [`Game::undo_turn`]).
    ///
    /// # Errors
    /// [`GameError::NoHistory`].
    pub fn redo_turn(&mut self) -> Result<Vec<Vec<StepKind>>, GameError> {
        self.step_turn(false)
    }

    fn step_turn(&mut self, undo: bool) -> Result<Vec<Vec<StepKind>>, GameError> {
        let mut steps = vec![if undo { self.undo()? } else { self.redo()? }];
        loop {
            let more = if undo {
                self.can_undo()
            } else {
                self.can_redo()
            };
            let computer_turn = !self.seats[self.to_move()].is_human();
            if !(self.has_human() && computer_turn && more) {
                break;
            }
            steps.push(if undo { self.undo()? } else { self.redo()? });
        }
        Ok(steps)
    }

    /// Rebuilds the undo history of the moves of a drawn game read from a file (see
    /// [`Board::rebuild_move_history`]); returns how many moves can be undone.
    pub(crate) fn rebuild_history(&mut self) -> usize {
        match &mut self.surface {
            Surface::Drawn(b) => b.rebuild_move_history(),
            Surface::Plain(p) => p.moves.len(),
        }
    }
}

/// The errors of a board's transaction, as a game reports them.
pub(crate) fn transaction_error<E: std::fmt::Display>(e: TransactionError<E>) -> GameError {
    GameError::Board(e.to_string())
}

/// The errors of building a board, as a game reports them.
pub(crate) fn board_error(e: BoardError) -> GameError {
    GameError::Board(e.to_string())
}

/// The stop flag of `limits`, or one that is never raised.
pub(crate) fn stop_flag(limits: &Limits) -> std::sync::Arc<AtomicBool> {
    limits
        .stop
        .clone()
        .unwrap_or_else(|| std::sync::Arc::new(AtomicBool::new(false)))
}
