//! The CPU clock, alone in its own test binary: it reads the process's CPU time, which other
//! tests running on other threads of the same process would add to.

use std::time::{Duration, Instant};

use sprouts_ai::{Clock, Limits};

#[test]
fn the_cpu_clock_counts_work_not_waiting() {
    let clock = Clock::cpu();
    assert!(clock.is_cpu() && !Clock::system().is_cpu());
    let start = clock.now();
    // Sleeping uses (almost) no CPU time ...
    std::thread::sleep(Duration::from_millis(200));
    let slept = clock.now() - start;
    assert!(
        slept < Duration::from_millis(100),
        "{slept:?} of CPU while asleep"
    );
    // ... and spinning uses it.
    let wall = Instant::now();
    let mut x = 0u64;
    while wall.elapsed() < Duration::from_millis(300) {
        x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(7));
    }
    let worked = clock.now() - start - slept;
    assert!(
        worked > Duration::from_millis(30),
        "{worked:?} of CPU while spinning"
    );
    // A deadline in CPU seconds is not reached by waiting.
    let limits = Limits::none()
        .with_clock(Clock::cpu())
        .with_time(Duration::from_secs(5));
    std::thread::sleep(Duration::from_millis(50));
    assert!(!limits.exceeded(0));
    assert!(
        Limits::none()
            .with_clock(Clock::cpu())
            .with_time(Duration::ZERO)
            .exceeded(0)
    );
}
