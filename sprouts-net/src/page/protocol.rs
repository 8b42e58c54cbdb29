//! The messages between the page and the server: JSON text frames over a WebSocket.
//!
//! Every message is an object whose `type` names it. The page opens with
//! `{"type":"hello","protocol":1}`; the server answers `welcome` with the session's id, which
//! every later message from the page must carry (`session`). Messages that act on the game also
//! carry `k`, the number of moves the page believes have been played: a message with another
//! `k` is stale (the page has not yet seen a move) and is refused with an error, changing
//! nothing. A message that cannot be decoded, or comes out of order, gets an `error` too.

use serde::{Deserialize, Serialize};

use super::store::KeptSummary;

pub use crate::peer::Role;

/// The protocol's version: the page and the server must agree on it.
pub const PROTOCOL_VERSION: u32 = 1;

/// The largest message the server reads (bytes); a longer one is refused undecoded.
pub const MAX_MESSAGE_BYTES: usize = 4 << 20;

/// The longest pause between two computers' moves a page may ask for (milliseconds).
pub const MAX_PACE_MS: u32 = 10_000;

/// A point of the world, `[x, y]` in world pixels.
pub type Pt = [f64; 2];

/// One player, as the New game dialog describes it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum PlayerSpec {
    /// A person at this page.
    Human,
    /// The computer, with a player spec such as `random`, `montecarlo:200`,
    /// `parity-fast:2s`, `parity-sharp:depth=6` or `perfect:5s`.
    Computer {
        /// The player spec.
        spec: String,
    },
}

/// Normal play (who cannot move loses) or misère play (who cannot move wins).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ConventionName {
    /// Who cannot move loses.
    Normal,
    /// Who cannot move wins.
    Misere,
}

/// The drawing settings the page may change.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SettingsMsg {
    /// Minimum clearance `d0` (world pixels).
    pub min_clearance: f64,
    /// Comfort distance `D` (world pixels).
    pub comfort_distance: f64,
    /// Room against length `lambda`.
    pub room_vs_length: f64,
}

/// A Room step pressed by hand (spec 4.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RoomStep {
    /// M: spots slid, seeds moved, curves pushed apart round the way of the move waiting
    /// for room (spec 4.3, 4.4); only while a move waits.
    #[serde(rename = "M")]
    Local,
    /// A: the curves relaxed, the spots kept (spec 4.5).
    #[serde(rename = "A")]
    Adjust,
    /// R: the whole picture relaxed (spec 4.5).
    #[serde(rename = "R")]
    Rearrange,
    /// Z: the whole picture drawn afresh (spec 4.6).
    #[serde(rename = "Z")]
    Fresh,
    /// • (key `.`): afresh, with spots drawn smaller where there is no room (spec 4.6).
    #[serde(rename = ".")]
    Smaller,
}

impl From<RoomStep> for sprouts::draw::RoomStep {
    fn from(step: RoomStep) -> sprouts::draw::RoomStep {
        match step {
            RoomStep::Local => sprouts::draw::RoomStep::Local,
            RoomStep::Adjust => sprouts::draw::RoomStep::Adjust,
            RoomStep::Rearrange => sprouts::draw::RoomStep::Rearrange,
            RoomStep::Fresh => sprouts::draw::RoomStep::Fresh,
            RoomStep::Smaller => sprouts::draw::RoomStep::Smaller,
        }
    }
}

/// One row of the Room menu's boxes (spec 4.1): which steps are taken automatically.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoomBoxesMsg {
    /// M (absent from boxes kept by an older page: unchecked, and skipped).
    #[serde(default)]
    pub m: bool,
    /// A.
    #[serde(default)]
    pub a: bool,
    /// R.
    #[serde(default)]
    pub r: bool,
    /// Z.
    #[serde(default)]
    pub z: bool,
    /// • (`.`).
    #[serde(default)]
    pub dot: bool,
}

