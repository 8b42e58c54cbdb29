//! `sprouts serve` (and `sprouts` with no arguments): the web UI.
//!
//! An axum server on 127.0.0.1 (or the address `--bind` gives) serves one self-contained page (HTML, CSS and JavaScript in one
//! file, compiled into the binary) and a WebSocket at `/ws`. Every WebSocket connection is its
//! own [`sprouts_net::page::Session`]: the page's game lives on the server, in Rust (boards, players,
//! drawing), and one page can never reach another's game, which is not even addressable from a
//! connection. Heavy work (the computer's move, drawing a curve) runs on tokio's blocking
//! threads with a stop flag, so the server keeps answering while it runs. The protocol and the
//! session are `sprouts_net::page`'s; this module adds the sockets.
//!
//! The server also carries the relay for network play at `/relay`
//! (`sprouts_net::relay::server`), so that two players who open the same server play each
//! other; its rooms are kept in memory, or in the file `--relay-db` names. The campaign's
//! levels and the levels won are served under `/campaign` (see [`campaign`]).

mod campaign;

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;
use axum::Router;
use axum::extract::State;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use futures_util::{SinkExt, StreamExt};
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto::Builder;
use hyper_util::service::TowerToHyperService;
use rand::Rng;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc};

use sprouts_net::page::protocol::{self, Pt, ServerMsg, encode};
use sprouts_net::page::store::GameStore;
use sprouts_net::page::{
    Job, JobResult, ReachResult, RelayCmd, Reply, Session, SetupJob, SetupResult,
};
use sprouts_net::relay::RelayConfig;
use sprouts_net::relay::server::{LocalLink, Relay};

/// The page: one file, no external asset, assembled at compile time from its parts in `page/`
/// (markup, style, and one script per concern, in the order they must run).
pub(crate) const PAGE: &str = concat!(
    include_str!("page/head.html"),
    include_str!("page/style.css"),
    include_str!("page/body.html"),
    include_str!("page/state.js"),
    include_str!("page/connection.js"),
    include_str!("page/game.js"),
    include_str!("page/view.js"),
    include_str!("page/input.js"),
    include_str!("page/keep.js"),
    include_str!("page/guide.js"),
    include_str!("page/verdict.js"),
    include_str!("page/board.js"),
    include_str!("page/room.js"),
    include_str!("page/net.js"),
    include_str!("page/campaign.js"),
    include_str!("page/editor.js"),
    include_str!("page/boot.js"),
    include_str!("page/tail.html"),
);

/// Arguments of `sprouts serve`.
#[derive(Debug, clap::Args)]
pub(crate) struct ServeArgs {
    /// The port to listen on; if it is taken, the next free one is used. 0
    /// lets the system choose.
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Open the page in the default browser.
    #[arg(long)]
    pub open: bool,
    /// Another origin allowed to open the game's WebSocket besides the served address and its
    /// loopback names (e.g. `https://sprouts.example.org` behind a reverse proxy); repeatable.
    #[arg(long, value_name = "ORIGIN")]
    pub allow_origin: Vec<String>,
    /// The most TCP connections open at once; more are closed at once.
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub max_connections: u32,
    /// The most pages (WebSocket sessions) at once; more get 503.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub max_pages: u32,
    /// Seconds a client has to send a request's headers.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=600))]
    pub header_timeout: u64,
    /// Keep the network relay's rooms and messages in this file (a redb store), so that a
    /// restart loses no move; without it they are kept in memory.
    #[arg(long, value_name = "FILE")]
    pub relay_db: Option<std::path::PathBuf>,
    /// The address to listen on: 127.0.0.1 (this computer only) unless told otherwise, e.g.
    /// `0.0.0.0` for a LAN; pages opened by another name than a loopback one need
    /// `--allow-origin http://NAME:PORT`.
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    pub bind: IpAddr,
    /// Keep the pages' games in this directory (the last one is resumed by a page opened
    /// after a restart or in another browser); the default is `$XDG_DATA_HOME/sprouts`, else
    /// `~/.local/share/sprouts` (`%APPDATA%\sprouts` on Windows).
    #[arg(long, value_name = "DIR", conflicts_with = "no_data")]
    pub data: Option<std::path::PathBuf>,
    /// Keep no game on disk (the pages still keep theirs in the browser).
    #[arg(long)]
    pub no_data: bool,
}

