//! othello-search (being written).
