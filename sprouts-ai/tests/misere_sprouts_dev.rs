use sprouts_ai::Limits;
use sprouts_ai::misere_play::{MisereConfig, MisereSproutsSolver};
use sprouts_topo::Position;

#[test]
#[ignore]
fn dev_timing() {
    let a: u32 = std::env::var("TL")
        .map(|s| s.parse().unwrap())
        .unwrap_or(12);
    let b: u32 = std::env::var("STL")
        .map(|s| s.parse().unwrap())
        .unwrap_or(18);
    let max: u32 = std::env::var("MAXN")
        .map(|s| s.parse().unwrap())
        .unwrap_or(8);
    let solver = MisereSproutsSolver::with_config(MisereConfig {
        tree_lives: a,
        side_tree_lives: b,
    });
    let min: u32 = std::env::var("MINN")
        .map(|s| s.parse().unwrap())
        .unwrap_or(1);
    for n in min..=max {
        let secs: u64 = std::env::var("SECS")
            .map(|s| s.parse().unwrap())
            .unwrap_or(600);
        let s = solver.outcome(
            &Position::new(n),
            &Limits::time(std::time::Duration::from_secs(secs)),
        );
        eprintln!(
            "{n} {:?} {:.2}s nodes {} {:?}",
            s.value,
            s.elapsed.as_secs_f64(),
            s.nodes,
            solver.stats()
        );
    }
}
