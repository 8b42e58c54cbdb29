//! The relay's WebSocket endpoint (axum): [`Relay::router`] serves `/relay`, which
//! `sprouts serve` mounts beside the page and `sprouts relay` runs alone.
//!
//! One lock holds the rooms ([`Rooms`]); a connection's task takes it for a moment per frame.
//! Writes go to one writer thread that owns the [`Store`] and commits whatever has queued up in
//! one transaction (group commit); a message to keep is passed on only once its transaction is
//! durable, so whatever a client saw accepted survives a restart. TLS is not here: put a
//! reverse proxy in front of the relay for `wss://`.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use axum::Router;
use axum::extract::State;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::response::IntoResponse;
use axum::routing::get;
use futures_util::{SinkExt, StreamExt};
use rand::Rng;
use tokio::sync::{mpsc, oneshot, watch};

use super::store::{Store, StoreError};
use super::{
    Bucket, ConnId, RelayConfig, RelayError, RelayIn, RelayOut, RoomCode, Rooms, StoreOp, Token,
    decode_in,
};
use crate::peer::Role;

/// Frames waiting to go out on one connection; a client that falls further behind loses
/// frames (kept messages come again when it joins again).
const OUT_QUEUE: usize = 1024;

/// Each connection's read and write buffers (bytes); a larger frame still goes through.
const BUFFER_BYTES: usize = 8 << 10;

/// How often rooms unused for long are looked for.
const EXPIRE_EVERY: Duration = Duration::from_secs(60);

enum Outgoing {
    Frame(String),
    /// The seat was taken by another connection: say so and close.
    Replaced,
}

struct Batch {
    ops: Vec<StoreOp>,
    done: Option<oneshot::Sender<Result<(), String>>>,
}

/// Counts for the curious (and the load test).
#[derive(Debug, Default)]
pub struct Counters {
    /// Frames read.
    pub frames_in: AtomicU64,
    /// Frames written.
    pub frames_out: AtomicU64,
    /// Store transactions committed.
    pub commits: AtomicU64,
    /// Frames refused (bad, too long, too fast, ...).
    pub refused: AtomicU64,
}

/// A running relay: its rooms, its connections, its store's writer.
pub struct Relay {
    rooms: Mutex<Rooms>,
    conns: Mutex<HashMap<ConnId, mpsc::Sender<Outgoing>>>,
    writer: Mutex<Option<std::sync::mpsc::Sender<Batch>>>,
    writer_thread: Mutex<Option<std::thread::JoinHandle<()>>>,
    closing: watch::Sender<bool>,
    next_conn: AtomicU64,
    started: Instant,
    /// What the relay did.
    pub counters: Counters,
}

impl std::fmt::Debug for Relay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Relay").finish_non_exhaustive()
    }
}

fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

impl Relay {
    /// A relay over `store`, with the rooms it kept.
    ///
    /// # Errors
    /// The store cannot be read.
    pub fn new(store: Store, config: RelayConfig) -> Result<Arc<Relay>, StoreError> {
        let kept = store.load()?;
        let rooms = Rooms::restore(config, kept);
        tracing::info!(
            rooms = rooms.len(),
            kept = rooms.kept(),
            "relay store loaded"
        );
        let (tx, rx) = std::sync::mpsc::channel::<Batch>();
        let (closing, _) = watch::channel(false);
        let relay = Arc::new(Relay {
            rooms: Mutex::new(rooms),
            conns: Mutex::new(HashMap::new()),
            writer: Mutex::new(Some(tx)),
            writer_thread: Mutex::new(None),
            closing,
            next_conn: AtomicU64::new(1),
            started: Instant::now(),
            counters: Counters::default(),
        });
        let weak = Arc::downgrade(&relay);
        let handle = std::thread::Builder::new()
            .name("relay-store".into())
            .spawn(move || write_loop(&store, &rx, &weak))
            .map_err(StoreError::from)?;
        *relay.writer_thread.lock().expect("not poisoned") = Some(handle);
        Ok(relay)
    }

