//! A simulated network for two [`Peer`]s, host and guest, driven one step at a time: messages
//! delivered, dropped, duplicated, put back in the queue, garbled; time passing; a side's
//! channel closing and opening; the players acting. Tests and the fuzz target use it to check
//! that no sequence of such steps panics and that, once the network is left alone, the two
//! sides hold the same game.
//!
//! The wires model the relay: a message sent while the sender's channel is open is queued for
//! the receiver (kept while the receiver's channel is closed) until delivered or lost.

use std::collections::VecDeque;
use std::time::Duration;

use sprouts::{Convention, GameRecord, Seat};

use super::protocol::{Role, encode};
use super::session::{Drawing, Event, Link, Notice, Output, Peer, PeerConfig, Timing, same_game};

/// One step of a simulation. `side` is 0 for the host, 1 for the guest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// The oldest message on its way to `side` arrives.
    Deliver(usize),
    /// The oldest message on its way to `side` is lost.
    Drop(usize),
    /// The oldest message on its way to `side` is sent twice.
    Duplicate(usize),
    /// The oldest message on its way to `side` goes behind the others.
    Reorder(usize),
    /// A garbled copy (cut short) of the oldest message on its way to `side` arrives (the
    /// original stays).
    Garble(usize, u8),
    /// Time passes (milliseconds), and both sides' clocks tick.
    Wait(u16),
    /// The player at `side` acts: a move (the legal move number `choice`, counted round), an
    /// undo (when `choice` is a multiple of 8), or for the host with no game or a game over, a
    /// new game.
    Act(usize, u8),
    /// `side`'s channel closes.
    Disconnect(usize),
    /// `side`'s channel opens.
    Connect(usize),
}

impl Op {
    /// The step two bytes stand for (the fuzz target's reading).
    pub fn from_bytes(a: u8, b: u8) -> Op {
        let side = usize::from(a & 1);
        match (a >> 1) % 16 {
            0..=4 => Op::Deliver(side),
            5 => Op::Drop(side),
            6 => Op::Duplicate(side),
            7 => Op::Reorder(side),
            8 => Op::Garble(side, b),
            9 | 10 => Op::Wait(u16::from(b) * 40),
            11..=13 => Op::Act(side, b),
            14 => Op::Disconnect(side),
            _ => Op::Connect(side),
        }
    }
}

/// Two sides and the wires between them.
#[derive(Debug)]
pub struct Sim {
    peers: [Peer; 2],
    /// `wires[i]`: messages on their way to side `i`.
    wires: [VecDeque<String>; 2],
    now: Duration,
    spots: u32,
    notices: Vec<(usize, Notice)>,
    games_started: u64,
}

impl Sim {
    /// Two sides playing position-only games of `spots` spots, both channels open.
    pub fn new(spots: u32, seed: u64) -> Sim {
        let config = |role: Role, seed: u64| PeerConfig {
            role,
            name: role.to_string(),
            player: Seat::Human,
            drawing: Drawing::Positions,
            timing: Timing::default(),
            seed,
        };
        let mut sim = Sim {
            peers: [
                Peer::new(config(Role::Host, seed)),
                Peer::new(config(Role::Guest, seed ^ 0x9e37_79b9_7f4a_7c15)),
            ],
            wires: [VecDeque::new(), VecDeque::new()],
            now: Duration::ZERO,
            spots: spots.clamp(1, 6),
            notices: Vec::new(),
            games_started: 0,
        };
        sim.step(Op::Connect(0));
        sim.step(Op::Connect(1));
        sim
    }

    /// The side (0 host, 1 guest).
    pub fn peer(&self, side: usize) -> &Peer {
        &self.peers[side.min(1)]
    }

    /// The notices both sides gave so far, with the side.
    pub fn notices(&self) -> &[(usize, Notice)] {
        &self.notices
    }

    /// How many new games the host started.
    pub fn games_started(&self) -> u64 {
        self.games_started
    }

    /// Messages on their way.
    pub fn in_flight(&self) -> usize {
        self.wires[0].len() + self.wires[1].len()
    }

    /// Replaces `side` by a new program that has no game (it comes back with the room code),
    /// its channel open.
    pub fn replace_with_new(&mut self, side: usize) {
        let side = side.min(1);
        let old = &self.peers[side];
        let role = old.role();
        self.peers[side] = Peer::new(PeerConfig {
            role,
            name: role.to_string(),
            player: Seat::Human,
            drawing: Drawing::Positions,
            timing: Timing::default(),
            seed: self.now.as_nanos() as u64 ^ 0x5eed,
        });
        self.step(Op::Connect(side));
    }

