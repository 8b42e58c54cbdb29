//! `sprouts relay`: the network-play relay on its own (the one `sprouts serve` carries at
//! `/relay`), for players who cannot reach each other's servers. It speaks plain WebSocket;
//! for `wss://` put a reverse proxy (TLS) in front of it.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;

use anyhow::Context;
use sprouts_net::relay::RelayConfig;
use sprouts_net::relay::server::{Relay, without_delay};

/// Arguments of `sprouts relay`.
#[derive(Debug, clap::Args)]
pub(crate) struct RelayArgs {
    /// The port to listen on (0: any free one).
    #[arg(long, default_value_t = 8090)]
    port: u16,
    /// The address to listen on: 127.0.0.1 (this computer only) unless told otherwise, such
    /// as 0.0.0.0 for every interface.
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    bind: IpAddr,
    /// The store of rooms and messages (a redb file, created if missing); a restart of the
    /// relay with the same file loses no move.
    #[arg(long, value_name = "FILE")]
    db: PathBuf,
    /// Rooms at most.
    #[arg(long, default_value_t = RelayConfig::default().max_rooms)]
    max_rooms: usize,
    /// Frames a connection may send a second, on average.
    #[arg(long, default_value_t = RelayConfig::default().rate_per_second)]
    rate: f64,
}

/// Runs the relay until Ctrl+C.
pub(crate) fn run(args: RelayArgs) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(serve(args))
}

async fn serve(args: RelayArgs) -> anyhow::Result<()> {
    let config = RelayConfig {
        max_rooms: args.max_rooms,
        rate_per_second: args.rate,
        ..RelayConfig::default()
    };
    let relay = Relay::open(Some(&args.db), config)
        .with_context(|| format!("cannot open the relay's store {}", args.db.display()))?;
    let (rooms, kept) = relay.sizes();
    relay.spawn_expiry();
    let listener = tokio::net::TcpListener::bind(SocketAddr::new(args.bind, args.port))
        .await
        .with_context(|| format!("cannot listen on {}:{}", args.bind, args.port))?;
    let addr = listener.local_addr().context("no local address")?;
    println!(
        "relay listening at ws://{addr}/relay ({rooms} rooms, {kept} messages kept; Ctrl+C stops it)"
    );
    let result = axum::serve(without_delay(listener), relay.router())
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
        .context("the relay stopped with an error");
    let closing = std::sync::Arc::clone(&relay);
    let _ = tokio::task::spawn_blocking(move || closing.close()).await;
    result
}
