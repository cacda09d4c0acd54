import doctest

import othello_toolkit as ot


def test_package_docstring_examples():
    failures, tried = doctest.testmod(ot)
    assert tried >= 3 and failures == 0


def test_every_public_name_has_a_docstring():
    for name in ot.__all__:
        obj = getattr(ot, name)
        if callable(obj):
            assert obj.__doc__ and obj.__doc__.strip(), name
    classes = (ot.Position, ot.Engine, ot.Solver, ot.PatternEval, ot.Game, ot.Reply, ot.Solution, ot.Board, ot.Rng)
    for cls in classes:
        assert cls.__doc__, cls.__name__
        for attr, value in vars(cls).items():
            if not attr.startswith("_"):
                assert value.__doc__, f"{cls.__name__}.{attr}"
