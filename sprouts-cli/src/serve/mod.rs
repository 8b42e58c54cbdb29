//! `sprouts serve` (and `sprouts` with no arguments): the web UI.
//!
//! An axum server on 127.0.0.1 serves one self-contained page (HTML, CSS and JavaScript in one
//! file, compiled into the binary) and a WebSocket at `/ws`. Every WebSocket connection is its
//! own [`session::Session`]: the page's game lives on the server, in Rust (boards, players,
//! drawing), and one page can never reach another's game, which is not even addressable from a
//! connection. Heavy work (the computer's move, drawing a curve) runs on tokio's blocking
//! threads with a stop flag, so the server keeps answering while it runs. The protocol and the
//! session are `sprouts_net::page`'s; this module adds the sockets.
//!
//! The server also carries the relay for network play at `/relay`
//! (`sprouts_net::relay::server`), so that two players who open the same server play each
//! other; its rooms are kept in memory, or in the file `--relay-db` names.

use std::net::{Ipv4Addr, SocketAddr};

use anyhow::Context;
use axum::Router;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use futures_util::{SinkExt, StreamExt};
use rand::Rng;
use tokio::sync::mpsc;

use sprouts_net::page::protocol::{self, Pt, ServerMsg, encode};
use sprouts_net::page::{Job, JobResult, ReachResult, Reply, Session, SetupJob, SetupResult};
use sprouts_net::relay::RelayConfig;
use sprouts_net::relay::server::{Relay, without_delay};

/// The page: one file, no external asset.
pub(crate) const PAGE: &str = include_str!("page.html");

/// Arguments of `sprouts serve`.
#[derive(Debug, clap::Args)]
pub(crate) struct ServeArgs {
    /// The port to listen on (127.0.0.1 only); if it is taken, the next free one is used. 0
    /// lets the system choose.
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Open the page in the default browser.
    #[arg(long)]
    pub open: bool,
    /// Keep the network relay's rooms and messages in this file (a redb store), so that a
    /// restart loses no move; without it they are kept in memory.
    #[arg(long, value_name = "FILE")]
    pub relay_db: Option<std::path::PathBuf>,
}

impl ServeArgs {
    /// The arguments of a plain `sprouts`: port 8080 (or the next free one), no browser opened.
    pub(crate) fn default_args() -> ServeArgs {
        ServeArgs {
            port: 8080,
            open: false,
            relay_db: None,
        }
    }
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
pub(crate) async fn bind(port: u16) -> anyhow::Result<tokio::net::TcpListener> {
    let mut last = None;
    let tries = if port == 0 { 1 } else { PORT_TRIES };
    for p in (0..tries).filter_map(|i| port.checked_add(i)) {
        match tokio::net::TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, p))).await {
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

/// The server's routes: the page, its WebSocket, and the relay's.
pub(crate) fn app(relay: &std::sync::Arc<Relay>) -> Router {
    Router::new()
        .route("/", get(index))
        .route("/ws", get(ws_upgrade))
        .merge(relay.router())
}

async fn serve(args: ServeArgs) -> anyhow::Result<()> {
    let relay = Relay::open(args.relay_db.as_deref(), RelayConfig::default())
        .context("cannot open the relay's store")?;
    relay.spawn_expiry();
    let listener = bind(args.port).await?;
    let addr = listener.local_addr().context("no local address")?;
    let url = format!("http://{addr}/");
    println!("Sprouts is being served at {url} (Ctrl+C stops it)");
    if args.open {
        open_browser(&url);
    }
    let result = axum::serve(without_delay(listener), app(&relay))
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
        .context("the server stopped with an error");
    let closing = std::sync::Arc::clone(&relay);
    let _ = tokio::task::spawn_blocking(move || closing.close()).await;
    result
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

async fn ws_upgrade(ws: WebSocketUpgrade) -> impl IntoResponse {
    ws.max_message_size(protocol::MAX_MESSAGE_BYTES)
        .on_upgrade(connection)
}

/// What comes back from the blocking threads.
enum Event {
    Animate(Vec<Pt>),
    Done(Box<JobResult>),
    Reached(ReachResult),
    Setup(Box<SetupResult>),
}

/// One page's connection: its session, its messages, its jobs.
async fn connection(socket: WebSocket) {
    let (mut tx, mut rx) = socket.split();
    let (events, mut incoming) = mpsc::unbounded_channel::<Event>();
    let (id, seed): (String, u64) = {
        let mut rng = rand::rng();
        (format!("{:016x}", rng.random::<u64>()), rng.random())
    };
    let mut session = Session::new(id, seed);
    tracing::info!(session = session.id(), "page connected");
    loop {
        let reply = tokio::select! {
            m = rx.next() => match m {
                // Handling a message is quick: the router's and the players' work, and the
                // building of a new or loaded game, come back as jobs run on tokio's blocking
                // threads below.
                Some(Ok(Message::Text(t))) => session.handle_text(t.as_str()),
                Some(Ok(Message::Binary(_))) => Reply {
                    msgs: vec![ServerMsg::Error { message: "binary messages are not understood: send JSON text".into() }],
                    job: None,
                    reach: None, setup: None,
                },
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                Some(Ok(_)) => continue,
            },
            Some(ev) = incoming.recv() => match ev {
                Event::Animate(points) => Reply { msgs: vec![ServerMsg::Animate { points }], job: None, reach: None, setup: None },
                Event::Done(result) => session.finish(*result),
                Event::Reached(result) => session.finish_reach(result),
                Event::Setup(result) => session.finish_setup(*result),
            },
        };
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
        for msg in reply.msgs {
            if tx.send(Message::Text(encode(&msg).into())).await.is_err() {
                tracing::info!(session = session.id(), "page gone");
                return;
            }
        }
    }
    tracing::info!(session = session.id(), "page disconnected");
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