    /// Opens the store at `path` (or in memory) and starts a relay over it.
    ///
    /// # Errors
    /// The store cannot be opened or read.
    pub fn open(path: Option<&Path>, config: RelayConfig) -> Result<Arc<Relay>, StoreError> {
        let store = match path {
            Some(p) => Store::open(p)?,
            None => Store::in_memory()?,
        };
        Relay::new(store, config)
    }

    /// The routes: `/relay`, the WebSocket endpoint.
    pub fn router(self: &Arc<Relay>) -> Router {
        Router::new()
            .route("/relay", get(upgrade))
            .with_state(Arc::clone(self))
    }

    /// Rooms now, and messages kept.
    pub fn sizes(&self) -> (usize, usize) {
        let rooms = self.rooms.lock().expect("not poisoned");
        (rooms.len(), rooms.kept())
    }

    /// Closes every connection and stops the store's writer after its last batch (the store
    /// file is closed when this returns). The relay serves nothing after.
    pub fn close(&self) {
        let _ = self.closing.send(true);
        self.writer.lock().expect("not poisoned").take();
        if let Some(h) = self.writer_thread.lock().expect("not poisoned").take() {
            let _ = h.join();
        }
    }

    /// Forgets rooms unused for long, every minute, until the relay closes.
    pub fn spawn_expiry(self: &Arc<Relay>) {
        let weak = Arc::downgrade(self);
        let mut closing = self.closing.subscribe();
        tokio::spawn(async move {
            let mut every = tokio::time::interval(EXPIRE_EVERY);
            loop {
                tokio::select! {
                    _ = every.tick() => {}
                    _ = closing.changed() => return,
                }
                let Some(relay) = weak.upgrade() else { return };
                let ops = relay.rooms.lock().expect("not poisoned").expire(unix_now());
                if !ops.is_empty() {
                    tracing::info!(rooms = ops.len(), "rooms forgotten");
                    relay.write(ops, None);
                }
            }
        });
    }

    fn config(&self) -> RelayConfig {
        self.rooms.lock().expect("not poisoned").config().clone()
    }

    fn write(&self, ops: Vec<StoreOp>, done: Option<oneshot::Sender<Result<(), String>>>) {
        let writer = self.writer.lock().expect("not poisoned");
        match writer.as_ref() {
            Some(w) => {
                if let Err(e) = w.send(Batch { ops, done })
                    && let Some(d) = e.0.done
                {
                    let _ = d.send(Err("the store is closed".into()));
                }
            }
            None => {
                if let Some(d) = done {
                    let _ = d.send(Err("the store is closed".into()));
                }
            }
        }
    }

