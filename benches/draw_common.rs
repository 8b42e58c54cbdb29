//! The game in the middle shared by the drawing benches (included by `draw_fresh` and
//! `draw_relax`): random moves from a fixed seed, each drawn by the bench's own drawer.

use sprouts_draw::Board;
use sprouts_topo::Move;

/// Plays `moves` random moves on `board`, a game of `n` seeds, each drawn by `draw`, and panics
/// naming the move `draw` refuses. The moves come from a small linear congruential generator
/// seeded by `n` (the benches need no rand dependency), so every run plays the same game.
pub(crate) fn play_random_moves(
    board: &mut Board,
    n: u32,
    moves: usize,
    mut draw: impl FnMut(&mut Board, &Move) -> Result<(), String>,
) {
    let mut s: u64 = 0x5eed ^ u64::from(n);
    for k in 0..moves {
        let pos = board.position().clone();
        let all: Vec<_> = pos.moves().take(4096).collect();
        assert!(!all.is_empty(), "the game lasts {moves} moves");
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let mv = &all[((s >> 33) as usize) % all.len()];
        draw(board, mv).unwrap_or_else(|e| panic!("move {k}: {e}"));
    }
}
