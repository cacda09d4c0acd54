//! The weights file: a 40-byte header, little-endian `i16` weights, then tagged sections.
//!
//! Format version 2, byte by byte (all integers little-endian):
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | magic `OTHPATW\0` |
//! | 8..12 | format version (`u32`, 2; version 1 is read too) |
//! | 12..16 | pattern-set id (`u32`, [`PATTERN_SET_ID`]; files of set 1 are read too) |
//! | 16..20 | phases `P` (`u32`, 1 to 61; phase of `e` empties = `e * P / 61`) |
//! | 20..24 | score scale (`u32`, weight units per disc, 1 to 10000) |
//! | 24..32 | weight count `N` (`u64`, `P` times the weights per phase) |
//! | 32..40 | checksum (`u64`, FNV-1a 64 of bytes 0..32 then of every byte from 40 to the end) |
//! | 40..40+2N | weights, phase by phase, `i16` |
//! | then 4 bytes | section count `S` (`u32`) |
//! | then, `S` times | a section: tag (4 bytes), length `L` (`u64`), `L` bytes |
//!
//! The file ends with the last section's bytes. The checksum covers every byte of the file but
//! the checksum field itself: the header (a changed scale or phase count is a
//! [`WeightsError::Checksum`]), the weights and the sections. It is checked first, right after
//! the magic and the version, so any damaged byte is reported as a checksum mismatch; a file
//! whose checksum holds is then checked field by field. Tags are distinct; a section's bytes
//! are its owner's format (the tag `CUTS` holds the search's ProbCut cut table, read by the
//! eval crate). Sections with tags this build does not use are kept in memory and written
//! back, so a newer file's extra data survives a read and a write.
//!
//! Version 1 (read, never written) is the same header with version 1 and a checksum of the
//! weight bytes only; the file ends with the weights (no sections).
//!
//! Every file is also checked for tied weights: a pattern's table holds one weight per
//! configuration of its squares, and the configurations that are images of each other under
//! the pattern's own symmetries must hold the same weight ([`Layout::canonical`]), or the
//! evaluation would not be symmetric. The trainer writes them so; a file that breaks it is a
//! [`WeightsError::Untied`] naming the pattern, the phase and the configuration.
//!
//! Any mismatch is a [`WeightsError`] naming the field.
//!
//! A file of set 1 (the patterns and mobility without the global features) loads as set 2
//! with zero global tables, so it scores exactly as before; files are written as set 2.
//!
//! [`Layout::canonical`]: crate::set::Layout::canonical

use crate::set::{PATTERN_SET_1, PATTERN_SET_ID, PATTERNS};
use std::path::Path;
use std::sync::OnceLock;

/// The tag of the section holding the cut table of selective search
/// ([`othello_eval::CutTable`]'s file form), fitted for these weights (`othello-train cuts`).
/// [`Weights::from_bytes`] checks it; [`crate::PatternEval::new`] hands it to the search.
pub const CUTS_TAG: [u8; 4] = *b"CUTS";

/// The file's first eight bytes.
pub const MAGIC: [u8; 8] = *b"OTHPATW\0";
/// The format version this crate writes (it reads [`FORMAT_VERSION_1`] too).
pub const FORMAT_VERSION: u32 = 2;
/// The first format version: its checksum covers the weights only, and it has no sections.
pub const FORMAT_VERSION_1: u32 = 1;
/// Header length in bytes.
pub const HEADER_LEN: usize = 40;
/// Where the checksum is stored in the header.
pub const CHECKSUM_FIELD: std::ops::Range<usize> = 32..40;
/// The most phases a file may have (one per number of empties, 0 to 60).
pub const MAX_PHASES: u32 = 61;

/// A section's tag written for a reader: its text if it is printable ASCII, else its bytes.
fn tag_name(tag: &[u8; 4]) -> String {
    if tag.iter().all(|b| b.is_ascii_graphic() || *b == b' ') {
        format!("\"{}\"", String::from_utf8_lossy(tag))
    } else {
        format!("{tag:02x?}")
    }
}

/// The fields of the section table, named in [`WeightsError::SectionTruncated`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SectionField {
    /// The section count after the weights (`u32`).
    Count,
    /// A section's tag (4 bytes).
    Tag,
    /// A section's length (`u64`).
    Length,
}

impl SectionField {
    /// Its size in bytes.
    pub fn size(self) -> usize {
        match self {
            SectionField::Count | SectionField::Tag => 4,
            SectionField::Length => 8,
        }
    }
}