impl ServeArgs {
    /// The arguments of a plain `sprouts`: port 8080 (or the next free one), no browser opened.
    pub(crate) fn default_args() -> ServeArgs {
        ServeArgs {
            port: 8080,
            open: false,
            allow_origin: Vec::new(),
            max_connections: 256,
            max_pages: 64,
            header_timeout: 10,
            relay_db: None,
            bind: IpAddr::V4(Ipv4Addr::LOCALHOST),
            data: None,
            no_data: false,
        }
    }
}

/// Prints a line for the person who started the server. A closed standard output (`sprouts
/// serve | head -1`, a parent that read the address and went) must not stop the server, so a
/// failed write is ignored where `println!` would panic.
fn say(line: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}").and_then(|()| out.flush());
}

/// How many ports after the asked one are tried when it is taken.
const PORT_TRIES: u16 = 50;

/// Runs the server until Ctrl+C.
pub(crate) fn run(args: ServeArgs) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(serve(args))
}

/// Binds the asked port or the next free one.
pub(crate) async fn bind(ip: IpAddr, port: u16) -> anyhow::Result<tokio::net::TcpListener> {
    let mut last = None;
    let tries = if port == 0 { 1 } else { PORT_TRIES };
    for p in (0..tries).filter_map(|i| port.checked_add(i)) {
        match tokio::net::TcpListener::bind(SocketAddr::new(ip, p)).await {
            Ok(l) => return Ok(l),
            Err(e) if e.kind() == std::io::ErrorKind::AddrInUse => last = Some(e),
            Err(e) => return Err(e).with_context(|| format!("cannot listen on port {p}")),
        }
    }
    Err(anyhow::anyhow!(
        "ports {port} to {} are all taken{}",
        port.saturating_add(tries - 1),
        last.map(|e| format!(" ({e})")).unwrap_or_default()
    ))
}

/// What every connection shares: who may open a page's WebSocket, and how many may be open.
#[derive(Clone)]
pub(crate) struct ServerState {
    /// Origins allowed on `/ws` (`http://127.0.0.1:PORT`, its loopback names, `--allow-origin`).
    origins: Arc<Vec<String>>,
    /// One permit a page.
    pages: Arc<Semaphore>,
    /// The relay, where a page's network game takes its seat (in this process).
    relay: Option<Arc<Relay>>,
    /// The data directory's copy of the pages' games, if the server keeps them.
    store: Option<Arc<GameStore>>,
    /// The data directory (the store's), where the campaign's progress is kept too.
    data: Option<Arc<std::path::PathBuf>>,
}

impl ServerState {
    /// The state for a server at `addr`: its own origins under every loopback name, and the
    /// extra ones.
    fn new(addr: SocketAddr, extra: &[String], max_pages: u32) -> ServerState {
        let port = addr.port();
        let mut origins: Vec<String> = [
            format!("http://{addr}"),
            format!("http://127.0.0.1:{port}"),
            format!("http://localhost:{port}"),
            format!("http://[::1]:{port}"),
        ]
        .into();
        origins.extend(extra.iter().map(|o| o.trim_end_matches('/').to_owned()));
        ServerState {
            origins: Arc::new(origins),
            pages: Arc::new(Semaphore::new(max_pages as usize)),
            relay: None,
            store: None,
            data: None,
        }
    }

