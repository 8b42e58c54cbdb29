//! The messages two programs exchange to play one game (spec section 6): JSON objects, one a
//! text frame, carried by any transport (the relay's rooms, a test's queue).
//!
//! Every message is an envelope `{"k": K, "n": N, "body": {"type": ..., ...}}`: `k` is the
//! number of moves the sender's game has, `n` the number of actions in the sender's history
//! (moves, undos and games, each numbered once in the order the host settled). The bodies:
//!
//! | `type` | meaning |
//! | --- | --- |
//! | `hello` | the protocol version, the sender's role and name, its last action's id and the key of its position |
//! | `game` | a whole game as a [`GameRecord`] without picture: a new game from the host, or a repair |
//! | `move` | a move as spots and keys ([`WireMove`]), action `n`, following action `prev` |
//! | `undo` | the last move taken back, action `n`, following action `prev` |
//! | `ack` | action `id` (number `n`) is played and drawn here |
//! | `refuse` | action `id` (number `n`) is not played here, and why |
//! | `resend` | send again the actions from number `from` on (`0`: the whole game) |
//! | `heartbeat` | the sender's last action, whether it waits for an ack, its position's key |
//! | `bye` | the sender leaves the room |
//!
//! A move never carries geometry: each side draws its own picture.
//!
//! ```json
//! {"k":2,"n":3,"body":{"type":"move","id":77,"prev":41,
//!   "mv":{"from":1,"to":4,"enclosed":[],"result":"1,4.2;1:1,2:3,3:3,4:2;5"}}}
//! ```

use serde::{Deserialize, Serialize};
use sprouts::GameRecord;
use sprouts::topo::{GameKey, MoveNotation, SpotId};

/// The version of this protocol; two programs play only when they speak the same one.
pub const PEER_PROTOCOL_VERSION: u32 = 2;

/// The longest message read (bytes). A whole game of a hundred spots (about 300 moves, each
/// with the key of its position) stays well under it.
pub const MAX_PEER_MESSAGE_BYTES: usize = 1 << 20;

/// The longest player name (characters).
pub const MAX_NAME_CHARS: usize = 64;

/// The longest reason in a `refuse` or `bye` (characters).
pub const MAX_REASON_CHARS: usize = 512;

/// The most spots a network game starts with.
pub const MAX_NET_SPOTS: u32 = 200;

/// Action ids are below this bound, so that a browser reads them exactly (JSON numbers are
/// doubles there).
pub const ID_BOUND: u64 = 1 << 53;

/// Who sits where: the host is Player 1 and alone starts games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// Player 1: starts games, wins conflicts, keeps the record that repairs a divergence.
    Host,
    /// Player 2.
    Guest,
}

impl Role {
    /// The other role.
    pub fn other(self) -> Role {
        match self {
            Role::Host => Role::Guest,
            Role::Guest => Role::Host,
        }
    }

    /// The seat this role plays (0 for the host, 1 for the guest).
    pub fn seat(self) -> usize {
        match self {
            Role::Host => 0,
            Role::Guest => 1,
        }
    }
}

impl std::fmt::Display for Role {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Role::Host => "host",
            Role::Guest => "guest",
        })
    }
}

/// A move on the wire: its end spots, the spots it encloses on one side (a one-boundary move)
/// and the game key of the position it makes (the key is the same for the position and its
/// mirror image, so either side may draw it either way round). This is
/// [`MoveNotation`] field for field.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WireMove {
    /// The spot the curve leaves.
    pub from: u32,
    /// The spot it reaches.
    pub to: u32,
    /// The enclosed spots (empty for a move between two boundaries).
    pub enclosed: Vec<u32>,
    /// The key of the resulting position, in [`GameKey`]'s text form.
    pub result: String,
}

impl WireMove {
    /// The wire form of a notation.
    pub fn of(notation: &MoveNotation) -> WireMove {
        WireMove {
            from: notation.from.get(),
            to: notation.to.get(),
            enclosed: notation.enclosed.iter().map(|s| s.get()).collect(),
            result: notation.result.to_string(),
        }
    }

    /// The notation, checked for form (spots from 1, a key that parses); whether it names a
    /// move is for the receiver's position to say ([`MoveNotation::to_move`]).
    ///
    /// # Errors
    /// A spot 0 or a key that does not parse.
    pub fn notation(&self) -> Result<MoveNotation, DecodeError> {
        let spot = |s: u32| SpotId::new(s).ok_or_else(|| DecodeError::Field("spot 0".into()));
        Ok(MoveNotation {
            from: spot(self.from)?,
            to: spot(self.to)?,
            enclosed: self
                .enclosed
                .iter()
                .map(|&s| spot(s))
                .collect::<Result<_, _>>()?,
            result: self
                .result
                .parse::<GameKey>()
                .map_err(|e| DecodeError::Field(e.to_string()))?,
        })
    }
}

/// Why a `game` was sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameWhy {
    /// The host starts a new game (an action with its own number).
    New,
    /// The sender's whole game, to bring the other side back in step (after a divergence, a
    /// gap too old for single actions, or a program that came back without its game).
    Repair,
}

