//! The game's jobs (the computer's move, a person's move to draw, the picture drawn afresh)
//! and the analysis: handed to the server as [`Job`]s to run off the async threads, and their
//! results applied by [`Session::finish`].

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use sprouts::ai::impartial::Outcome;
use sprouts::draw::fresh_words;
use sprouts::geom::Point;
use sprouts::{GameError, JobDone, JobEvent, Limits, Played};

use super::words::refusal_words;
use super::{COLOURS, Reply, Session};
use crate::page::analysis::AnalysisJob;
use crate::page::protocol::ServerMsg;

/// Heavy work for the server to run on a blocking thread: a game's job (the computer's move,
/// a person's move to draw, the picture drawn afresh) with its stop flag.
#[derive(Debug)]
pub struct Job {
    generation: u64,
    job: sprouts::Job,
    stop: Arc<AtomicBool>,
    /// How long to wait before the work (a game between computers at a page's pace).
    delay: std::time::Duration,
    /// A network game's job: the peer's ticket, its result going to the peer.
    net: Option<u64>,
}

/// What a [`Job`] came to.
#[derive(Debug)]
pub struct JobResult {
    generation: u64,
    done: JobDone,
    net: Option<u64>,
}

impl JobResult {
    /// The result of a job that panicked: an error naming the failure, so that the session
    /// goes on (a bug can make a move fail; it cannot take the game down).
    pub fn failed(ticket: (u64, (u64, usize)), what: &str) -> JobResult {
        JobResult {
            generation: ticket.0,
            done: JobDone::failed(ticket.1.0, ticket.1.1, what),
            net: None,
        }
    }
}

impl Job {
    /// The job's stop flag: set, it ends the thinking and the ladder's search for equivalent
    /// moves (the page's Space).
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// What identifies the job's result (for [`JobResult::failed`]).
    pub fn ticket(&self) -> (u64, (u64, usize)) {
        (self.generation, self.job.ticket())
    }

    /// Runs the job (blocking; call it off the async threads). `observer` receives the
    /// polylines of the curve being drawn, for the page's animation.
    pub fn run(self, observer: &mut dyn FnMut(&[Point])) -> JobResult {
        // The pace's wait, in short sleeps so that Space (or the page going) ends it.
        let start = std::time::Instant::now();
        while start.elapsed() < self.delay && !self.stop.load(Ordering::Relaxed) {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let limits = Limits::none().with_stop(Arc::clone(&self.stop));
        JobResult {
            generation: self.generation,
            done: self.job.run(&limits, observer),
            net: self.net,
        }
    }
}

impl Session {
    /// Hands a game's job to the server, with the state (now busy).
    pub(super) fn run_job(&mut self, job: sprouts::Job) -> Reply {
        let job = self.wrap(job);
        let mut reply = Reply::default();
        reply.msgs.extend(self.state());
        reply.job = Some(job);
        reply
    }

    fn wrap(&mut self, job: sprouts::Job) -> Job {
        self.generation += 1;
        let stop = Arc::new(AtomicBool::new(false));
        self.running = Some((self.generation, Arc::clone(&stop)));
        self.requested = None;
        Job {
            generation: self.generation,
            job,
            stop,
            delay: std::time::Duration::ZERO,
            net: None,
        }
    }

    /// The analysis of the position now: a job, stopping any earlier one.
    pub(super) fn analyse(&mut self, k: u32, seconds: Option<f64>) -> Reply {
        let g = match self.current(k) {
            Ok(g) => g,
            Err(r) => return Self::error(r),
        };
        if g.game.is_over() {
            return Self::error("the game is over: there is nothing left to analyse");
        }
        let job = AnalysisJob {
            game: g.number,
            k,
            position: g.game.position().clone(),
            convention: g.game.convention(),
            mover: g.game.to_move(),
            budget: AnalysisJob::budget_of(seconds),
            stop: Arc::new(AtomicBool::new(false)),
        };
        if let Some(old) = self
            .analysing
            .replace((g.number, k, job.stop_flag()))
            .map(|a| a.2)
        {
            old.store(true, Ordering::Relaxed);
        }
        Reply {
            analysis: Some(job),
            ..Reply::default()
        }
    }

    /// Stops the analysis out when the game has left the position it analyses (a move, an
    /// undo, another game): its answers would be dropped by the page. Call it after handling
    /// each message or result.
    pub fn stop_stale_analysis(&mut self) {
        let now = self.game.as_ref().map(|g| (g.number, g.k()));
        if let Some((game, k, flag)) = &self.analysing
            && now != Some((*game, *k))
        {
            flag.store(true, Ordering::Relaxed);
            self.analysing = None;
        }
    }

    /// Hands a network game's job to the server, with the state (now busy).
    pub(super) fn run_net_job(&mut self, job: sprouts::Job, ticket: u64) -> Reply {
        let mut job = self.wrap(job);
        job.net = Some(ticket);
        let mut reply = Reply::default();
        reply.msgs.extend(self.state());
        reply.job = Some(job);
        reply
    }

    /// The board changed (or may have): reach answers for the old one are dropped.
    pub(super) fn changed(&mut self) {
        self.version += 1;
        self.shared = None;
    }

