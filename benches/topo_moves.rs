//! Move generation on positions from a 12-spot game (after 10, 20 and 30 moves), asserted then
//! timed: families, every move, the distinct moves, playing every distinct move, and the
//! solver's fast path (distinct children as canonical lands).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sprouts_topo::Position;

#[path = "topo_common.rs"]
mod topo_common;

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("topo_moves");
    group.throughput(Throughput::Elements(1));
    for case in &topo_common::CASES {
        let pos = topo_common::checked(case);
        let mut children = 0;
        pos.for_each_child_lands(|_| children += 1);
        assert_eq!(children, case.children, "{}", case.name);
        group.bench_function(format!("families/{}", case.name), |b| {
            b.iter(|| pos.families())
        });
        group.bench_function(format!("moves/{}", case.name), |b| {
            b.iter(|| pos.moves().count())
        });
        group.bench_function(format!("distinct_moves/{}", case.name), |b| {
            b.iter(|| pos.distinct_moves().count())
        });
        let mut child = Position::new(0);
        group.bench_function(format!("play_distinct/{}", case.name), |b| {
            b.iter(|| {
                let mut n = 0;
                for mv in pos.distinct_moves() {
                    pos.play_into(&mv, &mut child)
                        .expect("listed moves are legal");
                    n += child.region_count();
                }
                n
            })
        });
        group.bench_function(format!("children_lands/{}", case.name), |b| {
            b.iter(|| {
                let mut n = 0;
                pos.for_each_child_lands(|c| n += c.lands().count());
                n
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
