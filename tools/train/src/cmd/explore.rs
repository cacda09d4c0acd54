//! `explore`: variants of the pattern model measured on the labelled phases.

use super::common::{Common, bad, read_labels};
use othello_train::{TrainResult, data, explore};
use std::time::Instant;

/// Options of `explore`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Exact labels to train on (repeat to concatenate files).
    #[arg(long, required = true)]
    labels: Vec<String>,
    /// Labels files scored in full (positions never trained on; repeatable).
    #[arg(long)]
    test: Vec<String>,
    /// A variant: `phases=15,margin=1,ridge=30,iter=150,prior=1,max=20,extra=pmob+qpar`
    /// (extras: pmob, frontier, qpar, rpar, stable, discs, mobpair, cmob, rpar2, qpar2, pmob2,
    /// and `pat:SQ.SQ...`, an extra pattern of 1-10 squares such as `pat:a1.b1.c1.a2.b2`, one
    /// table shared by its symmetric images; repeatable).
    #[arg(long, required = true)]
    variant: Vec<String>,
    /// Hold out every game whose number is a multiple of this.
    #[arg(long, default_value_t = 10)]
    test_every: u32,
    #[command(flatten)]
    common: Common,
}

/// Runs `explore`.
pub fn run(a: &Args) -> TrainResult<()> {
    let variants: Vec<explore::Variant> = a
        .variant
        .iter()
        .map(|v| explore::Variant::parse(v).map_err(|e| bad(format!("bad --variant {v:?}: {e}"))))
        .collect::<TrainResult<_>>()?;
    if a.test_every < 2 {
        return Err(bad(format!("bad --test-every {}: expected at least 2", a.test_every)));
    }
    let t = Instant::now();
    let on_bad = a.common.on_bad();
    let (rows, _) = data::rows(&read_labels(&a.labels, "exact", on_bad)?, a.test_every);
    let train = explore::Rows::new(&rows, false);
    drop(rows);
    let tests: Vec<explore::Rows> = a
        .test
        .iter()
        .map(|p| {
            let (rows, _) = data::rows(&read_labels(std::slice::from_ref(p), "exact", on_bad)?, 1);
            Ok(explore::Rows::new(&rows, true))
        })
        .collect::<TrainResult<_>>()?;
    let test_refs: Vec<&explore::Rows> = tests.iter().collect();
    eprintln!("explore: data read in {:.1} s", t.elapsed().as_secs_f64());
    for (v, text) in variants.iter().zip(&a.variant) {
        let t = Instant::now();
        let quiet = a.common.quiet;
        let r = explore::run(v, &train, &test_refs, |m| {
            if !quiet {
                eprintln!("{m}");
            }
        });
        let cpu = t.elapsed().as_secs_f64();
        let mut line = format!("variant {text}:");
        for (j, by_e) in r.iter().enumerate() {
            let name = if j == 0 {
                "held-out".to_string()
            } else {
                a.test[j - 1].clone()
            };
            let (n, rms) = explore::band_rms(by_e, 14, 20);
            let (_, rms_lo) = explore::band_rms(by_e, 0, 12);
            line += &format!(" | {name} 14-20 RMS {rms:.3} (n {n}; 0-12 {rms_lo:.3})");
        }
        println!("{line} | {cpu:.0} s");
    }
    Ok(())
}
