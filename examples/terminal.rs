//! Sprouts against the computer in a terminal, with `ratatui`: the picture of the game drawn on
//! a braille canvas (the spots, and the curves' Bézier pieces sampled to line segments), your
//! moves chosen from a list, a status line saying whose turn it is, the lives left and the
//! winner. The game is a drawn [`sprouts::Game`]: your move and the computer's are drawn by the
//! library's router and checked against the position.
//!
//! ```sh
//! cargo run --release --example terminal                  # 4 spots against montecarlo:100
//! cargo run --release --example terminal -- 5 perfect:2s  # 5 spots against the perfect player
//! ```
//!
//! Keys: ↑/↓ (or k/j) choose a move, Enter plays it, u undoes your last move (and the
//! computer's reply), n starts a new game, q quits.
//!
//! The app is a plain value ([`App`]) that takes key events and renders a frame, so the tests
//! at the bottom play it on ratatui's `TestBackend`. The computer thinks on the app's own
//! thread, which is fine for quick players; a frontend for slow ones runs
//! [`sprouts::Game::computer_job`] on another thread and keeps drawing meanwhile.

use anyhow::Context as _;
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind};
use ratatui::layout::{Constraint, Layout};
use ratatui::style::{Color, Style, Stylize};
use ratatui::symbols::Marker;
use ratatui::widgets::canvas::{Canvas, Context, Line, Points};
use ratatui::widgets::{Block, List, ListState, Paragraph, Wrap};
use ratatui::{DefaultTerminal, Frame};
use sprouts::ai::players::candidates;
use sprouts::draw::svg::lives_colour;
use sprouts::draw::{Board, Settings, WorldSize};
use sprouts::topo::Move;
use sprouts::{Game, GameError, HumanInput, Limits, Seat};

/// Line segments each Bézier piece of a curve is drawn with.
const SEGMENTS_PER_PIECE: usize = 12;

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let spots: u32 = match args.next() {
        Some(n) => n
            .parse()
            .with_context(|| format!("`{n}`: not a number of spots"))?,
        None => 4,
    };
    anyhow::ensure!(
        (1..=12).contains(&spots),
        "play with 1 to 12 spots, not {spots}"
    );
    let computer = args.next().unwrap_or_else(|| "montecarlo:100".to_owned());
    let mut app = App::new(spots, &computer)?;
    ratatui::run(|terminal| app.run(terminal))
}

/// The game on screen and what the person is choosing.
struct App {
    spots: u32,
    computer: String,
    /// Games started, which seeds the computer's choices of the next one.
    games: u64,
    game: Game,
    /// The person's moves in the position shown, as listed.
    moves: Vec<Move>,
    list: ListState,
    /// What happened last (a move, a refusal), for the status line.
    message: String,
    quit: bool,
}

impl App {
    /// A new game of `spots` spots: you move first, the computer `computer` (a player spec)
    /// second.
    fn new(spots: u32, computer: &str) -> anyhow::Result<App> {
        let mut app = App {
            spots,
            computer: computer.to_owned(),
            games: 1,
            game: new_game(spots, computer, 1)?,
            moves: Vec::new(),
            list: ListState::default(),
            message: String::new(),
            quit: false,
        };
        app.list_moves();
        Ok(app)
    }

    fn run(&mut self, terminal: &mut DefaultTerminal) -> anyhow::Result<()> {
        while !self.quit {
            terminal.draw(|frame| self.render(frame))?;
            if let Event::Key(key) = event::read()?
                && key.kind == KeyEventKind::Press
            {
                self.on_key(key);
            }
        }
        Ok(())
    }

    /// What a key does.
    fn on_key(&mut self, key: KeyEvent) {
        match key.code {
            KeyCode::Char('q') | KeyCode::Esc => self.quit = true,
            KeyCode::Up | KeyCode::Char('k') => self.list.select_previous(),
            KeyCode::Down | KeyCode::Char('j') => self.list.select_next(),
            KeyCode::Enter => self.play_selected(),
            KeyCode::Char('u') => {
                self.message = match self.game.undo_turn() {
                    Ok(steps) => format!("undid {} moves", steps.len()),
                    Err(e) => e.to_string(),
                };
                self.list_moves();
            }
            KeyCode::Char('n') => match new_game(self.spots, &self.computer, self.games + 1) {
                Ok(game) => {
                    self.game = game;
                    self.games += 1;
                    self.message = "new game".to_owned();
                    self.list_moves();
                }
                Err(e) => self.message = e.to_string(),
            },
            _ => {}
        }
    }