/// A message from the page.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMsg {
    /// The first message: the page's protocol version.
    Hello {
        /// Must be [`PROTOCOL_VERSION`].
        protocol: u32,
    },
    /// Starts a new game.
    NewGame {
        /// The session id from `welcome`.
        session: String,
        /// Number of spots (at least 1); ignored when `position` is given.
        spots: u32,
        /// A position in GLOP notation to start from instead of `spots` seeds (drawn afresh;
        /// it must be a picture: every spot met as often as it has curves).
        #[serde(default)]
        position: Option<String>,
        /// Normal or misère play.
        convention: ConventionName,
        /// Player 1 (Blue) and player 2 (Red).
        players: [PlayerSpec; 2],
        /// Who moves first: 0 (Blue) or 1 (Red).
        first: u8,
        /// The drawing area's size in world pixels (the page's canvas when the game starts).
        width: f64,
        /// See `width`.
        height: f64,
    },
    /// Starts a new game from a picture drawn in the page's editor: the server reads the
    /// position off it from scratch and starts the game when it is a legal Sprouts picture
    /// (reached by moves from some n-spot start, or any valid position with `any_valid`);
    /// otherwise it answers `picture_refused` with the reason, and nothing changes.
    EditedGame {
        /// The session id from `welcome`.
        session: String,
        /// The picture.
        picture: PictureMsg,
        /// Whether any valid position will do (not necessarily reached by moves).
        #[serde(default)]
        any_valid: bool,
        /// Normal or misère play.
        convention: ConventionName,
        /// Player 1 (Blue) and player 2 (Red).
        players: [PlayerSpec; 2],
        /// Who moves first: 0 (Blue) or 1 (Red).
        first: u8,
    },
    /// Which spots can be reached from `from`, leaving on the side of `toward`.
    Reach {
        /// Session id.
        session: String,
        /// Moves played so far, as the page knows it.
        k: u32,
        /// The spot pressed.
        from: u32,
        /// A point of the world telling the side (the pointer).
        toward: Pt,
    },
    /// A human move: from a spot to a spot, with the pointer's stroke (empty for a click move:
    /// the shortest way) and the spots marked to be enclosed.
    Draw {
        /// Session id.
        session: String,
        /// Moves played so far.
        k: u32,
        /// The spot the curve leaves.
        from: u32,
        /// The spot it reaches.
        to: u32,
        /// The stroke in world coordinates, from near `from` to near `to` (may be empty).
        #[serde(default)]
        stroke: Vec<Pt>,
        /// A point telling the side the curve leaves on (the press), if known.
        #[serde(default)]
        from_side: Option<Pt>,
        /// A point telling the side it arrives on (the release), if known.
        #[serde(default)]
        to_side: Option<Pt>,
        /// Spots the curve must enclose (their boundaries), with nothing else.
        #[serde(default)]
        marks: Vec<u32>,
    },
    /// Draws the whole picture afresh (to make room; a step of the history, undoable).
    Redraw {
        /// Session id.
        session: String,
        /// Moves played so far.
        k: u32,
    },
    /// A Room step on the present picture now (spec 4.1): a job (Space stops it) and a step
    /// of the history (undoable). Answered by `state`, or `error` while something runs.
    Room {
        /// Session id.
        session: String,
        /// Moves played so far.
        k: u32,
        /// The step.
        step: RoomStep,
    },
    /// The Room menu's boxes: the steps taken automatically when a move finds no room, for
    /// a person's moves and for the computer's. They last for the session's later games too.
    RoomBoxes {
        /// Session id.
        session: String,
        /// The boxes for a person's moves.
        human: RoomBoxesMsg,
        /// The boxes for the computer's moves.
        computer: RoomBoxesMsg,
        /// Heroic mode (spec 4.7): a person's curve kept exactly as drawn, nothing done by
        /// itself for a person's moves, no M for the computer's.
        #[serde(default)]
        heroic: bool,
    },
    /// Undoes the last step.
    Undo {
        /// Session id.
        session: String,
        /// Moves played so far.
        k: u32,
    },
    /// Redoes the last undone step.
    Redo {
        /// Session id.
        session: String,
        /// Moves played so far.
        k: u32,
    },
    /// Pauses a game between computers (or resumes it).
    Pause {
        /// Session id.
        session: String,
        /// True to pause, false to resume.
        paused: bool,
    },
    /// Sets the pace of a game between computers: each computer's move waits this long after
    /// the one before (at most [`MAX_PACE_MS`]), so that people can watch it.
    Pace {
        /// Session id.
        session: String,
        /// Milliseconds between moves (0: as fast as they come).
        ms: u32,
    },
    /// Asks for the analysis of the position (who is winning, the winning moves, the analysis
    /// board), run off the async threads within a budget and answered by `analysis` messages,
    /// one a step. A newer `analyse` stops the one running.
    Analyse {
        /// Session id.
        session: String,
        /// Moves played so far.
        k: u32,
        /// The budget in seconds (clamped to 0.1 to 120; 2 when not given).
        #[serde(default)]
        seconds: Option<f64>,
    },
    /// Stops the computation running now (Space).
    Stop {
        /// Session id.
        session: String,
    },
    /// Asks for the game as saved-game JSON.
    Save {
        /// Session id.
        session: String,
    },
    /// Asks for the game as a game record to keep (the page's storage): answered by
    /// `snapshot`, which the page keeps without offering a download.
    Snapshot {
        /// Session id.
        session: String,
    },
    /// Asks for the log as text.
    SaveLog {
        /// Session id.
        session: String,
    },
    /// Loads a saved game (its JSON text), keeping the players.
    Load {
        /// Session id.
        session: String,
        /// The saved game.
        json: String,
        /// The id the game was kept under (a game the page kept and now resumes): the
        /// server's copy goes on under the same id. Without it the game gets a new id.
        #[serde(default)]
        kept: Option<String>,
    },
    /// Resumes the game the server keeps under `id` (the `kept` of `welcome`): loaded as by
    /// `load`, and kept on under the same id.
    ResumeKept {
        /// Session id.
        session: String,
        /// The kept game's id.
        id: String,
    },
    /// Changes the drawing settings.
    Settings {
        /// Session id.
        session: String,
        /// The new settings.
        settings: SettingsMsg,
    },
    /// Changes the players (between moves).
    Players {
        /// Session id.
        session: String,
        /// Player 1 and player 2.
        players: [PlayerSpec; 2],
    },
    /// Opens a network room as its host (Net menu, Host) and starts a game in it; the
    /// server answers `net` with the room's code.
    NetHost {
        /// Session id.
        session: String,
        /// The name the other player sees.
        name: String,
        /// Spots of the first game.
        spots: u32,
        /// Normal or misère play.
        convention: ConventionName,
        /// The drawing area's size in world pixels.
        width: f64,
        /// See `width`.
        height: f64,
    },
    /// Takes a seat in a network room (Net menu, Join; the link `?join=CODE`; or a page
    /// coming back to its room after a reload).
    NetJoin {
        /// Session id.
        session: String,
        /// The name the other player sees.
        name: String,
        /// The room's code.
        room: String,
        /// The seat held before (with its token), when coming back.
        #[serde(default)]
        back: Option<NetBack>,
        /// The drawing area's size in world pixels.
        width: f64,
        /// See `width`.
        height: f64,
    },
    /// Leaves the network game (the room stays: the code takes the seat back).
    NetLeave {
        /// Session id.
        session: String,
    },
}

