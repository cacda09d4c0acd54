import json

import pytest

import othello_toolkit as ot

BOARD = "BO[8 ---------------------------O*------*O--------------------------- *]"
GAME = f"(;GM[Othello]PC[here]PB[alice]PW[bob]RE[+2.000]TY[8]{BOARD}B[F5//1.5]W[D6/-0.5/0.25];)"


def test_ggf_game():
    g = ot.Game.parse(GAME)
    assert (g.black, g.white, g.place, g.result, g.ending) == ("alice", "bob", "here", 2.0, "scored")
    assert g.moves == ["f5", "d6"] and g.colors == ["X", "O"]
    assert g.evals == [None, -0.5] and g.times == [1.5, 0.25]
    assert g.start == ot.Position()
    assert g.positions() == [ot.Position(), ot.Position.from_moves("f5"), ot.Position.from_moves("f5d6")]
    assert g.final_position() == ot.Position.from_moves("f5d6")
    assert ot.Game.parse(str(g)).moves == g.moves


def test_read_ggf_many_and_errors(tmp_path):
    text = GAME + "\n" + GAME.replace("alice", "carol") + "\n"
    games = ot.read_ggf(text)
    assert [g.black for g in games] == ["alice", "carol"]
    path = tmp_path / "games.ggf"
    path.write_text(text)
    assert len(ot.read_ggf_file(path)) == 2
    with pytest.raises(ValueError, match="GGF record 2: GGF move 1 \\(B\\[f4\\]\\) is illegal"):
        ot.read_ggf(GAME + GAME.replace("B[F5//1.5]", "B[F4]"))
    with pytest.raises(ValueError, match="GGF record 1: GGF record without a board"):
        ot.read_ggf("(;GM[Othello];)")


def test_read_jsonl(tmp_path):
    record = {"game": 1, "opening": "f5d6c3d3", "a_color": "X", "black": "pvs", "white": "mcts",
              "result": "win", "moves": ["c4", "f4"], "ending": "scored"}
    board = str(ot.Position.from_moves("f5d6"))
    record2 = dict(record, game=2, opening=board, moves=["c3"])
    lines = [json.dumps(record), json.dumps({"summary": True}), "", json.dumps(record2)]
    path = tmp_path / "games.jsonl"
    path.write_text("\n".join(lines))
    games = ot.read_jsonl(path)
    assert [g["game"] for g in games] == [1, 2]
    assert games[0]["start"] == ot.Position.from_moves("f5d6c3d3")
    assert games[0]["positions"][-1] == ot.Position.from_moves("f5d6c3d3c4f4")
    assert games[1]["start"] == ot.Position.from_moves("f5d6")
    assert len(games[1]["positions"]) == 2
    small = dict(record, opening="", moves=["b1"])
    assert ot.record_start(small) is None or ot.record_start(small).size in (6, 4)
    with pytest.raises(ValueError, match="JSON Lines record 2"):
        ot.read_jsonl(["{}", "{not json"])