    /// Whether a WebSocket request comes from the page this server serves: its `Host` is the
    /// host of an allowed origin, and its `Origin`, when it has one (browsers always send it),
    /// is an allowed origin. This stops other web sites from driving the game (cross-site
    /// WebSocket hijacking) and DNS rebinding (a foreign name resolving to loopback).
    fn allows(&self, headers: &HeaderMap) -> Result<(), String> {
        let text = |name: header::HeaderName| {
            headers
                .get(&name)
                .map(|v| v.to_str().map(str::to_owned).unwrap_or_default())
        };
        let host = text(header::HOST).unwrap_or_default();
        let host_ok = self.origins.iter().any(|o| {
            o.split_once("://")
                .is_some_and(|(_, authority)| authority.eq_ignore_ascii_case(&host))
        });
        if !host_ok {
            return Err(format!(
                "the host `{}` is not this server's",
                excerpt(&host)
            ));
        }
        if let Some(origin) = text(header::ORIGIN)
            && !self.origins.iter().any(|o| o.eq_ignore_ascii_case(&origin))
        {
            return Err(format!(
                "pages from `{}` may not open this server's games (see --allow-origin)",
                excerpt(&origin)
            ));
        }
        Ok(())
    }
}

/// At most the first 80 characters of a text from outside, for messages and logs.
fn excerpt(text: &str) -> String {
    let mut s: String = text.chars().take(80).collect();
    if s.len() < text.len() {
        s.push_str("...");
    }
    s
}

/// The server's routes: the page, its WebSocket, and the relay's (for network play, not
/// limited to this server's own pages).
pub(crate) fn app(state: ServerState, relay: &Arc<Relay>) -> Router {
    Router::new()
        .route("/", get(index))
        .route("/ws", get(ws_upgrade))
        .route("/campaign", get(campaign::list))
        .route("/campaign/level/{n}", get(campaign::level))
        .route("/campaign/won", post(campaign::won))
        .with_state(state)
        .merge(relay.router())
}

async fn serve(args: ServeArgs) -> anyhow::Result<()> {
    let relay = Relay::open(args.relay_db.as_deref(), RelayConfig::default())
        .context("cannot open the relay's store")?;
    relay.spawn_expiry();
    let store = open_store(&args)?;
    let listener = bind(args.bind, args.port).await?;
    let addr = listener.local_addr().context("no local address")?;
    let url = format!("http://{addr}/");
    say(&format!(
        "Sprouts is being served at {url} (Ctrl+C stops it)"
    ));
    if let Some(s) = &store {
        say(&format!(
            "Games are kept in {} ({} there now)",
            s.dir().display(),
            s.len()
        ));
    }
    if args.open {
        open_browser(&url);
    }
    let mut state = ServerState::new(addr, &args.allow_origin, args.max_pages);
    state.relay = Some(Arc::clone(&relay));
    state.data = store.as_ref().map(|s| Arc::new(s.dir().to_path_buf()));
    state.store = store;
    let app = app(state, &relay);
    let connections = Arc::new(Semaphore::new(args.max_connections as usize));
    let header_timeout = Duration::from_secs(args.header_timeout);
    let mut stop = std::pin::pin!(tokio::signal::ctrl_c());
    loop {
        let (stream, peer) = tokio::select! {
            _ = &mut stop => break,
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    tracing::warn!("accept failed: {e}");
                    continue;
                }
            },
        };
        let Ok(permit) = Arc::clone(&connections).try_acquire_owned() else {
            tracing::warn!(%peer, "connection closed: {} are open", args.max_connections);
            continue;
        };
        if let Err(e) = stream.set_nodelay(true) {
            tracing::debug!("TCP_NODELAY not set: {e}");
        }
        let service = TowerToHyperService::new(app.clone());
        tokio::spawn(async move {
            let mut builder = Builder::new(TokioExecutor::new());
            builder
                .http1()
                .timer(TokioTimer::new())
                .header_read_timeout(header_timeout);
            if let Err(e) = builder
                .serve_connection_with_upgrades(TokioIo::new(stream), service)
                .await
            {
                tracing::debug!(%peer, "connection ended: {e}");
            }
            drop(permit);
        });
    }
    let closing = Arc::clone(&relay);
    let _ = tokio::task::spawn_blocking(move || closing.close()).await;
    Ok(())
}

