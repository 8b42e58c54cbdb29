//! The page's actions on the game in play: lighting the spots a press can reach, drawing a
//! move, redrawing, the Room steps and boxes, undo and redo, pause, settings and players.

use std::sync::Arc;

use sprouts::HumanInput;
use sprouts::draw::{
    Board, DrawRequest, FreshOptions, HumanRoom, LadderOptions, RelaxMode, RelaxOptions, Settings,
    Side, StepKind,
};
use sprouts::geom::Point;
use sprouts::topo::SpotId;

use super::words::player_words;
use super::{MAX_STROKE_POINTS, MAX_STROKE_POINTS_SENT, PageGame, Reply, Session, thin};
use crate::page::protocol::{PlayerSpec, RoomBoxesMsg, RoomStep, ServerMsg, SettingsMsg};

/// Finding the spots a press can reach (router work, spec 3.1), to run on a blocking thread:
/// it shares the board's picture as it was when asked.
#[derive(Debug)]
pub struct ReachJob {
    k: u32,
    version: u64,
    from: u32,
    toward: Point,
    board: Arc<Board>,
}

/// What a [`ReachJob`] found.
#[derive(Debug)]
pub struct ReachResult {
    k: u32,
    version: u64,
    from: u32,
    spots: Vec<u32>,
}

impl ReachJob {
    /// Runs the router's reachability (blocking; call it off the async threads).
    pub fn run(self) -> ReachResult {
        let spots = SpotId::new(self.from)
            .and_then(|from| self.board.reachable(from, Side::Toward(self.toward)).ok())
            .map(|r| r.spots.iter().map(|(s, _, _)| s.get()).collect())
            .unwrap_or_default();
        ReachResult {
            k: self.k,
            version: self.version,
            from: self.from,
            spots,
        }
    }
}

impl Session {
    /// The game, if the message's `k` is current.
    pub(super) fn current(&self, k: u32) -> Result<&PageGame, String> {
        let Some(g) = &self.game else {
            return Err("there is no game: start one with new_game".into());
        };
        if k != g.k() {
            return Err(format!(
                "stale position: the message is for move {k} but {} moves have been played",
                g.k()
            ));
        }
        Ok(g)
    }

    fn spot_id(g: &PageGame, n: u32) -> Result<SpotId, String> {
        SpotId::new(n)
            .filter(|s| g.game.position().lives(*s).is_some())
            .ok_or_else(|| format!("there is no spot {n}"))
    }

    pub(super) fn reach(&mut self, k: u32, from: u32, toward: [f64; 2]) -> Reply {
        let g = match self.current(k) {
            Ok(g) => g,
            Err(r) => return Self::error(r),
        };
        if let Err(r) = Self::spot_id(g, from) {
            return Self::error(r);
        }
        if !(toward[0].is_finite() && toward[1].is_finite()) {
            return Self::error("`toward` must be a finite point");
        }
        let board = match &self.shared {
            Some((v, b)) if *v == self.version => Arc::clone(b),
            _ => {
                let b = Arc::new(g.board().clone());
                self.shared = Some((self.version, Arc::clone(&b)));
                b
            }
        };
        let job = ReachJob {
            k,
            version: self.version,
            from,
            toward: Point::new(toward[0], toward[1]),
            board,
        };
        if self.reach_out {
            self.reach_next = Some(job);
            return Reply::default();
        }
        self.reach_out = true;
        Reply {
            reach: Some(job),
            ..Reply::default()
        }
    }

    /// Takes a reach job's result: the lit spots, unless the board changed meanwhile.
    pub fn finish_reach(&mut self, result: ReachResult) -> Reply {
        let current =
            self.game.as_ref().is_some_and(|g| g.k() == result.k) && self.version == result.version;
        let next = self.reach_next.take();
        self.reach_out = next.is_some();
        Reply {
            msgs: if current {
                vec![ServerMsg::Reachable {
                    from: result.from,
                    spots: result.spots,
                }]
            } else {
                Vec::new()
            },
            reach: next,
            ..Reply::default()
        }
    }

