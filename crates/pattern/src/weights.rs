//! The weights file: a 40-byte header, then little-endian `i16` weights.
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | magic `OTHPATW\0` |
//! | 8..12 | format version (`u32`, 1) |
//! | 12..16 | pattern-set id (`u32`, [`PATTERN_SET_ID`]; files of set 1 are read too) |
//! | 16..20 | phases (`u32`, 1 to 61; phase of `e` empties = `e * phases / 61`) |
//! | 20..24 | score scale (`u32`, weight units per disc, 1 to 10000) |
//! | 24..32 | weight count (`u64`, `phases * weights per phase`) |
//! | 32..40 | checksum (`u64`, FNV-1a 64 of the weight bytes) |
//! | 40.. | weights, phase by phase, `i16` little-endian |
//!
//! All integers are little-endian. Any mismatch is a [`WeightsError`] naming the field.
//!
//! A file of set 1 (the patterns and mobility without the global features) loads as set 2
//! with zero global tables, so it scores exactly as before; files are written as set 2.

use crate::set::{PATTERN_SET_1, PATTERN_SET_ID};
use std::path::Path;

/// The file's first eight bytes.
pub const MAGIC: [u8; 8] = *b"OTHPATW\0";
/// The format version this crate reads and writes.
pub const FORMAT_VERSION: u32 = 1;
/// Header length in bytes.
pub const HEADER_LEN: usize = 40;
/// The most phases a file may have (one per number of empties, 0 to 60).
pub const MAX_PHASES: u32 = 61;

/// Why a weights file was refused.
#[derive(Debug, thiserror::Error)]
pub enum WeightsError {
    /// The file could not be read.
    #[error("cannot read weights file {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The cause.
        source: std::io::Error,
    },
    /// Shorter than the header.
    #[error("weights file too short: {len} bytes, the header alone is {HEADER_LEN}")]
    TooShort {
        /// Bytes found.
        len: usize,
    },
    /// Not a weights file.
    #[error("not a pattern weights file: bad magic {found:02x?}")]
    BadMagic {
        /// The first eight bytes.
        found: [u8; 8],
    },
    /// A format version this crate does not read.
    #[error("unsupported weights format version {found} (this build reads {FORMAT_VERSION})")]
    Version {
        /// The version in the file.
        found: u32,
    },
    /// Weights for another pattern set.
    #[error("weights are for pattern set {found}, this build reads sets {PATTERN_SET_1} and {PATTERN_SET_ID}")]
    PatternSet {
        /// The set in the file.
        found: u32,
    },
    /// Phases out of range.
    #[error("bad phase count {found} in weights file (expected 1 to {MAX_PHASES})")]
    Phases {
        /// The count in the file.
        found: u32,
    },
    /// Scale out of range.
    #[error("bad score scale {found} in weights file (expected 1 to 10000)")]
    Scale {
        /// The scale in the file.
        found: u32,
    },
    /// The weight count does not match the phases and the pattern set, or the file length.
    #[error("bad size: header says {header} weights, {phases} phases need {expected}, the file holds {found}")]
    Size {
        /// Count in the header.
        header: u64,
        /// Phases in the header.
        phases: u32,
        /// Count the phases need.
        expected: u64,
        /// Count the file's length holds.
        found: u64,
    },
    /// The weights are corrupt.
    #[error("checksum mismatch: header says {expected:#018x}, weights hash to {found:#018x}")]
    Checksum {
        /// In the header.
        expected: u64,
        /// Computed.
        found: u64,
    },
    /// Building weights in memory with the wrong number of values.
    #[error("expected {expected} weights for {phases} phases, got {found}")]
    Count {
        /// Phases asked.
        phases: u32,
        /// Values needed.
        expected: usize,
        /// Values given.
        found: usize,
    },
}

/// FNV-1a, 64 bits.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The weights of every phase of the pattern evaluation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    phases: u32,
    scale: u32,
    values: Vec<i16>,
}