    pub(super) fn stop_running(&mut self) {
        if let Some((_, _, flag)) = self.analysing.take() {
            flag.store(true, Ordering::Relaxed);
        }
        if let Some((_, flag)) = self.running.take() {
            flag.store(true, Ordering::Relaxed);
        }
        self.generation += 1;
    }

    /// Takes a job's result: applies it if it is still current, and starts what comes next.
    pub fn finish(&mut self, result: JobResult) -> Reply {
        if self.running.as_ref().map(|r| r.0) != Some(result.generation) {
            // A job the session has moved on from (undo, new game, load): dropped.
            return Reply::default();
        }
        self.running = None;
        let requested = self.requested.take();
        if let Some(ticket) = result.net {
            return self.net_finish(ticket, result.done);
        }
        let Some(g) = &mut self.game else {
            return Reply::default();
        };
        let mut msgs = Vec::new();
        g.waiting = None;
        let computer_waiting = g.computer_waiting.take();
        match g.game.finish(result.done) {
            Ok(JobEvent::Moved(played)) => {
                g.refusal = None;
                self.moved(&played, &mut msgs);
            }
            Ok(JobEvent::Redrawn(report)) => {
                g.refusal = None;
                g.retry_after_room(computer_waiting);
                self.note(
                    "redraw: the whole picture drawn afresh (undo puts it back)".into(),
                    &mut msgs,
                );
                self.note(
                    format!("  drawn afresh: {}", fresh_words(&report)),
                    &mut msgs,
                );
            }
            Ok(JobEvent::Relaxed(report)) => {
                g.refusal = None;
                g.retry_after_room(computer_waiting);
                self.note(
                    format!(
                        "{}: the whole picture relaxed (undo puts it back)",
                        report.mode.label()
                    ),
                    &mut msgs,
                );
                self.note(
                    format!("  {}", sprouts::draw::relax_words(&report)),
                    &mut msgs,
                );
            }
            Err(GameError::Stale) => return Reply::default(),
            Err(e) => {
                let (mut status, detail) = refusal_words(g, &e);
                if let GameError::Refused(r) = &e
                    && r.wants_room()
                {
                    g.waiting = requested;
                }
                if g.waiting.is_some() {
                    status.push_str(". Press M, A, R, Z or . to make room for it");
                }
                // A computer that cannot draw stops the game until a person acts; a Room
                // step by hand then lets it try the same move once more.
                if g.game.computer_to_move() {
                    g.paused = true;
                    if let GameError::NotDrawn { mv, report, .. } = &e {
                        g.computer_waiting = Some((mv.clone(), report.clone()));
                        status.push_str(". A, R, Z or . by hand lets it try the move once more");
                    }
                }
                g.refusal = Some(status.clone());
                self.note(format!("refused: {status}"), &mut msgs);
                self.note(format!("  {detail}"), &mut msgs);
                msgs.push(ServerMsg::Refused { reason: status });
            }
        }
        self.after_change(msgs)
    }

    /// The log lines and verdict of a move played.
    fn moved(&mut self, played: &Played, msgs: &mut Vec<ServerMsg>) {
        let colour = COLOURS[played.seat];
        if let Some(g) = &mut self.game
            && let Some(v) = played.report.as_ref().and_then(|r| r.verdict)
        {
            let words = match v {
                Outcome::Win => format!("{colour} has a winning position"),
                Outcome::Loss => format!("{colour} is lost against best play"),
            };
            g.verdict = Some((played.number, words));
        }
        self.note(
            format!("move {} ({colour}): {}", played.number, played.words),
            msgs,
        );
        // The player's reasoning first ("Blue (perfect:2s): ..."), then how the move was drawn.
        for (i, l) in played.log.iter().enumerate() {
            let line = if i == 0 && played.report.is_some() {
                format!("  {colour} {l}")
            } else {
                format!("  {l}")
            };
            self.note(line, msgs);
        }
    }

    /// After the game changed: the game-over line, the state, and the computer's job.
    pub(super) fn after_change(&mut self, mut msgs: Vec<ServerMsg>) -> Reply {
        self.changed();
        let mut job = None;
        if let Some(g) = &self.game
            && let Some(w) = g.game.winner()
            && !self.log.last().is_some_and(|l| l.starts_with("game over"))
        {
            let line = format!("game over after {} moves: {} wins", g.k(), COLOURS[w]);
            self.note(line, &mut msgs);
        }
        if let Some(g) = &mut self.game
            && self.running.is_none()
            && !g.paused
            && g.game.computer_to_move()
            && let Ok(j) = match g.retry.take() {
                Some((mv, report)) => g.game.computer_retry_job(mv, report.map(|r| *r)),
                None => g.game.computer_job(),
            }
        {
            let between_computers = g.game.seats().iter().all(|s| s.spec().is_some()) && g.k() > 0;
            let mut j = self.wrap(j);
            if between_computers {
                j.delay = std::time::Duration::from_millis(u64::from(self.pace_ms));
            }
            job = Some(j);
        }
        msgs.extend(self.state());
        Reply {
            msgs,
            job,
            ..Reply::default()
        }
    }
}