    /// Delivers every message on its way, and those sent in answer, in order (channels left
    /// as they are).
    pub fn deliver_all(&mut self) {
        let mut budget = 10_000;
        while self.in_flight() > 0 && budget > 0 {
            budget -= 1;
            let before = self.in_flight();
            self.step(Op::Deliver(0));
            self.step(Op::Deliver(1));
            if self.in_flight() == before && self.peers.iter().any(|p| p.link() == Link::Down) {
                break;
            }
        }
    }

    /// Whether the sides are quiet (both channels open, nothing on its way, nobody waiting) at
    /// the same action number; they must then hold the same game.
    ///
    /// # Errors
    /// The two games, when quiet sides differ and no divergence was reported.
    pub fn check_quiet_agreement(&self) -> Result<(), String> {
        let [h, g] = &self.peers;
        let quiet = self.in_flight() == 0
            && h.link() == Link::Up
            && g.link() == Link::Up
            && !h.waiting()
            && !g.waiting()
            && h.actions() == g.actions();
        if !quiet {
            return Ok(());
        }
        let same = match (h.record(), g.record()) {
            (Some(a), Some(b)) => same_game(&a, &b),
            (None, None) => true,
            _ => false,
        };
        let reported = self
            .notices
            .iter()
            .any(|(_, n)| matches!(n, Notice::Divergence { .. }));
        if same || reported {
            Ok(())
        } else {
            Err(format!(
                "quiet at action {} with different games: {:?} / {:?}",
                h.actions(),
                h.record().map(|r| r.moves),
                g.record().map(|r| r.moves)
            ))
        }
    }

    /// Runs one step.
    pub fn step(&mut self, op: Op) {
        match op {
            Op::Deliver(side) => {
                if self.peers[side].link() == Link::Up
                    && let Some(text) = self.wires[side].pop_front()
                {
                    self.event(side, Event::Text(text));
                }
            }
            Op::Drop(side) => {
                self.wires[side].pop_front();
            }
            Op::Duplicate(side) => {
                if let Some(text) = self.wires[side].front().cloned() {
                    self.wires[side].push_back(text);
                }
            }
            Op::Reorder(side) => {
                if let Some(text) = self.wires[side].pop_front() {
                    self.wires[side].push_back(text);
                }
            }
            Op::Garble(side, byte) => {
                if self.peers[side].link() == Link::Up
                    && let Some(text) = self.wires[side].front()
                {
                    // A strict prefix of a JSON object is never a JSON object: a garbled
                    // message is one that does not decode (a transport that delivers a
                    // different valid message is not one this protocol guards against).
                    let mut cut = usize::from(byte) * text.len() / 256;
                    while !text.is_char_boundary(cut) {
                        cut -= 1;
                    }
                    let garbled = text[..cut].to_owned();
                    self.event(side, Event::Text(garbled));
                }
            }
            Op::Wait(ms) => {
                self.now += Duration::from_millis(u64::from(ms));
                self.event(0, Event::Tick);
                self.event(1, Event::Tick);
            }
            Op::Act(side, choice) => self.act(side, choice),
            Op::Disconnect(side) => {
                if self.peers[side].link() == Link::Up {
                    self.event(side, Event::Disconnected);
                }
            }
            Op::Connect(side) => {
                if self.peers[side].link() == Link::Down {
                    self.event(side, Event::Connected);
                }
            }
        }
    }

    fn act(&mut self, side: usize, choice: u8) {
        let peer = &self.peers[side];
        let event = match peer.game() {
            None if side == 0 => Some(self.new_game(choice)),
            None => None,
            Some(_) if peer.waiting() => None,
            Some(game) if game.is_over() && side == 0 && choice.is_multiple_of(2) => {
                Some(self.new_game(choice))
            }
            Some(game) if choice.is_multiple_of(8) && !game.moves().is_empty() => Some(Event::Undo),
            Some(game) if peer.local_turn() => {
                let moves: Vec<_> = game.position().moves().collect();
                (!moves.is_empty())
                    .then(|| Event::Move(moves[usize::from(choice) % moves.len()].clone()))
            }
            Some(_) => None,
        };
        if let Some(e) = event {
            self.event(side, e);
        }
    }

