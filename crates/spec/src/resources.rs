//! The machine limits a spec's `threads` and `tt` keys are checked against (and the command
//! line's `--threads` and `--hash`, which mean the same): a thread count of 1 to
//! [`MAX_THREADS`], and a table that fits in the memory available, so that a table too large
//! for the machine is refused before an aborted allocation or a process killed later while the
//! table is touched.

/// The most threads a spec (or a command) accepts.
pub const MAX_THREADS: usize = 256;

/// The cap on a table size where the available memory cannot be read (not Linux).
pub const FALLBACK_MAX_TABLE_MIB: usize = 4096;

/// Whether a thread count is 1 to [`MAX_THREADS`]; the reason when it is not.
///
/// # Errors
/// What the value should be (`expected 1 to 256`).
pub fn threads_ok(threads: usize) -> Result<usize, String> {
    if threads == 0 || threads > MAX_THREADS {
        return Err(format!("expected 1 to {MAX_THREADS}"));
    }
    Ok(threads)
}

/// Memory available for new allocations in MiB: `MemAvailable` of `/proc/meminfo` on Linux,
/// `None` where it cannot be read.
pub fn available_mib() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    parse_mem_available(&text)
}

/// `MemAvailable` of a `/proc/meminfo` text, in MiB.
pub fn parse_mem_available(meminfo: &str) -> Option<usize> {
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let mut words = line.split_whitespace().skip(1);
    let value: usize = words.next()?.parse().ok()?;
    match words.next() {
        Some("kB") | None => Some(value / 1024),
        _ => None,
    }
}

/// Whether a table size in MiB fits in the memory available ([`available_mib`]); the reason
/// when it does not.
///
/// # Errors
/// The size and the memory available.
pub fn hash_ok(mib: usize) -> Result<usize, String> {
    hash_ok_within(mib, available_mib())
}

/// [`hash_ok`] against a given amount of available memory (`None`: unknown, then the size is
/// capped at [`FALLBACK_MAX_TABLE_MIB`]).
///
/// # Errors
/// The size and the limit.
pub fn hash_ok_within(mib: usize, available: Option<usize>) -> Result<usize, String> {
    match available {
        Some(avail) if mib > avail => Err(format!("more than the memory available ({avail} MiB)")),
        None if mib > FALLBACK_MAX_TABLE_MIB => Err(format!("at most {FALLBACK_MAX_TABLE_MIB} MiB")),
        _ => Ok(mib),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_sizes_are_checked_against_the_memory() {
        let meminfo = "MemTotal:       24000000 kB\nMemFree:  100 kB\nMemAvailable:    2097152 kB\n";
        assert_eq!(parse_mem_available(meminfo), Some(2048));
        assert_eq!(parse_mem_available("MemTotal: 1 kB\n"), None);
        assert_eq!(parse_mem_available("MemAvailable: 2048 MB\n"), None);
        assert_eq!(parse_mem_available("MemAvailable: 2097152\n"), Some(2048));
        assert_eq!(hash_ok_within(2048, Some(2048)), Ok(2048));
        assert!(hash_ok_within(2049, Some(2048)).unwrap_err().contains("2048 MiB"));
        assert!(hash_ok_within(FALLBACK_MAX_TABLE_MIB, None).is_ok());
        assert!(hash_ok_within(FALLBACK_MAX_TABLE_MIB + 1, None).is_err());
        assert!(hash_ok(usize::MAX).is_err());
    }

    #[test]
    fn thread_counts_are_one_to_the_maximum() {
        assert_eq!(threads_ok(0), Err("expected 1 to 256".to_string()));
        assert_eq!(threads_ok(1), Ok(1));
        assert_eq!(threads_ok(MAX_THREADS), Ok(MAX_THREADS));
        assert!(threads_ok(MAX_THREADS + 1).is_err());
    }
}
