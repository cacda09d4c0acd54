//! [`Book`]: the entries keyed canonically, lookups from any symmetric twin, negamax
//! propagation, the seeded choice within a margin, merging, and the file form.

use crate::error::{BookError, EntryError};
use crate::key::{Key, canonical_key, code_move, inverse, key_position, map_move, move_code};
use othello_rules::{BoardSize, Move, Position};
use rand::Rng;
use std::collections::BTreeMap;
use std::path::Path;

/// The file's first eight bytes.
pub const MAGIC: [u8; 8] = *b"OTHBOOK\0";
/// The format version this crate reads and writes.
pub const FORMAT_VERSION: u32 = 1;
/// Header length in bytes.
pub const HEADER_LEN: usize = 24;
/// Where the checksum is stored in the header.
pub const CHECKSUM_FIELD: std::ops::Range<usize> = 16..24;
/// Bytes of an entry before its moves: the key (two `u64`), the value (`i16`), the move count
/// (`u8`).
pub const ENTRY_HEAD_LEN: usize = 19;
/// Bytes of one move: code (`u8`), flags (`u8`), value (`i16`).
pub const MOVE_LEN: usize = 4;
/// The largest magnitude of a value, in centi-discs (64 discs).
pub const MAX_VALUE: i32 = 6400;
/// Flag bit: the move's position is in the book and its value is propagated from there.
pub const FLAG_PROPAGATED: u8 = 1;
/// Flag bit: the value is exact (the move ends the game, or a search solved it).
pub const FLAG_EXACT: u8 = 2;

/// FNV-1a 64 continued over `bytes` from the state `h` (the start state is
/// `0xcbf29ce484222325`).
pub fn fnv1a64_extend(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The checksum a book file stores: FNV-1a 64 of every byte but the checksum field. `None`
/// for a file shorter than the header.
pub fn expected_checksum(file: &[u8]) -> Option<u64> {
    if file.len() < HEADER_LEN {
        return None;
    }
    let h = fnv1a64_extend(0xcbf2_9ce4_8422_2325, &file[..CHECKSUM_FIELD.start]);
    Some(fnv1a64_extend(h, &file[CHECKSUM_FIELD.end..]))
}

/// One move of an entry with its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move.
    pub mv: Move,
    /// Its value in centi-discs for the side to move (the negated value of the position it
    /// leads to).
    pub value: i32,
    /// Whether the position the move leads to is in the book, its value propagated from there
    /// (negamax); otherwise the value is the searched leaf value (or the final score).
    pub propagated: bool,
    /// Whether the value is exact (the move ends the game, or the search solved it).
    pub exact: bool,
}

impl BookMove {
    fn flags(&self) -> u8 {
        (u8::from(self.propagated) * FLAG_PROPAGATED) | (u8::from(self.exact) * FLAG_EXACT)
    }
}

/// A position of the book: its negamax value and every legal move with its value, in the
/// canonical frame (moves by increasing square, a pass alone).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The position's value in centi-discs for the side to move: the best move value.
    pub value: i32,
    /// Every legal move (a pass when the side must pass), by increasing square.
    pub moves: Vec<BookMove>,
}

/// An opening book: positions keyed by their canonical form under the eight symmetries (one
/// entry per class of twins), each with its negamax value and every legal move's value.
/// Values are centi-discs from the side to move. See the crate docs for the file format.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Book {
    entries: BTreeMap<Key, Entry>,
}

/// The legal moves of a position as the book lists them: the squares by index, or a pass.
fn legal_moves(pos: &Position) -> Vec<Move> {
    let moves = pos.moves();
    if moves.is_empty() && !pos.is_game_over() {
        vec![Move::Pass]
    } else {
        moves
    }
}

/// The child of `pos` after `mv`, and whether the game is over there (then its exact value for
/// the side that moved, in centi-discs).
fn child(pos: &Position, mv: Move) -> (Position, Option<i32>) {
    let c = pos.play_unchecked(mv);
    let end = c.is_game_over().then(|| -c.final_score() * 100);
    (c, end)
}

