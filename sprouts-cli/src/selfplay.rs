//! `sprouts selfplay`: computer against computer, on positions only, or with every move drawn
//! (`--draw`).

use std::io::{IsTerminal, Write};
use std::time::Instant;

use anyhow::{Context, bail};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;
use sprouts::draw::{LadderOptions, Rung};
use sprouts::{Game, GameError, Limits, Played, Seat};
use sprouts_ai::impartial::{Convention, Outcome};
use sprouts_ai::players::Report;
use sprouts_topo::{Move, Position};

/// The most games one `selfplay` run plays.
const MAX_GAMES: u32 = 1_000_000;

/// Arguments of `sprouts selfplay`.
#[derive(Debug, Args)]
pub(crate) struct SelfplayArgs {
    /// The number of spots of the start.
    #[arg(long)]
    spots: u32,
    /// Player 1: random, montecarlo (or montecarlo:N games, montecarlo:Ts seconds), parity-fast
    /// (or parity-fast:Ts, parity-fast:depth=D), parity-sharp (the same options), perfect (or
    /// perfect:Ts).
    #[arg(long)]
    p1: String,
    /// Player 2 (as --p1).
    #[arg(long)]
    p2: String,
    /// The number of games.
    #[arg(long, default_value_t = 1)]
    games: u32,
    /// The seed of the players' random choices (each game derives its own).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// One JSON object per game, then a summary object.
    #[arg(long)]
    json: bool,
    /// Misère play (whoever makes the last move loses).
    #[arg(long)]
    misere: bool,
    /// Player 2 moves first in every second game (games 2, 4, ...).
    #[arg(long)]
    alternate: bool,
    /// Draw every move on a picture (`Board::draw_move`) and check it reads back to the
    /// intended position; the players then play the drawn position.
    #[arg(long)]
    draw: bool,
    /// With --draw: when the router refuses a move, draw the position after it afresh
    /// (`Board::draw_move_fresh`, spec 4.6: Z, and • with spots drawn smaller where there is
    /// no room) instead of stopping the game's drawing; the same as adding `Z.` to --room.
    #[arg(long, requires = "draw")]
    fresh: bool,
    /// With --draw: the Room steps the ladder takes when the router refuses a move, as
    /// letters: `M` (spots slid along their curves, seeds moved, curves pushed apart round the
    /// move's way), `A` (the curves relaxed, spots kept), `R` (the whole picture relaxed), `Z`
    /// (the picture afresh with the move), `.` (•: afresh with spots drawn smaller where there
    /// is no room), or `none` (spec 4.1, 4.3 to 4.6).
    #[arg(long, value_name = "STEPS", default_value = "R", requires = "draw", value_parser = parse_room)]
    room: RoomSteps,
    /// With --draw: write each game's final picture (SVG) and saved game (JSON) here, and for
    /// a game whose drawing stopped, the picture where the move was refused with the move
    /// named in it (`game-N-refused.svg` and `.png`), its saved game (`game-N-refused.json`) and the
    /// move's index among the position's moves (`game-N-refused.move`).
    #[arg(long, value_name = "DIR", requires = "draw")]
    svg: Option<std::path::PathBuf>,
    /// With --draw: the drawing area in pixels, `WIDTHxHEIGHT` (a small one crowds the
    /// picture sooner).
    #[arg(long, value_name = "WxH", default_value = "2560x1383", requires = "draw", value_parser = parse_area)]
    area: (f64, f64),
}

/// The Room steps of `--room`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct RoomSteps {
    local: bool,
    adjust: bool,
    rearrange: bool,
    fresh: bool,
    smaller: bool,
}

/// Reads `--room`: letters M, A, R, Z and `.` (or `•`; either case, each at most once), or
/// `none`.
fn parse_room(text: &str) -> Result<RoomSteps, String> {
    let mut steps = RoomSteps::default();
    if text.eq_ignore_ascii_case("none") {
        return Ok(steps);
    }
    for c in text.chars() {
        let seen = match c.to_ascii_uppercase() {
            'M' => std::mem::replace(&mut steps.local, true),
            'A' => std::mem::replace(&mut steps.adjust, true),
            'R' => std::mem::replace(&mut steps.rearrange, true),
            'Z' => std::mem::replace(&mut steps.fresh, true),
            '.' | '•' => std::mem::replace(&mut steps.smaller, true),
            _ => return Err(format!("`{c}` is not a Room step (M, A, R, Z or .)")),
        };
        if seen {
            return Err(format!("`{c}` is given twice"));
        }
    }
    if steps == RoomSteps::default() {
        return Err("no Room step given (M, A, R, Z, . or none)".into());
    }
    Ok(steps)
}