    /// Plays the chosen move, then the computer's reply.
    fn play_selected(&mut self) {
        let chosen = self
            .list
            .selected()
            .and_then(|i| self.moves.get(i))
            .cloned();
        if let Some(mv) = chosen.filter(|_| self.game.human_to_move()) {
            self.message = match self.game.play_human(HumanInput::Move(mv.clone())) {
                Ok(played) => format!("you: {}", played.words),
                Err(GameError::NotDrawn { .. }) => self.without_picture(&mv),
                Err(e) => e.to_string(),
            };
        }
        while self.game.computer_to_move() {
            let before = self.game.moves().len();
            match self.game.computer_step(&Limits::none()) {
                Ok(played) => self.message += &format!("; computer: {}", played.words),
                Err(GameError::NotDrawn { mv, .. }) => self.message = self.without_picture(&mv),
                Err(e) => self.message = e.to_string(),
            }
            if self.game.moves().len() == before {
                break;
            }
        }
        self.list_moves();
    }

    /// A move the router could not draw is played on without the picture.
    fn without_picture(&mut self, mv: &Move) -> String {
        self.game.drop_picture();
        match self.game.play_move(mv) {
            Ok(played) => format!(
                "{} could not be drawn: playing on without the picture",
                played.words
            ),
            Err(e) => e.to_string(),
        }
    }

    /// Lists the person's moves in the position now: one for each different game it leads
    /// to, in the order of the spots joined.
    fn list_moves(&mut self) {
        self.moves = if self.game.human_to_move() {
            let mut moves = candidates(self.game.position());
            moves.sort_by_key(|c| c.mv.spots());
            moves.into_iter().map(|c| c.mv).collect()
        } else {
            Vec::new()
        };
        self.list.select((!self.moves.is_empty()).then_some(0));
    }

    /// The status line: the winner, or whose turn it is; the lives left; the last message.
    fn status(&self) -> String {
        let state = match self.game.winner() {
            Some(0) => "You win!",
            Some(_) => "The computer wins.",
            None if self.game.human_to_move() => "Your move.",
            None => "The computer's move.",
        };
        let lives = match self.game.position().total_lives() {
            1 => "1 life".to_owned(),
            n => format!("{n} lives"),
        };
        let moves = self.game.moves().len();
        format!(
            "{state} {lives} left, {moves} moves played. {}",
            self.message
        )
    }

    fn render(&mut self, frame: &mut Frame) {
        let [main, status, keys] = Layout::vertical([
            Constraint::Min(5),
            Constraint::Length(2),
            Constraint::Length(1),
        ])
        .areas(frame.area());
        let [picture, list] =
            Layout::horizontal([Constraint::Percentage(65), Constraint::Percentage(35)])
                .areas(main);

        let title = format!(" Sprouts: you against {} ", self.computer);
        match self.game.board() {
            Some(board) => {
                let (x_bounds, y_bounds, dot) = bounds(board, picture.width, picture.height);
                let canvas = Canvas::default()
                    .block(Block::bordered().title(title))
                    .marker(Marker::Braille)
                    .x_bounds(x_bounds)
                    .y_bounds(y_bounds)
                    .paint(|ctx| paint(ctx, board, dot));
                frame.render_widget(canvas, picture);
            }
            None => frame.render_widget(
                Paragraph::new("(no picture)").block(Block::bordered().title(title)),
                picture,
            ),
        }

        let pos = self.game.position();
        let items: Vec<String> = self.moves.iter().map(|m| m.describe(pos)).collect();
        let moves = List::new(items)
            .block(Block::bordered().title(" Your moves "))
            .highlight_style(Style::new().reversed())
            .highlight_symbol("> ");
        frame.render_stateful_widget(moves, list, &mut self.list);

        let status_line = Paragraph::new(self.status())
            .bold()
            .wrap(Wrap { trim: true });
        frame.render_widget(status_line, status);
        frame.render_widget(
            Paragraph::new("↑/↓ choose · Enter play · u undo · n new game · q quit").dim(),
            keys,
        );
    }
}