    /// Writes `ops` and waits until they are durable.
    async fn commit(&self, ops: Vec<StoreOp>) -> Result<(), RelayError> {
        if ops.is_empty() {
            return Ok(());
        }
        let (tx, rx) = oneshot::channel();
        self.write(ops, Some(tx));
        match rx.await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(RelayError::Store(e)),
            Err(_) => Err(RelayError::Store("the store is closed".into())),
        }
    }

    fn tell(&self, conn: ConnId, out: Outgoing) {
        let conns = self.conns.lock().expect("not poisoned");
        if let Some(tx) = conns.get(&conn)
            && tx.try_send(out).is_err()
        {
            tracing::debug!(conn, "a slow connection lost a frame");
        }
    }

    /// Takes one frame of connection `conn`, holding `seat` once joined; returns the frames
    /// for `conn` itself.
    async fn take(
        &self,
        conn: ConnId,
        seat: &mut Option<(RoomCode, Role)>,
        msg: RelayIn,
    ) -> Result<Vec<RelayOut>, RelayError> {
        match msg {
            RelayIn::Create => {
                if seat.is_some() {
                    return Err(RelayError::AlreadyJoined);
                }
                let (code, token) = {
                    let mut rng = rand::rng();
                    (RoomCode(rng.random()), Token(rng.random()))
                };
                let ops = self.rooms.lock().expect("not poisoned").create(
                    conn,
                    code,
                    token,
                    unix_now(),
                )?;
                self.commit(ops).await?;
                *seat = Some((code, Role::Host));
                tracing::info!(conn, "room created");
                Ok(vec![RelayOut::Joined {
                    room: code.to_string(),
                    seat: Role::Host,
                    token: token.to_string(),
                    peer: false,
                }])
            }
            RelayIn::Join {
                room,
                seat: want,
                token,
                after,
            } => {
                if seat.is_some() {
                    return Err(RelayError::AlreadyJoined);
                }
                let code: RoomCode = room.parse()?;
                let token = token.map(|t| t.parse::<Token>()).transpose()?;
                let fresh = Token(rand::rng().random());
                let joined = self.rooms.lock().expect("not poisoned").join(
                    conn,
                    code,
                    want,
                    token,
                    fresh,
                    after,
                    unix_now(),
                )?;
                self.commit(joined.ops).await?;
                *seat = Some((code, joined.role));
                if let Some(old) = joined.evicted {
                    self.tell(old, Outgoing::Replaced);
                }
                if let Some(peer) = joined.peer {
                    self.tell(
                        peer,
                        Outgoing::Frame(RelayOut::Peer { present: true }.encode()),
                    );
                }
                let mut out = vec![RelayOut::Joined {
                    room: code.to_string(),
                    seat: joined.role,
                    token: joined.token.to_string(),
                    peer: joined.peer.is_some(),
                }];
                out.extend(
                    joined
                        .backlog
                        .into_iter()
                        .map(|(seq, data)| RelayOut::Msg { seq, data }),
                );
                Ok(out)
            }
            RelayIn::Send { data, keep } => {
                let (code, role) = seat.ok_or(RelayError::NotJoined)?;
                let accepted = self.rooms.lock().expect("not poisoned").send(
                    code,
                    role,
                    &data,
                    keep,
                    unix_now(),
                )?;
                let to_conn = if accepted.seq > 0 {
                    self.commit(accepted.ops).await?;
                    self.rooms.lock().expect("not poisoned").kept_now(
                        code,
                        accepted.to,
                        accepted.seq,
                        data.clone(),
                    )
                } else {
                    self.rooms
                        .lock()
                        .expect("not poisoned")
                        .attached(code, accepted.to)
                };
                if let Some(c) = to_conn {
                    let frame = RelayOut::Msg {
                        seq: accepted.seq,
                        data,
                    };
                    self.tell(c, Outgoing::Frame(frame.encode()));
                }
                Ok(Vec::new())
            }
            RelayIn::Ack { seq } => {
                let (code, role) = seat.ok_or(RelayError::NotJoined)?;
                let ops = self
                    .rooms
                    .lock()
                    .expect("not poisoned")
                    .ack(code, role, seq);
                if !ops.is_empty() {
                    self.write(ops, None);
                }
                Ok(Vec::new())
            }
        }
    }
}

/// The writer thread: commits what has queued up, in one transaction, and says so.
fn write_loop(
    store: &Store,
    rx: &std::sync::mpsc::Receiver<Batch>,
    relay: &std::sync::Weak<Relay>,
) {
    while let Ok(first) = rx.recv() {
        let mut batches = vec![first];
        while batches.len() < 512 {
            match rx.try_recv() {
                Ok(b) => batches.push(b),
                Err(_) => break,
            }
        }
        let ops: Vec<StoreOp> = batches.iter().flat_map(|b| b.ops.iter().cloned()).collect();
        let result = store.apply(&ops).map_err(|e| e.to_string());
        if let Err(e) = &result {
            tracing::error!("{e}");
        } else if let Some(r) = relay.upgrade() {
            r.counters.commits.fetch_add(1, Ordering::Relaxed);
        }
        for b in batches {
            if let Some(d) = b.done {
                let _ = d.send(result.clone());
            }
        }
    }
}

