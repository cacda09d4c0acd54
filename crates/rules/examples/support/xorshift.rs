//! A small xorshift64 generator shared by the examples, so they need nothing but the rules
//! crate and their output never changes with a crate's version.

/// The xorshift64 generator (its state must not be 0).
pub struct XorShift(pub u64);

impl XorShift {
    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}