/// A picture drawn in the page's editor, in world pixels.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PictureMsg {
    /// The drawing area's width.
    pub width: f64,
    /// The drawing area's height.
    pub height: f64,
    /// The spots' centres: the first is spot 1, the next spot 2, and so on.
    pub spots: Vec<Pt>,
    /// The curves.
    pub curves: Vec<PictureCurveMsg>,
}

/// A curve drawn in the editor: a polyline from a spot's centre through `points` to a spot's
/// centre.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PictureCurveMsg {
    /// The spot it starts at.
    pub from: u32,
    /// The spot it ends at.
    pub to: u32,
    /// The points between (points on the end spots' discs are dropped).
    #[serde(default)]
    pub points: Vec<Pt>,
}

/// What a page keeps to come back to its seat in a network room (from `net`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NetBack {
    /// The seat.
    pub role: Role,
    /// The relay's token for the seat.
    pub token: String,
    /// The last relay message received.
    pub after: u64,
    /// The game as it stood at the last settled action, if there was one.
    #[serde(default)]
    pub kept: Option<NetKept>,
}

/// A network game as a page keeps it: the game record (with this side's picture) at action
/// `n`, whose id is `last`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NetKept {
    /// The game record's JSON text.
    pub record: String,
    /// The action number.
    pub n: u64,
    /// The action's id.
    pub last: u64,
}