/// Reads `--area`: `WIDTHxHEIGHT`, each a number of pixels from 100 to the largest world side.
fn parse_area(text: &str) -> Result<(f64, f64), String> {
    let (w, h) = text
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("`{text}` is not WIDTHxHEIGHT"))?;
    let side = |t: &str| -> Result<f64, String> {
        let v: f64 = t
            .trim()
            .parse()
            .map_err(|_| format!("`{t}` is not a number of pixels"))?;
        if !(100.0..=sprouts_draw::MAX_WORLD_SIDE).contains(&v) {
            return Err(format!(
                "{v} px is outside 100 to {} px",
                sprouts_draw::MAX_WORLD_SIDE
            ));
        }
        Ok(v)
    };
    Ok((side(w)?, side(h)?))
}

/// What drawing the moves of the games gave, step by step of the ladder.
#[derive(Default)]
struct DrawTally {
    /// Moves drawn by the router (ladder steps 1 to 3).
    drawn: u64,
    /// Moves no step of the ladder could draw.
    refused: u64,
    /// Moves whose picture read back to another game (refused by the game).
    wrong: u64,
    /// Games drawn to the end.
    to_end: u64,
    /// Moves drawn by a fresh layout (ladder step 4).
    fresh: u64,
    /// Games drawn to the end without a fresh layout.
    to_end_without_fresh: u64,
    /// Whether the game being played needed a fresh layout.
    game_used_fresh: bool,
    /// Moves drawn as another move giving the same game (ladder steps 1 and 2).
    equivalent: u64,
    /// Moves drawn by ladder step 2 (an equivalent move step 1 did not try).
    step_two: u64,
    /// Games drawn to the end without a move drawn as an equivalent (nor a fresh layout).
    to_end_without_equivalent: u64,
    /// Whether the game being played had a move drawn as an equivalent.
    game_used_equivalent: bool,
    /// Moves drawn by each rung of the ladder, by the rung's name.
    by_rung: std::collections::BTreeMap<&'static str, u64>,
}

impl DrawTally {
    /// Counts a move drawn by the ladder.
    fn count(&mut self, played: &Played, game: u32) {
        let Some(ladder) = &played.ladder else {
            return;
        };
        *self.by_rung.entry(ladder.rung.name()).or_default() += 1;
        match &ladder.rung {
            Rung::Fresh(_) | Rung::Smaller(_) => {
                self.fresh += 1;
                self.game_used_fresh = true;
            }
            rung => {
                self.drawn += 1;
                if matches!(rung, Rung::Equivalent(_)) {
                    self.step_two += 1;
                }
            }
        }
        if ladder.rung.is_equivalent() {
            self.equivalent += 1;
            self.game_used_equivalent = true;
        }
        if ladder.rung.number() > 1 || ladder.rung.is_equivalent() {
            eprintln!(
                "game {game} move {}: {} (ladder step {}, {})",
                played.number,
                ladder.log.join("; "),
                ladder.rung.number(),
                ladder.rung.name()
            );
        }
    }

    /// Closes a game: whether it was drawn to its end, and without which steps.
    fn end_game(&mut self, drawn_to_end: bool) {
        if drawn_to_end {
            self.to_end += 1;
            if !self.game_used_fresh {
                self.to_end_without_fresh += 1;
            }
            if !self.game_used_fresh && !self.game_used_equivalent {
                self.to_end_without_equivalent += 1;
            }
        }
        self.game_used_fresh = false;
        self.game_used_equivalent = false;
    }
}

/// The picture quality of the games' final pictures, summed for the summary.
#[derive(Default)]
struct QualityTally {
    /// Games whose final picture was measured.
    games: u32,
    /// The least of the least gaps (pixels).
    least_gap: Option<f64>,
    /// Sums and largest of the share of curve length within 8 px of another curve.
    within_8: (f64, f64),
    /// Sums and largest of the share within 20 px.
    within_20: (f64, f64),
    /// The sharpest turn within 16 px (degrees).
    sharpest_turn: f64,
    /// Curves turning over 60 degrees just past a spot, in all games, and games with one.
    sharp_starts: (usize, u32),
    /// Spots shrunk and labels clipped, in all games.
    spots_shrunk: usize,
    labels_clipped: usize,
    /// Sum of the share of the window used.
    window_used: f64,
}

