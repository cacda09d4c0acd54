//! othello-endgame (being written).