impl std::fmt::Display for SectionField {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            SectionField::Count => "section count",
            SectionField::Tag => "tag",
            SectionField::Length => "length",
        })
    }
}

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
    #[error("unsupported weights format version {found} (this build reads {FORMAT_VERSION_1} and {FORMAT_VERSION})")]
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
    #[error(
        "bad size: header says {header} weights, {phases} phases need {expected}, the bytes after the header hold {found}"
    )]
    Size {
        /// Count in the header.
        header: u64,
        /// Phases in the header.
        phases: u32,
        /// Count the phases need.
        expected: u64,
        /// Weights the bytes after the header hold (in version 1, where they are all weights,
        /// it must equal `expected`; in version 2, sections follow, so it must be at least that).
        found: u64,
    },
    /// The file is corrupt.
    #[error("checksum mismatch: header says {expected:#018x}, the file hashes to {found:#018x}")]
    Checksum {
        /// In the header.
        expected: u64,
        /// Computed.
        found: u64,
    },
    /// The section table ends inside a field.
    #[error("weights file truncated in the section table: section {index}'s {field} needs {} bytes, {left} left", .field.size())]
    SectionTruncated {
        /// The field cut.
        field: SectionField,
        /// The section it belongs to (0 for the section count).
        index: u32,
        /// Bytes left in the file where it starts.
        left: u64,
    },
    /// A section's length runs past the end of the file.
    #[error("section {index} ({}): length {length} runs past the end of the weights file ({left} bytes left)", tag_name(.tag))]
    SectionLength {
        /// The section's index.
        index: u32,
        /// Its tag.
        tag: [u8; 4],
        /// The length in the file.
        length: u64,
        /// Bytes left in the file after its length field.
        left: u64,
    },
    /// Two sections with the same tag.
    #[error("sections {first} and {second} have the same tag {}", tag_name(.tag))]
    DuplicateSection {
        /// The tag.
        tag: [u8; 4],
        /// The first section with it.
        first: u32,
        /// The second.
        second: u32,
    },
    /// Bytes after the last section.
    #[error("{bytes} bytes after the last of {sections} sections of the weights file")]
    Trailing {
        /// The section count.
        sections: u32,
        /// Bytes after the last section.
        bytes: u64,
    },
    /// Two configurations tied by the pattern's symmetry hold different weights.
    #[error(
        "untied weights: pattern {pattern}, phase {phase}: configuration {configuration} holds {value}, its symmetric image {tied_to} holds {tied_value}"
    )]
    Untied {
        /// The pattern's name ([`crate::set::Pattern::name`]).
        pattern: &'static str,
        /// The phase.
        phase: u32,
        /// The configuration within the pattern's table (base-3 digits over its squares in
        /// ascending order, square `k` weighing `3^k`: 0 empty, 1 side to move, 2 opponent).
        configuration: u32,
        /// Its weight.
        value: i16,
        /// The smallest configuration tied to it.
        tied_to: u32,
        /// That configuration's weight.
        tied_value: i16,
    },
    /// The `CUTS` section (the cut table of selective search) is not a cut table.
    #[error("bad cut table in section CUTS: {0}")]
    CutTable(othello_eval::CutTableError),
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
    fnv1a64_extend(0xcbf2_9ce4_8422_2325, bytes)
}

/// FNV-1a 64 continued over `bytes` from the state `h` (`fnv1a64(a ++ b)` is
/// `fnv1a64_extend(fnv1a64(a), b)`).
pub fn fnv1a64_extend(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The checksum that a weights file of its version stores (what the reader checks): in
/// version 2, FNV-1a 64 of every byte but the checksum field; in version 1, of the bytes
/// after the header. `None` if `file` is shorter than the header or of another version.
pub fn expected_checksum(file: &[u8]) -> Option<u64> {
    let version = u32::from_le_bytes(file.get(8..12)?.try_into().ok()?);
    let rest = file.get(HEADER_LEN..)?;
    match version {
        FORMAT_VERSION => Some(fnv1a64_extend(fnv1a64(&file[..CHECKSUM_FIELD.start]), rest)),
        FORMAT_VERSION_1 => Some(fnv1a64(rest)),
        _ => None,
    }
}

/// Tagged sections: tag and bytes, in file order.
type Sections = Vec<([u8; 4], Vec<u8>)>;

/// The weights of every phase of the pattern evaluation, and the file's tagged sections.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    phases: u32,
    scale: u32,
    values: Vec<i16>,
    /// In file order; tags distinct.
    sections: Sections,
}

