//! The campaign's routes: the list of levels, a level's game record (which the page loads like
//! a saved game), and the levels won, kept in `campaign-progress.json` in the data directory
//! (`--data`). A level counts as won when the page sends the record of a finished game that
//! starts at the level's position, with the person against the campaign's opponent, and that
//! the person won: the record's moves are replayed (without the picture) to check it.

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::{Mutex, OnceLock};

use axum::Json;
use axum::extract::{Path as UrlPath, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use serde_json::json;
use sprouts::campaign::{Campaign, OPPONENT};
use sprouts::{GameRecord, SeatRecord};

use super::ServerState;

/// The file in the data directory that keeps the levels won.
pub(crate) const PROGRESS_FILE: &str = "campaign-progress.json";

/// The built-in campaign, read once (an error if it does not read).
fn campaign() -> Result<&'static Campaign, String> {
    static CAMPAIGN: OnceLock<Result<Campaign, String>> = OnceLock::new();
    CAMPAIGN
        .get_or_init(|| crate::campaign::built_in().map_err(|e| format!("{e:#}")))
        .as_ref()
        .map_err(Clone::clone)
}

/// One writer of the progress file at a time.
static WRITING: Mutex<()> = Mutex::new(());

/// The progress file's contents.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Progress {
    /// The numbers of the levels won.
    won: BTreeSet<u32>,
}

/// The progress kept in `dir` (none when the file is missing or unreadable).
fn read_progress(dir: &Path) -> Progress {
    std::fs::read_to_string(dir.join(PROGRESS_FILE))
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default()
}

/// Writes the progress to `dir` (through a temporary file renamed over the old one, so that a
/// crash leaves one or the other).
fn write_progress(dir: &Path, progress: &Progress) -> std::io::Result<()> {
    let tmp = dir.join(format!("{PROGRESS_FILE}.tmp"));
    let text = serde_json::to_string_pretty(progress).map_err(std::io::Error::other)?;
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, dir.join(PROGRESS_FILE))
}

fn fail(status: StatusCode, why: impl Into<String>) -> Response {
    (status, Json(json!({ "error": why.into() }))).into_response()
}

/// `GET /campaign`: the levels (without their pictures) and the levels won on this server.
pub(crate) async fn list(State(state): State<ServerState>) -> Response {
    let c = match campaign() {
        Ok(c) => c,
        Err(e) => return fail(StatusCode::INTERNAL_SERVER_ERROR, e),
    };
    let won: Vec<u32> = state
        .data
        .as_deref()
        .map(|d| read_progress(d).won.into_iter().collect())
        .unwrap_or_default();
    let levels: Vec<_> = c
        .levels
        .iter()
        .map(|l| {
            json!({
                "number": l.number,
                "grade": l.grade,
                "spots": l.spots,
                "glop": l.glop,
                "moves": l.proof.moves,
                "winning_moves": l.proof.winning_moves,
                "win_length": l.proof.win_length,
                "nodes": l.proof.nodes,
            })
        })
        .collect();
    (
        [(header::CACHE_CONTROL, "no-store")],
        Json(json!({
            "levels": levels,
            "won": won,
            "kept": state.data.is_some(),
            "opponent": OPPONENT,
        })),
    )
        .into_response()
}

/// `GET /campaign/level/{n}`: the level's game record, as the page's `load` takes it.
pub(crate) async fn level(UrlPath(n): UrlPath<u32>) -> Response {
    let c = match campaign() {
        Ok(c) => c,
        Err(e) => return fail(StatusCode::INTERNAL_SERVER_ERROR, e),
    };
    match c.level(n) {
        Ok(l) => (
            [(header::CONTENT_TYPE, "application/json")],
            l.record.to_json(),
        )
            .into_response(),
        Err(e) => fail(StatusCode::NOT_FOUND, e.to_string()),
    }
}

/// What the page sends when a level's game is over.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Won {
    /// The level's number.
    level: u32,
    /// The game record of the game played.
    record: String,
}

/// Whether `record` is a game of level `n` that the person won.
fn check_win(c: &Campaign, n: u32, record: &str) -> Result<(), String> {
    let l = c.level(n).map_err(|e| e.to_string())?;
    let mut r = GameRecord::from_json(record).map_err(|e| format!("not a game record: {e}"))?;
    if r.start != l.record.start {
        return Err(format!("the game does not start at level {n}'s position"));
    }
    let opponent_ok =
        matches!(&r.seats[1], SeatRecord::Computer { spec, .. } if spec.trim() == OPPONENT);
    if r.seats[0] != SeatRecord::Human || !opponent_ok || r.first != 0 {
        return Err(format!(
            "the game is not the person (Blue, first) against {OPPONENT}"
        ));
    }
    // The moves decide; the picture need not be read again.
    r.picture = None;
    let game = r
        .into_game()
        .map_err(|e| format!("the game does not replay: {e}"))?;
    match game.winner() {
        Some(0) => Ok(()),
        Some(_) => Err("the person lost this game".into()),
        None => Err("the game is not over".into()),
    }
}

/// `POST /campaign/won`: a level won (see the module docs); answers the levels won.
pub(crate) async fn won(
    State(state): State<ServerState>,
    headers: HeaderMap,
    Json(body): Json<Won>,
) -> Response {
    if let Err(why) = state.allows(&headers) {
        return fail(StatusCode::FORBIDDEN, why);
    }
    let c = match campaign() {
        Ok(c) => c,
        Err(e) => return fail(StatusCode::INTERNAL_SERVER_ERROR, e),
    };
    let checked = tokio::task::spawn_blocking(move || {
        check_win(c, body.level, &body.record).map(|()| body.level)
    })
    .await;
    let n = match checked {
        Ok(Ok(n)) => n,
        Ok(Err(why)) => return fail(StatusCode::UNPROCESSABLE_ENTITY, why),
        Err(e) => return fail(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    };
    let Some(dir) = state.data.clone() else {
        return Json(json!({ "won": [n], "kept": false })).into_response();
    };
    let written = tokio::task::spawn_blocking(move || {
        let _one = WRITING
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut p = read_progress(&dir);
        p.won.insert(n);
        write_progress(&dir, &p).map(|()| p)
    })
    .await;
    match written {
        Ok(Ok(p)) => Json(json!({ "won": p.won, "kept": true })).into_response(),
        Ok(Err(e)) => fail(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("the progress was not written: {e}"),
        ),
        Err(e) => fail(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    }
}