impl QualityTally {
    /// Adds one game's final picture.
    fn add(&mut self, q: &sprouts_draw::PictureQuality) {
        self.games += 1;
        if let Some(g) = q.least_gap {
            self.least_gap = Some(self.least_gap.map_or(g.pixels, |l| l.min(g.pixels)));
        }
        self.within_8 = (
            self.within_8.0 + q.within_8,
            self.within_8.1.max(q.within_8),
        );
        self.within_20 = (
            self.within_20.0 + q.within_20,
            self.within_20.1.max(q.within_20),
        );
        self.sharpest_turn = self.sharpest_turn.max(q.sharpest_turn);
        self.sharp_starts.0 += q.sharp_starts;
        self.sharp_starts.1 += u32::from(q.sharp_starts > 0);
        self.spots_shrunk += q.spots_shrunk;
        self.labels_clipped += q.labels_clipped;
        self.window_used += q.window_used;
    }

    /// The summary's `quality` object.
    fn json(&self) -> serde_json::Value {
        let mean = |x: f64| x / f64::from(self.games.max(1));
        json!({
            "games": self.games,
            "least_gap": self.least_gap,
            "within_8_mean": mean(self.within_8.0),
            "within_8_max": self.within_8.1,
            "within_20_mean": mean(self.within_20.0),
            "within_20_max": self.within_20.1,
            "sharpest_turn": self.sharpest_turn,
            "sharp_starts": self.sharp_starts.0,
            "games_with_sharp_starts": self.sharp_starts.1,
            "spots_shrunk": self.spots_shrunk,
            "labels_clipped": self.labels_clipped,
            "window_used_mean": mean(self.window_used),
        })
    }

    /// The summary's line.
    fn line(&self) -> String {
        let mean = |x: f64| x / f64::from(self.games.max(1));
        format!(
            "# final pictures of {} games: least gap {}, {:.1}% of curve length within 8 px of another curve (at most {:.1}%), {:.1}% within 20 px, sharpest turn {:.0} degrees within 16 px, {} curves turning over 60 degrees just past a spot (in {} games), {} spots shrunk, {} labels clipped, {:.0}% of the window used",
            self.games,
            self.least_gap
                .map_or("none".to_owned(), |g| format!("{g:.1} px")),
            100.0 * mean(self.within_8.0),
            100.0 * self.within_8.1,
            100.0 * mean(self.within_20.0),
            self.sharpest_turn,
            self.sharp_starts.0,
            self.sharp_starts.1,
            self.spots_shrunk,
            self.labels_clipped,
            100.0 * mean(self.window_used)
        )
    }
}

/// Escapes text for SVG.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The picture of `board` (in the position before the move) where `mv` was refused: the
/// board's picture with labels, the move's spots ringed in red, the spots it must enclose
/// ringed in orange, and the move and the refusal written at the top.
pub(crate) fn refusal_svg(
    board: &sprouts_draw::Board,
    mv: &Move,
    title: &str,
    refusal: &sprouts_draw::Refusal,
) -> String {
    let options = sprouts_draw::svg::SvgOptions {
        labels: true,
        ..Default::default()
    };
    let svg = sprouts_draw::svg::board_svg(board, &options);
    let pos = board.position();
    let mut extra = format!("<title>{}</title>\n", escape(title));
    let (a, b) = mv.spots();
    let ring = |id, colour: &str, dash: &str| {
        board.drawing().spot(id).map_or(String::new(), |s| {
            format!(
                "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"{:.1}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"3\"{dash}/>\n",
                s.centre.x,
                s.centre.y,
                s.radius + 10.0
            )
        })
    };
    for s in mv.enclosed_spots(pos) {
        extra.push_str(&ring(s, "orange", " stroke-dasharray=\"6 4\""));
    }
    extra.push_str(&ring(a, "red", ""));
    if b != a {
        extra.push_str(&ring(b, "red", ""));
    }
    for (k, line) in [title.to_owned(), refusal.to_string(), refusal.detail()]
        .iter()
        .enumerate()
    {
        extra.push_str(&format!(
            "<text x=\"10\" y=\"{}\" font-size=\"20\" fill=\"black\">{}</text>\n",
            28 + 26 * k,
            escape(line)
        ));
    }
    svg.replacen("</svg>", &format!("{extra}</svg>"), 1)
}