    #[allow(
        clippy::too_many_arguments,
        reason = "the fields of the message, unpacked"
    )]
    pub(super) fn draw(
        &mut self,
        k: u32,
        from: u32,
        to: u32,
        stroke: Vec<[f64; 2]>,
        from_side: Option<[f64; 2]>,
        to_side: Option<[f64; 2]>,
        marks: Vec<u32>,
    ) -> Reply {
        if self.running.is_some() {
            return Self::error("busy: a move is being made; wait for it or press Space");
        }
        let g = match self.current(k) {
            Ok(g) => g,
            Err(r) => return Self::error(r),
        };
        if g.game.is_over() {
            return Self::error("the game is over");
        }
        match self.net_my_turn() {
            Some(false) => {
                return Self::error(
                    "it is the other player's turn, or the other side has not yet acknowledged",
                );
            }
            Some(true) => {}
            None if !g.game.human_to_move() => {
                return Self::error("it is the computer's turn, not a person's");
            }
            None => {}
        }
        let (from, to) = match (Self::spot_id(g, from), Self::spot_id(g, to)) {
            (Ok(a), Ok(b)) => (a, b),
            (Err(r), _) | (_, Err(r)) => return Self::error(r),
        };
        // The rules before the picture: a curve needs a life at each end (two for a loop).
        let lives = |s: SpotId| g.game.position().lives(s).map_or(0, |l| l.get());
        for s in [from, to] {
            if lives(s) == 0 {
                return Self::error(format!(
                    "not a legal move: spot {} has no life left",
                    s.get()
                ));
            }
        }
        if from == to && lives(from) < 2 {
            return Self::error(format!(
                "not a legal move: a loop needs two lives at spot {}, it has one",
                from.get()
            ));
        }
        let finite = |p: &[f64; 2]| p[0].is_finite() && p[1].is_finite();
        if !stroke.iter().all(finite)
            || !from_side.iter().all(finite)
            || !to_side.iter().all(finite)
        {
            return Self::error("stroke points must be finite numbers");
        }
        if stroke.len() > MAX_STROKE_POINTS_SENT {
            return Self::error(format!(
                "the stroke has {} points; at most {MAX_STROKE_POINTS_SENT} are read",
                stroke.len()
            ));
        }
        let stroke = thin(stroke, MAX_STROKE_POINTS);
        let mut enclose = Vec::new();
        for m in marks {
            match Self::spot_id(g, m) {
                Ok(s) => enclose.push(s),
                Err(r) => return Self::error(r),
            }
        }
        let pt = |p: [f64; 2]| Point::new(p[0], p[1]);
        let side = |p: Option<[f64; 2]>| p.map_or(Side::Any, |p| Side::Toward(pt(p)));
        let request = DrawRequest {
            from,
            from_side: side(from_side),
            to,
            to_side: side(to_side),
            enclose: (!enclose.is_empty()).then_some(enclose),
            stroke: (stroke.len() >= 2).then(|| stroke.into_iter().map(pt).collect()),
        };
        if self.net.is_some() {
            return self.net_draw(HumanInput::Request(request));
        }
        if self.heroic {
            let Some(stroke) = request.stroke else {
                return Self::error("heroic mode draws the curve as drawn: draw it on the picture");
            };
            return match g.game.human_exact_job(from, to, stroke) {
                Ok(job) => self.run_job(job),
                Err(e) => Self::error(e.to_string()),
            };
        }
        match g.game.human_job(HumanInput::Request(request.clone())) {
            Ok(job) => {
                let reply = self.run_job(job);
                self.requested = Some(request);
                reply
            }
            Err(e) => Self::error(e.to_string()),
        }
    }

    /// The Redraw button: the whole picture drawn afresh, as a job.
    pub(super) fn redraw(&mut self, k: u32) -> Reply {
        if self.running.is_some() {
            return Self::error("busy: a move is being made; wait for it or press Space");
        }
        let g = match self.current(k) {
            Ok(g) => g,
            Err(r) => return Self::error(r),
        };
        match g.game.redraw_job(FreshOptions::default()) {
            Ok(job) => self.run_job(job),
            Err(e) => Self::error(e.to_string()),
        }
    }

    /// A Room step pressed by hand on the present picture (spec 4.1): A or R relax it, Z
    /// draws it afresh, `.` afresh with spots smaller where there is no room; as a job.
    pub(super) fn room_step(&mut self, k: u32, step: RoomStep) -> Reply {
        if self.running.is_some() {
            return Self::error("busy: a move is being made; wait for it or press Space");
        }
        let g = match self.current(k) {
            Ok(g) => g,
            Err(r) => return Self::error(r),
        };
        if let Some(request) = g.waiting.clone()
            && g.game.human_to_move()
        {
            return match g.game.human_room_job(request.clone(), step.into()) {
                Ok(job) => {
                    let reply = self.run_job(job);
                    self.requested = Some(request);
                    reply
                }
                Err(e) => Self::error(e.to_string()),
            };
        }
        let job = match step {
            RoomStep::Local => {
                return Self::error("M makes room for a move that found none: draw the move first");
            }
            RoomStep::Adjust => g.game.relax_job(RelaxMode::Adjust, RelaxOptions::default()),
            RoomStep::Rearrange => g
                .game
                .relax_job(RelaxMode::Rearrange, RelaxOptions::default()),
            RoomStep::Fresh => g.game.redraw_job(FreshOptions::default()),
            RoomStep::Smaller => g.game.redraw_job(FreshOptions {
                smaller_spots: true,
                ..FreshOptions::default()
            }),
        };
        match job {
            Ok(job) => self.run_job(job),
            Err(e) => Self::error(e.to_string()),
        }
    }

    /// The Room menu's boxes: the ladder's options for this game and the later ones. Heroic
    /// mode switches the person's boxes off and the computer's M (spec 4.7).
    pub(super) fn room_boxes(
        &mut self,
        human: RoomBoxesMsg,
        computer: RoomBoxesMsg,
        heroic: bool,
    ) -> Reply {
        let human = if heroic {
            RoomBoxesMsg::default()
        } else {
            human
        };
        self.heroic = heroic;
        self.ladder = LadderOptions {
            local: computer.m && !heroic,
            adjust: computer.a,
            rearrange: computer.r,
            fresh: computer.z,
            smaller_spots: computer.dot,
            human: HumanRoom {
                local: human.m,
                adjust: human.a,
                rearrange: human.r,
                fresh: human.z,
                smaller_spots: human.dot,
            },
            ..LadderOptions::default()
        };
        if let Some(g) = &mut self.game {
            g.game.set_ladder(self.ladder.clone());
        }
        Reply::default()
    }

    pub(super) fn undo_redo(&mut self, k: u32, undo: bool) -> Reply {
        if let Err(r) = self.current(k) {
            return Self::error(r);
        }
        let was_running = self.running.is_some();
        if was_running {
            self.stop_running();
        }
        let g = self.game.as_mut().expect("checked by current");
        g.waiting = None;
        g.computer_waiting = None;
        g.retry = None;
        let steps: Vec<Vec<StepKind>> = if undo {
            g.game.undo_turn()
        } else {
            g.game.redo_turn()
        }
        .unwrap_or_default();
        if steps.is_empty() {
            if was_running {
                let mut msgs = Vec::new();
                g.paused = true;
                self.note("the computer's move was stopped".into(), &mut msgs);
                msgs.extend(self.state());
                return Reply::msgs(msgs);
            }
            return Self::error(if undo {
                "there is nothing to undo"
            } else {
                "there is nothing to redo"
            });
        }
        g.refusal = None;
        // Between computers, undo and redo pause the game.
        if g.game.computer_to_move() {
            g.paused = true;
        }
        let mut msgs = Vec::new();
        for step in steps {
            let what: Vec<String> = step.iter().map(ToString::to_string).collect();
            let line = format!("{} {}", if undo { "undo" } else { "redo" }, what.join(", "));
            self.note(line, &mut msgs);
        }
        self.after_change(msgs)
    }

    pub(super) fn pause(&mut self, paused: bool) -> Reply {
        let Some(g) = &mut self.game else {
            return Self::error("there is no game to pause");
        };
        if g.paused == paused {
            return Self::error(if paused {
                "the game is already paused"
            } else {
                "the game is not paused"
            });
        }
        g.paused = paused;
        let mut msgs = Vec::new();
        self.note(
            if paused {
                "paused".into()
            } else {
                "resumed".into()
            },
            &mut msgs,
        );
        self.after_change(msgs)
    }

    pub(super) fn settings(&mut self, s: SettingsMsg) -> Reply {
        let Some(g) = &mut self.game else {
            return Self::error("there is no game: the settings belong to a game");
        };
        let settings = Settings {
            min_clearance: s.min_clearance,
            comfort_distance: s.comfort_distance,
            room_vs_length: s.room_vs_length,
            spot_radius: g.board().settings().spot_radius,
        };
        if g.game.set_settings(settings).is_err() {
            return Self::error(format!(
                "settings refused (minimum clearance {}, comfort distance {}, room against length {}): the clearance must be positive and below the comfort distance",
                s.min_clearance, s.comfort_distance, s.room_vs_length
            ));
        }
        self.changed();
        let mut msgs = Vec::new();
        self.note(
            format!(
                "settings: minimum clearance {}, comfort distance {}, room vs length {}",
                s.min_clearance, s.comfort_distance, s.room_vs_length
            ),
            &mut msgs,
        );
        msgs.extend(self.state());
        Reply::msgs(msgs)
    }

    pub(super) fn set_players(&mut self, players: [PlayerSpec; 2]) -> Reply {
        if self.game.is_none() {
            return Self::error("there is no game");
        }
        let seats = match self.seats(&players) {
            Ok(s) => s,
            Err(e) => return Self::error(e),
        };
        let g = self.game.as_mut().expect("checked above");
        for (i, seat) in seats.into_iter().enumerate() {
            g.game.set_seat(i, seat).expect("seats 0 and 1 exist");
        }
        let line = format!(
            "players: Blue: {}, Red: {}",
            player_words(&players[0]),
            player_words(&players[1])
        );
        let mut msgs = Vec::new();
        self.note(line, &mut msgs);
        self.after_change(msgs)
    }
}
