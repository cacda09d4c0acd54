"""The NBoard adapter against a fake driver (tests/fake_driver.py): no Zebra needed."""

import importlib.util
import os
import random
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ADAPTER = HERE.parent / "zebra_nboard.py"
FAKE = HERE / "fake_driver.py"

START = "-" * 27 + "O*" + "-" * 6 + "*O" + "-" * 27
# Black to move without a legal move, white with c1 and f8: a1 O, b1 X, g8 X, h8 O.
PASS_BOARD = "O*" + "-" * 60 + "*O"


def ggf(board, side, moves=""):
    if side == "6":  # a record of another size (with 64 squares), refused
        return f"(;GM[Othello]TY[6]BO[6 {START} *]{moves};)"
    return f"(;GM[Othello]PC[test]PB[a]PW[b]RE[?]TY[8]BO[8 {board} {side}]{moves};)"


def run(lines, tmp_path, *adapter_args, driver=None):
    """Runs the adapter on `lines`; returns (stdout lines, driver log lines, stderr, exit code)."""
    log = tmp_path / "driver.log"
    if log.exists():
        log.unlink()
    env = dict(os.environ, FAKE_DRIVER_LOG=str(log))
    driver = driver or [sys.executable, str(FAKE)]
    proc = subprocess.run(
        [sys.executable, str(ADAPTER), *adapter_args, *driver],
        input="".join(line + "\n" for line in lines),
        capture_output=True,
        text=True,
        timeout=30,
        env=env,
    )
    logged = log.read_text().splitlines() if log.exists() else []
    return proc.stdout.splitlines(), logged, proc.stderr, proc.returncode


def answers(out):
    return [line for line in out if line.startswith("===")]


def test_ping_pong_and_name(tmp_path):
    out, _, _, code = run(["nboard 2", "ping 1", "ping 17", "quit"], tmp_path)
    assert out == ["set myname Zebra", "pong 1", "pong 17"]
    assert code == 0


def test_move_for_a_ggf_position(tmp_path):
    lines = ["nboard 2", f"set game {ggf(START, '*', 'B[F5]W[D6//0.5]')}", "go", "quit"]
    out, logged, _, code = run(lines, tmp_path)
    # After f5 d6: d4 O, e4 X, d5 O (flipped by d6), e5 X, f5 X, d6 O; black to move.
    board = "-" * 27 + "OX" + "-" * 6 + "OXX" + "-" * 5 + "O" + "-" * 20
    assert logged == ["new", f"{board} X 8 8", "quit"]
    # The fake driver plays the first legal move: c3 (c3-d4-e5), with a score.
    assert len(answers(out)) == 1 and answers(out)[0].startswith("=== C3/1.25/")
    assert "nodestats 100 " in " ".join(out)
    assert code == 0


def test_depth_and_exact_depth(tmp_path):
    lines = [f"set game {ggf(START, '*')}", "set depth 12", "go", "set depth 0", "go", "quit"]
    _, logged, _, _ = run(lines, tmp_path)
    assert logged[1:3] == [f"{START.replace('*', 'X')} X 12 12"] * 2
    _, logged, _, _ = run([f"set game {ggf(START, '*')}", "set depth 99", "go", "quit"], tmp_path)
    assert logged[1] == f"{START.replace('*', 'X')} X 60 60"
    _, logged, _, _ = run(lines, tmp_path, "--exact", "10")
    assert logged[1:3] == [f"{START.replace('*', 'X')} X 12 10"] * 2
    _, logged, _, _ = run([f"set game {ggf(START, '*')}", "go", "quit"], tmp_path, "--depth", "5")
    assert logged[1] == f"{START.replace('*', 'X')} X 5 5"


def test_forced_pass_is_answered_without_the_driver(tmp_path):
    out, logged, _, _ = run([f"set game {ggf(PASS_BOARD, '*')}", "go", "quit"], tmp_path)
    assert answers(out) == ["=== PA//0.000"]
    assert logged == ["quit"]


def test_passes_in_the_record_and_in_moves(tmp_path):
    white_to_move = "OOO" + "-" * 59 + "*O"
    for record in ["W[C1]", "B[PA]W[C1]"]:
        # White's c1 follows black's pass (left out of the record or not); black must pass again.
        lines = [f"set game {ggf(PASS_BOARD, '*', record)}", "go", "move PA", "go", "quit"]
        out, logged, _, _ = run(lines, tmp_path)
        assert answers(out)[0] == "=== PA//0.000"
        # Then white's only move f8 flips g8: a forced move, answered without a score.
        assert answers(out)[1].startswith("=== F8//")
        assert logged == ["new", f"{white_to_move.replace('*', 'X')} O 8 8", "quit"]
    # `move C1` is white's move after black's implicit pass; then black passes with `move PA`.
    lines = [f"set game {ggf(PASS_BOARD, '*')}", "move C1", "move PA", "go", "quit"]
    out, logged, err, _ = run(lines, tmp_path)
    assert logged == ["new", f"{white_to_move.replace('*', 'X')} O 8 8", "quit"]
    assert answers(out)[0].startswith("=== F8//") and err == ""


