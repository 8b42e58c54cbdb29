//! The picture the router's debugging tools write (the `route_debug` example and the
//! `route_games` test): a board with the routes the router tried over it and a line of text,
//! as SVG and PNG. Included by both with `#[path]`.

use sprouts_draw::Board;
use sprouts_geom::Point;

/// Writes the board with `routes` (red, the last one thicker) and `line` as `dir/name.svg` and
/// `dir/name.png`. `ROUTE_CROP=x,y,w,h` shows only that part of the board; `ROUTE_SCALE` scales
/// the PNG (default 1).
pub(crate) fn picture(
    dir: &str,
    name: &str,
    board: &Board,
    routes: &[Vec<Point>],
    line: &str,
) -> Result<(), Box<dyn std::error::Error>> {
    let svg = sprouts_draw::svg::board_svg(board, &sprouts_draw::svg::SvgOptions::default());
    let mut extra = String::new();
    for (k, r) in routes.iter().enumerate() {
        let pts: Vec<String> = r.iter().map(|p| format!("{:.1},{:.1}", p.x, p.y)).collect();
        let w = if k + 1 == routes.len() { 2.0 } else { 0.7 };
        extra.push_str(&format!(
            "<polyline points=\"{}\" fill=\"none\" stroke=\"red\" stroke-opacity=\"0.6\" stroke-width=\"{w}\"/>",
            pts.join(" ")
        ));
    }
    let text = line
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    extra.push_str(&format!(
        "<text x=\"10\" y=\"30\" font-size=\"22\" fill=\"black\">{text}</text>"
    ));
    let mut svg = svg.replacen("</svg>", &format!("{extra}</svg>"), 1);
    if let Ok(crop) = std::env::var("ROUTE_CROP") {
        let v: Vec<&str> = crop.split(',').collect();
        if let (4, Some(head_end)) = (v.len(), svg.find('>')) {
            let head = format!(
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"{} {} {} {}\"",
                v[2], v[3], v[0], v[1], v[2], v[3]
            );
            svg = format!("{head}{}", &svg[head_end..]);
        }
    }
    std::fs::create_dir_all(dir)?;
    std::fs::write(format!("{dir}/{name}.svg"), &svg)?;
    let scale = std::env::var("ROUTE_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1.0);
    std::fs::write(
        format!("{dir}/{name}.png"),
        sprouts_draw::svg::svg_to_png(&svg, scale)?,
    )?;
    Ok(())
}
