"""Random bad input only ever raises ValueError (never a panic, which PyO3 would raise as
PanicException, a BaseException that `except Exception` does not catch)."""

import random

import numpy as np
import pytest

import othello_toolkit as ot

ALPHABET = "XO-xo*.;: +-0123456789abcdefghPASpas=,\n"


def random_text(rng, n):
    return "".join(rng.choice(ALPHABET) for _ in range(rng.randrange(n)))


def only_value_errors(fn, arg):
    try:
        fn(arg)
    except ValueError:
        pass


def test_random_text_into_every_parser():
    rng = random.Random(7)
    start = str(ot.Position())
    for _ in range(3000):
        text = random_text(rng, 80)
        mutated = list(start)
        for _ in range(rng.randrange(1, 4)):
            mutated[rng.randrange(len(mutated))] = rng.choice(ALPHABET)
        for s in (text, "".join(mutated), start + ";" + text):
            only_value_errors(ot.Position, s)
            only_value_errors(ot.parse_obf, s)
            only_value_errors(ot.parse_moves, s)
            only_value_errors(ot.Position.from_moves, s)
            only_value_errors(ot.read_ggf, "(;GM[Othello]" + s + ";)")
            only_value_errors(ot.Game.parse, s)


def test_random_specs():
    rng = random.Random(8)
    keys = ["depth", "time", "nodes", "eval", "tt", "threads", "selectivity", "seed", "playouts", "x"]
    values = ["0", "1", "-1", "3", "99999999999999999999", "pattern", "mobility*", "off", "", "1.5"]
    for _ in range(400):
        name = rng.choice(list(ot.ENGINE_NAMES) + ["", "chess"])
        pairs = ",".join(f"{rng.choice(keys)}={rng.choice(values)}" for _ in range(rng.randrange(3)))
        spec = f"{name}:{pairs}" if pairs else name
        try:
            ot.Engine(spec)
        except ValueError:
            pass


def test_random_bitboards():
    rng = np.random.default_rng(9)
    rows = rng.integers(0, 2**63, size=(500, 2), dtype=np.uint64)
    for p, o in rows.tolist():
        try:
            pos = ot.Position.from_bitboards(p, o)
        except ValueError as e:
            assert "holds both" in str(e)
            continue
        pos.moves()
    with pytest.raises(ValueError, match="row"):
        ot.evaluate_batch(rows)
