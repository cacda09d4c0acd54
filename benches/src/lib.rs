//! Shared pieces of the criterion benchmarks in `benches/`: a measurement of the benchmark
//! thread's CPU time, for a machine shared with other work, where wall-clock time also counts
//! the time the thread waits for a core; and the harness of the per-call evaluation benches
//! (`eval`, `pattern`): their position set, a benchmark that asserts the sum of the scores,
//! and the CPU-time criterion configuration.

use criterion::measurement::{Measurement, ValueFormatter};
use criterion::{BenchmarkGroup, Criterion, Throughput};
use othello_rules::Position;
use othello_rules::hash::mix64;
use std::hint::black_box;
use std::time::Duration;

/// `n` 8x8 positions from random play driven by a counter-based generator (no dependence on a
/// random-number crate's algorithm), plies 0..=59 spread evenly (so every phase of the game);
/// finished games are kept.
pub fn spread_positions(n: usize) -> Vec<Position> {
    let mut out = Vec::with_capacity(n);
    let mut k = 0u64;
    while out.len() < n {
        let plies = out.len() % 60;
        let mut pos = Position::start();
        for _ in 0..plies {
            let moves = pos.moves();
            if moves.is_empty() {
                break;
            }
            k += 1;
            pos = pos.play_unchecked(moves[(mix64(k) % moves.len() as u64) as usize]);
        }
        out.push(pos);
    }
    out
}

/// Benchmarks `eval` over `positions` in order, asserting each time that the scores sum to
/// `want`, so a fast wrong answer cannot pass.
pub fn bench_scores<M: Measurement>(
    g: &mut BenchmarkGroup<'_, M>,
    name: &str,
    positions: &[Position],
    want: i64,
    eval: impl Fn(&Position) -> i32,
) {
    g.bench_function(name, |b| {
        b.iter(|| {
            let s: i64 = positions.iter().map(|p| i64::from(eval(black_box(p)))).sum();
            assert_eq!(s, want, "{name}");
        })
    });
}

/// The criterion configuration of the CPU-time group of a per-call bench: time per element
/// by the thread's CPU clock, 20 samples of 4 s.
pub fn cpu_criterion() -> Criterion<ThreadCpu> {
    Criterion::default()
        .with_measurement(ThreadCpu(Rate::TimePerElement))
        .sample_size(20)
        .measurement_time(Duration::from_secs(4))
}

/// Nanoseconds the calling thread has run (Linux `/proc/thread-self/schedstat`; `None`
/// elsewhere). Updated at least every scheduler tick, so keep samples long (hundreds of ms).
pub fn thread_cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

/// How a throughput is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rate {
    /// Nanoseconds per element (for cheap calls such as an evaluation).
    TimePerElement,
    /// Elements per second (for playouts, nodes).
    ElementsPerSecond,
}

/// Criterion measurement: CPU time of the benchmark thread, in nanoseconds.
#[derive(Clone, Copy, Debug)]
pub struct ThreadCpu(pub Rate);

impl Measurement for ThreadCpu {
    type Intermediate = u64;
    type Value = u64;
    fn start(&self) -> u64 {
        thread_cpu_ns().unwrap_or(0)
    }
    fn end(&self, start: u64) -> u64 {
        thread_cpu_ns().unwrap_or(0).saturating_sub(start)
    }
    fn add(&self, a: &u64, b: &u64) -> u64 {
        a + b
    }
    fn zero(&self) -> u64 {
        0
    }
    fn to_f64(&self, v: &u64) -> f64 {
        *v as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        match self.0 {
            Rate::TimePerElement => &PER_ELEMENT,
            Rate::ElementsPerSecond => &PER_SECOND,
        }
    }
}

static PER_ELEMENT: Nanos = Nanos(Rate::TimePerElement);
static PER_SECOND: Nanos = Nanos(Rate::ElementsPerSecond);

/// Prints nanosecond values with a readable unit.
struct Nanos(Rate);

impl ValueFormatter for Nanos {
    fn scale_values(&self, typical: f64, values: &mut [f64]) -> &'static str {
        let (factor, unit) = match typical {
            t if t < 1e3 => (1.0, "ns"),
            t if t < 1e6 => (1e-3, "µs"),
            t if t < 1e9 => (1e-6, "ms"),
            _ => (1e-9, "s"),
        };
        values.iter_mut().for_each(|v| *v *= factor);
        unit
    }
    fn scale_throughputs(&self, typical: f64, throughput: &Throughput, values: &mut [f64]) -> &'static str {
        let per = match *throughput {
            Throughput::Bytes(n) | Throughput::BytesDecimal(n) | Throughput::Elements(n) => n as f64,
        };
        match self.0 {
            Rate::TimePerElement => {
                // Nanoseconds per batch to nanoseconds per element.
                values.iter_mut().for_each(|v| *v /= per);
                "ns/elem"
            }
            Rate::ElementsPerSecond => {
                let (div, unit) = match per * 1e9 / typical {
                    r if r < 1e3 => (1.0, "elem/s"),
                    r if r < 1e6 => (1e3, "Kelem/s"),
                    _ => (1e6, "Melem/s"),
                };
                values.iter_mut().for_each(|v| *v = per * 1e9 / *v / div);
                unit
            }
        }
    }
    fn scale_for_machines(&self, _values: &mut [f64]) -> &'static str {
        "ns"
    }
}

/// The `main` of a per-call bench measured twice: `$bench(c, $wall_name)` by wall time with
/// criterion's defaults, then `$bench(c, $cpu_name)` by the thread's CPU clock
/// ([`cpu_criterion`]) where that clock exists.
#[macro_export]
macro_rules! wall_and_cpu_main {
    ($bench:path, $wall_name:expr, $cpu_name:expr) => {
        fn wall(c: &mut criterion::Criterion<criterion::measurement::WallTime>) {
            $bench(c, $wall_name);
        }

        fn cpu(c: &mut criterion::Criterion<$crate::ThreadCpu>) {
            if $crate::thread_cpu_ns().is_some() {
                $bench(c, $cpu_name);
            }
        }

        criterion::criterion_group!(wall_time, wall);
        criterion::criterion_group! {
            name = cpu_time;
            config = $crate::cpu_criterion();
            targets = cpu
        }
        criterion::criterion_main!(wall_time, cpu_time);
    };
}