impl Book {
    /// An empty book.
    pub fn new() -> Book {
        Book::default()
    }

    /// The number of entries (classes of symmetric positions).
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book has no entry.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entries in key order: each canonical position (black to move; values are
    /// side-relative) and its entry.
    pub fn entries(&self) -> impl ExactSizeIterator<Item = (Position, &Entry)> + '_ {
        self.entries.iter().map(|(k, e)| (key_position(*k), e))
    }

    /// Whether the position (or one of its symmetric twins) is in the book.
    pub fn contains(&self, pos: &Position) -> bool {
        pos.size() == BoardSize::Eight && self.entries.contains_key(&canonical_key(pos).0)
    }

    /// The position's entry in its own frame (moves carried back through the symmetry), best
    /// move first (equal values by increasing square, a pass last); `None` when it is not in
    /// the book or not 8x8.
    pub fn lookup(&self, pos: &Position) -> Option<Entry> {
        if pos.size() != BoardSize::Eight {
            return None;
        }
        let (key, sym) = canonical_key(pos);
        let entry = self.entries.get(&key)?;
        let back = inverse(sym);
        let mut moves: Vec<BookMove> = entry
            .moves
            .iter()
            .map(|m| BookMove {
                mv: map_move(back, m.mv),
                ..*m
            })
            .collect();
        moves.sort_by_key(|m| (-m.value, move_code(m.mv)));
        Some(Entry {
            value: entry.value,
            moves,
        })
    }

    /// The position's book moves with their values (centi-discs, side to move), best first;
    /// empty when the position is not in the book.
    pub fn moves(&self, pos: &Position) -> Vec<(Move, i32)> {
        self.lookup(pos)
            .map(|e| e.moves.iter().map(|m| (m.mv, m.value)).collect())
            .unwrap_or_default()
    }

    /// A move chosen uniformly at random among the book moves within `margin` centi-discs of
    /// the best (a negative margin counts as 0), with its value; `None` when the position is
    /// not in the book. The same generator state gives the same choice.
    pub fn choose<R: Rng + ?Sized>(&self, pos: &Position, margin: i32, rng: &mut R) -> Option<(Move, i32)> {
        let moves = self.moves(pos);
        let best = moves.first()?.1;
        let near = moves.iter().take_while(|m| m.1 >= best - margin.max(0)).count();
        Some(moves[rng.random_range(0..near)])
    }

    /// Adds positions with the searched values of their moves (`(move, value)` for every legal
    /// move, a pass when the side must pass; values in centi-discs for the side to move), then
    /// propagates the values through the book ([`Book::propagate`]). A move that ends the game
    /// takes its exact final score whatever the value given. A position already in the book
    /// keeps its entry.
    ///
    /// # Errors
    /// The first position whose moves do not match its legal moves, a value out of range, or a
    /// finished game (the book is unchanged then).
    pub fn insert_searched(&mut self, items: &[(Position, Vec<(Move, i32)>)]) -> Result<(), EntryError> {
        let mut new = Vec::with_capacity(items.len());
        for (pos, values) in items {
            if pos.size() != BoardSize::Eight {
                return Err(EntryError::NotEightByEight);
            }
            if pos.is_game_over() {
                return Err(EntryError::GameOver);
            }
            let (key, sym) = canonical_key(pos);
            let legal = legal_moves(pos);
            if values.len() != legal.len() {
                return Err(EntryError::MoveCount {
                    found: values.len(),
                    expected: legal.len(),
                });
            }
            let mut moves = Vec::with_capacity(values.len());
            for &(mv, value) in values {
                if !legal.contains(&mv) {
                    return Err(EntryError::IllegalMove { mv });
                }
                if value.abs() > MAX_VALUE {
                    return Err(EntryError::ValueRange { value });
                }
                let end = child(pos, mv).1;
                moves.push(BookMove {
                    mv: map_move(sym, mv),
                    value: end.unwrap_or(value),
                    propagated: false,
                    exact: end.is_some(),
                });
            }
            moves.sort_by_key(|m| move_code(m.mv));
            if moves.windows(2).any(|w| w[0].mv == w[1].mv) {
                return Err(EntryError::MovesUnordered);
            }
            let value = moves.iter().map(|m| m.value).max().expect("a legal move");
            new.push((key, Entry { value, moves }));
        }
        for (key, entry) in new {
            self.entries.entry(key).or_insert(entry);
        }
        self.propagate();
        Ok(())
    }

