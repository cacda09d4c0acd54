"""Perft, solving, pattern-training data (games, labels) and matches as Ray jobs, with the
`othello` and `othello-train` binaries doing all the Othello work. See
docs/distributed.md."""

__version__ = "0.1.0"