/// Where the page's network game stands (after anything about it changed).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NetMsg {
    /// Whether the page is in a network game at all (false after leaving).
    pub active: bool,
    /// The room's code, once the relay gave it.
    pub room: Option<String>,
    /// This side's seat.
    pub role: Role,
    /// What takes the seat back, with the game to come back with: the page keeps it for a
    /// reload.
    pub back: Option<NetBack>,
    /// The connection: `connecting`, `up` (the other side there), `away` (the other side
    /// not connected), `down` (the relay unreachable, trying again), `refused`.
    pub link: String,
    /// The other player's name, once it said hello.
    pub peer_name: Option<String>,
    /// Whether this side's action waits for the other side's ack (the page is greyed).
    pub waiting: bool,
    /// Whether the local person may move now.
    pub my_turn: bool,
    /// The connection and turn in words, for the status line.
    pub status: String,
}

/// A spot as the page draws it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpotMsg {
    /// Identity.
    pub id: u32,
    /// Centre x (world).
    pub x: f64,
    /// Centre y (world).
    pub y: f64,
    /// Drawn radius.
    pub r: f64,
    /// Lives left.
    pub lives: u8,
}

/// The whole state the page shows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StateMsg {
    /// The game's number in the session (a new or loaded game has a new one).
    pub game: u32,
    /// Moves played.
    pub k: u32,
    /// World width.
    pub width: f64,
    /// World height.
    pub height: f64,
    /// The spots.
    pub spots: Vec<SpotMsg>,
    /// The curves, each a list of cubic pieces `[x0,y0,x1,y1,x2,y2,x3,y3]`.
    pub curves: Vec<Vec<[f64; 8]>>,
    /// The player to move (0 Blue, 1 Red), or the loser/winner's index when over.
    pub to_move: u8,
    /// Whether the player to move is a person.
    pub human_to_move: bool,
    /// Whether the game has ended.
    pub over: bool,
    /// The winner's index when over.
    pub winner: Option<u8>,
    /// The status line: whose turn (or who won), the lives, what is known of the moves left.
    pub status: String,
    /// The last refusal of a move, in words, until the game changes (shown apart from the
    /// status line).
    pub refusal: Option<String>,
    /// The seat that moved first (0 Blue, 1 Red): move `i` was made by seat `(first + i) % 2`.
    pub first: u8,
    /// How many spots the game started with: the spot `start_spots + 1 + i` was made by move `i`.
    pub start_spots: u32,
    /// For each curve of `curves`, the index of the move that drew it (none for a curve no
    /// move made).
    pub curve_moves: Vec<Option<u32>>,
    /// Whether undo and redo are possible.
    pub can_undo: bool,
    /// See `can_undo`.
    pub can_redo: bool,
    /// Whether a game between computers is paused.
    pub paused: bool,
    /// Whether the computer is thinking or a curve is being drawn.
    pub busy: bool,
    /// The players.
    pub players: [PlayerSpec; 2],
    /// Normal or misère.
    pub convention: ConventionName,
    /// The drawing settings.
    pub settings: SettingsMsg,
    /// The moves in words, in order.
    pub moves: Vec<String>,
    /// The position in GLOP notation (for tests and the curious).
    pub glop: String,
}