/// The data directory of a user: `$XDG_DATA_HOME/sprouts`, else `~/.local/share/sprouts`
/// (`%APPDATA%\sprouts` on Windows); `None` when the environment names no home.
fn default_data_dir() -> Option<std::path::PathBuf> {
    let var = |name: &str| {
        std::env::var_os(name)
            .map(std::path::PathBuf::from)
            .filter(|p| p.is_absolute())
    };
    if cfg!(windows) {
        return var("APPDATA").map(|d| d.join("sprouts"));
    }
    var("XDG_DATA_HOME")
        .map(|d| d.join("sprouts"))
        .or_else(|| var("HOME").map(|h| h.join(".local").join("share").join("sprouts")))
}

/// The store of the pages' games: `--data`'s directory (an error if it cannot be opened), else
/// the user's data directory (a warning if it cannot: the server runs without), or none with
/// `--no-data`. Kept files that are refused are reported, and left alone.
fn open_store(args: &ServeArgs) -> anyhow::Result<Option<Arc<GameStore>>> {
    if args.no_data {
        return Ok(None);
    }
    let store = match &args.data {
        Some(dir) => Some(GameStore::open(dir).with_context(|| {
            format!("cannot keep games in the data directory {}", dir.display())
        })?),
        None => match default_data_dir() {
            None => {
                eprintln!(
                    "no data directory (neither XDG_DATA_HOME nor HOME is set): games are kept by the browser only; see --data"
                );
                None
            }
            Some(dir) => match GameStore::open(&dir) {
                Ok(s) => Some(s),
                Err(e) => {
                    eprintln!("games are kept by the browser only: {e}");
                    None
                }
            },
        },
    };
    if let Some(s) = &store {
        for e in s.refused() {
            eprintln!("warning: {e}");
        }
    }
    Ok(store.map(Arc::new))
}

/// Opens `url` in the system's browser, saying so if it cannot.
fn open_browser(url: &str) {
    let cmd = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(target_os = "windows") {
        "explorer"
    } else {
        "xdg-open"
    };
    if let Err(e) = std::process::Command::new(cmd).arg(url).spawn() {
        eprintln!("could not open a browser ({cmd}: {e}); open {url} yourself");
    }
}

async fn index() -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        PAGE,
    )
}

async fn ws_upgrade(
    State(state): State<ServerState>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Response {
    if let Err(why) = state.allows(&headers) {
        tracing::warn!("WebSocket refused: {why}");
        return (StatusCode::FORBIDDEN, why).into_response();
    }
    let Ok(permit) = Arc::clone(&state.pages).try_acquire_owned() else {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            "too many pages are open on this server; close one and reload",
        )
            .into_response();
    };
    ws.max_message_size(protocol::MAX_MESSAGE_BYTES)
        .on_upgrade(move |socket| connection(socket, permit, state.relay, state.store))
}

/// Messages a page may send: a burst of [`BURST`], refilled at [`RATE`] a second.
const RATE: f64 = 100.0;
const BURST: f64 = 200.0;

/// Messages longer than this are decoded off the async workers ([`tokio::task::block_in_place`]).
const BIG_MESSAGE_BYTES: usize = 64 << 10;

/// A token bucket for one page's messages.
struct Bucket {
    tokens: f64,
    at: Instant,
}

impl Bucket {
    fn new() -> Bucket {
        Bucket {
            tokens: BURST,
            at: Instant::now(),
        }
    }

