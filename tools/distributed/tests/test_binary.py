"""The child-process layer without Ray: the cached build identity, exit codes mapped to the
error classes, unreadable output, and a child that dies with its parent."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import time

import pytest

from othello_distributed import binary as bin_


def script(path, body: str) -> str:
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return str(path)


def test_the_identity_is_asked_once_per_version_of_the_file(tmp_path):
    counter = tmp_path / "asked"
    counter.write_text("")
    fake = tmp_path / "othello"
    body = 'echo x >> "{c}"; echo "othello 0.1.0 (commit {v}, inputs 00)"\n'
    script(fake, body.format(c=counter, v="aaaa"))
    first = bin_.cached_identity(str(fake))
    assert first == "othello 0.1.0 (commit aaaa, inputs 00)"
    assert bin_.cached_identity(str(fake)) == first
    assert counter.read_text().count("x") == 1
    # Rebuilt at the same path (new contents, size and times): asked again.
    time.sleep(0.01)
    script(fake, body.format(c=counter, v="bbbbbb"))
    assert bin_.cached_identity(str(fake)) == "othello 0.1.0 (commit bbbbbb, inputs 00)"
    assert counter.read_text().count("x") == 2
    # Another probe (othello-train's) on the same file is its own question.
    assert bin_.cached_identity(str(fake), lambda p: "other " + p) == "other " + str(fake)


def test_exit_codes_map_to_the_error_classes(tmp_path):
    exits = script(tmp_path / "exits", 'echo "line $1" >&2; exit "$1"\n')
    assert bin_.run_checked([exits, "0"], "step").returncode == 0
    with pytest.raises(bin_.BadInput, match="^step: line 2$"):
        bin_.run_checked([exits, "2"], "step")
    with pytest.raises(bin_.ChildFailed, match="^step: line 3$"):
        bin_.run_checked([exits, "3"], "step")
    with pytest.raises(bin_.ChildFailed, match="^step: line 1$"):
        bin_.run_checked([exits, "1"], "step")
    assert bin_.run_checked([exits, "1"], "step", accept=(0, 1)).returncode == 1
    with pytest.raises(bin_.BadInput, match="^step: line 3$"):
        bin_.run_checked([exits, "3"], "step", failed=bin_.BadInput)


def test_unreadable_output_is_a_failed_child(tmp_path):
    printer = script(tmp_path / "printer", 'printf \'{"a": 1}\\n\\n{"b": 2}\\n%s\\n\' "$1"\n')
    assert bin_.json_lines(bin_.run_checked([printer, "[3]"], "p"), "p") == [{"a": 1}, {"b": 2}, [3]]
    with pytest.raises(bin_.ChildFailed, match="^p printed unreadable output"):
        bin_.json_lines(bin_.run_checked([printer, "{half"], "p"), "p")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_a_child_dies_with_its_parent(tmp_path):
    # A parent process runs a long child through `run`, prints the child's pid, and is
    # SIGKILLed (nothing of it runs afterwards): the child must go too.
    pidfile = tmp_path / "child.pid"
    child = script(tmp_path / "child", f'echo $$ > "{pidfile}"; exec sleep 60\n')
    code = f"from othello_distributed import binary as b; b.run([{child!r}])"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    parent = subprocess.Popen([sys.executable, "-c", code], env=env)
    try:
        deadline = time.monotonic() + 30
        while not (pidfile.exists() and pidfile.read_text().strip()) and time.monotonic() < deadline:
            time.sleep(0.01)
        pid = int(pidfile.read_text())
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with open(f"/proc/{pid}/stat") as f:
                    if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                        break
            except OSError:
                break
            time.sleep(0.02)
        else:
            os.kill(pid, signal.SIGKILL)
            raise AssertionError(f"child {pid} outlived its SIGKILLed parent")
    finally:
        parent.kill()
        parent.wait()
