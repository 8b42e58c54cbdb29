//! `sprouts render GAME.json -o OUT.svg|OUT.png`: the picture of a saved game; with
//! `--quality`, its picture quality report (`PictureQuality`).

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use sprouts_draw::svg::{SvgOptions, board_svg, svg_to_png};
use sprouts_draw::{Board, PictureQuality};

/// The largest `--scale` of a PNG (a 2560-pixel-wide game at this scale is 20480 pixels wide).
const MAX_SCALE: f64 = 8.0;

/// Arguments of `sprouts render`.
#[derive(Debug, clap::Args)]
pub(crate) struct RenderArgs {
    /// The saved game (JSON, as the game's Save writes it).
    game: PathBuf,
    /// Where to write the picture: `.svg` or `.png` (needed unless --quality is given).
    #[arg(short, long, required_unless_present = "quality")]
    output: Option<PathBuf>,
    /// Print the picture quality report of the game's picture (least gap, crowding, sharp
    /// turns, shrunk spots, clipped labels, the share of the window used), as one line, or as
    /// JSON with --json.
    #[arg(long)]
    quality: bool,
    /// With --quality: the report as one JSON object.
    #[arg(long, requires = "quality")]
    json: bool,
    /// Leave out the spot numbers.
    #[arg(long)]
    no_labels: bool,
    /// Shade the regions (live ones in colours, dead ones grey).
    #[arg(long)]
    shade: bool,
    /// Scale of a PNG against the game's world size.
    #[arg(long, default_value_t = 1.0)]
    scale: f64,
}

/// Runs `sprouts render`, printing one line about what it wrote, then the quality report if
/// asked.
pub(crate) fn run(args: RenderArgs) -> anyhow::Result<()> {
    for line in render(&args)? {
        println!("{line}");
    }
    Ok(())
}

/// Writes the picture and says what it wrote, and reports the picture's quality if asked.
fn render(args: &RenderArgs) -> anyhow::Result<Vec<String>> {
    let format = match &args.output {
        None => None,
        Some(output) => Some(match output.extension().and_then(|e| e.to_str()) {
            Some(e) if e.eq_ignore_ascii_case("svg") => "svg",
            Some(e) if e.eq_ignore_ascii_case("png") => "png",
            _ => bail!(
                "cannot tell the picture format from `{}`: use a name ending in .svg or .png",
                output.display()
            ),
        }),
    };
    if !(args.scale.is_finite() && args.scale > 0.0 && args.scale <= MAX_SCALE) {
        bail!("--scale must be a number above 0 and at most {MAX_SCALE}");
    }
    let text = crate::input::read_text_file(&args.game)?;
    let board = Board::from_json(&text).with_context(|| {
        format!(
            "`{}` is not a game this program can load",
            args.game.display()
        )
    })?;
    let mut lines = Vec::new();
    if let (Some(output), Some(format)) = (&args.output, format) {
        lines.push(write_picture(&board, args, output, format)?);
    }
    if args.quality {
        let q = PictureQuality::of_board(&board);
        lines.push(if args.json {
            serde_json::to_string(&q).context("cannot write the report as JSON")?
        } else {
            format!("{}: {q}", args.game.display())
        });
    }
    Ok(lines)
}

/// Writes the picture of `board` to `output` as `format` and says what it wrote.
fn write_picture(
    board: &Board,
    args: &RenderArgs,
    output: &Path,
    format: &str,
) -> anyhow::Result<String> {
    let options = SvgOptions {
        labels: !args.no_labels,
        shade_regions: args.shade,
    };
    let svg = board_svg(board, &options);
    let bytes = match format {
        "svg" => svg.into_bytes(),
        _ => svg_to_png(&svg, args.scale).context("cannot make the PNG")?,
    };
    write(output, &bytes)?;
    Ok(format!(
        "{}: {} spots, {} moves, position {}",
        output.display(),
        board.drawing().spots().len(),
        board.moves().len(),
        board.position().to_glop()
    ))
}