impl Weights {
    /// Weights from values in memory (`phases * per_phase` of them, phase by phase; `scale`
    /// units per disc), without sections. The ties are not checked here (tests build untied
    /// weights on purpose); [`Weights::check_ties`] does, and a file of untied weights is
    /// refused when read.
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
        Ok(Weights {
            phases,
            scale,
            values,
            sections: Vec::new(),
        })
    }

    /// All-zero weights.
    ///
    /// # Errors
    /// [`WeightsError::Phases`] or [`WeightsError::Scale`].
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

    /// The bytes of the section tagged `tag`, if there is one.
    pub fn section(&self, tag: [u8; 4]) -> Option<&[u8]> {
        self.sections.iter().find(|(t, _)| *t == tag).map(|(_, b)| b.as_slice())
    }

    /// The same weights with the section `tag` holding `bytes`: a section of that tag is
    /// replaced where it stands, otherwise the section is added after the others.
    pub fn with_section(mut self, tag: [u8; 4], bytes: Vec<u8>) -> Weights {
        match self.sections.iter_mut().find(|(t, _)| *t == tag) {
            Some(s) => s.1 = bytes,
            None => self.sections.push((tag, bytes)),
        }
        self
    }

    /// Every section, tag and bytes, in file order (the tags are distinct).
    pub fn sections(&self) -> impl ExactSizeIterator<Item = ([u8; 4], &[u8])> + '_ {
        self.sections.iter().map(|(t, b)| (*t, b.as_slice()))
    }

    /// Checks that configurations tied by their pattern's symmetries hold the same weight
    /// (which every file must satisfy; see the module docs).
    ///
    /// # Errors
    /// [`WeightsError::Untied`] for the first phase and configuration that breaks it.
    pub fn check_ties(&self) -> Result<(), WeightsError> {
        check_ties(&self.values)
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

    /// Parses the file format (version 2, or version 1).
    ///
    /// # Errors
    /// A [`WeightsError`] naming the first field that is wrong; in a version 2 file a damaged
    /// byte anywhere is [`WeightsError::Checksum`].
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
        if version != FORMAT_VERSION && version != FORMAT_VERSION_1 {
            return Err(WeightsError::Version { found: version });
        }
        let stored = u64_at(CHECKSUM_FIELD.start);
        let checksum = || {
            let found = expected_checksum(bytes).expect("a known version, a whole header");
            if stored == found {
                Ok(())
            } else {
                Err(WeightsError::Checksum {
                    expected: stored,
                    found,
                })
            }
        };
        if version == FORMAT_VERSION {
            checksum()?;
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
        let after_header = &bytes[HEADER_LEN..];
        let found = (after_header.len() / 2) as u64;
        let whole = if version == FORMAT_VERSION {
            found >= expected
        } else {
            found == expected && after_header.len().is_multiple_of(2)
        };
        if header != expected || !whole {
            return Err(WeightsError::Size {
                header,
                phases,
                expected,
                found,
            });
        }
        let (payload, rest) = after_header.split_at(2 * expected as usize);
        let sections = if version == FORMAT_VERSION {
            read_sections(rest)?
        } else {
            checksum()?;
            Vec::new()
        };
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
        check_ties(&values)?;
        if let Some((_, bytes)) = sections.iter().find(|(tag, _)| *tag == CUTS_TAG) {
            othello_eval::CutTable::from_bytes(bytes).map_err(WeightsError::CutTable)?;
        }
        Ok(Weights {
            phases,
            scale,
            values,
            sections,
        })
    }

    /// The file format (version 2).
    pub fn to_bytes(&self) -> Vec<u8> {
        let sections: usize = self.sections.iter().map(|(_, b)| 12 + b.len()).sum();
        let mut out = Vec::with_capacity(HEADER_LEN + 2 * self.values.len() + 4 + sections);
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&PATTERN_SET_ID.to_le_bytes());
        out.extend_from_slice(&self.phases.to_le_bytes());
        out.extend_from_slice(&self.scale.to_le_bytes());
        out.extend_from_slice(&(self.values.len() as u64).to_le_bytes());
        out.extend_from_slice(&[0; 8]);
        for v in &self.values {
            out.extend_from_slice(&v.to_le_bytes());
        }
        let count = u32::try_from(self.sections.len()).expect("fewer than 2^32 sections");
        out.extend_from_slice(&count.to_le_bytes());
        for (tag, bytes) in &self.sections {
            out.extend_from_slice(tag);
            out.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
            out.extend_from_slice(bytes);
        }
        let sum = expected_checksum(&out).expect("a version 2 header");
        out[CHECKSUM_FIELD].copy_from_slice(&sum.to_le_bytes());
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

/// The section table that follows the weights of a version 2 file (`rest` is all of it).
fn read_sections(mut rest: &[u8]) -> Result<Sections, WeightsError> {
    fn take<'a>(field: SectionField, index: u32, rest: &mut &'a [u8]) -> Result<&'a [u8], WeightsError> {
        if rest.len() < field.size() {
            return Err(WeightsError::SectionTruncated {
                field,
                index,
                left: rest.len() as u64,
            });
        }
        let (head, tail) = rest.split_at(field.size());
        *rest = tail;
        Ok(head)
    }
    let count = u32::from_le_bytes(take(SectionField::Count, 0, &mut rest)?.try_into().expect("4 bytes"));
    // No capacity from the count: a damaged count must not allocate.
    let mut sections: Sections = Vec::new();
    for index in 0..count {
        let tag: [u8; 4] = take(SectionField::Tag, index, &mut rest)?.try_into().expect("4 bytes");
        let length = u64::from_le_bytes(
            take(SectionField::Length, index, &mut rest)?
                .try_into()
                .expect("8 bytes"),
        );
        let left = rest.len() as u64;
        if length > left {
            return Err(WeightsError::SectionLength {
                index,
                tag,
                length,
                left,
            });
        }
        if let Some(first) = sections.iter().position(|(t, _)| *t == tag) {
            return Err(WeightsError::DuplicateSection {
                tag,
                first: first as u32,
                second: index,
            });
        }
        let (bytes, tail) = rest.split_at(length as usize);
        sections.push((tag, bytes.to_vec()));
        rest = tail;
    }
    if !rest.is_empty() {
        return Err(WeightsError::Trailing {
            sections: count,
            bytes: rest.len() as u64,
        });
    }
    Ok(sections)
}

/// Entries a [`TiedTable`] window spans: a `u16` index reaches all of it, so its reads need
/// no bounds check.
const WINDOW: usize = 1 << 16;

