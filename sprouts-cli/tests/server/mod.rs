//! The harness of the tests that speak to `sprouts serve` over a real WebSocket on loopback:
//! the binary started on a free port and spoken to as the page speaks to it (JSON text frames),
//! with tokio-tungstenite. Several test binaries share it, each using a part.
#![allow(dead_code, reason = "each test binary uses a part of the harness")]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream, connect_async};

/// The server, stopped when dropped.
pub(crate) struct Server {
    pub(crate) child: Child,
    pub(crate) url: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `sprouts serve --port 0` and reads the address it prints.
pub(crate) fn start() -> Server {
    start_with(&["serve", "--port", "0"], None).0
}

/// Starts the binary with `args` (and `PATH` set to `path` if given); returns the server and
/// the line it printed.
pub(crate) fn start_with(args: &[&str], path: Option<&std::path::Path>) -> (Server, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sprouts"));
    cmd.args(args).stdout(Stdio::piped()).stderr(Stdio::null());
    // The tests' games are not kept in the user's data directory (a test may name its own).
    if args.first() == Some(&"serve") && !args.contains(&"--data") {
        cmd.arg("--no-data");
    }
    if let Some(p) = path {
        cmd.env("PATH", p);
    }
    let mut child = cmd.spawn().expect("the sprouts binary runs");
    let stdout = child.stdout.take().expect("piped");
    let mut line = String::new();
    BufReader::new(stdout)
        .read_line(&mut line)
        .expect("the server prints its address");
    let start = line.find("http://").expect("an address") + "http://".len();
    let end = line[start..].find('/').expect("a path") + start;
    (
        Server {
            url: format!("ws://{}/ws", &line[start..end]),
            child,
        },
        line,
    )
}

/// One page's connection.
pub(crate) struct Page {
    pub(crate) ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    pub(crate) session: String,
}

/// How long any answer may take (the machine may be busy).
pub(crate) const WAIT: Duration = Duration::from_secs(60);

impl Page {
    /// Connects and says hello; checks the welcome.
    pub(crate) async fn open(server: &Server) -> Page {
        Page::open_url(&server.url).await
    }

    /// [`Page::open`] on the server's WebSocket address.
    pub(crate) async fn open_url(url: &str) -> Page {
        let (ws, _) = connect_async(url).await.expect("the WebSocket opens");
        let mut page = Page {
            ws,
            session: String::new(),
        };
        page.send_text(&json!({"type": "hello", "protocol": 1}).to_string())
            .await;
        let welcome = page.next().await;
        assert_eq!(welcome["type"], "welcome", "{welcome}");
        assert_eq!(welcome["protocol"], 1);
        page.session = welcome["session"].as_str().expect("an id").to_string();
        page
    }

    pub(crate) async fn send_text(&mut self, text: &str) {
        self.ws
            .send(Message::Text(text.into()))
            .await
            .expect("sent");
    }

    /// Sends a message of the page, with the session id added.
    pub(crate) async fn send(&mut self, mut msg: Value) {
        msg["session"] = Value::String(self.session.clone());
        self.send_text(&msg.to_string()).await;
    }

    /// The next JSON message (pongs and other frames skipped).
    pub(crate) async fn next(&mut self) -> Value {
        loop {
            let frame = tokio::time::timeout(WAIT, self.ws.next())
                .await
                .expect("an answer in time")
                .expect("the connection is open")
                .expect("a frame");
            if let Message::Text(t) = frame {
                return serde_json::from_str(t.as_str()).expect("the server sends JSON");
            }
        }
    }

    /// Sends a WebSocket ping carrying `payload` and waits for its pong (other frames
    /// skipped); returns how long the answer took.
    pub(crate) async fn ping(&mut self, payload: &[u8]) -> std::time::Duration {
        let t = std::time::Instant::now();
        self.ws
            .send(Message::Ping(payload.to_vec().into()))
            .await
            .expect("the ping is sent");
        loop {
            let frame = tokio::time::timeout(WAIT, self.ws.next())
                .await
                .expect("a pong in time")
                .expect("the connection is open")
                .expect("a frame");
            if let Message::Pong(p) = frame
                && p.as_ref() == payload
            {
                return t.elapsed();
            }
        }
    }

    /// Reads messages until one satisfies `want`; returns it and every message before it.
    pub(crate) async fn until(&mut self, want: impl Fn(&Value) -> bool) -> (Value, Vec<Value>) {
        let mut seen = Vec::new();
        loop {
            let m = self.next().await;
            if want(&m) {
                return (m, seen);
            }
            seen.push(m);
        }
    }

    /// Waits for a state that is not busy; returns it.
    pub(crate) async fn idle(&mut self) -> Value {
        self.until(|m| m["type"] == "state" && m["busy"] == false)
            .await
            .0
    }

    /// The game as saved-game JSON.
    pub(crate) async fn saved(&mut self) -> String {
        self.send(json!({"type": "save"})).await;
        let (m, _) = self.until(|m| m["type"] == "saved").await;
        m["json"].as_str().expect("json").to_string()
    }

    /// Sends `text` and checks that it is answered by exactly one error (the next message) that
    /// contains `what`, and that the game is unchanged.
    pub(crate) async fn rejected(&mut self, text: &str, what: &str) {
        let before = self.saved().await;
        self.send_text(text).await;
        let m = self.next().await;
        assert_eq!(m["type"], "error", "{text}: {m}");
        let message = m["message"].as_str().expect("a message");
        assert!(message.contains(what), "{text}: `{message}`");
        assert_eq!(self.saved().await, before, "{text}: the game is unchanged");
    }
}

pub(crate) fn new_game(spots: u32, blue: Value, red: Value) -> Value {
    json!({"type": "new_game", "spots": spots, "convention": "normal", "players": [blue, red],
           "first": 0, "width": 800.0, "height": 600.0})
}

/// Opens a WebSocket with these extra headers; returns the HTTP status of a refused handshake.
pub(crate) async fn handshake_status(server: &Server, headers: &[(&str, &str)]) -> Option<u16> {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut request = server
        .url
        .as_str()
        .into_client_request()
        .expect("a request");
    for (name, value) in headers {
        request.headers_mut().insert(
            tokio_tungstenite::tungstenite::http::HeaderName::from_bytes(name.as_bytes())
                .expect("a header name"),
            value.parse().expect("a header value"),
        );
    }
    match connect_async(request).await {
        Ok(_) => None,
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            Some(response.status().as_u16())
        }
        Err(e) => panic!("the handshake failed otherwise: {e}"),
    }
}