fn write(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    std::fs::write(path, bytes).with_context(|| format!("cannot write `{}`", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use sprouts_draw::{Settings, WorldSize};
    use sprouts_geom::{EndCondition, Point, interpolate};

    /// A path of its own for each call: the tests run at once and must not share a file.
    fn temp(name: &str) -> PathBuf {
        static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        std::env::temp_dir().join(format!("sprouts-render-{}-{n}-{name}", std::process::id()))
    }

    /// Three seeds and a loop at 1 round seed 2, saved.
    fn saved_game() -> PathBuf {
        let mut board = Board::new(3, WorldSize::new(600.0, 400.0), Settings::default()).unwrap();
        let p = board.position().clone();
        let mv = p
            .moves()
            .find(|m| m.describe(&p) == "1 -> 1 enclosing 2")
            .unwrap();
        let pts: Vec<Point> = [
            (150.0, 100.0),
            (250.0, 20.0),
            (450.0, 12.0),
            (540.0, 100.0),
            (450.0, 188.0),
            (250.0, 180.0),
            (150.0, 100.0),
        ]
        .iter()
        .map(|&(x, y)| Point::new(x, y))
        .collect();
        let spline = interpolate(&pts, EndCondition::Natural, EndCondition::Natural, &[]).unwrap();
        board.play_spline(&mv, &spline).unwrap();
        let path = temp("game.json");
        std::fs::write(&path, board.to_json()).unwrap();
        path
    }

    fn args(game: PathBuf, output: PathBuf) -> RenderArgs {
        RenderArgs {
            game,
            output: Some(output),
            quality: false,
            json: false,
            no_labels: false,
            shade: true,
            scale: 1.0,
        }
    }

    #[test]
    fn renders_svg_and_png() {
        let game = saved_game();
        let svg = temp("out.svg");
        let lines = render(&args(game.clone(), svg.clone())).unwrap();
        let line = &lines[0];
        assert!(
            line.ends_with("4 spots, 1 moves, position AB.0|BA.0"),
            "{line}"
        );
        let text = std::fs::read_to_string(&svg).unwrap();
        assert!(text.starts_with("<svg"));
        assert_eq!(text.matches("class=\"curve\"").count(), 2);
        let png = temp("out.png");
        render(&args(game, png.clone())).unwrap();
        assert_eq!(&std::fs::read(&png).unwrap()[..4], b"\x89PNG");
    }

    #[test]
    fn quality_of_a_saved_game() {
        let game = saved_game();
        let mut a = args(game, temp("q.svg"));
        a.output = None;
        a.quality = true;
        let lines = render(&a).unwrap();
        assert_eq!(lines.len(), 1);
        // The loop keeps far from the other curve (its own second half) and the seeds.
        assert!(
            lines[0].contains("0.0% of curve length within 8 px"),
            "{}",
            lines[0]
        );
        assert!(lines[0].contains("0 labels clipped"), "{}", lines[0]);
        a.json = true;
        let lines = render(&a).unwrap();
        let v: serde_json::Value = serde_json::from_str(&lines[0]).unwrap();
        assert_eq!(v["within_8"], 0.0);
        assert_eq!(v["spots_shrunk"], 0);
        // The natural spline through (250, 20) and (450, 12) rises above the top of the world.
        assert_eq!(v["least_gap"]["and"], "frame", "{v}");
        assert!(v["least_gap"]["pixels"].as_f64().unwrap() < 0.0, "{v}");
    }

    #[test]
    fn bad_input_is_refused_with_the_reason() {
        let game = saved_game();
        let err = render(&args(game.clone(), temp("out.gif"))).unwrap_err();
        assert!(err.to_string().contains(".svg or .png"), "{err}");
        let broken = temp("broken.json");
        std::fs::write(&broken, "{\"format\": \"sprouts-game\"").unwrap();
        let err = render(&args(broken, temp("x.svg"))).unwrap_err();
        assert!(
            format!("{err:#}").contains("is not a game this program can load"),
            "{err:#}"
        );
        let err = render(&args(temp("missing.json"), temp("y.svg"))).unwrap_err();
        assert!(format!("{err:#}").starts_with("cannot read"), "{err:#}");
    }
}
