//! The relay: rooms of two players that pass each other's messages on, keeping them on disk
//! until they are acknowledged, so that a player away for a while, or a relay restarted, loses
//! nothing.
//!
//! This module is the relay's logic without sockets or files: the messages between a client
//! and the relay ([`RelayIn`], [`RelayOut`]), room codes and tokens, the limits
//! ([`RelayConfig`]), the rooms ([`Rooms`]: who sits where, the queues, the sequence numbers)
//! and the rate limiter ([`Bucket`]). The rooms say what to write to the store as
//! [`StoreOp`]s; the `relay` feature adds the store (`redb`) and the axum endpoint.
//!
//! # The relay's protocol
//!
//! JSON text frames; every object's `op` names it.
//!
//! - Client to relay: `create` (a new room; the creator is its host), `join` (a room by its
//!   code: with the token the relay gave earlier, the same seat back; without one, the seat
//!   asked for or the guest's, if no one holds it now), `send` (`data`, a peer message as text,
//!   for the other seat; `keep` for messages worth keeping while it is away), `ack` (messages up
//!   to `seq` arrived and can be forgotten).
//! - Relay to client: `joined` (the room, the seat, its token, whether the other seat is
//!   there), `msg` (`seq` and `data`; `seq` 0 for a message that was not kept), `peer` (the other
//!   seat came or went), `error` (a `code` and words; the connection stays open unless the code
//!   is `replaced`).
//!
//! Nothing from one room reaches another: a connection sends only into the room it joined,
//! and a room is found only by its code, 128 random bits.

#[cfg(feature = "relay")]
pub mod server;
#[cfg(feature = "relay")]
pub mod store;
#[cfg(test)]
mod tests;

use std::collections::{HashMap, VecDeque};
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::peer::Role;
use crate::peer::protocol::MAX_PEER_MESSAGE_BYTES;

/// 128 random bits naming a room (32 hex digits): what a host gives its guest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RoomCode(pub [u8; 16]);

/// 128 random bits that give a seat back to the player who held it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Token(pub [u8; 16]);

fn hex(bytes: &[u8; 16]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Option<[u8; 16]> {
    let text = text.trim();
    if text.len() != 32 || !text.is_ascii() {
        return None;
    }
    let mut out = [0u8; 16];
    for (i, o) in out.iter_mut().enumerate() {
        *o = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(out)
}

impl fmt::Display for RoomCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&hex(&self.0))
    }
}

impl FromStr for RoomCode {
    type Err = RelayError;
    fn from_str(s: &str) -> Result<RoomCode, RelayError> {
        unhex(s).map(RoomCode).ok_or(RelayError::BadCode)
    }
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&hex(&self.0))
    }
}

impl FromStr for Token {
    type Err = RelayError;
    fn from_str(s: &str) -> Result<Token, RelayError> {
        unhex(s).map(Token).ok_or(RelayError::BadToken)
    }
}

/// The relay's limits.
#[derive(Clone, Debug, PartialEq)]
pub struct RelayConfig {
    /// The longest frame read (bytes): a peer message and its envelope.
    pub max_frame_bytes: usize,
    /// Frames a connection may send a second, on average.
    pub rate_per_second: f64,
    /// Frames a connection may send at once (the bucket's size).
    pub burst: f64,
    /// Rooms at most.
    pub max_rooms: usize,
    /// Messages kept at most for one seat that is away.
    pub max_queue: usize,
    /// A room nobody has used for this long is forgotten.
    pub room_idle: Duration,
}

impl Default for RelayConfig {
    /// A peer message of up to 1 MiB; 50 frames a second with bursts of 200; 10,000 rooms;
    /// 1,000 messages kept for a seat; rooms forgotten after 7 days unused.
    fn default() -> RelayConfig {
        RelayConfig {
            max_frame_bytes: MAX_PEER_MESSAGE_BYTES + 4096,
            rate_per_second: 50.0,
            burst: 200.0,
            max_rooms: 10_000,
            max_queue: 1_000,
            room_idle: Duration::from_secs(7 * 24 * 3600),
        }
    }
}