/// A game of `spots` spots on a board, you in seat 0 and the computer `computer` (seeded with
/// `seed`) in seat 1.
fn new_game(spots: u32, computer: &str, seed: u64) -> anyhow::Result<Game> {
    let seats = [Seat::Human, Seat::computer(computer, seed)?];
    let world = WorldSize::new(900.0, 600.0);
    Ok(Game::drawn_spots(spots, world, Settings::default(), seats)?)
}

/// The canvas bounds showing the whole picture (the world and any curve reaching past it) in
/// an area of `width` by `height` cells, with the same scale across and down (a braille cell
/// is 2 dots wide and 4 high, and a terminal cell about twice as high as it is wide), and the
/// size of a dot in picture units.
fn bounds(board: &Board, width: u16, height: u16) -> ([f64; 2], [f64; 2], f64) {
    let world = board.drawing().world();
    let (mut x0, mut y0, mut x1, mut y1) = (0.0_f64, 0.0_f64, world.width, world.height);
    for curve in board.drawing().curves() {
        let (lo, hi) = curve.spline.control_bounds();
        (x0, y0, x1, y1) = (x0.min(lo.x), y0.min(lo.y), x1.max(hi.x), y1.max(hi.y));
    }
    let dots_x = f64::from(width.saturating_sub(2).max(1)) * 2.0;
    let dots_y = f64::from(height.saturating_sub(2).max(1)) * 4.0;
    let scale = ((x1 - x0) / dots_x).max((y1 - y0) / dots_y);
    let (cx, cy) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
    let (half_x, half_y) = (scale * dots_x / 2.0, scale * dots_y / 2.0);
    // The picture's y axis points down, the canvas's up: the y bounds are of -y.
    (
        [cx - half_x, cx + half_x],
        [-cy - half_y, -cy + half_y],
        scale,
    )
}

/// Draws the board: curves, then the spots (3 by 3 dots) coloured by lives, with their
/// numbers to their right; `dot` is the size of a braille dot in picture units.
fn paint(ctx: &mut Context, board: &Board, dot: f64) {
    let drawing = board.drawing();
    for curve in drawing.curves() {
        for piece in curve.spline.pieces() {
            let mut from = piece.bez.eval(0.0);
            for k in 1..=SEGMENTS_PER_PIECE {
                let to = piece.bez.eval(k as f64 / SEGMENTS_PER_PIECE as f64);
                ctx.draw(&Line::new(from.x, -from.y, to.x, -to.y, Color::Gray));
                from = to;
            }
        }
    }
    ctx.layer();
    for spot in drawing.spots() {
        let lives = board.position().lives(spot.id).map_or(0, |l| l.get());
        let colour = lives_colour(lives).parse().unwrap_or(Color::White);
        let (x, y) = (spot.centre.x, -spot.centre.y);
        let blob: Vec<(f64, f64)> = (0..9)
            .map(|k| {
                (
                    x + dot * f64::from(k % 3 - 1),
                    y + dot * f64::from(k / 3 - 1),
                )
            })
            .collect();
        ctx.draw(&Points::new(&blob, colour));
        ctx.print(x + 3.0 * dot, y, spot.id.to_string().fg(colour));
    }
}

#[cfg(test)]
mod tests {
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    use super::*;

    /// Renders the app on a test terminal and returns the screen's lines.
    fn screen(app: &mut App) -> Vec<String> {
        let mut terminal = Terminal::new(TestBackend::new(100, 30)).unwrap();
        terminal.draw(|frame| app.render(frame)).unwrap();
        let buffer = terminal.backend().buffer();
        let width = usize::from(buffer.area.width);
        buffer
            .content()
            .chunks(width)
            .map(|row| row.iter().map(|cell| cell.symbol()).collect())
            .collect()
    }

    fn press(app: &mut App, code: KeyCode) {
        app.on_key(KeyEvent::from(code));
    }

