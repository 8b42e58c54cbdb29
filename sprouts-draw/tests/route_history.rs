//! One random game of the `route_games` classify run drawn move by move, with a picture after
//! every move (`ROUTE_HISTORY=N,G,DIR`: game `G` (from 1) of the `N`-spot run with per-game
//! seeds; `ROUTE_CROP=x,y,w,h` and `ROUTE_SCALE` as there), for finding which earlier moves
//! used up the room a refused move needed.

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use sprouts_draw::{Board, Settings, WorldSize};

fn png(dir: &str, name: &str, board: &Board, route: &[sprouts_geom::Point], line: &str) {
    let svg = sprouts_draw::svg::board_svg(board, &sprouts_draw::svg::SvgOptions::default());
    let pts: Vec<String> = route
        .iter()
        .map(|p| format!("{:.1},{:.1}", p.x, p.y))
        .collect();
    let text = line
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    let extra = format!(
        "<polyline points=\"{}\" fill=\"none\" stroke=\"red\" stroke-opacity=\"0.5\" stroke-width=\"1\"/><text x=\"10\" y=\"30\" font-size=\"22\">{text}</text>",
        pts.join(" ")
    );
    let mut svg = svg.replacen("</svg>", &format!("{extra}</svg>"), 1);
    if let Ok(crop) = std::env::var("ROUTE_CROP") {
        let v: Vec<&str> = crop.split(',').collect();
        if v.len() == 4 {
            let head_end = svg.find('>').unwrap();
            let head = format!(
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"{} {} {} {}\"",
                v[2], v[3], v[0], v[1], v[2], v[3]
            );
            svg = format!("{head}{}", &svg[head_end..]);
        }
    }
    let scale = std::env::var("ROUTE_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1.0);
    std::fs::create_dir_all(dir).unwrap();
    if let Ok(p) = sprouts_draw::svg::svg_to_png(&svg, scale) {
        std::fs::write(format!("{dir}/{name}.png"), p).unwrap();
    }
}

#[test]
#[ignore = "a debugging aid"]
fn history() {
    let Ok(spec) = std::env::var("ROUTE_HISTORY") else {
        return;
    };
    let v: Vec<&str> = spec.split(',').collect();
    let n: u32 = v[0].parse().unwrap();
    let g: u64 = v[1].parse().unwrap();
    let tmp = std::env::temp_dir().join("route_history");
    let dir = v.get(2).copied().unwrap_or(tmp.to_str().unwrap());
    let seed = 2000 + u64::from(n);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed.wrapping_mul(1_000_003) + g - 1);
    let mut board = Board::new(n, WorldSize::new(2560.0, 1383.0), Settings::default()).unwrap();
    for k in 0.. {
        let pos = board.position().clone();
        let moves: Vec<_> = pos.moves().collect();
        if moves.is_empty() {
            break;
        }
        let mv = &moves[rng.random_range(0..moves.len())];
        let idx = moves.iter().position(|m| m == mv).unwrap();
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(format!("{dir}/m{k:02}.json"), board.to_json()).unwrap();
        std::fs::write(format!("{dir}/m{k:02}.move"), idx.to_string()).unwrap();
        let mut last: Vec<sprouts_geom::Point> = Vec::new();
        let res = board.draw_move(mv, &mut |r| last = r.to_vec());
        let line = match &res {
            Ok(d) => format!(
                "{k}: {} by {:?}, clearance {:.2}",
                d.words, d.method, d.clearance
            ),
            Err(e) => format!("{k}: {}: {}", mv.describe(&pos), e.detail()),
        };
        eprintln!("{line}");
        png(dir, &format!("m{k:02}"), &board, &last, &line);
        if res.is_err() {
            break;
        }
    }
}

/// Draws again, from the board saved before move `S` of a `history` run, that run's moves
/// from `S` on (`ROUTE_SEQ=DIR,S`), printing each; for finding the shortest stretch of a real
/// game that one version of the router draws to the end and another does not.
#[test]
#[ignore = "a debugging aid"]
fn sequence() {
    let Ok(spec) = std::env::var("ROUTE_SEQ") else {
        return;
    };
    let (dir, s) = spec.split_once(',').unwrap();
    let s: usize = s.parse().unwrap();
    let mut board =
        Board::from_json(&std::fs::read_to_string(format!("{dir}/m{s:02}.json")).unwrap()).unwrap();
    let mut ks = Vec::new();
    for k in s.. {
        let Ok(m) = std::fs::read_to_string(format!("{dir}/m{k:02}.move")) else {
            break;
        };
        let idx: usize = m.trim().parse().unwrap();
        ks.push(idx);
        let pos = board.position().clone();
        let mv = pos.moves().nth(idx).unwrap();
        let words = mv.describe(&pos);
        match board.draw_move(&mv, &mut |_| {}) {
            Ok(d) => eprintln!("{k}: {words} drawn by {:?}", d.method),
            Err(e) => {
                eprintln!("{k}: {words} refused: {}", e.detail());
                break;
            }
        }
    }
    eprintln!("moves {ks:?}");
}