    /// Sets the values of searched leaf moves, then propagates ([`Book::propagate`]). Each item
    /// is a position of the book (any twin, the move in its frame), one of its moves whose
    /// value is a searched leaf (not propagated, not a game end), and the new value in
    /// centi-discs for the side to move. A move set twice takes the later value.
    ///
    /// # Errors
    /// The first item whose position is not in the book ([`EntryError::NotInBook`]), whose
    /// move is not one of the position's ([`EntryError::IllegalMove`]) or not a searched leaf
    /// ([`EntryError::NotALeaf`]), or whose value is out of range; the book is unchanged then.
    pub fn set_leaf_values(&mut self, items: &[(Position, Move, i32)]) -> Result<(), EntryError> {
        let mut updates = Vec::with_capacity(items.len());
        for &(pos, mv, value) in items {
            if value.abs() > MAX_VALUE {
                return Err(EntryError::ValueRange { value });
            }
            if pos.size() != BoardSize::Eight {
                return Err(EntryError::NotEightByEight);
            }
            let (key, sym) = canonical_key(&pos);
            let entry = self.entries.get(&key).ok_or(EntryError::NotInBook)?;
            let code = map_move(sym, mv);
            let i = entry
                .moves
                .iter()
                .position(|m| m.mv == code)
                .ok_or(EntryError::IllegalMove { mv })?;
            let m = &entry.moves[i];
            if m.propagated || m.exact {
                return Err(EntryError::NotALeaf { mv });
            }
            updates.push((key, i, value));
        }
        for (key, i, value) in updates {
            self.entries.get_mut(&key).expect("checked above").moves[i].value = value;
        }
        self.propagate();
        Ok(())
    }

    /// Recomputes every value by negamax from the leaves: a move whose position is in the book
    /// takes the negated value of that entry (and is marked propagated), the others keep their
    /// searched value, and each entry's value is its best move's. Entries are visited children
    /// first (more discs first; a forced pass after the position it passes to).
    pub fn propagate(&mut self) {
        let mut order: Vec<Key> = self.entries.keys().copied().collect();
        order.sort_by_key(|&k| {
            let pos = key_position(k);
            (std::cmp::Reverse((k.0 | k.1).count_ones()), pos.must_pass(), k)
        });
        for key in order {
            let pos = key_position(key);
            let mut entry = self.entries[&key].clone();
            for m in &mut entry.moves {
                let (c, _) = child(&pos, m.mv);
                match self.entries.get(&canonical_key(&c).0) {
                    Some(child) => {
                        m.value = -child.value;
                        m.propagated = true;
                        m.exact = false;
                    }
                    None => m.propagated = false,
                }
            }
            entry.value = entry.moves.iter().map(|m| m.value).max().expect("a legal move");
            self.entries.insert(key, entry);
        }
    }

    /// Adds the entries of `other` that this book lacks (this book's entry wins where both
    /// have one: both hold searched values for every move), then propagates.
    pub fn merge(&mut self, other: &Book) {
        for (k, e) in &other.entries {
            self.entries.entry(*k).or_insert_with(|| e.clone());
        }
        self.propagate();
    }