def test_bad_records_and_moves_keep_the_position(tmp_path):
    lines = [
        f"set game {ggf(START, '*', 'B[F5]')}",
        f"set game {ggf(START, '*', 'B[PA]')}",  # a pass with legal moves
        f"set game {ggf(START, '*', 'W[PA]')}",  # a pass out of turn
        f"set game {ggf(START, '*', 'W[E3]')}",  # out of turn (e3 is legal for white)
        f"set game {ggf(START, '6')}",  # not 8x8
        f"set game {ggf(START, '*', 'B[A1]')}",  # illegal
        "set game (;GM[Othello]BO[8 --- *];)",  # short board
        "set game (;GM[Othello]B[F5];)",  # no board
        "move Z9",
        "move A1",
        "go",
        "ping 3",
        "quit",
    ]
    out, logged, err, code = run(lines, tmp_path)
    assert err.count("zebra_nboard:") == 9
    assert "only 8x8" in err and "O passes out of turn" in err
    assert "X passes with a legal move" in err
    after_f5 = "-" * 27 + "OX" + "-" * 6 + "XXX" + "-" * 26
    assert logged == ["new", f"{after_f5} O 8 8", "quit"]
    assert out[-1] == "pong 3"
    assert code == 0


def test_new_game_only_when_the_game_changes(tmp_path):
    lines = [
        f"set game {ggf(START, '*', 'B[F5]')}",
        "go",
        f"set game {ggf(START, '*', 'B[F5]W[D6]')}",
        "go",
        "move C3",
        "go",
        f"set game {ggf(START, '*', 'B[F5]W[F6]')}",
        "go",
        "quit",
    ]
    _, logged, _, _ = run(lines, tmp_path)
    assert [line for line in logged if line == "new"] == ["new", "new"]
    assert logged[0] == "new" and logged[4] == "new"
    # Going back to an earlier position of the game (after `move`), or to another start board
    # without moves, is a new game too.
    after_f5 = "-" * 27 + "O*" + "-" * 6 + "***" + "-" * 26
    after_f5_d6 = "-" * 27 + "O*" + "-" * 6 + "O**" + "-" * 5 + "O" + "-" * 20
    lines = [
        f"set game {ggf(START, '*')}",
        "go",
        f"set game {ggf(after_f5_d6, '*')}",
        "go",
        "quit",
    ]
    _, logged, _, _ = run(lines, tmp_path)
    assert [i for i, line in enumerate(logged) if line == "new"] == [0, 2]
    lines = [
        f"set game {ggf(START, '*', 'B[F5]W[D6]')}",
        "move C3",
        "go",
        f"set game {ggf(START, '*', 'B[F5]W[D6]')}",
        "go",
        f"set game {ggf(after_f5, 'O')}",
        "go",
        f"set game {ggf(after_f5, 'O', 'W[D6]')}",
        "go",
        "quit",
    ]
    _, logged, _, _ = run(lines, tmp_path)
    assert [i for i, line in enumerate(logged) if line == "new"] == [0, 2, 4]


def test_hint_and_learn(tmp_path):
    out, _, _, _ = run([f"set game {ggf(START, '*')}", "hint 3", "learn", "quit"], tmp_path)
    assert "search D3 1.25 0 8" in out
    assert out[-1] == "learned"
    # An exact answer (here: 60 empties at exact depth 60) shows as depth 100%.
    out, _, _, _ = run([f"set game {ggf(START, '*')}", "set depth 60", "hint 1", "quit"], tmp_path)
    assert "search D3 1.25 0 100%" in out


def test_driver_failures(tmp_path):
    dead = [sys.executable, "-c", "import sys; sys.exit(3)"]
    out, _, err, code = run([f"set game {ggf(START, '*')}", "go", "quit"], tmp_path, driver=dead)
    assert code == 1 and "driver exited" in err
    _, _, err, code = run(["quit"], tmp_path, driver=[str(tmp_path / "no-such-driver")])
    assert code == 2 and "cannot start the driver" in err

    def answering(answer):
        script = "import sys\nfor l in sys.stdin:\n"
        script += f"    print('ok' if l.startswith('new') else {answer!r}, flush=True)"
        return [sys.executable, "-c", script]

    game = [f"set game {ggf(START, '*')}", "go", "quit"]
    _, _, err, code = run(game, tmp_path, driver=answering("a1 0 1 mid"))
    assert code == 1 and "illegal move a1" in err
    for answer, why in [
        ("error bad input line", "refused"),
        ("d3 x 1 mid", "bad driver answer"),
        ("d3 1.0", "bad driver answer"),
    ]:
        _, _, err, code = run(game, tmp_path, driver=answering(answer))
        assert code == 1 and why in err and "Traceback" not in err, err


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_rules_agree_with_the_fake_driver_on_random_games():
    adapter = load(ADAPTER, "zebra_nboard")
    rng = random.Random(5)
    fake_src = FAKE.read_text().split("log = os.environ")[0]
    fake = {}
    exec(fake_src, fake)
    positions = 0
    for _ in range(40):
        pos = adapter.Position()
        passes = 0
        while passes < 2:
            board = "".join(pos.board)
            moves = adapter.legal_moves(pos.board, pos.side)
            assert moves == fake["first_move"](board, pos.side)
            positions += 1
            if not moves:
                pos.play(None)
                passes += 1
                continue
            passes = 0
            sq = rng.choice(moves)
            before = pos.board.count(pos.side)
            flipped = len(adapter.flips(pos.board, pos.side, sq))
            side = pos.side
            pos.play(sq)
            assert pos.board.count(side) == before + flipped + 1
    assert positions > 2000
