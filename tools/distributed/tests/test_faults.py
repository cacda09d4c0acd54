"""Faults: a worker killed mid-run, units that fail and are retried (bounded), units that keep
failing and are reported, and builds that must not mix."""

from __future__ import annotations

import os
import signal
import stat
import threading
import time

from conftest import DATA
from othello_distributed import perft, solve
from othello_distributed.journal import Journal
from othello_distributed.runner import run_units
from othello_distributed.units import Unit

PERFT_12 = 1939886636  # published


def othello_processes(binary: str) -> list[tuple[int, int]]:
    """(pid, parent pid) of every live process running `binary` with work to do."""
    found = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/cmdline", "rb") as f:
                argv = f.read().split(b"\0")
            with open(f"/proc/{d}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if argv and argv[0].decode(errors="replace") == binary and b"--version" not in argv and fields[0] != "Z":
            found.append((int(d), int(fields[1])))
    return found


def is_ray_worker(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().startswith(b"ray::")
    except OSError:
        return False


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_killing_a_worker_mid_run_still_gives_the_exact_total(cluster, othello_bin, identity, tmp_path):
    plan = perft.plan(othello_bin, 12, 3, 14)
    killed: list[tuple[int, int]] = []
    stop = threading.Event()

    def killer():
        while not stop.is_set() and not killed:
            for pid, ppid in othello_processes(othello_bin):
                if is_ray_worker(ppid):
                    os.kill(ppid, signal.SIGKILL)  # the Ray worker running this othello
                    killed.append((ppid, pid))
                    return
            time.sleep(0.002)

    t = threading.Thread(target=killer)
    t.start()
    j = Journal(str(tmp_path / "fault.journal"), plan.job, identity, "perft")
    try:
        outcome = run_units(plan.units, j, othello_bin, identity, retries=3)
    finally:
        stop.set()
        t.join()
        j.close()
    assert killed, "no worker was caught running othello"
    assert outcome.complete, outcome.failures
    assert perft.total(plan, outcome.results) == PERFT_12
    # The killed worker's othello child died with it, and nothing is left running.
    worker, child = killed[0]
    deadline = time.monotonic() + 10
    while alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(child)
    assert [p for p in othello_processes(othello_bin) if is_ray_worker(p[1])] == []


def flaky_binary(tmp_path, real: str, fails: int) -> tuple[str, str]:
    """A wrapper that reports the real build identity but dies by SIGKILL on its first `fails`
    runs, then behaves as the real binary. Returns (wrapper path, counter path)."""
    counter = tmp_path / "runs"
    counter.write_text("0")
    wrapper = tmp_path / "othello-flaky"
    wrapper.write_text(
        "#!/bin/sh\n"
        f'if [ "$1" = "--version" ]; then exec "{real}" "$@"; fi\n'
        f'n=$(( $(cat "{counter}") + 1 )); echo $n > "{counter}"\n'
        f'if [ $n -le {fails} ]; then kill -9 $$; fi\n'
        f'exec "{real}" "$@"\n'
    )
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IEXEC)
    return str(wrapper), str(counter)


def one_solve_unit() -> tuple[str, list[Unit]]:
    return solve.plan(solve.read_obf(str(DATA / "fforum-1-19.obf"))[:2], 2)


def test_a_failing_child_is_retried_within_the_bound(cluster, othello_bin, identity, tmp_path):
    wrapper, counter = flaky_binary(tmp_path, othello_bin, fails=2)
    job, units = one_solve_unit()
    j = Journal(str(tmp_path / "retry.journal"), job, identity, "solve")
    outcome = run_units(units, j, wrapper, identity, retries=3)
    assert outcome.complete
    assert open(counter).read().strip() == "3"
    assert [r["score"] for r in outcome.results[units[0].key]] == [18, 10]


def test_a_unit_that_keeps_failing_is_reported_not_dropped(cluster, othello_bin, identity, tmp_path):
    wrapper, counter = flaky_binary(tmp_path, othello_bin, fails=100)
    job, units = one_solve_unit()
    j = Journal(str(tmp_path / "fail.journal"), job, identity, "solve")
    outcome = run_units(units, j, wrapper, identity, retries=2)
    j.close()
    assert not outcome.complete
    assert list(outcome.failures) == [units[0].key]
    assert "signal 9" in outcome.failures[units[0].key]
    assert open(counter).read().strip() == "3"  # the first try and two retries
    assert units[0].key not in Journal(str(tmp_path / "fail.journal"), job, identity, "solve").done


def test_bad_input_is_not_retried(cluster, othello_bin, identity, tmp_path):
    wrapper, counter = flaky_binary(tmp_path, othello_bin, fails=0)
    units = [Unit("perft", {"depth": 3, "positions": ["not a position"], "threads": 1})]
    j = Journal(str(tmp_path / "bad.journal"), "bad", identity, "perft")
    outcome = run_units(units, j, wrapper, identity, retries=3)
    assert "BadInput" in outcome.failures[units[0].key]
    assert open(counter).read().strip() == "1"


def test_another_build_on_a_worker_is_refused(cluster, othello_bin, identity, tmp_path):
    job, units = one_solve_unit()
    other = identity.replace("inputs ", "inputs 0")
    j = Journal(str(tmp_path / "mix.journal"), job, other, "solve")
    outcome = run_units(units, j, othello_bin, other, retries=3)
    assert "IdentityMismatch" in outcome.failures[units[0].key]
    assert j.done == {}


def wait_for_child(binary: str, before: set[int], timeout: float = 60) -> tuple[int, int]:
    """A new othello process run by a Ray worker (not one of `before`)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = [p for p in othello_processes(binary) if p[0] not in before and is_ray_worker(p[1])]
        if found:
            return found[0]
        time.sleep(0.005)
    raise AssertionError("no othello child started")


def test_a_cancelled_task_leaves_no_othello_running(cluster, othello_bin, identity):
    import ray

    from othello_distributed.runner import _task

    # perft 14 from the start: minutes of work, cancelled as soon as its child runs.
    start = "---------------------------OX------XO--------------------------- X"
    for force in (False, True):
        before = {pid for pid, _ in othello_processes(othello_bin)}
        ref = _task.options(max_retries=0).remote(
            "perft", {"depth": 14, "positions": [start], "threads": 1}, othello_bin, identity
        )
        child, worker = wait_for_child(othello_bin, before)
        ray.cancel(ref, force=force)
        try:
            ray.get(ref, timeout=60)
            raise AssertionError("a cancelled task returned")
        except (ray.exceptions.TaskCancelledError, ray.exceptions.WorkerCrashedError, ray.exceptions.RayTaskError):
            pass
        deadline = time.monotonic() + 10
        while alive(child) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not alive(child), f"othello {child} outlived its cancelled task (force={force})"