/// Writes, for the move `mv` that `board` refused, `game-N-refused.svg` ([`refusal_svg`])
/// and the same as `game-N-refused.png`, `game-N-refused.json` (the saved game in the
/// position before the move) and `game-N-refused.move` (the move's index among
/// [`Position::moves`] of that position).
fn write_refusal(
    dir: &std::path::Path,
    board: &sprouts_draw::Board,
    game: u32,
    ply: u32,
    mv: &Move,
    refusal: &sprouts_draw::Refusal,
) -> anyhow::Result<()> {
    let title = format!(
        "game {game} move {ply}: {} was not drawn",
        mv.describe(board.position())
    );
    let name = format!("game-{game}-refused");
    let write = |ext: &str, text: &str| {
        let path = dir.join(format!("{name}.{ext}"));
        std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))
    };
    let svg = refusal_svg(board, mv, &title, refusal);
    write("svg", &svg)?;
    let png = sprouts_draw::svg::svg_to_png(&svg, 1.0).context("cannot make the PNG")?;
    let path = dir.join(format!("{name}.png"));
    std::fs::write(&path, png).with_context(|| format!("cannot write {}", path.display()))?;
    write("json", &board.to_json())?;
    if let Some(k) = board.position().moves().position(|m| m == *mv) {
        write("move", &format!("{k}\n"))?;
    }
    Ok(())
}

/// One move of a game, as the printer sees it.
pub(crate) struct MoveEvent<'a> {
    /// The game's number (from 1).
    pub(crate) game: u32,
    /// The move's number in the game (from 1).
    pub(crate) ply: u32,
    /// Which player moved (0 for player 1, 1 for player 2).
    pub(crate) player: usize,
    /// The position before the move.
    pub(crate) before: &'a Position,
    /// The move chosen.
    pub(crate) mv: &'a Move,
    /// The position the move makes.
    pub(crate) after: &'a Position,
    /// What the player reported.
    pub(crate) report: &'a Report,
    /// The time the player took, with the drawing.
    pub(crate) seconds: f64,
    /// The move drawn in place of the move chosen (the same game), when it was another.
    pub(crate) drawn_as: Option<String>,
    /// The ladder's rung that drew the move (`as chosen`, `equivalent`, `A`, `R`, `Z`, `•`),
    /// for a drawn move.
    pub(crate) rung: Option<&'static str>,
}

/// A finished game.
pub(crate) struct Finished {
    /// The player who won (0 or 1).
    pub(crate) winner: usize,
    /// The number of moves.
    pub(crate) moves: u32,
    /// Thinking time and moves per player.
    pub(crate) seconds: [f64; 2],
    pub(crate) moves_by: [u32; 2],
}