    fn new_game(&mut self, choice: u8) -> Event {
        self.games_started += 1;
        Event::NewGame {
            spots: self.spots,
            first: usize::from(choice / 2 % 2),
            convention: Convention::Normal,
        }
    }

    /// Gives `event` to `side` and carries out what it answers (a reconnection at once).
    pub(crate) fn event(&mut self, side: usize, event: Event) {
        let mut queue = VecDeque::from([event]);
        while let Some(e) = queue.pop_front() {
            for out in self.peers[side].handle(self.now, e) {
                match out {
                    Output::Send(msg) => {
                        if self.peers[side].link() == Link::Up {
                            self.wires[1 - side].push_back(encode(&msg));
                        }
                    }
                    Output::Reconnect => {
                        queue.push_back(Event::Disconnected);
                        queue.push_back(Event::Connected);
                    }
                    Output::Notice(n) => self.notices.push((side, n)),
                }
            }
        }
    }

    /// Leaves the network alone: both channels open, every message delivered, time passing a
    /// heartbeat at a time, until nothing is on its way, nobody waits for an ack and both sides
    /// hold the same game (or `rounds` heartbeats have passed); returns that game (`None` when
    /// neither side has one).
    ///
    /// # Errors
    /// The two sides' states when they are still not the same.
    pub fn settle(&mut self, rounds: usize) -> Result<Option<GameRecord>, String> {
        self.step(Op::Connect(0));
        self.step(Op::Connect(1));
        let beat = Timing::default().heartbeat;
        let ms = u16::try_from(beat.as_millis()).unwrap_or(u16::MAX);
        let mut calm = 0;
        for _ in 0..rounds {
            self.deliver_all();
            let same = match (self.peers[0].record(), self.peers[1].record()) {
                (Some(a), Some(b)) => same_game(&a, &b),
                (None, None) => true,
                _ => false,
            };
            let idle = !self.peers[0].waiting() && !self.peers[1].waiting();
            if same && idle && self.in_flight() == 0 {
                calm += 1;
                if calm >= 3 {
                    return Ok(self.peers[0].record());
                }
            } else {
                calm = 0;
            }
            self.step(Op::Wait(ms));
        }
        Err(format!(
            "not in step: host n={} waiting={} {:?}; guest n={} waiting={} {:?}",
            self.peers[0].actions(),
            self.peers[0].waiting(),
            self.peers[0].record().map(|r| r.moves),
            self.peers[1].actions(),
            self.peers[1].waiting(),
            self.peers[1].record().map(|r| r.moves),
        ))
    }
}

/// The decoder's properties, for the fuzz target and its corpus: any text decodes or is
/// refused without a panic; what decodes encodes to text that decodes to the same message; a
/// side with a game takes the text without a panic.
///
/// # Panics
/// When a property fails.
pub fn check_decoder(text: &str) {
    if let Ok(msg) = super::protocol::decode(text) {
        let again = encode(&msg);
        assert_eq!(
            super::protocol::decode(&again).as_ref(),
            Ok(&msg),
            "{text} re-encoded as {again}"
        );
    }
    let _ = crate::relay::decode_in(text, &crate::relay::RelayConfig::default());
    let mut sim = Sim::new(3, 1);
    sim.step(Op::Act(0, 0));
    sim.deliver_all();
    for side in 0..2 {
        sim.event(side, Event::Text(text.to_owned()));
    }
}

/// The state machine's properties under the steps two bytes at a time stand for
/// ([`Op::from_bytes`]), for the fuzz target and its corpus: no panic; sides quiet at the same
/// action number hold the same game (or reported a divergence); and once the network is left
/// alone, both sides hold the same game.
///
/// # Panics
/// When a property fails.
pub fn check_steps(data: &[u8]) {
    let (head, ops) = data.split_first().unwrap_or((&3, &[]));
    let mut sim = Sim::new(u32::from(*head % 4) + 2, u64::from(*head));
    for pair in ops.chunks_exact(2).take(2000) {
        sim.step(Op::from_bytes(pair[0], pair[1]));
        if let Err(e) = sim.check_quiet_agreement() {
            panic!("{e}");
        }
    }
    if let Err(e) = sim.settle(400) {
        panic!("{e}");
    }
}
