//! Misère octal games: how far the normal-play values carry, measured two ways.

use super::{GrundyTable, OctalCode, OctalGame, Rows};
use crate::impartial::{Convention, ImpartialGame, MisereSolver, Nimber, Outcome, OutcomeSolver};

/// What the normal-play values are worth in misère play, for one octal game, over every position
/// of 1 to `max_pins` pins (every multiset of rows) that has a move.
///
/// Two metrics that need not agree:
/// - *called correctly*: positions whose normal-play verdict (won when the nim sum of the row
///   values is not 0) is the misère outcome;
/// - *bot wins*: from every misère-won position, a bot that reads the values (it moves to a nim
///   sum of 0 when it can, and otherwise plays its first legal move) moves first against an exact
///   misère player; how many of these games it wins.
///
/// The exact player moves to a misère-lost position when there is one (else its first legal
/// move); its outcomes come from the canonical-tree machinery ([`MisereSolver`]) and are checked
/// against plain win/loss recursion on every position counted. As a control, the exact player
/// also plays every won start against itself, and must win them all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MisereFigures {
    /// The rules.
    pub code: OctalCode,
    /// The most pins of the positions counted.
    pub max_pins: u32,
    /// Positions of 1 to `max_pins` pins with a move.
    pub positions: usize,
    /// Positions whose normal-play verdict equals their misère outcome.
    pub called_correctly: usize,
    /// Positions won in misère play by the player to move: the starts of the games.
    pub won_starts: usize,
    /// Games the bot that reads the normal-play values wins, moving first from a won start.
    pub bot_wins: usize,
    /// Games the exact misère player wins, moving first from a won start (the control).
    pub exact_wins: usize,
    /// Positions where the trees' outcome differs from plain recursion (0 unless a bug).
    pub tree_disagreements: usize,
    /// Distinct canonical trees the store built.
    pub trees: usize,
}

impl MisereFigures {
    /// The share of positions called correctly, in percent.
    pub fn called_correctly_percent(&self) -> f64 {
        percent(self.called_correctly, self.positions)
    }

    /// The share of won starts the bot wins, in percent.
    pub fn bot_wins_percent(&self) -> f64 {
        percent(self.bot_wins, self.won_starts)
    }
}

fn percent(part: usize, whole: usize) -> f64 {
    match whole {
        0 => 0.0,
        _ => 100.0 * part as f64 / whole as f64,
    }
}

/// Measures [`MisereFigures`] for `code` over the positions of 1 to `max_pins` pins.
///
/// # Complexity
/// The positions are the partitions of up to `max_pins` (43,819 for 32 pins); each is decided
/// from the trees of its rows, whose number grows with the pins (Kayles: 277 trees for 24 pins,
/// 1,031 for 32; a few seconds in a release build).
pub fn misere_figures(code: &OctalCode, max_pins: u32) -> MisereFigures {
    let _span = tracing::info_span!("misere_figures", code = %code, max_pins).entered();
    let game = OctalGame::new(code.clone());
    let mut table = GrundyTable::new(code.clone());
    table.extend_to(max_pins as usize);
    let values = table.values();
    let mut exact = MisereSolver::new(game.clone());
    let mut plain = OutcomeSolver::new(game.clone(), Convention::Misere);
    let mut figures = MisereFigures {
        code: code.clone(),
        max_pins,
        positions: 0,
        called_correctly: 0,
        won_starts: 0,
        bot_wins: 0,
        exact_wins: 0,
        tree_disagreements: 0,
        trees: 0,
    };
    let mut children = Vec::new();
    for pins in 1..=max_pins {
        for position in Rows::with_pins(pins) {
            children.clear();
            game.children(&position, &mut children);
            if children.is_empty() {
                continue;
            }
            figures.positions += 1;
            let outcome = exact.outcome(&position);
            if outcome != plain.outcome(&position) {
                figures.tree_disagreements += 1;
            }
            if normal_verdict(values, &position) == outcome {
                figures.called_correctly += 1;
            }
            if outcome == Outcome::Win {
                figures.won_starts += 1;
                if first_player_wins(&game, &position, values, &mut exact, Player::NormalBot) {
                    figures.bot_wins += 1;
                }
                if first_player_wins(&game, &position, values, &mut exact, Player::Exact) {
                    figures.exact_wins += 1;
                }
            }
        }
    }
    figures.trees = exact.store().len();
    figures
}

/// The normal-play verdict of `position`: won when the nim sum of its rows' values is not 0.
fn normal_verdict(values: &[Nimber], position: &Rows) -> Outcome {
    let sum = position
        .lengths()
        .iter()
        .fold(Nimber::ZERO, |acc, &n| acc ^ values[n as usize]);
    Outcome::from_win(sum != Nimber::ZERO)
}

/// The player who moves first from a won start; the exact misère player always answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Player {
    /// Reads the normal-play values.
    NormalBot,
    /// Plays by the misère trees.
    Exact,
}

/// Plays `start` to the end, `first` against the exact player, in misère play (the player who
/// cannot move wins); whether `first` wins.
fn first_player_wins(
    game: &OctalGame,
    start: &Rows,
    values: &[Nimber],
    exact: &mut MisereSolver<OctalGame>,
    first: Player,
) -> bool {
    let mut position = start.clone();
    let mut first_to_move = true;
    let mut children = Vec::new();
    loop {
        children.clear();
        game.children(&position, &mut children);
        if children.is_empty() {
            return first_to_move;
        }
        let player = match first_to_move {
            true => first,
            false => Player::Exact,
        };
        let choice = match player {
            Player::NormalBot => children
                .iter()
                .position(|child| normal_verdict(values, child) == Outcome::Loss),
            Player::Exact => children
                .iter()
                .position(|child| exact.outcome(child) == Outcome::Loss),
        };
        position = children.swap_remove(choice.unwrap_or(0));
        first_to_move = !first_to_move;
    }
}