/// The tied entries of one pattern's table, as `u16` indices into a window of [`WINDOW`]
/// entries of a phase that holds the whole table (every table has at most `3^10 < 2^16`
/// entries, and a phase more than `2^16`).
struct TiedTable {
    /// Index into [`PATTERNS`].
    pattern: usize,
    /// Where the window starts in a phase.
    window: usize,
    /// `(entry, representative)` relative to the window, for every entry of the table whose
    /// representative ([`Layout::canonical`](crate::set::Layout::canonical)) is another entry.
    pairs: Vec<(u16, u16)>,
}

/// The tied tables, built once from the layout: about a third of a phase's entries are tied
/// to another (the tables of patterns without a symmetry, the mobility and the global
/// tables are untied).
fn tied_tables() -> &'static [TiedTable] {
    static TABLES: OnceLock<Vec<TiedTable>> = OnceLock::new();
    TABLES.get_or_init(|| {
        let l = crate::layout();
        assert!(l.per_phase >= WINDOW, "a phase holds a window");
        PATTERNS
            .iter()
            .enumerate()
            .filter_map(|(p, pat)| {
                let start = l.offsets[p] as usize;
                let end = start + crate::set::pow3(pat.mask.count_ones()) as usize;
                let window = start.min(l.per_phase - WINDOW);
                assert!(end - window <= WINDOW, "a table fits a window");
                let pairs: Vec<(u16, u16)> = (start - window..)
                    .zip(&l.canonical[start..end])
                    .filter(|&(i, &c)| c as usize - window != i)
                    .map(|(i, &c)| (i as u16, (c as usize - window) as u16))
                    .collect();
                (!pairs.is_empty()).then_some(TiedTable {
                    pattern: p,
                    window,
                    pairs,
                })
            })
            .collect()
    })
}