impl Weights {
    /// Weights from values in memory (`phases * per_phase` of them, phase by phase; `scale`
    /// units per disc).
    ///
    /// # Errors
    /// [`WeightsError::Phases`], [`WeightsError::Scale`] or [`WeightsError::Count`].
    pub fn new(phases: u32, scale: u32, values: Vec<i16>) -> Result<Weights, WeightsError> {
        check_header_values(phases, scale)?;
        let expected = phases as usize * per_phase();
        if values.len() != expected {
            return Err(WeightsError::Count {
                phases,
                expected,
                found: values.len(),
            });
        }
        Ok(Weights { phases, scale, values })
    }

    /// All-zero weights.
    pub fn zero(phases: u32, scale: u32) -> Result<Weights, WeightsError> {
        Weights::new(phases, scale, vec![0; phases as usize * per_phase()])
    }

    /// Number of phases.
    pub fn phases(&self) -> u32 {
        self.phases
    }

    /// Weight units per disc.
    pub fn scale(&self) -> u32 {
        self.scale
    }

    /// Every weight, phase by phase.
    pub fn values(&self) -> &[i16] {
        &self.values
    }

    /// The phase of a position with `empties` empty squares (clamped to 60).
    pub fn phase_of(&self, empties: u32) -> u32 {
        empties.min(60) * self.phases / MAX_PHASES
    }

    /// Reads a file.
    ///
    /// # Errors
    /// [`WeightsError::Io`], or any error of [`Weights::from_bytes`].
    pub fn from_path(path: impl AsRef<Path>) -> Result<Weights, WeightsError> {
        let path = path.as_ref();
        let bytes = std::fs::read(path).map_err(|source| WeightsError::Io {
            path: path.display().to_string(),
            source,
        })?;
        Weights::from_bytes(&bytes)
    }

    /// Parses the file format.
    ///
    /// # Errors
    /// A [`WeightsError`] naming the first field that is wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<Weights, WeightsError> {
        if bytes.len() < HEADER_LEN {
            return Err(WeightsError::TooShort { len: bytes.len() });
        }
        let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().expect("4 bytes"));
        let u64_at = |i: usize| u64::from_le_bytes(bytes[i..i + 8].try_into().expect("8 bytes"));
        let magic: [u8; 8] = bytes[0..8].try_into().expect("8 bytes");
        if magic != MAGIC {
            return Err(WeightsError::BadMagic { found: magic });
        }
        let version = u32_at(8);
        if version != FORMAT_VERSION {
            return Err(WeightsError::Version { found: version });
        }
        let set = u32_at(12);
        let file_per_phase = match set {
            PATTERN_SET_ID => per_phase(),
            PATTERN_SET_1 => per_phase_set_1(),
            _ => return Err(WeightsError::PatternSet { found: set }),
        };
        let phases = u32_at(16);
        let scale = u32_at(20);
        check_header_values(phases, scale)?;
        let header = u64_at(24);
        let expected = u64::from(phases) * file_per_phase as u64;
        let payload = &bytes[HEADER_LEN..];
        let found = (payload.len() / 2) as u64;
        if header != expected || found != expected || !payload.len().is_multiple_of(2) {
            return Err(WeightsError::Size {
                header,
                phases,
                expected,
                found,
            });
        }
        let checksum = u64_at(32);
        let hash = fnv1a64(payload);
        if checksum != hash {
            return Err(WeightsError::Checksum {
                expected: checksum,
                found: hash,
            });
        }
        let read: Vec<i16> = payload
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        let values = if file_per_phase == per_phase() {
            read
        } else {
            // Set 1: each phase is set 2's without the global tables; they stay zero.
            let mut v = Vec::with_capacity(phases as usize * per_phase());
            for phase in read.chunks_exact(file_per_phase) {
                v.extend_from_slice(phase);
                v.resize(v.len() + (per_phase() - file_per_phase), 0);
            }
            v
        };
        Ok(Weights { phases, scale, values })
    }

    /// The file format.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut payload = Vec::with_capacity(self.values.len() * 2);
        for v in &self.values {
            payload.extend_from_slice(&v.to_le_bytes());
        }
        let mut out = Vec::with_capacity(HEADER_LEN + payload.len());
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&PATTERN_SET_ID.to_le_bytes());
        out.extend_from_slice(&self.phases.to_le_bytes());
        out.extend_from_slice(&self.scale.to_le_bytes());
        out.extend_from_slice(&(self.values.len() as u64).to_le_bytes());
        out.extend_from_slice(&fnv1a64(&payload).to_le_bytes());
        out.extend_from_slice(&payload);
        out
    }

    /// Writes the file format.
    ///
    /// # Errors
    /// The I/O error.
    pub fn write(&self, path: impl AsRef<Path>) -> std::io::Result<()> {
        std::fs::write(path, self.to_bytes())
    }
}

