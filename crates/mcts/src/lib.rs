//! othello-mcts (being written).