/// A message from a client to the relay.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case", deny_unknown_fields)]
pub enum RelayIn {
    /// A new room, with the sender as its host.
    Create,
    /// A seat in an existing room.
    Join {
        /// The room's code.
        room: String,
        /// The seat wanted (without a token: the guest's).
        #[serde(default)]
        seat: Option<Role>,
        /// The token the relay gave for the seat, to take it back.
        #[serde(default)]
        token: Option<String>,
        /// The last `seq` received in this seat: later ones are sent.
        #[serde(default)]
        after: u64,
    },
    /// A message for the other seat.
    Send {
        /// The message (a peer message as text).
        data: String,
        /// Keep it while the other seat is away (false for heartbeats).
        #[serde(default = "yes")]
        keep: bool,
    },
    /// Messages up to `seq` arrived: the relay forgets them.
    Ack {
        /// The last one.
        seq: u64,
    },
}

fn yes() -> bool {
    true
}

/// What went wrong, as the relay tells a client.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// Not a message of the relay's protocol.
    Bad,
    /// No room has this code.
    NoRoom,
    /// Both seats are held by connected players.
    RoomFull,
    /// The token is not the seat's.
    BadToken,
    /// Too many rooms.
    TooManyRooms,
    /// Too many messages kept for the other seat.
    QueueFull,
    /// Frames come too fast.
    Rate,
    /// A frame longer than the limit.
    TooLong,
    /// Send before join.
    NotJoined,
    /// Join twice on one connection.
    AlreadyJoined,
    /// The seat was taken by a newer connection.
    Replaced,
    /// The relay could not write to its store.
    Store,
}

/// A message from the relay to a client.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case", deny_unknown_fields)]
pub enum RelayOut {
    /// The connection holds a seat.
    Joined {
        /// The room's code.
        room: String,
        /// The seat.
        seat: Role,
        /// What takes the seat back later.
        token: String,
        /// Whether the other seat is connected.
        peer: bool,
    },
    /// A message from the other seat.
    Msg {
        /// Its number for this seat (0 when it was not kept).
        seq: u64,
        /// The message.
        data: String,
    },
    /// The other seat came (`true`) or went.
    Peer {
        /// Whether it is there.
        present: bool,
    },
    /// Something was refused.
    Error {
        /// What.
        code: ErrorCode,
        /// In words.
        message: String,
    },
}

impl RelayOut {
    /// The frame's text.
    pub fn encode(&self) -> String {
        serde_json::to_string(self).expect("relay messages always serialise")
    }

    fn error(e: &RelayError) -> RelayOut {
        RelayOut::Error {
            code: e.code(),
            message: e.to_string(),
        }
    }
}

impl From<&RelayError> for RelayOut {
    fn from(e: &RelayError) -> RelayOut {
        RelayOut::error(e)
    }
}

/// Why the relay refused something.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RelayError {
    /// Not a relay message.
    #[error("not a relay message: {0}")]
    Bad(String),
    /// A room code is 32 hex digits.
    #[error("a room code is 32 hexadecimal digits")]
    BadCode,
    /// No room has this code.
    #[error("there is no room with this code")]
    NoRoom,
    /// Both seats are held.
    #[error("both seats of this room are taken")]
    RoomFull,
    /// The token is not the seat's.
    #[error("this token does not hold a seat of this room")]
    BadToken,
    /// Too many rooms.
    #[error("the relay has its {0} rooms; try later")]
    TooManyRooms(usize),
    /// Too many messages kept.
    #[error("{0} messages wait for the other player already")]
    QueueFull(usize),
    /// Too fast.
    #[error("too many messages; slow down")]
    Rate,
    /// Too long.
    #[error("a frame has at most {0} bytes")]
    TooLong(usize),
    /// Not in a room.
    #[error("join a room first")]
    NotJoined,
    /// Already in a room.
    #[error("this connection is in a room already")]
    AlreadyJoined,
    /// The store failed.
    #[error("the relay could not keep the message: {0}")]
    Store(String),
}

