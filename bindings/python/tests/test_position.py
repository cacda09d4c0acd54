import copy
import pickle

import pytest

import othello_toolkit as ot
from reference import flips, legal_moves, random_positions, reference_perft

START = "---------------------------OX------XO--------------------------- X"


def test_perft_published_counts_from_the_start():
    p = ot.Position()
    assert [ot.perft(p, d) for d in range(1, 9)] == [4, 12, 56, 244, 1396, 8200, 55092, 390216]


def test_perft_threaded_and_hashed_give_the_same_counts():
    p = ot.Position()
    assert ot.perft(p, 8, threads=2) == 390216
    assert ot.perft(p, 8, hash_mib=4) == 390216
    assert ot.perft(p, 9, threads=2, hash_mib=4) == 3005288
    assert ot.perft(p, 0) == 1


def test_start_text_and_properties():
    p = ot.Position()
    assert str(p) == START
    assert repr(p) == f"Position('{START}')"
    assert p == ot.Position(START) == ot.Position.start()
    assert p.side == "X" and p.size == 8 and p.empty_count == 60
    assert p.disc_counts() == (2, 2)
    assert p.moves() == ["d3", "c4", "f5", "e6"]
    assert ot.squares(p.legal_moves) == ["d3", "c4", "f5", "e6"]
    assert p.black == (1 << 28) | (1 << 35) and p.player == p.black
    assert p.board_string() == START.split()[0]
    assert "X (black) 2" in p.pretty()


def test_aliases_and_small_boards():
    assert ot.Position("...........................ox......xo........................... *") == ot.Position()
    six = ot.Position.start(6)
    assert six.size == 6 and six.empty_count == 32
    assert str(six) == "--------------OX----XO-------------- X"
    for size, depth in ((4, 6), (6, 4), (8, 3)):
        start = ot.Position.start(size)
        for d in range(depth + 1):
            assert ot.perft(start, d) == reference_perft(start.player, start.opponent, d, size)


def test_play_is_immutable_and_matches_moves():
    p = ot.Position()
    q = p.play("f5")
    assert p == ot.Position()
    assert q.side == "O" and q.disc_counts() == (4, 1)
    assert q == p.play(37) == ot.Position.from_moves("f5")
    assert ot.Position.from_moves("f5d6c3") == p.play("f5").play("d6").play("c3")
    assert p.play_moves("f5 d6, c3") == ot.Position.from_moves("f5d6c3")
    assert ot.parse_moves("f5PSd6pass") == ["f5", "pass", "d6", "pass"]


def test_legal_moves_and_flips_match_a_pure_python_reference():
    checked = 0
    for player, opponent in random_positions(60, seed=11):
        pos = ot.Position.from_bitboards(player, opponent)
        expected = legal_moves(player, opponent)
        assert pos.legal_moves == expected
        assert ot.squares(expected) == [m for m in pos.moves() if m != "pass"]
        assert [ot.square_name(i) for i in pos.move_indices()] == pos.moves()
        for sq in range(64):
            f = flips(player, opponent, sq)
            assert pos.flips(sq) == f
            if f:
                nxt = pos.play(sq)
                assert (nxt.player, nxt.opponent) == (opponent ^ f, player | f | (1 << sq))
        if not expected:
            if legal_moves(opponent, player):
                assert pos.must_pass() and pos.moves() == ["pass"]
                assert pos.pass_turn() == ot.Position.from_bitboards(opponent, player, side="O")
            else:
                assert pos.is_game_over() and pos.moves() == []
        checked += 1
    assert checked > 3000


def test_final_score_gives_empties_to_the_winner():
    # Black 3 discs, white 1, rest empty, nobody can move: 3 - 1 + 60 empties.
    p = ot.Position.from_discs(0b111, 1 << 63)
    assert p.is_game_over()
    assert p.final_score() == 62 and p.final_score_black() == 62
    with pytest.raises(ValueError, match="the game is over"):
        p.play("pass")
    q = ot.Position.from_discs(0b111, 1 << 63, side="O")
    assert q.final_score() == -62 and q.final_score_black() == 62
    assert ot.Position.from_discs(1, 1 << 63).final_score() == 0