fn check_header_values(phases: u32, scale: u32) -> Result<(), WeightsError> {
    if !(1..=MAX_PHASES).contains(&phases) {
        return Err(WeightsError::Phases { found: phases });
    }
    if !(1..=10_000).contains(&scale) {
        return Err(WeightsError::Scale { found: scale });
    }
    Ok(())
}

/// Weights in one phase of this build's set (set 2; bias included).
pub fn per_phase() -> usize {
    crate::layout().per_phase
}

/// Weights in one phase of a set 1 file (set 2 without the global tables).
pub fn per_phase_set_1() -> usize {
    crate::layout().globals as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Weights {
        let n = 2 * per_phase();
        let values = (0..n).map(|i| (i as i64 * 7919 % 65536 - 32768) as i16).collect();
        Weights::new(2, 100, values).unwrap()
    }

    #[test]
    fn round_trips_bit_for_bit() {
        let w = sample();
        let bytes = w.to_bytes();
        assert_eq!(bytes.len(), HEADER_LEN + 2 * w.values().len());
        let back = Weights::from_bytes(&bytes).unwrap();
        assert_eq!(back, w);
        assert_eq!(back.to_bytes(), bytes);
        let path = std::env::temp_dir().join(format!("pattern-weights-{}.bin", std::process::id()));
        w.write(&path).unwrap();
        assert_eq!(Weights::from_path(&path).unwrap(), w);
        std::fs::remove_file(&path).unwrap();
        assert!(matches!(Weights::from_path(&path), Err(WeightsError::Io { .. })));
    }

    #[test]
    fn bad_files_name_what_is_wrong() {
        let good = sample().to_bytes();
        let set = |at: usize, v: &[u8]| {
            let mut b = good.clone();
            b[at..at + v.len()].copy_from_slice(v);
            b
        };
        let e = |b: &[u8]| Weights::from_bytes(b).unwrap_err();
        assert!(matches!(e(&good[..39]), WeightsError::TooShort { len: 39 }));
        // The header alone is long enough to be read: its count then disagrees with no weights.
        assert!(matches!(e(&good[..HEADER_LEN]), WeightsError::Size { found: 0, .. }));
        assert!(matches!(e(&set(0, b"X")), WeightsError::BadMagic { .. }));
        assert!(matches!(
            e(&set(8, &2u32.to_le_bytes())),
            WeightsError::Version { found: 2 }
        ));
        assert!(matches!(
            e(&set(12, &9u32.to_le_bytes())),
            WeightsError::PatternSet { found: 9 }
        ));
        assert!(matches!(
            e(&set(16, &0u32.to_le_bytes())),
            WeightsError::Phases { found: 0 }
        ));
        assert!(matches!(
            e(&set(16, &62u32.to_le_bytes())),
            WeightsError::Phases { found: 62 }
        ));
        assert!(matches!(
            e(&set(20, &0u32.to_le_bytes())),
            WeightsError::Scale { found: 0 }
        ));
        assert!(matches!(
            e(&set(20, &10_001u32.to_le_bytes())),
            WeightsError::Scale { .. }
        ));
        // Phases that disagree with the weight count, a count that disagrees, a cut file.
        assert!(matches!(e(&set(16, &3u32.to_le_bytes())), WeightsError::Size { .. }));
        assert!(matches!(e(&set(24, &5u64.to_le_bytes())), WeightsError::Size { .. }));
        assert!(matches!(e(&good[..good.len() - 2]), WeightsError::Size { .. }));
        assert!(matches!(e(&good[..good.len() - 1]), WeightsError::Size { .. }));
        let mut extra = good.clone();
        extra.extend_from_slice(&[0, 0]);
        assert!(matches!(e(&extra), WeightsError::Size { .. }));
        // One flipped bit in the weights or in the stored checksum.
        let mut flipped = good.clone();
        let last = flipped.len() - 1;
        flipped[last] ^= 1;
        assert!(matches!(e(&flipped), WeightsError::Checksum { .. }));
        assert!(matches!(e(&set(32, &[0])), WeightsError::Checksum { .. }));
        for err in [e(&set(0, b"X")), e(&flipped)] {
            assert!(!err.to_string().is_empty());
        }
    }

    /// A set 1 file: its own header (set id 1, count of set 1 weights) and phases without the
    /// global tables.
    fn set_1_file(phases: u32, values: &[i16]) -> Vec<u8> {
        let payload: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        let mut out = Vec::new();
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&PATTERN_SET_1.to_le_bytes());
        out.extend_from_slice(&phases.to_le_bytes());
        out.extend_from_slice(&100u32.to_le_bytes());
        out.extend_from_slice(&(values.len() as u64).to_le_bytes());
        out.extend_from_slice(&fnv1a64(&payload).to_le_bytes());
        out.extend_from_slice(&payload);
        out
    }

    #[test]
    fn set_1_files_load_with_zero_global_tables() {
        let (old, new) = (per_phase_set_1(), per_phase());
        assert_eq!(new - old, crate::set::GLOBAL_ENTRIES as usize);
        let values: Vec<i16> = (0..3 * old).map(|i| (i % 601) as i16 - 300).collect();
        let w = Weights::from_bytes(&set_1_file(3, &values)).unwrap();
        assert_eq!((w.phases(), w.scale(), w.values().len()), (3, 100, 3 * new));
        for (p, phase) in w.values().chunks_exact(new).enumerate() {
            assert_eq!(phase[..old], values[p * old..(p + 1) * old]);
            assert!(phase[old..].iter().all(|&v| v == 0));
        }
        // Written back as set 2, read again unchanged.
        let bytes = w.to_bytes();
        assert_eq!(u32::from_le_bytes(bytes[12..16].try_into().unwrap()), PATTERN_SET_ID);
        assert_eq!(Weights::from_bytes(&bytes).unwrap(), w);
        // A set 1 header over set 2's count, or set 2's over set 1's: wrong size.
        let mut wrong = set_1_file(3, &values);
        wrong[12..16].copy_from_slice(&PATTERN_SET_ID.to_le_bytes());
        assert!(matches!(Weights::from_bytes(&wrong), Err(WeightsError::Size { .. })));
        let mut wrong = Weights::zero(1, 100).unwrap().to_bytes();
        wrong[12..16].copy_from_slice(&PATTERN_SET_1.to_le_bytes());
        assert!(matches!(Weights::from_bytes(&wrong), Err(WeightsError::Size { .. })));
        // A set 1 file one weight short.
        let cut = set_1_file(3, &values[..3 * old - 1]);
        assert!(matches!(Weights::from_bytes(&cut), Err(WeightsError::Size { .. })));
    }

    #[test]
    fn in_memory_checks_and_phases() {
        assert!(matches!(
            Weights::new(1, 100, vec![0; 3]),
            Err(WeightsError::Count { .. })
        ));
        assert!(matches!(Weights::zero(0, 100), Err(WeightsError::Phases { .. })));
        assert!(matches!(Weights::zero(1, 0), Err(WeightsError::Scale { .. })));
        let w = Weights::zero(7, 250).unwrap();
        assert_eq!((w.phases(), w.scale()), (7, 250));
        let back = Weights::from_bytes(&w.to_bytes()).unwrap();
        assert_eq!((back.phases(), back.scale()), (7, 250));
        let w = Weights::zero(61, 1).unwrap();
        assert!((0..=60).all(|e| w.phase_of(e) == e));
        assert_eq!(w.phase_of(64), 60);
        let w = Weights::zero(12, 100).unwrap();
        assert_eq!(
            (w.phase_of(0), w.phase_of(5), w.phase_of(6), w.phase_of(60)),
            (0, 0, 1, 11)
        );
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
    }
}