/// [`Weights::check_ties`] on the values of whole phases: one pass of XORs over the tied
/// pairs of each table of each phase; the culprit is looked for only in a table that fails.
/// (About 7 instructions per tied entry, 53 388 of them per phase: `docs/pattern.md`,
/// "Weights file".)
fn check_ties(values: &[i16]) -> Result<(), WeightsError> {
    for (phase, w) in values.chunks_exact(per_phase()).enumerate() {
        for t in tied_tables() {
            let win: &[i16; WINDOW] = w[t.window..t.window + WINDOW].try_into().expect("a whole window");
            let differs = t.pairs.iter().fold(0u16, |acc, &(i, c)| {
                acc | (win[usize::from(i)] ^ win[usize::from(c)]) as u16
            });
            if differs == 0 {
                continue;
            }
            let &(i, c) = t
                .pairs
                .iter()
                .find(|&&(i, c)| win[usize::from(i)] != win[usize::from(c)])
                .expect("a pair differs");
            let start = crate::layout().offsets[t.pattern] as usize - t.window;
            return Err(WeightsError::Untied {
                pattern: PATTERNS[t.pattern].name,
                phase: phase as u32,
                configuration: (usize::from(i) - start) as u32,
                value: win[usize::from(i)],
                tied_to: (usize::from(c) - start) as u32,
                tied_value: win[usize::from(c)],
            });
        }
    }
    Ok(())
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

    /// Values tied as the layout says (what the trainer writes), from a fixed sequence.
    fn tied_values(phases: u32, seed: i64) -> Vec<i16> {
        let l = crate::layout();
        let mut out = Vec::with_capacity(phases as usize * l.per_phase);
        for p in 0..phases as i64 {
            let raw = |i: i64| ((i + p * 7 + seed) * 7919 % 65536 - 32768) as i16;
            out.extend(l.canonical.iter().map(|&c| raw(i64::from(c))));
        }
        out
    }

    fn sample() -> Weights {
        Weights::new(2, 100, tied_values(2, 0)).unwrap()
    }

    /// `file` with its checksum recomputed (so that the fields behind it are reached).
    fn reseal(mut file: Vec<u8>) -> Vec<u8> {
        let sum = expected_checksum(&file).unwrap();
        file[CHECKSUM_FIELD].copy_from_slice(&sum.to_le_bytes());
        file
    }

    /// A version 1 file (as written before version 2): the same header with version 1 and a
    /// checksum of the weight bytes, then the weights; set 2.
    fn v1_file(w: &Weights) -> Vec<u8> {
        let payload: Vec<u8> = w.values().iter().flat_map(|v| v.to_le_bytes()).collect();
        let mut out = Vec::new();
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&1u32.to_le_bytes());
        out.extend_from_slice(&PATTERN_SET_ID.to_le_bytes());
        out.extend_from_slice(&w.phases().to_le_bytes());
        out.extend_from_slice(&w.scale().to_le_bytes());
        out.extend_from_slice(&(w.values().len() as u64).to_le_bytes());
        out.extend_from_slice(&fnv1a64(&payload).to_le_bytes());
        out.extend_from_slice(&payload);
        out
    }

    #[test]
    fn round_trips_bit_for_bit() {
        let w = sample();
        let bytes = w.to_bytes();
        assert_eq!(bytes.len(), HEADER_LEN + 2 * w.values().len() + 4);
        let back = Weights::from_bytes(&bytes).unwrap();
        assert_eq!(back, w);
        assert_eq!(back.to_bytes(), bytes);
        let w = w
            .with_section(*b"XTRA", vec![1, 2, 3])
            .with_section(*b"\0\xffz ", Vec::new());
        let bytes = w.to_bytes();
        let back = Weights::from_bytes(&bytes).unwrap();
        assert_eq!(back, w);
        assert_eq!(back.to_bytes(), bytes);
        let path = std::env::temp_dir().join(format!("pattern-weights-{}.bin", std::process::id()));
        w.write(&path).unwrap();
        assert_eq!(Weights::from_path(&path).unwrap(), w);
        std::fs::remove_file(&path).unwrap();
        assert!(matches!(Weights::from_path(&path), Err(WeightsError::Io { .. })));
    }

    /// The layout of the module docs, byte by byte, on a file with two sections.
    #[test]
    fn version_2_layout_byte_by_byte() {
        let w = Weights::zero(1, 250)
            .unwrap()
            .with_section(*b"XTRA", vec![7; 5])
            .with_section(*b"ABCD", vec![]);
        let f = w.to_bytes();
        let n = per_phase();
        let u32_at = |i: usize| u32::from_le_bytes(f[i..i + 4].try_into().unwrap());
        let u64_at = |i: usize| u64::from_le_bytes(f[i..i + 8].try_into().unwrap());
        assert_eq!(&f[0..8], b"OTHPATW\0");
        assert_eq!((u32_at(8), u32_at(12), u32_at(16), u32_at(20)), (2, 2, 1, 250));
        assert_eq!(u64_at(24), n as u64);
        // The checksum: every byte but its own field, hashed in one piece.
        let mut hashed = f[..32].to_vec();
        hashed.extend_from_slice(&f[40..]);
        assert_eq!(u64_at(32), fnv1a64(&hashed));
        assert!(f[40..40 + 2 * n].iter().all(|&b| b == 0));
        let s = 40 + 2 * n;
        assert_eq!(u32_at(s), 2);
        assert_eq!(&f[s + 4..s + 8], b"XTRA");
        assert_eq!(u64_at(s + 8), 5);
        assert_eq!(&f[s + 16..s + 21], &[7; 5]);
        assert_eq!(&f[s + 21..s + 25], b"ABCD");
        assert_eq!(u64_at(s + 25), 0);
        assert_eq!(f.len(), s + 33);
    }

    #[test]
    fn sections_are_kept_replaced_and_listed_in_order() {
        let w = Weights::zero(1, 100).unwrap();
        assert_eq!(w.sections().len(), 0);
        assert_eq!(w.section(*b"XTRA"), None);
        let w = w
            .with_section(*b"XTRA", vec![1])
            .with_section(*b"NEW1", vec![9, 9])
            .with_section(*b"XTRA", vec![2, 3]);
        assert_eq!(w.section(*b"XTRA"), Some(&[2u8, 3][..]));
        assert_eq!(w.section(*b"NEW1"), Some(&[9u8, 9][..]));
        assert_eq!(w.section(*b"NEW2"), None);
        let listed: Vec<([u8; 4], Vec<u8>)> = w.sections().map(|(t, b)| (t, b.to_vec())).collect();
        assert_eq!(listed, vec![(*b"XTRA", vec![2, 3]), (*b"NEW1", vec![9, 9])]);
        // A tag this build does not know survives a read and a write, in place.
        let back = Weights::from_bytes(&w.to_bytes()).unwrap();
        assert_eq!(
            back.sections().map(|(t, _)| t).collect::<Vec<_>>(),
            [*b"XTRA", *b"NEW1"]
        );
        assert_eq!(back.to_bytes(), w.to_bytes());
        // Sections are part of the value: weights that differ only there are not equal.
        assert_ne!(back, Weights::zero(1, 100).unwrap());
    }

    #[test]
    fn bad_files_name_what_is_wrong() {
        let good = sample().to_bytes();
        let set = |at: usize, v: &[u8]| {
            let mut b = good.clone();
            b[at..at + v.len()].copy_from_slice(v);
            reseal(b)
        };
        let e = |b: &[u8]| Weights::from_bytes(b).unwrap_err();
        assert!(matches!(e(&good[..39]), WeightsError::TooShort { len: 39 }));
        // The header alone: its count then disagrees with no weights.
        assert!(matches!(
            e(&reseal(good[..HEADER_LEN].to_vec())),
            WeightsError::Size { found: 0, .. }
        ));
        assert!(matches!(e(&set(0, b"X")), WeightsError::BadMagic { .. }));
        for v in [0u32, 3] {
            let mut b = good.clone();
            b[8..12].copy_from_slice(&v.to_le_bytes());
            assert!(matches!(e(&b), WeightsError::Version { found } if found == v));
        }
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
            WeightsError::Scale { found: 10_001 }
        ));
        // In range, resealed: read with the new value.
        let scaled = Weights::from_bytes(&set(20, &10_000u32.to_le_bytes())).unwrap();
        assert_eq!(scaled.scale(), 10_000);
        assert_eq!(
            Weights::from_bytes(&set(16, &1u32.to_le_bytes()))
                .map(|w| w.phases())
                .ok(),
            None,
            "one phase fewer, the same weights: the count disagrees"
        );
        // Phases that disagree with the weight count, a count that disagrees, a cut file.
        let n = 2 * per_phase() as u64;
        assert!(matches!(
            e(&set(16, &3u32.to_le_bytes())),
            WeightsError::Size { header, phases: 3, expected, .. } if header == n && expected == n / 2 * 3
        ));
        assert!(matches!(
            e(&set(24, &5u64.to_le_bytes())),
            WeightsError::Size {
                header: 5,
                phases: 2,
                ..
            }
        ));
        let cut = |len: usize| reseal(good[..len].to_vec());
        // Two bytes short of the weights, one byte short: sizes.
        let weights_end = HEADER_LEN + 2 * n as usize;
        assert!(matches!(
            e(&cut(weights_end - 2)),
            WeightsError::Size { found, .. } if found == n - 1
        ));
        assert!(matches!(e(&cut(weights_end - 1)), WeightsError::Size { .. }));
        // One flipped bit in the weights or in the stored checksum.
        let mut flipped = good.clone();
        flipped[HEADER_LEN + 7] ^= 1;
        assert!(matches!(e(&flipped), WeightsError::Checksum { .. }));
        let mut wrong = good.clone();
        wrong[32] ^= 0x80;
        assert!(matches!(
            e(&wrong),
            WeightsError::Checksum { expected, found }
                if found == expected ^ 0x80 && found == u64::from_le_bytes(good[32..40].try_into().unwrap())
        ));
        for err in [e(&set(0, b"X")), e(&flipped), e(&cut(weights_end - 1))] {
            assert!(!err.to_string().is_empty());
        }
    }

    /// Every error of the section table, each reached through a resealed file.
    #[test]
    fn bad_sections_name_the_field() {
        let base = Weights::zero(1, 100).unwrap();
        let table_at = HEADER_LEN + 2 * per_phase();
        let with_table = |table: &[u8]| {
            let mut f = base.to_bytes();
            f.truncate(table_at);
            f.extend_from_slice(table);
            reseal(f)
        };
        let e = |table: &[u8]| Weights::from_bytes(&with_table(table)).unwrap_err();
        let section = |tag: &[u8; 4], len: u64, bytes: &[u8]| {
            let mut s = tag.to_vec();
            s.extend_from_slice(&len.to_le_bytes());
            s.extend_from_slice(bytes);
            s
        };
        let table = |count: u32, sections: &[Vec<u8>]| {
            let mut t = count.to_le_bytes().to_vec();
            for s in sections {
                t.extend_from_slice(s);
            }
            t
        };
        // A whole table reads.
        let ok = with_table(&table(1, &[section(b"XTRA", 2, &[4, 5])]));
        assert_eq!(Weights::from_bytes(&ok).unwrap().section(*b"XTRA"), Some(&[4u8, 5][..]));
        // No count, or a count cut short.
        assert!(matches!(
            e(&[]),
            WeightsError::SectionTruncated {
                field: SectionField::Count,
                index: 0,
                left: 0
            }
        ));
        assert!(matches!(
            e(&[1, 0, 0]),
            WeightsError::SectionTruncated {
                field: SectionField::Count,
                left: 3,
                ..
            }
        ));
        // A tag, then a length, cut short (in the second section).
        let first = section(b"AAAA", 1, &[0]);
        let mut t = table(2, std::slice::from_ref(&first));
        t.extend_from_slice(b"BB");
        assert!(matches!(
            e(&t),
            WeightsError::SectionTruncated {
                field: SectionField::Tag,
                index: 1,
                left: 2
            }
        ));
        let mut t = table(2, std::slice::from_ref(&first));
        t.extend_from_slice(b"BBBB\x01\0\0");
        assert!(matches!(
            e(&t),
            WeightsError::SectionTruncated {
                field: SectionField::Length,
                index: 1,
                left: 3
            }
        ));
        // A count larger than the sections present: the next tag is missing.
        assert!(matches!(
            e(&table(3, std::slice::from_ref(&first))),
            WeightsError::SectionTruncated {
                field: SectionField::Tag,
                index: 1,
                left: 0
            }
        ));
        // Lengths past the end: by one byte, and the largest u64.
        assert!(matches!(
            e(&table(1, &[section(b"XTRA", 3, &[1, 2])])),
            WeightsError::SectionLength { index: 0, tag, length: 3, left: 2 } if tag == *b"XTRA"
        ));
        assert!(matches!(
            e(&table(2, &[first.clone(), section(b"BIG!", u64::MAX, &[])])),
            WeightsError::SectionLength {
                index: 1,
                length: u64::MAX,
                left: 0,
                ..
            }
        ));
        // The same tag twice.
        assert!(matches!(
            e(&table(3, &[first.clone(), section(b"XTRA", 0, &[]), section(b"AAAA", 0, &[])])),
            WeightsError::DuplicateSection { tag, first: 0, second: 2 } if tag == *b"AAAA"
        ));
        // Bytes after the last section, or after an empty table.
        assert!(matches!(
            e(&table(0, &[vec![0]])),
            WeightsError::Trailing { sections: 0, bytes: 1 }
        ));
        assert!(matches!(
            e(&table(1, &[first.clone(), vec![1, 2, 3]])),
            WeightsError::Trailing { sections: 1, bytes: 3 }
        ));
        // The messages name the field and the tag.
        let msg = |t: &[u8]| e(t).to_string();
        assert!(msg(&[1, 0]).contains("section count"), "{}", msg(&[1, 0]));
        assert!(msg(&table(1, &[section(b"XTRA", 3, &[])])).contains("\"XTRA\""));
        assert!(msg(&table(1, &[section(b"\0\x01\x02\x03", 3, &[])])).contains("[00, 01, 02, 03]"));
        assert!(msg(&table(2, &[first.clone(), first.clone()])).contains("same tag \"AAAA\""));
        assert!(msg(&table(1, &[b"AAAA\x01".to_vec()])).contains("length needs 8 bytes, 1 left"));
    }

    /// A flipped bit in any header field (magic and version apart, which are checked before
    /// the checksum), in the stored checksum, in the weights and anywhere in the section table
    /// is a checksum mismatch.
    #[test]
    fn checksum_catches_a_flipped_bit_everywhere() {
        let w = Weights::zero(1, 100).unwrap().with_section(*b"XTRA", vec![0x5a; 3]);
        let good = w.to_bytes();
        let table_at = HEADER_LEN + 2 * per_phase();
        assert_eq!(good.len(), table_at + 4 + 12 + 3);
        let positions = (12..HEADER_LEN)
            .chain([HEADER_LEN, HEADER_LEN + 1, table_at - 1])
            .chain(table_at..good.len());
        for at in positions {
            for bit in 0..8 {
                let mut b = good.clone();
                b[at] ^= 1 << bit;
                assert!(
                    matches!(Weights::from_bytes(&b), Err(WeightsError::Checksum { .. })),
                    "byte {at} bit {bit}"
                );
            }
        }
        // Magic and version: their own errors.
        let mut b = good.clone();
        b[3] ^= 1;
        assert!(matches!(Weights::from_bytes(&b), Err(WeightsError::BadMagic { .. })));
        for bit in 0..32 {
            let mut b = good.clone();
            b[8 + bit / 8] ^= 1 << (bit % 8);
            let err = Weights::from_bytes(&b).unwrap_err();
            assert!(matches!(err, WeightsError::Version { .. }), "bit {bit}: {err}");
        }
    }

    #[test]
    fn version_1_files_still_read() {
        let w = sample();
        let old = v1_file(&w);
        assert_eq!(old.len(), HEADER_LEN + 2 * w.values().len());
        let back = Weights::from_bytes(&old).unwrap();
        assert_eq!(back, w);
        assert_eq!(back.sections().len(), 0);
        // Written back as version 2.
        assert_eq!(back.to_bytes(), w.to_bytes());
        assert_eq!(expected_checksum(&old), Some(fnv1a64(&old[HEADER_LEN..])));
        // The old checksum rule: a flipped weight bit is caught, a changed scale is not (the
        // reason for version 2).
        let mut b = old.clone();
        b[HEADER_LEN + 3] ^= 4;
        assert!(matches!(Weights::from_bytes(&b), Err(WeightsError::Checksum { .. })));
        let mut b = old.clone();
        b[20..24].copy_from_slice(&101u32.to_le_bytes());
        assert_eq!(Weights::from_bytes(&b).unwrap().scale(), 101);
        // Version 1 has no sections: bytes after the weights are a wrong size.
        let mut b = old.clone();
        b.extend_from_slice(&[0, 0, 0, 0]);
        let b = reseal(b);
        assert!(matches!(Weights::from_bytes(&b), Err(WeightsError::Size { .. })));
        let mut odd = old.clone();
        odd.push(0);
        assert!(matches!(
            Weights::from_bytes(&reseal(odd)),
            Err(WeightsError::Size { .. })
        ));
        // Its checksum is checked after the size, as before.
        let mut b = old.clone();
        b[32] ^= 1;
        assert!(matches!(Weights::from_bytes(&b), Err(WeightsError::Checksum { .. })));
        assert_eq!(expected_checksum(&old[..HEADER_LEN - 1]), None);
        let mut b = old.clone();
        b[8] = 7;
        assert_eq!(expected_checksum(&b), None);
    }

    /// A set 1 file: its own header (set id 1, count of set 1 weights) and phases without the
    /// global tables.
    fn set_1_file(phases: u32, values: &[i16]) -> Vec<u8> {
        let payload: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        let mut out = Vec::new();
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&FORMAT_VERSION_1.to_le_bytes());
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
        let full = tied_values(3, 5);
        let values: Vec<i16> = full.chunks_exact(new).flat_map(|p| p[..old].to_vec()).collect();
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
        let mut wrong = v1_file(&Weights::zero(1, 100).unwrap());
        wrong[12..16].copy_from_slice(&PATTERN_SET_1.to_le_bytes());
        assert!(matches!(Weights::from_bytes(&wrong), Err(WeightsError::Size { .. })));
        // A set 1 file one weight short.
        let cut = set_1_file(3, &values[..3 * old - 1]);
        assert!(matches!(Weights::from_bytes(&cut), Err(WeightsError::Size { .. })));
        // Its ties are checked too.
        let mut untied = values.clone();
        let l = crate::layout();
        let (i, _) = l.canonical.iter().enumerate().find(|&(i, &c)| c as usize != i).unwrap();
        untied[old + i] ^= 1;
        assert!(matches!(
            Weights::from_bytes(&set_1_file(3, &untied)),
            Err(WeightsError::Untied { phase: 1, .. })
        ));
    }

    /// One weight changed away from its tied image is refused, in any pattern with a
    /// symmetry, in the right phase, naming the configuration and its representative.
    #[test]
    fn untied_weights_are_refused_naming_pattern_phase_and_configuration() {
        let l = crate::layout();
        let w = Weights::new(3, 100, tied_values(3, 1)).unwrap();
        assert!(w.check_ties().is_ok());
        let per = per_phase();
        let mut named = Vec::new();
        for (p, pat) in PATTERNS.iter().enumerate() {
            let start = l.offsets[p] as usize;
            let end = start + crate::set::pow3(pat.mask.count_ones()) as usize;
            // The last tied entry of the table (the odometer's far end).
            let Some(i) = (start..end).rev().find(|&i| l.canonical[i] as usize != i) else {
                continue;
            };
            let c = l.canonical[i] as usize;
            for phase in [0, 2] {
                let mut v = w.values().to_vec();
                v[phase * per + i] = v[phase * per + c].wrapping_add(1);
                let bad = Weights::new(3, 100, v).unwrap();
                let want = (
                    pat.name,
                    phase as u32,
                    (i - start) as u32,
                    (c - start) as u32,
                    bad.values()[phase * per + i],
                    bad.values()[phase * per + c],
                );
                for err in [
                    bad.check_ties().unwrap_err(),
                    Weights::from_bytes(&bad.to_bytes()).unwrap_err(),
                    Weights::from_bytes(&v1_file(&bad)).unwrap_err(),
                ] {
                    let WeightsError::Untied {
                        pattern,
                        phase,
                        configuration,
                        tied_to,
                        value,
                        tied_value,
                    } = err
                    else {
                        panic!("{err}");
                    };
                    assert_eq!((pattern, phase, configuration, tied_to, value, tied_value), want);
                }
            }
            named.push(pat.name);
        }
        // Every pattern but corner2x5 (no symmetry) has tied entries.
        assert_eq!(named.len(), PATTERNS.len() - 1);
        assert!(!named.contains(&"corner2x5"));
        // Two entries of one table off their images by the same bits (whose differences
        // would cancel in an XOR of the differences): the first is named.
        let o = l.offsets[2] as usize; // edge2x
        let tied: Vec<usize> = (o..o + 3000)
            .filter(|&i| l.canonical[i] as usize != i)
            .take(2)
            .collect();
        let mut v = w.values().to_vec();
        for &i in &tied {
            v[per + i] = v[per + l.canonical[i] as usize] ^ 0x10;
        }
        let err = Weights::new(3, 100, v).unwrap().check_ties().unwrap_err();
        assert!(
            matches!(err, WeightsError::Untied { pattern: "edge2x", phase: 1, configuration, .. }
                if configuration as usize == tied[0] - o),
            "{err}"
        );
        // The message names them.
        let mut v = w.values().to_vec();
        let o = l.offsets[2] as usize; // edge2x: a1 player is tied to h1 player
        v[per + o + crate::set::pow3(7) as usize] = 99;
        v[per + o + 1] = 98;
        let msg = Weights::new(3, 100, v).unwrap().check_ties().unwrap_err().to_string();
        assert!(
            msg.contains("pattern edge2x, phase 1: configuration 2187 holds 99"),
            "{msg}"
        );
        assert!(msg.contains("image 1 holds 98"), "{msg}");
    }

    #[test]
    fn in_memory_checks_and_phases() {
        assert!(matches!(
            Weights::new(1, 100, vec![0; 3]),
            Err(WeightsError::Count { phases: 1, expected, found: 3 }) if expected == per_phase()
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
        assert_eq!(fnv1a64_extend(fnv1a64(b"fo"), b"obar"), fnv1a64(b"foobar"));
        assert_eq!(
            (
                SectionField::Count.size(),
                SectionField::Tag.size(),
                SectionField::Length.size()
            ),
            (4, 4, 8)
        );
    }

    /// The tied pairs are exactly the entries whose representative is another entry.
    #[test]
    fn tied_tables_list_every_tie() {
        let l = crate::layout();
        let mut listed: Vec<(usize, u32)> = Vec::new();
        for t in tied_tables() {
            for &(i, c) in &t.pairs {
                let (i, c) = (t.window + usize::from(i), t.window + usize::from(c));
                let p = l.offsets.partition_point(|&o| o as usize <= i) - 1;
                assert_eq!(p, t.pattern, "entry {i} in its pattern's table");
                listed.push((i, c as u32));
            }
        }
        let want: Vec<(usize, u32)> = l
            .canonical
            .iter()
            .enumerate()
            .filter(|&(i, &c)| c as usize != i)
            .map(|(i, &c)| (i, c))
            .collect();
        assert_eq!(listed, want);
    }
}
