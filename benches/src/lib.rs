//! Shared pieces of the criterion benchmarks in `benches/`: a measurement of the benchmark
//! thread's CPU time, for a machine shared with other work, where wall-clock time also counts
//! the time the thread waits for a core.

use criterion::Throughput;
use criterion::measurement::{Measurement, ValueFormatter};

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