impl RelayError {
    /// The code a client reads.
    pub fn code(&self) -> ErrorCode {
        match self {
            RelayError::Bad(_) => ErrorCode::Bad,
            RelayError::BadCode | RelayError::NoRoom => ErrorCode::NoRoom,
            RelayError::RoomFull => ErrorCode::RoomFull,
            RelayError::BadToken => ErrorCode::BadToken,
            RelayError::TooManyRooms(_) => ErrorCode::TooManyRooms,
            RelayError::QueueFull(_) => ErrorCode::QueueFull,
            RelayError::Rate => ErrorCode::Rate,
            RelayError::TooLong(_) => ErrorCode::TooLong,
            RelayError::NotJoined => ErrorCode::NotJoined,
            RelayError::AlreadyJoined => ErrorCode::AlreadyJoined,
            RelayError::Store(_) => ErrorCode::Store,
        }
    }
}

/// Decodes a client's frame. Never panics, whatever the text.
///
/// # Errors
/// [`RelayError::TooLong`] or [`RelayError::Bad`].
pub fn decode_in(text: &str, config: &RelayConfig) -> Result<RelayIn, RelayError> {
    if text.len() > config.max_frame_bytes {
        return Err(RelayError::TooLong(config.max_frame_bytes));
    }
    serde_json::from_str(text).map_err(|e| RelayError::Bad(e.to_string()))
}

/// A connection, as the rooms know it.
pub type ConnId = u64;

/// What the store keeps of a room besides its queues.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoomRecord {
    /// The seats' tokens (host, guest), once given.
    pub tokens: [Option<String>; 2],
    /// The next `seq` for messages to each seat.
    pub next_seq: [u64; 2],
    /// When the room was last used (seconds since the Unix epoch).
    pub last_used: u64,
}

/// A room as the store kept it: its code, its record, the messages kept for host and guest.
pub type KeptRoom = (RoomCode, RoomRecord, [Vec<(u64, String)>; 2]);

/// A write for the store, in the order given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreOp {
    /// The room's record.
    PutRoom(RoomCode, RoomRecord),
    /// A message kept for seat `1` (0 host, 1 guest) with its `seq`.
    Push(RoomCode, usize, u64, String),
    /// Messages for a seat up to `seq` are forgotten.
    Forget(RoomCode, usize, u64),
    /// The room and its queues are forgotten.
    DeleteRoom(RoomCode),
}

#[derive(Clone, Debug)]
struct Room {
    tokens: [Option<Token>; 2],
    next_seq: [u64; 2],
    queues: [VecDeque<(u64, String)>; 2],
    last_used: u64,
    attached: [Option<ConnId>; 2],
}

impl Room {
    fn record(&self) -> RoomRecord {
        RoomRecord {
            tokens: self.tokens.map(|t| t.map(|t| t.to_string())),
            next_seq: self.next_seq,
            last_used: self.last_used,
        }
    }
}

/// A seat taken by [`Rooms::join`].
#[derive(Debug)]
pub struct Joined {
    /// The seat.
    pub role: Role,
    /// Its token.
    pub token: Token,
    /// The connection that held the seat until now (to be told and closed).
    pub evicted: Option<ConnId>,
    /// The other seat's connection, if there is one (to be told).
    pub peer: Option<ConnId>,
    /// Messages kept for this seat after the `after` asked.
    pub backlog: Vec<(u64, String)>,
    /// What to write.
    pub ops: Vec<StoreOp>,
}

/// A message accepted by [`Rooms::send`].
#[derive(Debug)]
pub struct Accepted {
    /// The seat it is for (0 host, 1 guest).
    pub to: usize,
    /// Its number, when it is kept (0 otherwise).
    pub seq: u64,
    /// What to write before it is passed on (empty when it is not kept).
    pub ops: Vec<StoreOp>,
}

/// The relay's rooms (see the module docs). The server holds them behind one lock; every
/// method is quick.
#[derive(Debug, Default)]
pub struct Rooms {
    rooms: HashMap<RoomCode, Room>,
    config: RelayConfig,
}

impl Rooms {
    /// No rooms, these limits.
    pub fn new(config: RelayConfig) -> Rooms {
        Rooms {
            rooms: HashMap::new(),
            config,
        }
    }