    /// The file form (see the crate docs).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER_LEN + self.entries.len() * (ENTRY_HEAD_LEN + 10 * MOVE_LEN));
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&(self.entries.len() as u32).to_le_bytes());
        out.extend_from_slice(&[0; 8]);
        for (k, e) in &self.entries {
            out.extend_from_slice(&k.0.to_le_bytes());
            out.extend_from_slice(&k.1.to_le_bytes());
            out.extend_from_slice(&(e.value as i16).to_le_bytes());
            out.push(e.moves.len() as u8);
            for m in &e.moves {
                out.push(move_code(m.mv));
                out.push(m.flags());
                out.extend_from_slice(&(m.value as i16).to_le_bytes());
            }
        }
        let sum = expected_checksum(&out).expect("a whole header");
        out[CHECKSUM_FIELD].copy_from_slice(&sum.to_le_bytes());
        out
    }

    /// Writes the file form to `path` (through a temporary file beside it, renamed over it, so
    /// an interrupted write leaves the old file whole).
    ///
    /// # Errors
    /// [`BookError::Write`].
    pub fn write(&self, path: impl AsRef<Path>) -> Result<(), BookError> {
        let path = path.as_ref();
        let err = |e: std::io::Error| BookError::Write {
            path: path.display().to_string(),
            kind: e.kind(),
            why: e.to_string(),
        };
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        std::fs::write(&tmp, self.to_bytes()).map_err(err)?;
        std::fs::rename(&tmp, path).map_err(err)
    }

    /// Reads a book file.
    ///
    /// # Errors
    /// [`BookError::Io`], or what [`Book::from_bytes`] refuses.
    pub fn from_path(path: impl AsRef<Path>) -> Result<Book, BookError> {
        let path = path.as_ref();
        let bytes = std::fs::read(path).map_err(|e| BookError::Io {
            path: path.display().to_string(),
            kind: e.kind(),
            why: e.to_string(),
        })?;
        Book::from_bytes(&bytes)
    }

    /// Reads the file form: the magic, the version, then the checksum (so any damaged byte is
    /// a [`BookError::Checksum`]), then every entry on its own (canonical key, sorted, legal
    /// moves in order, values in range, the value the best move's) and against the others
    /// (propagated values equal the negated child values, searched leaves are not in the book,
    /// moves that end the game carry the final score).
    ///
    /// # Errors
    /// The first problem found, typed.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        if bytes.len() < HEADER_LEN {
            return Err(BookError::Truncated {
                entry: None,
                needed: HEADER_LEN,
                left: bytes.len(),
            });
        }
        let found: [u8; 8] = bytes[..8].try_into().expect("8 bytes");
        if found != MAGIC {
            return Err(BookError::BadMagic { found });
        }
        let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
        if version != FORMAT_VERSION {
            return Err(BookError::Version { found: version });
        }
        let stored = u64::from_le_bytes(bytes[CHECKSUM_FIELD].try_into().expect("8 bytes"));
        let sum = expected_checksum(bytes).expect("a whole header");
        if stored != sum {
            return Err(BookError::Checksum {
                expected: stored,
                found: sum,
            });
        }
        let count = u32::from_le_bytes(bytes[12..16].try_into().expect("4 bytes"));
        let mut rest = &bytes[HEADER_LEN..];
        let mut entries = BTreeMap::new();
        let mut previous: Option<Key> = None;
        for index in 0..count {
            let bad = |source| BookError::Entry { index, source };
            let truncated = |needed: usize, left: usize| BookError::Truncated {
                entry: Some(index),
                needed,
                left,
            };
            if rest.len() < ENTRY_HEAD_LEN {
                return Err(truncated(ENTRY_HEAD_LEN, rest.len()));
            }
            let n = rest[18] as usize;
            let len = ENTRY_HEAD_LEN + n * MOVE_LEN;
            if rest.len() < len {
                return Err(truncated(len, rest.len()));
            }
            let u64_at = |i: usize| u64::from_le_bytes(rest[i..i + 8].try_into().expect("8 bytes"));
            let key = (u64_at(0), u64_at(8));
            let value = i32::from(i16::from_le_bytes([rest[16], rest[17]]));
            let moves: Vec<(u8, u8, i32)> = rest[ENTRY_HEAD_LEN..len]
                .chunks_exact(MOVE_LEN)
                .map(|c| (c[0], c[1], i32::from(i16::from_le_bytes([c[2], c[3]]))))
                .collect();
            let entry = check_entry(key, value, &moves).map_err(bad)?;
            if previous.is_some_and(|p| key <= p) {
                return Err(bad(EntryError::Unsorted));
            }
            previous = Some(key);
            entries.insert(key, entry);
            rest = &rest[len..];
        }
        if !rest.is_empty() {
            return Err(BookError::TrailingBytes { extra: rest.len() });
        }
        let book = Book { entries };
        for (index, (key, entry)) in book.entries.iter().enumerate() {
            book.check_links(*key, entry).map_err(|source| BookError::Entry {
                index: index as u32,
                source,
            })?;
        }
        Ok(book)
    }

    /// The checks of an entry against the others.
    fn check_links(&self, key: Key, entry: &Entry) -> Result<(), EntryError> {
        let pos = key_position(key);
        for m in &entry.moves {
            let (c, _) = child(&pos, m.mv);
            match (self.entries.get(&canonical_key(&c).0), m.propagated) {
                (Some(child), true) if m.value != -child.value => {
                    return Err(EntryError::PropagatedValue {
                        mv: m.mv,
                        value: m.value,
                        child: child.value,
                    });
                }
                (None, true) => return Err(EntryError::MissingChild { mv: m.mv }),
                (Some(_), false) => return Err(EntryError::StaleLeaf { mv: m.mv }),
                _ => {}
            }
        }
        Ok(())
    }
}

