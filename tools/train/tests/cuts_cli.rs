//! `othello-train cuts` through the binary: `--threads` writes the samples of one thread,
//! progress lines come every 20 positions unless `--quiet`, and a bad `--threads` exits 2
//! with a message naming it.

use std::process::{Command, Output};

fn train(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_othello-train"))
        .args(args)
        .output()
        .expect("the othello-train binary runs")
}

fn scratch(name: &str) -> String {
    std::env::temp_dir()
        .join(format!("othello-train-cuts-{name}-{}", std::process::id()))
        .to_string_lossy()
        .into_owned()
}

#[test]
fn cuts_threads_write_the_samples_of_one_thread() {
    let run = |threads: &str, quiet: bool| -> (String, String) {
        let (samples, out) = (
            scratch(&format!("s{threads}{quiet}.txt")),
            scratch(&format!("w{threads}{quiet}.bin")),
        );
        let _ = std::fs::remove_file(&samples);
        let mut args = vec![
            "cuts",
            "--out",
            &out,
            "--samples",
            &samples,
            "--games",
            "6",
            "--depth",
            "4",
        ];
        args.extend(["--stride", "7", "--threads", threads]);
        if quiet {
            args.push("--quiet");
        }
        let o = train(&args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let text = std::fs::read_to_string(&samples).unwrap();
        std::fs::remove_file(&samples).ok();
        std::fs::remove_file(&out).ok();
        (text, String::from_utf8_lossy(&o.stderr).into_owned())
    };
    let (one, err) = run("1", false);
    let samples = one.lines().skip(1).count();
    assert!(samples >= 20, "{samples} samples");
    // One progress line per 20 positions searched, and none with --quiet.
    let lines = err.lines().filter(|l| l.contains(" searched, ")).count();
    assert_eq!(lines, samples / 20, "{err}");
    assert!(err.contains("cuts: 20/"), "{err}");
    let (two, quiet) = run("2", true);
    assert_eq!(two, one);
    assert!(!quiet.contains(" searched, "), "{quiet}");
    for bad in ["0", "257", "x"] {
        let o = train(&["cuts", "--out", &scratch("bad.bin"), "--threads", bad]);
        assert_eq!(o.status.code(), Some(2), "--threads {bad}");
        assert!(
            String::from_utf8_lossy(&o.stderr).contains("--threads"),
            "--threads {bad}"
        );
    }
}
