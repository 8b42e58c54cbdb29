//! What the page is shown of a game: the state message, the status line, and the log's words
//! for refusals, conventions and players.

use sprouts::ai::bounds::bounds;
use sprouts::{Convention, GameError};

use super::{COLOURS, PageGame, Session};
use crate::page::protocol::{ConventionName, PlayerSpec, SettingsMsg, SpotMsg, StateMsg};

impl Session {
    pub(super) fn state_of(&self, g: &PageGame) -> StateMsg {
        let board = g.board();
        let pos = board.position();
        let spots = board
            .drawing()
            .spots()
            .iter()
            .map(|s| SpotMsg {
                id: s.id.get(),
                x: s.centre.x,
                y: s.centre.y,
                r: s.radius,
                lives: pos.lives(s.id).map_or(0, |l| l.get()),
            })
            .collect();
        let curves = board
            .drawing()
            .curves()
            .iter()
            .map(|c| {
                c.spline
                    .pieces()
                    .iter()
                    .map(|p| {
                        let b = &p.bez;
                        [
                            b.p0.x, b.p0.y, b.p1.x, b.p1.y, b.p2.x, b.p2.y, b.p3.x, b.p3.y,
                        ]
                    })
                    .collect()
            })
            .collect();
        let settings = board.settings();
        StateMsg {
            game: g.number,
            k: g.k(),
            width: board.drawing().world().width,
            height: board.drawing().world().height,
            spots,
            curves,
            to_move: g.to_move(),
            human_to_move: self.net_my_turn().unwrap_or_else(|| g.game.human_to_move()),
            over: g.game.is_over(),
            winner: g.winner(),
            status: self.status_line(g),
            refusal: g.refusal.clone(),
            first: u8::from(g.game.first() == 1),
            start_spots: u32::try_from(g.game.start().spot_count()).unwrap_or(u32::MAX),
            curve_moves: board
                .drawing()
                .curves()
                .iter()
                .map(|c| c.origin.map(|o| o.move_index))
                .collect(),
            can_undo: self.net_can_undo().unwrap_or_else(|| g.game.can_undo()),
            can_redo: self.net.is_none() && g.game.can_redo(),
            paused: g.paused,
            busy: self.running.is_some(),
            players: g.players(),
            convention: g.convention(),
            settings: SettingsMsg {
                min_clearance: settings.min_clearance,
                comfort_distance: settings.comfort_distance,
                room_vs_length: settings.room_vs_length,
            },
            moves: g.game.moves().iter().map(|m| m.words.clone()).collect(),
            glop: pos.to_glop(),
        }
    }

    /// The status line (spec 5.8, 4.2): whose turn, lives, bounds on the moves left, a proved
    /// verdict, the last refusal; the winner when the game is over.
    fn status_line(&self, g: &PageGame) -> String {
        match self.net_words() {
            Some(net) => format!("{net} · {}", self.game_words(g)),
            None => self.game_words(g),
        }
    }

    /// The game's part of the status line.
    fn game_words(&self, g: &PageGame) -> String {
        let pos = g.game.position();
        let w = g.board().drawing().world();
        if let Some(winner) = g.game.winner() {
            let loser = 1 - winner;
            let why = match g.game.convention() {
                Convention::Normal => format!("{} cannot move", COLOURS[loser]),
                Convention::Misere => {
                    format!("{} cannot move and wins in misère play", COLOURS[winner])
                }
            };
            return format!(
                "{} wins: {why}. Game over after {} moves.",
                COLOURS[winner],
                g.k()
            );
        }
        let mover = g.game.to_move();
        let mut parts = Vec::new();
        let who = match g.game.seats()[mover].spec() {
            None => format!("{} to move", COLOURS[mover]),
            Some(spec) => {
                if self.running.is_some() {
                    format!("{} ({spec}) is thinking", COLOURS[mover])
                } else if g.paused {
                    format!("{} ({spec}) to move, paused", COLOURS[mover])
                } else {
                    format!("{} ({spec}) to move", COLOURS[mover])
                }
            }
        };
        parts.push(who);
        parts.push(format!("{} lives", pos.total_lives()));
        let b = bounds(pos);
        parts.push(format!("moves left: M = {}, m = {}", b.upper, b.lower));
        if let Some((k, v)) = &g.verdict
            && *k == g.game.moves().len()
        {
            parts.push(v.clone());
        }
        parts.push(format!("Drawing area is {} x {}", w.width, w.height));
        parts.join(" · ")
    }
}

/// A refused job in words: the status line's reason and the log's detail.
pub(super) fn refusal_words(g: &PageGame, e: &GameError) -> (String, String) {
    let colour = COLOURS[g.game.to_move()];
    match e {
        GameError::NotDrawn { words, refusal, .. } => (
            format!(
                "{colour}'s move {words} could not be drawn: {}; undo, or set the player to Human",
                refusal.refusal
            ),
            refusal.log.join("; "),
        ),
        GameError::Refused(r) => (r.to_string(), r.detail()),
        GameError::NoMove => (
            format!("{colour} has no move"),
            format!("{colour}: no move in {}", g.game.position().to_glop()),
        ),
        other => (other.to_string(), other.to_string()),
    }
}

pub(super) fn convention_words(c: ConventionName) -> &'static str {
    match c {
        ConventionName::Normal => "normal",
        ConventionName::Misere => "misère",
    }
}

/// A player in words for the log.
pub(super) fn player_words(p: &PlayerSpec) -> String {
    match p {
        PlayerSpec::Human => "human".into(),
        PlayerSpec::Computer { spec } => format!("computer ({spec})"),
    }
}
