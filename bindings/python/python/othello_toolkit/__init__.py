"""The Othello toolkit's crates from Python.

Positions and their text formats, perft, the exact endgame solver, engines built from the
``othello`` command's spec strings, the pattern evaluation and its feature indices, random
playouts, GGF games and the JSON Lines records of ``othello play``; batch functions take many
positions and return NumPy arrays without the interpreter in the loop.

>>> import othello_toolkit as ot
>>> p = ot.Position()
>>> p.moves()
['d3', 'c4', 'f5', 'e6']
>>> ot.perft(p, 5)
1396
"""

from __future__ import annotations

import json
import os
from typing import Any, Dict, Iterable, List, Optional, Union

from ._native import (
    ENGINE_NAMES,
    FEATURES,
    PATTERN_SET_ID,
    SYMMETRIES,
    Board,
    Engine,
    Game,
    PatternEval,
    Position,
    Reply,
    Rng,
    Solution,
    Solver,
    evaluate_batch,
    feature_indices,
    feature_indices_batch,
    legal_moves_batch,
    parse_moves,
    parse_obf,
    perft,
    positions_from_array,
    positions_to_array,
    random_games,
    random_playouts,
    read_ggf,
    solve,
    solve_batch,
)

__all__ = [
    "ENGINE_NAMES",
    "FEATURES",
    "PATTERN_SET_ID",
    "SYMMETRIES",
    "Board",
    "Engine",
    "Game",
    "PatternEval",
    "Position",
    "Reply",
    "Rng",
    "Solution",
    "Solver",
    "evaluate_batch",
    "feature_indices",
    "feature_indices_batch",
    "legal_moves_batch",
    "parse_moves",
    "parse_obf",
    "perft",
    "positions_from_array",
    "positions_to_array",
    "random_games",
    "random_playouts",
    "read_ggf",
    "read_ggf_file",
    "read_jsonl",
    "record_start",
    "solve",
    "solve_batch",
    "square_name",
    "squares",
]

_FILES = "abcdefgh"


def square_name(index: int) -> str:
    """The name of square ``index`` (0 is ``"a1"``, 63 is ``"h8"``; 64 is ``"pass"``)."""
    if index == 64:
        return "pass"
    if not 0 <= index < 64:
        raise ValueError(f"bad square index {index}: expected 0..63, or 64 for the pass")
    return f"{_FILES[index % 8]}{index // 8 + 1}"


def squares(mask: int) -> List[str]:
    """The names of the squares set in a 64-bit mask, by index (``squares(p.legal_moves)``)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(square_name(low.bit_length() - 1))
        mask ^= low
    return out


def read_ggf_file(path: Union[str, "os.PathLike[str]"]) -> List[Game]:
    """Every game of a GGF file (``othello play --ggf FILE`` writes one record per line)."""
    with open(path, encoding="utf-8") as f:
        return read_ggf(f.read())


def record_start(record: Dict[str, Any]) -> Optional[Position]:
    """The position a match record's ``moves`` start from: its ``opening`` label replayed.

    The label is a board string when the opening has no moves from a non-standard root,
    otherwise the opening's moves from the start of the board; the label does not name the
    board size, so the sizes 8, 6 and 4 are tried in turn and the first on which the opening
    and every move of the game are legal is taken. None when no size fits (an opening of
    moves from a non-standard root, which the label does not record).
    """
    label = record.get("opening", "")
    moves = " ".join(record.get("moves", []))
    if label.count(" ") == 1 and len(label.split()[0]) in (16, 36, 64):
        starts = [Position(label)]
    else:
        starts = []
        for size in (8, 6, 4):
            try:
                starts.append(Position.start(size).play_moves(label))
            except ValueError:
                pass
    for start in starts:
        try:
            start.play_moves(moves)
        except ValueError:
            continue
        return start
    return None


def read_jsonl(source: Union[str, "os.PathLike[str]", Iterable[str]]) -> List[Dict[str, Any]]:
    """The game records of ``othello play --json`` (JSON Lines), as dictionaries.

    ``source`` is a path or an iterable of lines. Each game record (a line with a ``"game"``
    key; summary lines are skipped) gains ``"start"`` (see ``record_start``) and
    ``"positions"``: the position before each move, then the final one (empty when the start
    is unknown). The reader is plain Python (``json``) over the record format of the CLI.
    A line that is not JSON raises ``ValueError`` naming its line number.
    """
    if isinstance(source, (str, os.PathLike)):
        with open(source, encoding="utf-8") as f:
            lines = f.readlines()
    else:
        lines = list(source)
    games = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as e:
            raise ValueError(f"JSON Lines record {number}: {e}") from None
        if not isinstance(record, dict) or "game" not in record or "moves" not in record:
            continue
        start = record_start(record)
        positions: List[Position] = []
        if start is not None:
            positions.append(start)
            for mv in record["moves"]:
                positions.append(positions[-1].play(mv))
        record["start"] = start
        record["positions"] = positions
        games.append(record)
    return games