    /// Whether one more message may be handled now.
    fn take(&mut self) -> bool {
        let now = Instant::now();
        self.tokens = (self.tokens + now.duration_since(self.at).as_secs_f64() * RATE).min(BURST);
        self.at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// What comes back from the blocking threads.
enum Event {
    Animate(Vec<Pt>),
    Done(Box<JobResult>),
    Reached(ReachResult),
    Setup(Box<SetupResult>),
    /// A message for the page as it is (a step of an analysis).
    Msg(Box<ServerMsg>),
}

/// One page's connection: its session, its messages, its jobs. When it ends, the session is
/// dropped, which stops its running job.
async fn connection(
    socket: WebSocket,
    _permit: OwnedSemaphorePermit,
    relay: Option<Arc<Relay>>,
    store: Option<Arc<GameStore>>,
) {
    let (mut tx, mut rx) = socket.split();
    let (events, mut incoming) = mpsc::unbounded_channel::<Event>();
    let (id, seed): (String, u64) = {
        let mut rng = rand::rng();
        (format!("{:016x}", rng.random::<u64>()), rng.random())
    };
    let mut session = Session::new(id, seed);
    if let Some(store) = store {
        session = session.with_store(store);
    }
    let mut bucket = Bucket::new();
    let mut warned = false;
    // The network game's connection to the relay, when the page plays one.
    let mut link: Option<LocalLink> = None;
    let mut ticker = tokio::time::interval(NET_TICK);
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    tracing::info!(session = session.id(), "page connected");
    loop {
        let reply = tokio::select! {
            frame = from_relay(&mut link) => match frame {
                Some(text) => session.relay_frame(&text),
                None => {
                    link = None;
                    session.relay_closed()
                }
            },
            _ = ticker.tick(), if session.net_active() => session.net_tick(),
            m = rx.next() => match m {
                // Handling a message is quick: the router's and the players' work, and the
                // building of a new or loaded game, come back as jobs run on tokio's blocking
                // threads below.
                Some(Ok(Message::Text(t))) if bucket.take() => {
                    warned = false;
                    if t.len() > BIG_MESSAGE_BYTES {
                        // Decoding takes milliseconds: this worker's other connections are
                        // handed to another thread meanwhile.
                        tokio::task::block_in_place(|| session.handle_text(t.as_str()))
                    } else {
                        session.handle_text(t.as_str())
                    }
                }
                Some(Ok(Message::Text(_))) if warned => continue,
                Some(Ok(Message::Text(_))) => {
                    warned = true;
                    tracing::warn!(session = session.id(), "messages dropped: over {RATE} a second");
                    Reply {
                        msgs: vec![ServerMsg::Error { message: format!("too many messages: at most {RATE} a second; some were dropped") }],
                        ..Reply::default()
                    }
                }
                Some(Ok(Message::Binary(_))) => Reply {
                    msgs: vec![ServerMsg::Error { message: "binary messages are not understood: send JSON text".into() }],
                    ..Reply::default()
                },
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                Some(Ok(_)) => continue,
            },
            Some(ev) = incoming.recv() => match ev {
                Event::Animate(points) => Reply { msgs: vec![ServerMsg::Animate { points }], ..Reply::default() },
                Event::Done(result) => session.finish(*result),
                Event::Reached(result) => session.finish_reach(result),
                Event::Setup(result) => session.finish_setup(*result),
                Event::Msg(msg) => Reply { msgs: vec![*msg], ..Reply::default() },
            },
        };
        session.stop_stale_analysis();
        if let Some(keep) = session.keep() {
            // One small file written whole and renamed: quick, but file work, so off the
            // async threads; a late write of an older state is ignored by the store.
            tokio::task::spawn_blocking(move || {
                let id = keep.summary().id.clone();
                if let Err(e) = keep.run() {
                    tracing::warn!("the game {id} is not kept on disk: {e}");
                }
            });
        }
        if let Some(job) = reply.job {
            spawn_job(job, events.clone());
        }
        if let Some(reach) = reply.reach {
            let events = events.clone();
            tokio::task::spawn_blocking(move || {
                let _ = events.send(Event::Reached(reach.run()));
            });
        }
        if let Some(setup) = reply.setup {
            spawn_setup(setup, events.clone());
        }
        if let Some(analysis) = reply.analysis {
            let events = events.clone();
            tokio::task::spawn_blocking(move || {
                // Each step goes to the page as it is found. A panic in the solvers ends the
                // analysis, not the page.
                let run = std::panic::AssertUnwindSafe(move || {
                    analysis.run(&mut |msg| {
                        let _ = events.send(Event::Msg(Box::new(msg)));
                    });
                });
                if let Err(e) = std::panic::catch_unwind(run) {
                    tracing::error!("an analysis panicked: {}", panic_words(&*e));
                }
            });
        }
        let mut msgs = reply.msgs;
        if !reply.relay.is_empty() && !relay_commands(reply.relay, relay.as_ref(), &mut link).await
        {
            link = None;
            msgs.extend(session.relay_closed().msgs);
        }
        for msg in msgs {
            if tx.send(Message::Text(encode(&msg).into())).await.is_err() {
                tracing::info!(session = session.id(), "page gone");
                return;
            }
        }
    }
    tracing::info!(session = session.id(), "page disconnected");
}

/// How often a page's network game hears the clock (heartbeats, resends, reconnections).
const NET_TICK: Duration = Duration::from_millis(250);

/// The next frame from the relay, or never without a connection; `None` when it closed.
async fn from_relay(link: &mut Option<LocalLink>) -> Option<String> {
    match link {
        Some(l) => l.from_relay.recv().await,
        None => std::future::pending().await,
    }
}

/// Carries out a session's relay commands; false when the connection is gone.
async fn relay_commands(
    commands: Vec<RelayCmd>,
    relay: Option<&Arc<Relay>>,
    link: &mut Option<LocalLink>,
) -> bool {
    for c in commands {
        match c {
            RelayCmd::Open(first) => {
                let Some(r) = relay else { return false };
                let l = r.attach();
                if l.to_relay.send(first).await.is_err() {
                    return false;
                }
                *link = Some(l);
            }
            RelayCmd::Send(text) => {
                let Some(l) = link.as_ref() else { continue };
                if l.to_relay.send(text).await.is_err() {
                    return false;
                }
            }
            RelayCmd::Close => *link = None,
        }
    }
    true
}

/// The words of a panic's payload.
fn panic_words(e: &(dyn std::any::Any + Send)) -> String {
    e.downcast_ref::<String>()
        .cloned()
        .or_else(|| e.downcast_ref::<&str>().map(|s| (*s).to_string()))
        .unwrap_or_else(|| "a panic".into())
}

/// Builds a new or loaded game's board on a blocking thread.
fn spawn_setup(setup: SetupJob, events: mpsc::UnboundedSender<Event>) {
    tokio::task::spawn_blocking(move || {
        let generation = setup.generation();
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || setup.run()))
            .unwrap_or_else(|e| {
                let what = panic_words(&*e);
                tracing::error!("a setup panicked: {what}");
                SetupJob::failed(generation, &what)
            });
        let _ = events.send(Event::Setup(Box::new(result)));
    });
}