async fn upgrade(State(relay): State<Arc<Relay>>, ws: WebSocketUpgrade) -> impl IntoResponse {
    let max = relay.config().max_frame_bytes;
    // Small buffers: a relay's frames are small (a move is a few hundred bytes) and a
    // thousand connections with the default 128 KiB buffers each would hold most of its memory.
    ws.max_message_size(max)
        .max_frame_size(max)
        .read_buffer_size(BUFFER_BYTES)
        .write_buffer_size(BUFFER_BYTES)
        .on_upgrade(move |socket| connection(relay, socket))
}

/// What a connection reads: a text frame, something else to refuse, or the end.
enum Frame {
    Text(String),
    Binary,
    Other,
    Closed,
}

/// One client's connection over a WebSocket.
async fn connection(relay: Arc<Relay>, socket: WebSocket) {
    let (tx, rx) = socket.split();
    let rx = rx.map(|m| match m {
        Ok(Message::Text(t)) => Frame::Text(t.as_str().to_owned()),
        Ok(Message::Binary(_)) => Frame::Binary,
        Ok(Message::Close(_)) | Err(_) => Frame::Closed,
        Ok(_) => Frame::Other,
    });
    let tx = tx
        .with(|text: String| std::future::ready(Ok::<_, axum::Error>(Message::Text(text.into()))));
    serve_frames(relay, rx, tx).await;
}

/// One connection inside this process ([`Relay::attach`]).
pub struct LocalLink {
    /// Frames for the relay (text of [`RelayIn`]); dropping it ends the connection.
    pub to_relay: mpsc::Sender<String>,
    /// Frames from the relay (text of [`RelayOut`]); `None` once the relay closed it.
    pub from_relay: mpsc::Receiver<String>,
}

impl std::fmt::Debug for LocalLink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("LocalLink")
    }
}

impl Relay {
    /// A connection to this relay from the same process, as a WebSocket client's would be
    /// (the same frames, limits and rooms), without a socket: `sprouts serve` seats its own
    /// pages' sessions this way.
    pub fn attach(self: &Arc<Relay>) -> LocalLink {
        let (to_relay, mut inbox) = mpsc::channel::<String>(64);
        let (outbox, from_relay) = mpsc::channel::<String>(OUT_QUEUE);
        let rx = futures_util::stream::poll_fn(move |cx| {
            inbox
                .poll_recv(cx)
                .map(|m| Some(m.map_or(Frame::Closed, Frame::Text)))
        });
        let tx = futures_util::sink::unfold(outbox, |outbox, text: String| async move {
            outbox.send(text).await.map_err(|_| ())?;
            Ok::<_, ()>(outbox)
        });
        tokio::spawn(serve_frames(Arc::clone(self), rx, tx));
        LocalLink {
            to_relay,
            from_relay,
        }
    }
}

