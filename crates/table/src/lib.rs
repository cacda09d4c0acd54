//! othello-table (being written).