impl ClientMsg {
    /// The session id the message carries (`None` for `hello`).
    pub fn session(&self) -> Option<&str> {
        match self {
            ClientMsg::Hello { .. } => None,
            ClientMsg::NewGame { session, .. }
            | ClientMsg::EditedGame { session, .. }
            | ClientMsg::Reach { session, .. }
            | ClientMsg::Draw { session, .. }
            | ClientMsg::Redraw { session, .. }
            | ClientMsg::Room { session, .. }
            | ClientMsg::RoomBoxes { session, .. }
            | ClientMsg::Undo { session, .. }
            | ClientMsg::Redo { session, .. }
            | ClientMsg::Pause { session, .. }
            | ClientMsg::Pace { session, .. }
            | ClientMsg::Analyse { session, .. }
            | ClientMsg::Stop { session }
            | ClientMsg::Save { session }
            | ClientMsg::Snapshot { session }
            | ClientMsg::SaveLog { session }
            | ClientMsg::Load { session, .. }
            | ClientMsg::ResumeKept { session, .. }
            | ClientMsg::Settings { session, .. }
            | ClientMsg::Players { session, .. }
            | ClientMsg::NetHost { session, .. }
            | ClientMsg::NetJoin { session, .. }
            | ClientMsg::NetLeave { session } => Some(session),
        }
    }
}

/// A message from the server.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg {
    /// The answer to `hello`.
    Welcome {
        /// The protocol version.
        protocol: u32,
        /// The session id the page must send back.
        session: String,
        /// The game this server kept last (by any page), if it keeps games: the page resumes
        /// it with `resume_kept` unless its own copy is newer.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        kept: Option<KeptSummary>,
    },
    /// The state after anything changed.
    State(Box<StateMsg>),
    /// The spots reachable from a pressed spot.
    Reachable {
        /// The spot pressed.
        from: u32,
        /// The spots that can be reached (lit up).
        spots: Vec<u32>,
    },
    /// An intermediate polyline of a curve being drawn (for animation).
    Animate {
        /// The polyline.
        points: Vec<Pt>,
    },
    /// A move the rules allow was not drawn: the reason, for the status line.
    Refused {
        /// Why, in words, without pixel numbers.
        reason: String,
    },
    /// A bad message: it changed nothing.
    Error {
        /// What was wrong.
        message: String,
    },
    /// A line of the log.
    Log {
        /// The line.
        line: String,
    },
    /// The game as a game record in JSON (answer to `save`).
    Saved {
        /// The JSON text.
        json: String,
    },
    /// The game as a game record in JSON, with the move count it holds (answer to `snapshot`).
    Snapshot {
        /// The game's number in the session.
        game: u32,
        /// Moves played.
        k: u32,
        /// Whether the game has ended.
        over: bool,
        /// The JSON text.
        json: String,
        /// The id the game is kept under (the same as the server's copy).
        id: String,
        /// When this state of the game was kept: milliseconds since the Unix epoch by the
        /// server's clock (the server's copy of the same state has the same stamp).
        at: u64,
    },
    /// A step of the analysis of the position after `k` moves of game `game` (answer to
    /// `analyse`).
    Analysis {
        /// The game's number in the session.
        game: u32,
        /// Moves played.
        k: u32,
        /// What was found.
        event: AnalysisMsg,
    },
    /// The log as text (answer to `save_log`).
    LogText {
        /// The text.
        text: String,
    },
    /// The network game's state (Net menu).
    Net(Box<NetMsg>),
    /// The picture of `edited_game` is not a legal Sprouts picture: the reason, and the spots
    /// and curves (indices into the picture's curves) it names, for the editor to mark. The
    /// game in play goes on unchanged.
    PictureRefused {
        /// Why, in words.
        reason: String,
        /// The spots the reason names.
        spots: Vec<u32>,
        /// The curves the reason names.
        curves: Vec<u32>,
    },
}