/// The checks of one entry on its own: what the file holds becomes an [`Entry`].
fn check_entry(key: Key, value: i32, raw: &[(u8, u8, i32)]) -> Result<Entry, EntryError> {
    if key.0 & key.1 != 0 {
        return Err(EntryError::Overlap);
    }
    let pos = key_position(key);
    if canonical_key(&pos).0 != key {
        return Err(EntryError::NotCanonical);
    }
    if pos.is_game_over() {
        return Err(EntryError::GameOver);
    }
    let legal = legal_moves(&pos);
    if raw.len() != legal.len() {
        return Err(EntryError::MoveCount {
            found: raw.len(),
            expected: legal.len(),
        });
    }
    let mut moves = Vec::with_capacity(raw.len());
    let mut last: Option<u8> = None;
    for &(code, flags, v) in raw {
        let mv = code_move(code).ok_or(EntryError::BadMoveCode { code })?;
        if last.is_some_and(|l| code <= l) {
            return Err(EntryError::MovesUnordered);
        }
        last = Some(code);
        if !legal.contains(&mv) {
            return Err(EntryError::IllegalMove { mv });
        }
        // A propagated value is never marked exact (propagation clears the flag), so both
        // flags together are no flags a book writes.
        if flags & !(FLAG_PROPAGATED | FLAG_EXACT) != 0 || flags == FLAG_PROPAGATED | FLAG_EXACT {
            return Err(EntryError::UnknownFlags { mv, flags });
        }
        if v.abs() > MAX_VALUE {
            return Err(EntryError::ValueRange { value: v });
        }
        if let (_, Some(expected)) = child(&pos, mv)
            && (v != expected || flags != FLAG_EXACT)
        {
            return Err(EntryError::FinalValue { mv, value: v, expected });
        }
        moves.push(BookMove {
            mv,
            value: v,
            propagated: flags & FLAG_PROPAGATED != 0,
            exact: flags & FLAG_EXACT != 0,
        });
    }
    let best = moves.iter().map(|m| m.value).max().expect("a legal move");
    if value != best {
        return Err(EntryError::NotBest { stored: value, best });
    }
    Ok(Entry { value, moves })
}
