//! Build identity for `othello --version`: the package version, the git commit when git and a
//! repository are there at build time ("unknown" otherwise), and a hash of the build inputs (the
//! workspace's sources and manifests, the lock file, the compiler and the profile). Two binaries
//! with the same identity were built from the same inputs; tools that merge results from several
//! runs (the distributed runner) refuse to mix identities.

use std::path::{Path, PathBuf};
use std::process::Command;

/// FNV-1a, 64 bits, run twice with different offsets for a 128-bit fingerprint. Not a
/// cryptographic hash: it names builds, it does not defend against forgery.
struct Fnv([u64; 2]);

impl Fnv {
    fn new() -> Fnv {
        Fnv([0xcbf2_9ce4_8422_2325, 0x6c62_272e_07bb_0142])
    }
    fn write(&mut self, bytes: &[u8]) {
        for h in &mut self.0 {
            for &b in bytes {
                *h ^= b as u64;
                *h = h.wrapping_mul(0x0000_0100_0000_01b3);
            }
        }
    }
    /// A field: its length first, so concatenations cannot collide.
    fn field(&mut self, bytes: &[u8]) {
        self.write(&(bytes.len() as u64).to_le_bytes());
        self.write(bytes);
    }
    fn hex(&self) -> String {
        format!("{:016x}{:016x}", self.0[0], self.0[1])
    }
}

/// Every file below `dir` (skipping `target` and hidden entries), sorted.
fn files_below(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let path = e.path();
        let name = e.file_name();
        let name = name.to_string_lossy();
        if name.starts_with('.') || name == "target" {
            continue;
        }
        match e.file_type() {
            Ok(t) if t.is_dir() => files_below(&path, out),
            Ok(t) if t.is_file() => out.push(path),
            _ => {}
        }
    }
}

fn git(root: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git").arg("-C").arg(root).args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let s = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (!s.is_empty()).then_some(s)
}

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    // The workspace root when built inside the workspace; the package alone otherwise.
    let workspace = manifest.join("../..");
    let inside = workspace.join("Cargo.toml").is_file() && workspace.join("crates").is_dir();
    let roots: Vec<PathBuf> = if inside {
        vec![workspace.join("crates"), manifest.clone()]
    } else {
        vec![manifest.clone()]
    };
    let mut files = Vec::new();
    for r in &roots {
        println!("cargo:rerun-if-changed={}", r.display());
        files_below(r, &mut files);
    }
    if inside {
        for f in ["Cargo.toml", "Cargo.lock"] {
            let p = workspace.join(f);
            println!("cargo:rerun-if-changed={}", p.display());
            files.push(p);
        }
    }
    let base = if inside { &workspace } else { &manifest };
    let mut keyed: Vec<(String, PathBuf)> = files
        .into_iter()
        .map(|p| {
            (
                p.strip_prefix(base).unwrap_or(&p).to_string_lossy().replace('\\', "/"),
                p,
            )
        })
        .collect();
    keyed.sort();
    keyed.dedup();

    let mut h = Fnv::new();
    for (name, path) in &keyed {
        h.field(name.as_bytes());
        h.field(&std::fs::read(path).unwrap_or_default());
    }
    // The compiler and the build settings shape the binary too.
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let rustc_version = Command::new(&rustc)
        .arg("-vV")
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default();
    h.field(rustc_version.as_bytes());
    for var in [
        "TARGET",
        "PROFILE",
        "OPT_LEVEL",
        "DEBUG",
        "CARGO_ENCODED_RUSTFLAGS",
        "CARGO_CFG_TARGET_FEATURE",
    ] {
        println!("cargo:rerun-if-env-changed={var}");
        h.field(std::env::var(var).unwrap_or_default().as_bytes());
    }

    let commit = git(&manifest, &["rev-parse", "--short=12", "HEAD"]).map(|c| {
        // Dirty: uncommitted changes to the hashed inputs (other files do not shape the binary).
        let dirty = inside
            && git(
                &workspace,
                &[
                    "status",
                    "--porcelain",
                    "--untracked-files=no",
                    "--",
                    "crates",
                    "tools/othello",
                    "Cargo.toml",
                    "Cargo.lock",
                ],
            )
            .is_some();
        if dirty { format!("{c}-dirty") } else { c }
    });
    // Rerun when HEAD moves (a commit or a checkout), where git says those files are.
    for p in ["HEAD", "packed-refs"] {
        if let Some(path) = git(&manifest, &["rev-parse", "--git-path", p]) {
            let path = manifest.join(path);
            if path.exists() {
                println!("cargo:rerun-if-changed={}", path.display());
            }
        }
    }
    if let Some(r) = git(&manifest, &["symbolic-ref", "-q", "HEAD"])
        && let Some(path) = git(&manifest, &["rev-parse", "--git-path", &r])
    {
        let path = manifest.join(path);
        if path.exists() {
            println!("cargo:rerun-if-changed={}", path.display());
        }
    }
    println!(
        "cargo:rustc-env=OTHELLO_BUILD_COMMIT={}",
        commit.as_deref().unwrap_or("unknown")
    );
    println!("cargo:rustc-env=OTHELLO_BUILD_INPUTS={}", h.hex());
}