/// One step of an analysis, in the order they come: `started`, then (normal play) a `part`
/// for each part, the `outcome`, a `move` for each move listed, and `done`. A `null` value is
/// one the budget did not settle.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum AnalysisMsg {
    /// The position: canonical form, bounds, parts and moves (nothing settled yet).
    Started {
        /// Whether the values are misère play's (no nimbers then).
        misere: bool,
        /// The canonical form (GLOP).
        canonical: String,
        /// The fewest moves any game from here can take.
        lower: u32,
        /// The most moves any game from here can take.
        upper: u32,
        /// The independent parts (canonical lands).
        parts: Vec<String>,
        /// The distinct moves listed (at most 2,000).
        moves: Vec<AnalysisMove>,
        /// How many distinct moves there are in all.
        move_count: u64,
    },
    /// Part `index` has its nimber (normal play).
    Part {
        /// Index into the parts of `started`.
        index: u32,
        /// Its nimber, or `null`.
        nimber: Option<u32>,
    },
    /// The position's outcome.
    Outcome {
        /// Its nimber (normal play), or `null`.
        nimber: Option<u32>,
        /// Whether the player to move wins, or `null`.
        wins: Option<bool>,
        /// The verdict in words ("Blue, to move, can win with best play").
        words: String,
    },
    /// Move `index` has its verdict.
    Move {
        /// Index into the moves of `started`.
        index: u32,
        /// The nimber of the position it leads to (normal play), or `null`.
        nimber: Option<u32>,
        /// Whether the move wins, or `null`.
        winning: Option<bool>,
    },
    /// The analysis is over.
    Done {
        /// Nodes the solver expanded (normal play).
        nodes: u64,
        /// Whether everything listed was settled.
        complete: bool,
        /// The time it took.
        seconds: f64,
    },
}

/// A move of the analysed position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnalysisMove {
    /// The spot the curve leaves.
    pub from: u32,
    /// The spot it reaches.
    pub to: u32,
    /// The spots it encloses.
    pub enclosed: Vec<u32>,
    /// The move in words.
    pub words: String,
    /// The canonical form of the position it leads to.
    pub child: String,
}

/// Why a text is not a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError(pub String);

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Decodes a message from the page. Never panics, whatever the text.
///
/// # Errors
/// Too long, not JSON, not an object with a known `type`, or fields missing or wrong.
pub fn decode(text: &str) -> Result<ClientMsg, DecodeError> {
    if text.len() > MAX_MESSAGE_BYTES {
        return Err(DecodeError(format!(
            "message too long ({} bytes, at most {MAX_MESSAGE_BYTES})",
            text.len()
        )));
    }
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| DecodeError(format!("not JSON: {e}")))?;
    let Some(kind) = value.get("type").and_then(|t| t.as_str()) else {
        return Err(DecodeError(
            "a message must be an object with a string `type`".into(),
        ));
    };
    let kind = kind.to_string();
    serde_json::from_value(value).map_err(|e| {
        let text = e.to_string();
        if text.starts_with("unknown variant") {
            DecodeError(format!("unknown message type `{kind}`"))
        } else {
            DecodeError(format!("bad `{kind}` message: {text}"))
        }
    })
}

/// Encodes a message to the page.
pub fn encode(msg: &ServerMsg) -> String {
    // Serialising these plain structs cannot fail (no maps with non-string keys); a NaN would be
    // written as null by serde_json, which the page tolerates.
    serde_json::to_string(msg).unwrap_or_else(|e| {
        format!(
            "{{\"type\":\"error\",\"message\":{}}}",
            serde_json::Value::String(e.to_string())
        )
    })
}