/// What a message says (see the module docs).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Body {
    /// The first message on every (re)opened channel.
    Hello {
        /// Must be [`PEER_PROTOCOL_VERSION`].
        version: u32,
        /// The sender's role.
        role: Role,
        /// The sender's name, for the other side's status line.
        name: String,
        /// Whether the sender has a game.
        has_game: bool,
        /// The id of the sender's action number `n` (0 when there is none).
        last: u64,
        /// The key of the sender's position (empty without a game).
        key: String,
    },
    /// A whole game.
    Game {
        /// The id of action `n` this game stands at (a new game's own id).
        id: u64,
        /// Why it was sent.
        why: GameWhy,
        /// The id of the action that started this game (a new game's own id), so that a
        /// side given a whole game knows whether it is the game it has or the next one.
        started_by: u64,
        /// The game: start, moves, who moved first, the convention; never a picture.
        record: Box<GameRecord>,
    },
    /// A move, action number `n`.
    Move {
        /// The action's id (unique; chosen by its author).
        id: u64,
        /// The id of action `n - 1`, the one this move follows.
        prev: u64,
        /// The move.
        mv: WireMove,
    },
    /// The last move taken back, action number `n`.
    Undo {
        /// The action's id.
        id: u64,
        /// The id of action `n - 1`.
        prev: u64,
    },
    /// Action `id`, number `n`, is played (and drawn) here.
    Ack {
        /// The action acknowledged.
        id: u64,
    },
    /// Action `id`, number `n`, is not played here.
    Refuse {
        /// The action refused.
        id: u64,
        /// Why, in words.
        reason: String,
    },
    /// The sender misses actions: send those from number `from` on, or the whole game (`0`).
    Resend {
        /// The first action number wanted; 0 asks for the whole game.
        from: u64,
    },
    /// Every few seconds: the sender's state, to detect a divergence and a silent channel.
    Heartbeat {
        /// The id of the sender's action number `n`.
        last: u64,
        /// Whether the sender waits for an ack of its last action.
        pending: bool,
        /// The key of the sender's position (empty without a game).
        key: String,
    },
    /// The sender leaves.
    Bye {
        /// Why, in words.
        reason: String,
    },
}

/// A message: the sender's move count `k`, its action count `n`, and what it says.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PeerMsg {
    /// Moves played in the sender's game.
    pub k: u32,
    /// Actions in the sender's history (for an action: its own number).
    pub n: u64,
    /// What the message says.
    pub body: Body,
}

impl PeerMsg {
    /// Whether the message is worth keeping for a receiver that is away (everything but
    /// heartbeats, which only say how things stand now).
    pub fn is_durable(&self) -> bool {
        !matches!(self.body, Body::Heartbeat { .. })
    }
}

/// Why a text is not a peer message.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DecodeError {
    /// Longer than [`MAX_PEER_MESSAGE_BYTES`].
    #[error("message too long ({0} bytes, at most {MAX_PEER_MESSAGE_BYTES})")]
    TooLong(usize),
    /// Not JSON of the message's layout.
    #[error("not a peer message: {0}")]
    Layout(String),
    /// A field out of its range.
    #[error("bad field: {0}")]
    Field(String),
}

/// Decodes a message and checks its fields' ranges. Never panics, whatever the text.
///
/// # Errors
/// [`DecodeError`] saying what is wrong.
pub fn decode(text: &str) -> Result<PeerMsg, DecodeError> {
    if text.len() > MAX_PEER_MESSAGE_BYTES {
        return Err(DecodeError::TooLong(text.len()));
    }
    let msg: PeerMsg =
        serde_json::from_str(text).map_err(|e| DecodeError::Layout(e.to_string()))?;
    check(&msg)?;
    Ok(msg)
}

/// Encodes a message.
pub fn encode(msg: &PeerMsg) -> String {
    serde_json::to_string(msg).expect("a peer message always serialises")
}

fn check(msg: &PeerMsg) -> Result<(), DecodeError> {
    let field = |what: String| Err(DecodeError::Field(what));
    let id_ok = |id: u64| id < ID_BOUND;
    if msg.n >= ID_BOUND {
        return field(format!("n = {} is out of range", msg.n));
    }
    match &msg.body {
        Body::Hello { name, last, .. } => {
            if name.chars().count() > MAX_NAME_CHARS {
                return field(format!("a name has at most {MAX_NAME_CHARS} characters"));
            }
            if !id_ok(*last) {
                return field("an id out of range".into());
            }
        }
        Body::Game {
            id,
            started_by,
            record,
            ..
        } => {
            if !id_ok(*id) || !id_ok(*started_by) {
                return field("an id out of range".into());
            }
            if record.picture.is_some() {
                return field("a game travels without its picture".into());
            }
            match record.start {
                sprouts::draw::SavedStart::Spots(s) if (1..=MAX_NET_SPOTS).contains(&s) => {
                    let most = 3 * s as usize;
                    if record.moves.len() > most {
                        return field(format!("{} moves from {s} spots", record.moves.len()));
                    }
                }
                _ => return field(format!("a game starts from 1 to {MAX_NET_SPOTS} spots")),
            }
        }
        Body::Move { id, prev, mv } => {
            if !id_ok(*id) || !id_ok(*prev) {
                return field("an id out of range".into());
            }
            mv.notation()?;
        }
        Body::Undo { id, prev } => {
            if !id_ok(*id) || !id_ok(*prev) {
                return field("an id out of range".into());
            }
        }
        Body::Ack { id } | Body::Heartbeat { last: id, .. } => {
            if !id_ok(*id) {
                return field("an id out of range".into());
            }
        }
        Body::Refuse { id, reason } => {
            if !id_ok(*id) {
                return field("an id out of range".into());
            }
            if reason.chars().count() > MAX_REASON_CHARS {
                return field("the reason is too long".into());
            }
        }
        Body::Bye { reason } => {
            if reason.chars().count() > MAX_REASON_CHARS {
                return field("the reason is too long".into());
            }
        }
        Body::Resend { from } => {
            if *from >= ID_BOUND {
                return field("`from` out of range".into());
            }
        }
    }
    Ok(())
}