/// One client's connection: its frames in, the relay's frames out.
async fn serve_frames<R, W>(relay: Arc<Relay>, rx: R, tx: W)
where
    R: futures_util::Stream<Item = Frame>,
    W: futures_util::Sink<String>,
{
    let mut rx = std::pin::pin!(rx);
    let mut tx = std::pin::pin!(tx);
    let conn = relay.next_conn.fetch_add(1, Ordering::Relaxed);
    let config = relay.config();
    let (out_tx, mut out_rx) = mpsc::channel::<Outgoing>(OUT_QUEUE);
    relay
        .conns
        .lock()
        .expect("not poisoned")
        .insert(conn, out_tx);
    let mut closing = relay.closing.subscribe();
    let mut bucket = Bucket::new(&config, relay.started.elapsed());
    let mut seat: Option<(RoomCode, Role)> = None;
    loop {
        let replies: Vec<RelayOut> = tokio::select! {
            frame = rx.next() => match frame {
                Some(Frame::Text(text)) => {
                    relay.counters.frames_in.fetch_add(1, Ordering::Relaxed);
                    let result = if bucket.take(&config, relay.started.elapsed()) {
                        match decode_in(text.as_str(), &config) {
                            Ok(msg) => relay.take(conn, &mut seat, msg).await,
                            Err(e) => Err(e),
                        }
                    } else {
                        Err(RelayError::Rate)
                    };
                    result.unwrap_or_else(|e| {
                        relay.counters.refused.fetch_add(1, Ordering::Relaxed);
                        vec![RelayOut::from(&e)]
                    })
                }
                Some(Frame::Binary) => {
                    vec![RelayOut::from(&RelayError::Bad("send JSON text frames".into()))]
                }
                Some(Frame::Closed) | None => break,
                Some(Frame::Other) => continue,
            },
            out = out_rx.recv() => match out {
                Some(Outgoing::Frame(text)) => {
                    relay.counters.frames_out.fetch_add(1, Ordering::Relaxed);
                    if tx.send(text).await.is_err() {
                        break;
                    }
                    continue;
                }
                Some(Outgoing::Replaced) => {
                    let bye = RelayOut::Error {
                        code: super::ErrorCode::Replaced,
                        message: "this seat was taken by a newer connection".into(),
                    };
                    let _ = tx.send(bye.encode()).await;
                    seat = None;
                    break;
                }
                None => break,
            },
            _ = closing.changed() => break,
        };
        for r in replies {
            relay.counters.frames_out.fetch_add(1, Ordering::Relaxed);
            if tx.send(r.encode()).await.is_err() {
                break;
            }
        }
    }
    relay.conns.lock().expect("not poisoned").remove(&conn);
    if let Some((code, role)) = seat {
        let peer = relay
            .rooms
            .lock()
            .expect("not poisoned")
            .leave(conn, code, role);
        if let Some(p) = peer {
            relay.tell(
                p,
                Outgoing::Frame(RelayOut::Peer { present: false }.encode()),
            );
        }
    }
    let _ = tx.close().await;
}

/// The listener with Nagle's algorithm off on every connection: a move is one small frame,
/// and waiting to fill a packet would add tens of milliseconds to each pass through the relay.
pub fn without_delay(
    listener: tokio::net::TcpListener,
) -> impl axum::serve::Listener<Io = tokio::net::TcpStream, Addr = SocketAddr> {
    use axum::serve::ListenerExt;
    listener.tap_io(|stream| {
        if let Err(e) = stream.set_nodelay(true) {
            tracing::debug!("TCP_NODELAY not set: {e}");
        }
    })
}

/// A relay listening on an address, stopped by [`RelayServer::stop`] (tests, benchmarks).
pub struct RelayServer {
    relay: Arc<Relay>,
    addr: SocketAddr,
    task: tokio::task::JoinHandle<()>,
}

impl std::fmt::Debug for RelayServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RelayServer")
            .field("addr", &self.addr)
            .finish_non_exhaustive()
    }
}

impl RelayServer {
    /// Listens on `addr` (port 0: any free one) with the store at `path` (or in memory).
    ///
    /// # Errors
    /// The address cannot be bound, or the store opened.
    pub async fn start(
        addr: SocketAddr,
        path: Option<&Path>,
        config: RelayConfig,
    ) -> Result<RelayServer, Box<dyn std::error::Error + Send + Sync>> {
        let relay = Relay::open(path, config)?;
        let listener = tokio::net::TcpListener::bind(addr).await?;
        let addr = listener.local_addr()?;
        let listener = without_delay(listener);
        relay.spawn_expiry();
        let app = relay.router();
        let mut closing = relay.closing.subscribe();
        let task = tokio::spawn(async move {
            let _ = axum::serve(listener, app)
                .with_graceful_shutdown(async move {
                    let _ = closing.changed().await;
                })
                .await;
        });
        Ok(RelayServer { relay, addr, task })
    }

    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The URL of its endpoint.
    pub fn url(&self) -> String {
        format!("ws://{}/relay", self.addr)
    }

    /// The relay.
    pub fn relay(&self) -> &Arc<Relay> {
        &self.relay
    }

    /// Stops it: every connection closed, the listener closed, the store closed.
    pub async fn stop(self) {
        let relay = Arc::clone(&self.relay);
        let _ = tokio::task::spawn_blocking(move || relay.close()).await;
        self.task.abort();
        let _ = self.task.await;
    }
}