    /// The rooms the store kept: each room's record and the messages kept for each seat.
    pub fn restore(config: RelayConfig, kept: Vec<KeptRoom>) -> Rooms {
        let mut rooms = Rooms::new(config);
        for (code, record, queues) in kept {
            let tokens = record
                .tokens
                .map(|t| t.and_then(|t| t.parse::<Token>().ok()));
            let [host, guest] = queues;
            rooms.rooms.insert(
                code,
                Room {
                    tokens,
                    next_seq: record.next_seq,
                    queues: [host.into(), guest.into()],
                    last_used: record.last_used,
                    attached: [None, None],
                },
            );
        }
        rooms
    }

    /// The limits.
    pub fn config(&self) -> &RelayConfig {
        &self.config
    }

    /// How many rooms there are.
    pub fn len(&self) -> usize {
        self.rooms.len()
    }

    /// Whether there is no room.
    pub fn is_empty(&self) -> bool {
        self.rooms.is_empty()
    }

    /// Messages kept, all rooms together.
    pub fn kept(&self) -> usize {
        self.rooms
            .values()
            .map(|r| r.queues[0].len() + r.queues[1].len())
            .sum()
    }

    /// A new room `code` with connection `conn` as its host holding `token` (both drawn from
    /// the system's randomness by the caller).
    ///
    /// # Errors
    /// [`RelayError::TooManyRooms`]; a code already in use is [`RelayError::Bad`] (with 128
    /// random bits, it does not happen).
    pub fn create(
        &mut self,
        conn: ConnId,
        code: RoomCode,
        token: Token,
        now: u64,
    ) -> Result<Vec<StoreOp>, RelayError> {
        if self.rooms.len() >= self.config.max_rooms {
            return Err(RelayError::TooManyRooms(self.config.max_rooms));
        }
        if self.rooms.contains_key(&code) {
            return Err(RelayError::Bad("that room exists".into()));
        }
        let room = Room {
            tokens: [Some(token), None],
            next_seq: [1, 1],
            queues: [VecDeque::new(), VecDeque::new()],
            last_used: now,
            attached: [Some(conn), None],
        };
        let op = StoreOp::PutRoom(code, room.record());
        self.rooms.insert(code, room);
        Ok(vec![op])
    }

    /// Connection `conn` takes a seat of room `code`: the seat `token` holds; without a token,
    /// the seat `want` (the guest's when `None`) if it was never taken or its holder is not
    /// connected (a player coming back without its token), with `fresh` as its new token.
    ///
    /// # Errors
    /// [`RelayError::NoRoom`], [`RelayError::BadToken`], [`RelayError::RoomFull`].
    #[allow(clippy::too_many_arguments, reason = "the fields of a join, unpacked")]
    pub fn join(
        &mut self,
        conn: ConnId,
        code: RoomCode,
        want: Option<Role>,
        token: Option<Token>,
        fresh: Token,
        after: u64,
        now: u64,
    ) -> Result<Joined, RelayError> {
        let room = self.rooms.get_mut(&code).ok_or(RelayError::NoRoom)?;
        let (seat, token) = match token {
            Some(t) => {
                let seat = (0..2)
                    .find(|&i| room.tokens[i] == Some(t))
                    .ok_or(RelayError::BadToken)?;
                (seat, t)
            }
            None => {
                let seat = want.unwrap_or(Role::Guest).seat();
                if room.tokens[seat].is_some() && room.attached[seat].is_some() {
                    return Err(RelayError::RoomFull);
                }
                room.tokens[seat] = Some(fresh);
                (seat, fresh)
            }
        };
        let evicted = room.attached[seat].replace(conn).filter(|&c| c != conn);
        room.last_used = now;
        let backlog = room.queues[seat]
            .iter()
            .filter(|(s, _)| *s > after)
            .cloned()
            .collect();
        Ok(Joined {
            role: if seat == 0 { Role::Host } else { Role::Guest },
            token,
            evicted,
            peer: room.attached[1 - seat],
            backlog,
            ops: vec![StoreOp::PutRoom(code, room.record())],
        })
    }

    /// Connection `conn` leaves seat `role` of room `code` (its socket closed); returns the
    /// other seat's connection, to be told. A seat taken over since is left alone.
    pub fn leave(&mut self, conn: ConnId, code: RoomCode, role: Role) -> Option<ConnId> {
        let room = self.rooms.get_mut(&code)?;
        let seat = role.seat();
        if room.attached[seat] != Some(conn) {
            return None;
        }
        room.attached[seat] = None;
        room.attached[1 - seat]
    }

