//! The build identity printed by `othello --version` (set by the build script).

/// `VERSION (commit COMMIT, inputs HASH)`: the package version, the git commit at build time
/// ("unknown" without git; "-dirty" when the sources differed from it) and a 128-bit hash of
/// the build inputs (sources, manifests, lock file, compiler, profile).
pub const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("OTHELLO_BUILD_COMMIT"),
    ", inputs ",
    env!("OTHELLO_BUILD_INPUTS"),
    ")"
);