/// How many of a job's first animation frames are all sent, however fast they come.
const FRAMES_AT_ONCE: usize = 24;

/// Runs a job on a blocking thread, forwarding its animation and its result.
fn spawn_job(job: Job, events: mpsc::UnboundedSender<Event>) {
    tokio::task::spawn_blocking(move || {
        let forward = events.clone();
        let mut last = std::time::Instant::now() - std::time::Duration::from_secs(1);
        let mut sent = 0usize;
        let ticket = job.ticket();
        let run = std::panic::AssertUnwindSafe(move || {
            job.run(&mut |points| {
                // The first frames all (a quick relaxation is over in milliseconds: the page
                // plays them back at its own pace), then at most about 30 a second.
                if sent < FRAMES_AT_ONCE || last.elapsed() >= std::time::Duration::from_millis(30) {
                    sent += 1;
                    last = std::time::Instant::now();
                    let _ =
                        forward.send(Event::Animate(points.iter().map(|p| [p.x, p.y]).collect()));
                }
            })
        });
        let result = std::panic::catch_unwind(run).unwrap_or_else(|e| {
            let what = panic_words(&*e);
            tracing::error!("a job panicked: {what}");
            JobResult::failed(ticket, &what)
        });
        let _ = events.send(Event::Done(Box::new(result)));
    });
}
