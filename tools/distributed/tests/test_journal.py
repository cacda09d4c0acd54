"""The journal on its own: durable appends, a half-written tail, refusing other jobs and builds."""

from __future__ import annotations

import json

import pytest

from othello_distributed.journal import Journal, JournalError

ID = "othello 0.1.0 (commit abc, inputs 00)"


def test_records_survive_and_a_half_written_tail_is_cut(tmp_path):
    path = str(tmp_path / "j")
    j = Journal(path, "job1", ID, "perft")
    j.record("u1", [1, 2])
    j.record("u2", [3])
    j.record("u1", [1, 2])  # the same unit again: counted once
    j.close()
    assert len(open(path).read().splitlines()) == 3
    with open(path, "a") as f:
        f.write('{"unit":"u3","ident')  # interrupted mid-line
    j = Journal(path, "job1", ID, "perft")
    assert j.done == {"u1": [1, 2], "u2": [3]}
    j.record("u3", [4])
    j.close()
    lines = [json.loads(line) for line in open(path)]
    assert [rec.get("unit") for rec in lines] == [None, "u1", "u2", "u3"]


def test_refuses_other_builds_jobs_and_conflicts(tmp_path):
    path = str(tmp_path / "j")
    j = Journal(path, "job1", ID, "perft")
    j.record("u1", [1])
    with pytest.raises(JournalError):
        j.record("u1", [2])
    j.close()
    with pytest.raises(JournalError, match="refusing to mix builds"):
        Journal(path, "job1", "othello 0.1.0 (commit def, inputs 11)", "perft")
    with pytest.raises(JournalError, match="another job"):
        Journal(path, "job2", ID, "perft")
    # A record from another build inside the file.
    with open(path, "a") as f:
        f.write(json.dumps({"unit": "u9", "identity": "other", "result": [0]}) + "\n")
    with pytest.raises(JournalError, match="from build"):
        Journal(path, "job1", ID, "perft")


def test_corruption_before_the_end_is_an_error(tmp_path):
    path = tmp_path / "j"
    j = Journal(str(path), "job1", ID, "solve")
    j.record("u1", [1])
    j.record("u2", [2])
    j.close()
    lines = path.read_text().splitlines()
    lines[1] = lines[1][:10]
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(JournalError, match="unreadable line"):
        Journal(str(path), "job1", ID, "solve")
    path.write_text("not a journal\n")
    with pytest.raises(JournalError):
        Journal(str(path), "job1", ID, "solve")


def test_a_file_without_newline_is_cut_only_if_it_is_our_header(tmp_path):
    path = tmp_path / "j"
    path.write_text("precious data")
    with pytest.raises(JournalError):
        Journal(str(path), "job1", ID, "perft")
    assert path.read_text() == "precious data"
    # A header interrupted mid-write is ours: cut, then written whole.
    j = Journal(str(tmp_path / "k"), "job1", ID, "perft")
    header = j._header_text()
    (tmp_path / "k").write_text(header[:20])
    j = Journal(str(tmp_path / "k"), "job1", ID, "perft")
    j.record("u1", [5])
    j.close()
    assert (tmp_path / "k").read_text().splitlines()[0] == header.strip()
