//! The session's message handling, message by message.

use super::protocol::{ClientMsg, PROTOCOL_VERSION, PlayerSpec, ServerMsg, StateMsg};
use super::session::{Reply, Session};

const SID: &str = "s1";

/// A greeted session.
fn session() -> Session {
    let mut s = Session::new(SID.into(), 7);
    let r = s.handle_text(&format!(
        r#"{{"type":"hello","protocol":{PROTOCOL_VERSION}}}"#
    ));
    assert!(matches!(r.msgs[0], ServerMsg::Welcome { .. }));
    s
}

/// Runs the reply's job (and the computer's jobs after it) to completion; returns all messages.
fn settle(s: &mut Session, mut r: Reply) -> Vec<ServerMsg> {
    let mut msgs = Vec::new();
    loop {
        msgs.append(&mut r.msgs);
        let Some(job) = r.job.take() else { break };
        let result = job.run(&mut |_| {});
        r = s.finish(result);
    }
    msgs
}

fn send(s: &mut Session, msg: ClientMsg) -> Vec<ServerMsg> {
    let r = s.handle(msg);
    settle(s, r)
}

fn last_state(msgs: &[ServerMsg]) -> StateMsg {
    msgs.iter()
        .rev()
        .find_map(|m| match m {
            ServerMsg::State(st) => Some((**st).clone()),
            _ => None,
        })
        .expect("a state message")
}

fn new_game(s: &mut Session, spots: u32, players: [PlayerSpec; 2]) -> StateMsg {
    let msgs = send(
        s,
        ClientMsg::NewGame {
            session: SID.into(),
            spots,
            convention: super::protocol::ConventionName::Normal,
            players,
            first: 0,
            width: 800.0,
            height: 600.0,
        },
    );
    last_state(&msgs)
}

fn draw(
    s: &mut Session,
    k: u32,
    from: u32,
    to: u32,
    stroke: Vec<[f64; 2]>,
    marks: Vec<u32>,
) -> Vec<ServerMsg> {
    send(
        s,
        ClientMsg::Draw {
            session: SID.into(),
            k,
            from,
            to,
            stroke,
            from_side: None,
            to_side: None,
            marks,
        },
    )
}

#[test]
fn debug_straight_stroke() {
    let mut s = session();
    let st = new_game(&mut s, 2, [PlayerSpec::Human, PlayerSpec::Human]);
    let (a, b) = (&st.spots[0], &st.spots[1]);
    let msgs = draw(
        &mut s,
        0,
        1,
        2,
        vec![[a.x, a.y], [(a.x + b.x) / 2.0, a.y + 10.0], [b.x, b.y]],
        vec![],
    );
    for m in &msgs {
        eprintln!("{m:?}");
    }
    for (k, a, b) in [(1, 1, 2), (2, 1, 2), (3, 3, 4)] {
        let st = s
            .state()
            .map(|m| match m {
                ServerMsg::State(st) => *st,
                _ => unreachable!(),
            })
            .unwrap();
        let pa = st.spots.iter().find(|x| x.id == a).unwrap().clone();
        let pb = st.spots.iter().find(|x| x.id == b).unwrap().clone();
        let mid = [(pa.x + pb.x) / 2.0, (pa.y + pb.y) / 2.0 + 10.0];
        let mut stroke = vec![];
        for (p, q) in [([pa.x, pa.y], mid), (mid, [pb.x, pb.y])] {
            for t in 0..6 {
                let t = t as f64 / 6.0;
                stroke.push([p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t]);
            }
        }
        stroke.push([pb.x, pb.y]);
        let t0 = std::time::Instant::now();
        let msgs = draw(&mut s, k, a, b, stroke, vec![]);
        eprintln!("took {:?}", t0.elapsed());
        for m in &msgs {
            if !matches!(m, ServerMsg::State(_)) {
                eprintln!("{m:?}");
            }
        }
    }
}

/// A loop from spot `a` round spot `b` (radius `r`) and back, as the page sends it.
fn loop_round(a: (f64, f64), b: (f64, f64), r: f64) -> Vec<[f64; 2]> {
    let toward = (a.1 - b.1).atan2(a.0 - b.0);
    let mut pts = vec![[a.0, a.1]];
    for t in 0..=40 {
        let ang = toward + 0.35 + f64::from(t) / 40.0 * (std::f64::consts::TAU - 0.7);
        pts.push([b.0 + r * ang.cos(), b.1 + r * ang.sin()]);
    }
    pts.push([a.0, a.1]);
    pts
}

#[test]
fn debug_marked_loop() {
    let mut s = session();
    let st = new_game(&mut s, 3, [PlayerSpec::Human, PlayerSpec::Human]);
    let (a, b) = (&st.spots[0], &st.spots[1]);
    let r = 60.0f64.min(((b.x - a.x).hypot(b.y - a.y)) / 2.0);
    let msgs = draw(
        &mut s,
        0,
        1,
        1,
        loop_round((a.x, a.y), (b.x, b.y), r),
        vec![2],
    );
    for m in &msgs {
        if !matches!(m, ServerMsg::State(_)) {
            eprintln!("{m:?}");
        }
    }
}

#[test]
fn debug_fit_loop() {
    use sprouts_geom::{Point, Vector, fit_clamped};
    let pts: Vec<Point> = loop_round((200.0, 150.0), (400.0, 150.0), 60.0)
        .iter()
        .map(|p| Point::new(p[0], p[1]))
        .collect();
    let n = pts.len();
    let r = fit_clamped(&pts, pts[1] - pts[0], pts[n - 1] - pts[n - 2], 1.5);
    match r {
        Ok(f) => {
            eprintln!("ok pieces {} err {}", f.spline.n_pieces(), f.max_error);
            for p in f.spline.pieces() {
                eprintln!("{:?}", p.bez);
            }
        }
        Err(e) => eprintln!("err {e}"),
    }
    let _ = Vector::new(0.0, 0.0);
}

#[test]
fn debug_cvc() {
    let mut s = session();
    let t0 = std::time::Instant::now();
    let r = s.handle(ClientMsg::NewGame {
        session: SID.into(),
        spots: 5,
        convention: super::protocol::ConventionName::Normal,
        players: [
            PlayerSpec::Computer {
                spec: "random".into(),
            },
            PlayerSpec::Computer {
                spec: "random".into(),
            },
        ],
        first: 0,
        width: 1000.0,
        height: 628.0,
    });
    let mut r = r;
    loop {
        for m in &r.msgs {
            if let ServerMsg::Log { line } = m {
                eprintln!("{:?} {line}", t0.elapsed());
            }
        }
        let Some(job) = r.job.take() else { break };
        let result = job.run(&mut |_| {});
        r = s.finish(result);
    }
}
