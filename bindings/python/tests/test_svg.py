import xml.etree.ElementTree as ET

import pytest

import othello_toolkit as ot

NS = "{http://www.w3.org/2000/svg}"


def classes(svg):
    root = ET.fromstring(svg)
    assert root.tag == NS + "svg"
    return [e.get("class") for e in root.iter() if e.get("class")]


def test_repr_svg_is_a_board_picture():
    for p in (ot.Position(), ot.Position.from_moves("f5d6c3"), ot.Position.start(6), ot.Position.start(4)):
        svg = p._repr_svg_()
        assert svg == p.svg()
        c = classes(svg)
        black, white = p.disc_counts()
        assert c.count("disc black") == black and c.count("disc white") == white
        assert c.count("legal") == len([m for m in p.moves() if m != "pass"])


def test_svg_options():
    p = ot.Position.from_moves("f5")
    c = classes(p.svg(last_move="f5", values=[("d6", 0), ("f4", -2)], pv="d6", title="after f5"))
    assert c.count("last-move") == 1 and c.count("value") >= 1 and c.count("pv") >= 1
    assert classes(p.svg(legal=False)).count("legal") == 0
    solved = ot.Position.from_obf(
        "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X;")
    scores = ot.Solver(tt_mib=4).score_moves(solved)
    assert classes(solved.svg(values=dict(scores))).count("value") == len(scores)
    r = ot.Engine("pvs:depth=3").think(p, multi_pv=True)
    assert "value" in classes(p.svg(values=r.root_moves, centi=True, pv=r.pv))


def test_svg_errors():
    p = ot.Position()
    with pytest.raises(ValueError, match="holds a disc"):
        p.svg(values={"d4": 3})
    with pytest.raises(ValueError, match="principal variation"):
        p.svg(pv="a1")
    with pytest.raises(ValueError, match="empty square"):
        p.svg(last_move="a1")
    with pytest.raises(ValueError, match="bad move"):
        p.svg(pv=["z9"])