def test_symmetries_and_canonical():
    p = ot.Position.from_moves("f5d6c3d3c4")
    images = p.symmetries()
    assert len(images) == 8 and len(set(images)) == 8
    assert images[0] == p and ot.SYMMETRIES[0] == "identity"
    assert p.symmetry("rotate180") == images[ot.SYMMETRIES.index("rotate180")]
    assert p.symmetry(6) == p.symmetry("rotate180")
    assert p.symmetry("rotate90").symmetry("rotate270") == p
    canon = p.canonical()
    for image in images:
        assert image.canonical() == canon
        assert ot.perft(image, 3) == ot.perft(p, 3)
        assert image.disc_counts() == p.disc_counts()
    assert min((i.player, i.opponent) for i in images) == (canon.player, canon.opponent)


def test_equality_hash_copy_pickle():
    a = ot.Position.from_moves("f5d6")
    b = ot.Position.from_moves("f5 d6")
    assert a == b and hash(a) == hash(b) and len({a, b, ot.Position()}) == 2
    assert a != ot.Position() and a != "not a position"
    assert copy.copy(a) == a and copy.deepcopy(a) == a
    assert pickle.loads(pickle.dumps(a)) == a


def test_obf():
    line = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12;"
    pos, scores = ot.parse_obf(line)
    assert scores == [("g8", 18), ("h1", 12)]
    assert ot.Position.from_obf(line) == pos
    assert pos.to_obf() == str(pos) + ";"
    assert ot.Position.from_obf(pos.to_obf()) == pos


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "empty position string"),
        ("---------------------------OX------XO---------------------------", "missing side to move"),
        ("---------------------------OX------XO--------------------------- Q", "bad side to move 'Q'"),
        ("----------------------------OX------XO--------------------------- X", "board has 65 squares"),
        ("--------------------------AOX------XO--------------------------- X", "bad board character 'A' at position 27"),
        (START + " extra", "unexpected text after the side to move"),
    ],
)
def test_bad_board_strings_raise_value_error_naming_the_problem(text, message):
    with pytest.raises(ValueError, match=message):
        ot.Position(text)


def test_bad_moves_raise_value_error_with_the_reason():
    p = ot.Position()
    with pytest.raises(ValueError, match="illegal move a1 for black: it flips no disc"):
        p.play("a1")
    with pytest.raises(ValueError, match="illegal move d4 for black: the square is occupied"):
        p.play("d4")
    with pytest.raises(ValueError, match="a pass is only legal without another move"):
        p.pass_turn()
    with pytest.raises(ValueError, match="bad move 'z9'"):
        p.play("z9")
    with pytest.raises(ValueError, match="bad move index 65"):
        p.play(65)
    with pytest.raises(ValueError, match="bad move index -1"):
        p.play(-1)
    with pytest.raises(ValueError, match="move sequence, move 2: illegal move f5"):
        ot.Position.from_moves("f5f5")
    with pytest.raises(ValueError, match="move sequence, character 3"):
        ot.Position.from_moves("f5z9")
    with pytest.raises(ValueError, match="bad OBF field"):
        ot.parse_obf(START + "; F5;")
    with pytest.raises(ValueError, match="holds both a black and a white disc"):
        ot.Position.from_discs(1, 1)
    with pytest.raises(ValueError, match="outside the 4x4 board"):
        ot.Position.from_discs(1 << 63, 0, size=4)
    with pytest.raises(ValueError, match="bad board size 5"):
        ot.Position.start(5)
    with pytest.raises(ValueError, match="bad symmetry"):
        p.symmetry("mirror")
    with pytest.raises(ValueError, match="bad side to move"):
        ot.Position.from_discs(1, 2, side="B")
    with pytest.raises(OverflowError):
        ot.Position.from_discs(-1, 0)
    with pytest.raises(TypeError, match="not float"):
        p.play(1.5)
    with pytest.raises(ValueError, match="bad move index"):
        p.play(1 << 70)