    /// Seat `role` of room `code` sends `data` to the other seat; a message to keep gets its
    /// number and the writes that keep it, and is passed on once written
    /// ([`Rooms::kept_now`]).
    ///
    /// # Errors
    /// [`RelayError::NoRoom`] (the room was forgotten), [`RelayError::QueueFull`].
    pub fn send(
        &mut self,
        code: RoomCode,
        role: Role,
        data: &str,
        keep: bool,
        now: u64,
    ) -> Result<Accepted, RelayError> {
        let max_queue = self.config.max_queue;
        let room = self.rooms.get_mut(&code).ok_or(RelayError::NoRoom)?;
        let to = 1 - role.seat();
        room.last_used = now;
        if !keep {
            return Ok(Accepted {
                to,
                seq: 0,
                ops: Vec::new(),
            });
        }
        if room.queues[to].len() >= max_queue {
            return Err(RelayError::QueueFull(max_queue));
        }
        let seq = room.next_seq[to];
        room.next_seq[to] += 1;
        Ok(Accepted {
            to,
            seq,
            ops: vec![
                StoreOp::Push(code, to, seq, data.to_owned()),
                StoreOp::PutRoom(code, room.record()),
            ],
        })
    }

    /// A message accepted by [`Rooms::send`] is written: it joins the seat's queue (for a
    /// later join) and goes to the seat's connection, returned, if it has one.
    pub fn kept_now(
        &mut self,
        code: RoomCode,
        to: usize,
        seq: u64,
        data: String,
    ) -> Option<ConnId> {
        let room = self.rooms.get_mut(&code)?;
        if seq > 0 {
            room.queues[to].push_back((seq, data));
        }
        room.attached[to]
    }

    /// The connection of seat `to` in room `code`, if connected.
    pub fn attached(&self, code: RoomCode, to: usize) -> Option<ConnId> {
        self.rooms.get(&code)?.attached[to.min(1)]
    }

    /// Seat `role` of room `code` received its messages up to `seq`: they are forgotten.
    pub fn ack(&mut self, code: RoomCode, role: Role, seq: u64) -> Vec<StoreOp> {
        let Some(room) = self.rooms.get_mut(&code) else {
            return Vec::new();
        };
        let q = &mut room.queues[role.seat()];
        let before = q.len();
        while q.front().is_some_and(|(s, _)| *s <= seq) {
            q.pop_front();
        }
        if q.len() == before {
            return Vec::new();
        }
        vec![StoreOp::Forget(code, role.seat(), seq)]
    }

    /// Forgets the rooms unused for the configured time with nobody connected.
    pub fn expire(&mut self, now: u64) -> Vec<StoreOp> {
        let idle = self.config.room_idle.as_secs();
        let old: Vec<RoomCode> = self
            .rooms
            .iter()
            .filter(|(_, r)| r.attached == [None, None] && now.saturating_sub(r.last_used) > idle)
            .map(|(c, _)| *c)
            .collect();
        old.into_iter()
            .map(|c| {
                self.rooms.remove(&c);
                StoreOp::DeleteRoom(c)
            })
            .collect()
    }
}

/// A token bucket: `rate` frames a second on average, `burst` at once. Time is given, so tests
/// never wait.
#[derive(Clone, Debug)]
pub struct Bucket {
    level: f64,
    at: Duration,
}

impl Bucket {
    /// A full bucket at time `now`.
    pub fn new(config: &RelayConfig, now: Duration) -> Bucket {
        Bucket {
            level: config.burst,
            at: now,
        }
    }

    /// Takes one frame at time `now`; false when the bucket is empty.
    pub fn take(&mut self, config: &RelayConfig, now: Duration) -> bool {
        let dt = now.saturating_sub(self.at).as_secs_f64();
        self.at = now.max(self.at);
        self.level = (self.level + dt * config.rate_per_second).min(config.burst);
        if self.level >= 1.0 {
            self.level -= 1.0;
            true
        } else {
            false
        }
    }
}