/// Plays `game` (two computers) to its end through [`Game::computer_step`]. A drawn game's
/// moves go up the ladder (the tally counts each step used); a move no step can draw is
/// reported (with `svg`, its picture is written there) and the game goes on without its
/// picture. `observer` sees every move.
fn play_game(
    game: &mut Game,
    number: u32,
    tally: &mut DrawTally,
    svg: Option<&std::path::Path>,
    observer: &mut dyn FnMut(&MoveEvent<'_>) -> anyhow::Result<()>,
) -> anyhow::Result<Finished> {
    let mut rec = Finished {
        winner: 0,
        moves: 0,
        seconds: [0.0; 2],
        moves_by: [0; 2],
    };
    while !game.is_over() {
        let seat = game.to_move();
        let name = game.seats()[seat].spec().unwrap_or("a person").to_owned();
        let before = game.position().clone();
        let t = Instant::now();
        let played = match game.computer_step(&Limits::none()) {
            Ok(played) => {
                if game.board().is_some() {
                    tally.count(&played, number);
                }
                played
            }
            Err(GameError::NotDrawn {
                mv,
                words,
                refusal,
                report,
            }) => {
                tally.refused += 1;
                eprintln!(
                    "game {number} move {}: {words} was not drawn: {}",
                    rec.moves + 1,
                    refusal.log.join("; ")
                );
                if let (Some(dir), Some(board)) = (svg, game.board()) {
                    write_refusal(dir, board, number, rec.moves + 1, &mv, &refusal.refusal)?;
                }
                game.drop_picture();
                let mut played = game
                    .play_move(&mv)
                    .with_context(|| format!("{name} chose an illegal move in {before}"))?;
                played.report = report.map(|r| *r);
                played
            }
            Err(GameError::WrongGame { words, mv }) => {
                tally.wrong += 1;
                eprintln!(
                    "game {number} move {}: the drawn move {words} read back to another position",
                    rec.moves + 1
                );
                game.drop_picture();
                game.play_move(&mv)?
            }
            Err(e) => bail!("{name} in {before}: {e}"),
        };
        let seconds = t.elapsed().as_secs_f64();
        rec.moves += 1;
        rec.seconds[seat] += seconds;
        rec.moves_by[seat] += 1;
        let after = before
            .play(&played.chosen)
            .with_context(|| format!("{name} chose an illegal move in {before}"))?;
        let report = played.report.clone().unwrap_or_default();
        observer(&MoveEvent {
            game: number,
            ply: rec.moves,
            player: seat,
            before: &before,
            mv: &played.chosen,
            after: &after,
            report: &report,
            seconds,
            drawn_as: played
                .ladder
                .as_ref()
                .filter(|l| l.rung.is_equivalent())
                .map(|l| l.words.clone()),
            rung: played.ladder.as_ref().map(|l| l.rung.name()),
        })?;
    }
    rec.winner = game.winner().expect("the game is over");
    Ok(rec)
}

/// A seed for game `g`, player `k`.
fn game_seed(seed: u64, g: u32, k: u64) -> u64 {
    sprouts::ai::seed::splitmix64(seed ^ (u64::from(g) << 8) ^ k)
}

pub(crate) fn run(args: SelfplayArgs) -> anyhow::Result<()> {
    if args.spots == 0 || args.spots > 200 {
        bail!("--spots must be between 1 and 200");
    }
    crate::input::bounded("--games", args.games, 1, MAX_GAMES)?;
    for spec in [&args.p1, &args.p2] {
        Seat::computer(spec, 0).with_context(|| format!("cannot read the player `{spec}`"))?;
    }
    let bar = progress_bar(args.games);
    let names = [args.p1.as_str(), args.p2.as_str()];
    let mut totals = Totals::default();
    let mut out = std::io::stdout().lock();
    let mut draw = DrawTally::default();
    let mut quality = QualityTally::default();
    if let Some(dir) = &args.svg {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create the directory {}", dir.display()))?;
    }
    for g in 1..=args.games {
        let first = usize::from(args.alternate && g % 2 == 0);
        let mut game = new_game(&args, g, first)?;
        let mut moves_json = Vec::new();
        if !args.json {
            writeln!(
                out,
                "# game {g}: {} spots, {} play, {} moves first",
                args.spots,
                if args.misere { "misère" } else { "normal" },
                names[first]
            )?;
        }
        let json = args.json;
        let svg_dir = args.svg.as_deref();
        let rec = play_game(&mut game, g, &mut draw, svg_dir, &mut |e| {
            if json {
                moves_json.push(move_json(e));
            } else {
                writeln!(out, "{}", move_line(e))?;
            }
            Ok(())
        })?;
        draw.end_game(args.draw && game.board().is_some());
        let picture_quality = game.board().map(sprouts_draw::PictureQuality::of_board);
        if let Some(q) = &picture_quality {
            quality.add(q);
        }
        if let (Some(board), Some(dir)) = (game.board(), &args.svg) {
            save_picture(board, dir, g)?;
        }
        totals.add(&rec);
        let end = GameEnd {
            number: g,
            first,
            rec: &rec,
            moves_json,
            quality: picture_quality.as_ref(),
        };
        write_game_end(&mut out, &args, end)?;
        if let Some(bar) = &bar {
            bar.set_message(format!("p1 {} : {} p2", totals.wins[0], totals.wins[1]));
            bar.inc(1);
        }
    }
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    write_summary(&mut out, &args, &totals, &draw, &quality)?;
    if draw.wrong > 0 {
        bail!("{} drawn moves read back to another position", draw.wrong);
    }
    Ok(())
}

/// A progress bar on standard error when it is a terminal.
fn progress_bar(games: u32) -> Option<ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = ProgressBar::new(u64::from(games));
    bar.set_style(
        ProgressStyle::with_template("game {pos}/{len} [{bar:40}] ({elapsed}) {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    Some(bar)
}

/// Game `g` of the run, player `first` (0 or 1) to move first: its seats seeded for the game,
/// on a picture laid out afresh with `--draw`.
fn new_game(args: &SelfplayArgs, g: u32, first: usize) -> anyhow::Result<Game> {
    let seats = [
        Seat::computer(&args.p1, game_seed(args.seed, g, 1))?,
        Seat::computer(&args.p2, game_seed(args.seed, g, 2))?,
    ];
    let game = if args.draw {
        let world = sprouts_draw::WorldSize::new(args.area.0, args.area.1);
        Game::drawn_spots(args.spots, world, sprouts_draw::Settings::default(), seats)
            .context("cannot lay out the start")?
    } else {
        Game::new(Position::new(args.spots), seats)
    };
    let convention = if args.misere {
        Convention::Misere
    } else {
        Convention::Normal
    };
    Ok(game
        .with_convention(convention)
        .with_first(first)
        .with_ladder(LadderOptions {
            fresh: args.fresh || args.room.fresh,
            smaller_spots: args.fresh || args.room.smaller,
            local: args.room.local,
            adjust: args.room.adjust,
            rearrange: args.room.rearrange,
            ..LadderOptions::default()
        }))
}

/// A move as one JSON object of the game's `moves`.
fn move_json(e: &MoveEvent<'_>) -> serde_json::Value {
    let r = e.report;
    let verdict = r.verdict.map(|v| match v {
        Outcome::Win => "win",
        Outcome::Loss => "loss",
    });
    let mut m = json!({
        "game": e.game,
        "player": e.player + 1,
        "move": e.mv.describe(e.before),
        "position": e.after.to_glop(),
        "form": e.after.canonical().as_str(),
        "depth": r.depth,
        "candidates": r.candidates,
        "verdict": verdict,
        "seconds": e.seconds,
    });
    // The move drawn in its place (the same game), when it was not the move itself.
    if let Some(w) = &e.drawn_as {
        m["drawn_as"] = json!(w);
    }
    if let Some(rung) = e.rung {
        m["rung"] = json!(rung);
    }
    m
}

/// A move as one line of the text output.
fn move_line(e: &MoveEvent<'_>) -> String {
    let r = e.report;
    let mut line = format!(
        "{:>3}. p{} {:<28} {}   [depth {}, {} candidates, {:.3} s",
        e.ply,
        e.player + 1,
        e.mv.describe(e.before),
        e.after.canonical(),
        r.depth,
        r.candidates,
        e.seconds
    );
    if let Some(w) = r.verdict_words() {
        line.push_str("; ");
        line.push_str(w);
    }
    line.push(']');
    line
}

/// Writes the final picture of game `g` into `dir`: as SVG, and as the board's JSON.
fn save_picture(board: &sprouts_draw::Board, dir: &std::path::Path, g: u32) -> anyhow::Result<()> {
    let svg = sprouts_draw::svg::board_svg(board, &sprouts_draw::svg::SvgOptions::default());
    let path = dir.join(format!("game-{g}.svg"));
    std::fs::write(&path, svg).with_context(|| format!("cannot write {}", path.display()))?;
    let path = dir.join(format!("game-{g}.json"));
    std::fs::write(&path, board.to_json())
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

/// The results of the games played so far.
#[derive(Default)]
struct Totals {
    /// Games won by each player.
    wins: [u32; 2],
    /// Moves in all games.
    moves: u64,
    /// Thinking time and moves per player.
    seconds: [f64; 2],
    moves_by: [u64; 2],
}

impl Totals {
    /// Counts a finished game.
    fn add(&mut self, rec: &Finished) {
        self.wins[rec.winner] += 1;
        self.moves += u64::from(rec.moves);
        for k in 0..2 {
            self.seconds[k] += rec.seconds[k];
            self.moves_by[k] += u64::from(rec.moves_by[k]);
        }
    }

    /// Player `k`'s mean thinking time a move (0 before any move).
    fn per_move(&self, k: usize) -> f64 {
        if self.moves_by[k] == 0 {
            0.0
        } else {
            self.seconds[k] / self.moves_by[k] as f64
        }
    }
}

/// A game's end, as written out.
struct GameEnd<'a> {
    /// The game's number (from 1).
    number: u32,
    /// The player who moved first (0 or 1).
    first: usize,
    rec: &'a Finished,
    /// Its moves, with `--json`.
    moves_json: Vec<serde_json::Value>,
    /// The quality of its final picture, when it was drawn.
    quality: Option<&'a sprouts_draw::PictureQuality>,
}

/// Writes a game's end: its JSON object (with its moves), or its text lines.
fn write_game_end(
    out: &mut impl Write,
    args: &SelfplayArgs,
    end: GameEnd<'_>,
) -> anyhow::Result<()> {
    let (g, rec) = (end.number, end.rec);
    if args.json {
        let mut line = json!({
            "game": g,
            "spots": args.spots,
            "misere": args.misere,
            "first": end.first + 1,
            "moves": end.moves_json,
            "length": rec.moves,
            "winner": rec.winner + 1,
        });
        if let Some(q) = end.quality {
            line["quality"] = json!(q);
        }
        writeln!(out, "{line}")?;
    } else {
        let names = [args.p1.as_str(), args.p2.as_str()];
        writeln!(
            out,
            "# game {g}: p{} ({}) wins after {} moves",
            rec.winner + 1,
            names[rec.winner],
            rec.moves
        )?;
        if let Some(q) = end.quality {
            writeln!(out, "# game {g} final picture: {q}")?;
        }
    }
    Ok(())
}

/// Writes the run's summary: one JSON object, or text lines.
fn write_summary(
    out: &mut impl Write,
    args: &SelfplayArgs,
    totals: &Totals,
    draw: &DrawTally,
    quality: &QualityTally,
) -> anyhow::Result<()> {
    let names = [args.p1.as_str(), args.p2.as_str()];
    let wins = totals.wins;
    let mean_moves = totals.moves as f64 / f64::from(args.games);
    if args.json {
        let line = json!({
            "summary": true,
            "players": names,
            "spots": args.spots,
            "misere": args.misere,
            "games": args.games,
            "wins": wins,
            "mean_moves": mean_moves,
            "mean_seconds_per_move": [totals.per_move(0), totals.per_move(1)],
        });
        let mut line = line;
        if args.draw {
            line["games_drawn_to_end"] = json!(draw.to_end);
            line["moves_drawn"] = json!(draw.drawn);
            line["moves_refused"] = json!(draw.refused);
            line["wrong_positions"] = json!(draw.wrong);
            line["moves_drawn_as_equivalent"] = json!(draw.equivalent);
            line["moves_drawn_by_ladder_step_2"] = json!(draw.step_two);
            line["games_drawn_without_equivalent"] = json!(draw.to_end_without_equivalent);
            line["moves_drawn_by_rung"] = json!(draw.by_rung);
            if args.fresh || args.room.fresh || args.room.smaller {
                line["moves_drawn_fresh"] = json!(draw.fresh);
                line["games_drawn_without_fresh"] = json!(draw.to_end_without_fresh);
            }
            line["quality"] = quality.json();
        }
        writeln!(out, "{line}")?;
        return Ok(());
    }
    writeln!(
        out,
        "# {} games: p1 ({}) won {}, p2 ({}) won {}; {:.1} moves a game; {:.4} s and {:.4} s a move",
        args.games,
        names[0],
        wins[0],
        names[1],
        wins[1],
        mean_moves,
        totals.per_move(0),
        totals.per_move(1)
    )?;
    if args.draw {
        writeln!(
            out,
            "# drawn: {} of {} games to the end ({} without an equivalent move), {} moves drawn ({} as an equivalent), {} refused, {} wrong positions",
            draw.to_end,
            args.games,
            draw.to_end_without_equivalent,
            draw.drawn,
            draw.equivalent,
            draw.refused,
            draw.wrong
        )?;
        let rungs: Vec<String> = draw
            .by_rung
            .iter()
            .map(|(name, n)| format!("{name} {n}"))
            .collect();
        writeln!(out, "# ladder rungs used: {}", rungs.join(", "))?;
        if args.fresh || args.room.fresh || args.room.smaller {
            writeln!(
                out,
                "# drawn afresh: {} moves; {} games drawn to the end without a fresh layout",
                draw.fresh, draw.to_end_without_fresh
            )?;
        }
        writeln!(out, "{}", quality.line())?;
    }
    Ok(())
}
