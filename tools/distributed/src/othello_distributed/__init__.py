"""Perft, solving (and, as they land, self-play and matches) as Ray jobs, with the `othello`
binary doing all the Othello work. See docs/distributed.md."""

__version__ = "0.1.0"