    fn braille_dots(lines: &[String]) -> usize {
        let braille = |c: char| ('\u{2801}'..='\u{28ff}').contains(&c);
        lines
            .iter()
            .flat_map(|l| l.chars())
            .filter(|&c| braille(c))
            .count()
    }

    #[test]
    fn the_screen_shows_the_status_the_moves_and_the_picture() {
        let mut app = App::new(3, "random").unwrap();
        let lines = screen(&mut app);
        let text = lines.join("\n");
        assert!(
            text.contains("Your move. 9 lives left, 0 moves played."),
            "{text}"
        );
        assert!(text.contains("you against random"), "{text}");
        // Three seeds give three different games: a loop round nothing, a loop round one
        // spot, a curve joining two spots. The first is selected.
        assert!(text.contains("│> 1 -> 1 enclosing nothing "), "{text}");
        assert!(text.contains("│  1 -> 1 enclosing 2 "), "{text}");
        assert!(text.contains("│  1 -> 2 "), "{text}");
        assert_eq!(app.moves.len(), 3);
        // The three spots are drawn (no curve yet), each with its number beside it.
        let dots_before = braille_dots(&lines);
        assert!(dots_before >= 3, "{text}");
        for label in ["1", "2", "3"] {
            let in_picture = |l: &String| l.chars().take(65).collect::<String>().contains(label);
            assert!(lines.iter().any(in_picture), "{label}: {text}");
        }
        // A move and the reply add two curves (each drawn with many dots).
        press(&mut app, KeyCode::Enter);
        let lines = screen(&mut app);
        assert_eq!(app.game.moves().len(), 2);
        assert!(
            braille_dots(&lines) > dots_before + 10,
            "{}",
            lines.join("\n")
        );
        assert!(
            lines
                .join("\n")
                .contains("you: 1 -> 1 enclosing nothing; computer: ")
        );
    }

    #[test]
    fn the_keys_choose_play_undo_start_again_and_quit() {
        let mut app = App::new(3, "random").unwrap();
        let second = app.game.position().play(&app.moves[1]).unwrap();
        press(&mut app, KeyCode::Down);
        press(&mut app, KeyCode::Enter);
        assert_eq!(app.game.moves().len(), 2, "the computer replied");
        // The move drawn is the second listed, or one giving the same game.
        let mut first_only = app.game.clone();
        first_only.undo().unwrap();
        assert!(first_only.position().same_game(&second));
        press(&mut app, KeyCode::Char('u'));
        assert_eq!(app.game.moves().len(), 0, "undo goes back to your move");
        assert!(
            screen(&mut app)
                .join("\n")
                .contains("Your move. 9 lives left, 0 moves played. undid 2 moves")
        );
        press(&mut app, KeyCode::Char('u'));
        assert!(
            screen(&mut app)
                .join("\n")
                .contains("there is nothing to undo")
        );
        press(&mut app, KeyCode::Enter);
        press(&mut app, KeyCode::Char('n'));
        assert_eq!(app.game.moves().len(), 0, "a new game");
        assert!(!app.quit);
        press(&mut app, KeyCode::Char('q'));
        assert!(app.quit);
    }

    #[test]
    fn a_whole_game_is_played_to_its_end_by_keys() {
        for spots in [2, 4] {
            let mut app = App::new(spots, "random").unwrap();
            // A game of n spots lasts at most 3n - 1 moves, half of them yours.
            for _ in 0..3 * spots {
                if app.game.is_over() {
                    break;
                }
                press(&mut app, KeyCode::Enter);
            }
            assert!(app.game.is_over(), "{}", screen(&mut app).join("\n"));
            let text = screen(&mut app).join("\n");
            let verdict = if app.game.winner() == Some(0) {
                "You win!"
            } else {
                "The computer wins."
            };
            assert!(text.contains(verdict), "{text}");
            assert!(text.contains(&format!("{} moves played", app.game.moves().len())));
            assert!(
                app.moves.is_empty(),
                "no move is listed once the game is over"
            );
            // Enter does nothing more once the game is over.
            let before = app.game.moves().len();
            press(&mut app, KeyCode::Enter);
            assert_eq!(app.game.moves().len(), before);
        }
    }
}
