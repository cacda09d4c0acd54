"""The `othello` binary: finding it, its build identity, and running it as a child process that
never outlives the task that started it."""

from __future__ import annotations

import ctypes
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from typing import Any, Callable

__all__ = [
    "BadInput",
    "BinaryError",
    "ChildFailed",
    "IdentityMismatch",
    "MixedBuilds",
    "ChildResult",
    "cached_identity",
    "identity",
    "json_lines",
    "resolve",
    "run",
    "run_checked",
]


class BinaryError(Exception):
    """The binary could not do the work (base class)."""


class ChildFailed(BinaryError):
    """The child crashed, was killed, or printed output we cannot read: worth a retry."""


class BadInput(BinaryError):
    """The binary rejected its input (exit code 2): retrying cannot help."""


class IdentityMismatch(BinaryError):
    """The binary on this node is another build than the driver's: retrying cannot help."""


class MixedBuilds(BinaryError):
    """A result came back from another build than the job's (seen by the driver)."""


@dataclass
class ChildResult:
    """What a finished child printed, and how it ended."""

    returncode: int
    stdout: str
    stderr: str


def resolve(binary: str | None) -> str:
    """An absolute path to the binary: `binary` if given (a path, or a name looked up on PATH),
    else `othello` on PATH."""
    name = binary or "othello"
    if os.sep in name:
        if not (os.path.isfile(name) and os.access(name, os.X_OK)):
            raise BinaryError(f"no executable othello binary at {name}")
        return os.path.abspath(name)
    found = shutil.which(name)
    if found is None:
        raise BinaryError(f"{name} not found on PATH (give the binary with --binary)")
    return os.path.abspath(found)


_PR_SET_PDEATHSIG = 1
_POLL_SECONDS = 0.1


def _die_with_parent() -> None:
    """In the child, before exec: on Linux a SIGKILL when the parent dies, so even a SIGKILLed
    worker leaves no child. Only used when `setpriv` is missing (see `_launcher`)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: the process-group kill below still applies
        pass


_LAUNCHER: list[list[str]] = []  # the prefix found by `_launcher`, once per process


def _launcher() -> list[str]:
    """The argv prefix that gives a child `SIGKILL` when its parent dies, without running
    Python in a forked child: util-linux's `setpriv --pdeathsig KILL`, which sets
    `PR_SET_PDEATHSIG` and then execs the command (the child keeps its pid and its parent).
    A `preexec_fn` would do the same in Python, but it makes `subprocess` fork the whole
    interpreter (a Ray worker: tens of MiB and many threads) instead of using vfork: about
    15 ms a child on a 2-core AMD EPYC, against 2-5 ms with this prefix (docs/distributed.md).
    [] when `setpriv` is missing or lacks `--pdeathsig` (`run` then falls back to the
    `preexec_fn`), and off Linux."""
    if not _LAUNCHER:
        prefix: list[str] = []
        setpriv = shutil.which("setpriv") if sys.platform.startswith("linux") else None
        if setpriv is not None:
            probe = [setpriv, "--pdeathsig", "KILL", "--", "true"]
            try:
                ok = subprocess.run(probe, capture_output=True, timeout=10, check=False).returncode == 0
            except (OSError, subprocess.SubprocessError):
                ok = False
            if ok:
                prefix = [setpriv, "--pdeathsig", "KILL", "--"]
        _LAUNCHER.append(prefix)
    return _LAUNCHER[0]


def run(argv: list[str], stdin: str | None = None, timeout: float | None = None) -> ChildResult:
    """Runs the binary to completion. The child runs in its own process group, and on Linux
    dies with its parent (`_launcher`); if this call is interrupted (an exception, a task
    cancellation, a timeout), the whole group is killed before the exception propagates."""
    prefix = _launcher()
    preexec = _die_with_parent if not prefix and sys.platform.startswith("linux") else None
    proc = subprocess.Popen(
        [*prefix, *argv],
        stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=preexec,
    )
    deadline = None if timeout is None else time.monotonic() + timeout
    pending_input = stdin
    try:
        # Wait in short slices: an exception raised asynchronously in this thread (Ray's
        # cancellation) is only seen while Python code runs, not inside one long blocking wait.
        while True:
            try:
                out, err = proc.communicate(pending_input, timeout=_POLL_SECONDS)
                break
            except subprocess.TimeoutExpired:
                pending_input = None  # sent on the first call; later calls only wait
                if deadline is not None and time.monotonic() > deadline:
                    raise ChildFailed(f"{argv[0]} timed out after {timeout} s") from None
    finally:
        _kill_group(proc)
    return ChildResult(proc.returncode, out, err)


def _kill_group(proc: subprocess.Popen) -> None:
    """Kills the child's process group unless the child was already reaped, and reaps it.
    Cancellation can interrupt this thread more than once: the kill is sent first and the
    cleanup restarts if interrupted, so it always finishes."""
    interrupted: BaseException | None = None
    while True:
        try:
            if proc.returncode is None:
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                proc.wait()
            break
        except KeyboardInterrupt as e:  # another interruption: finish the cleanup first
            interrupted = e
    if interrupted is not None:
        raise interrupted


def identity(binary: str) -> str:
    """The build identity: the first line of `othello --version`, for example
    `othello 0.1.0 (commit 1a2b3c4d5e6f, inputs 0123...)`."""
    r = run([binary, "--version"], timeout=60)
    line = r.stdout.strip().splitlines()[0] if r.stdout.strip() else ""
    if r.returncode != 0 or not line.startswith("othello ") or "inputs " not in line:
        raise BinaryError(f"{binary} --version printed no build identity: {line or r.stderr.strip()!r}")
    return line


_IDENTITY_CACHE: dict[tuple[Any, ...], str] = {}


def cached_identity(binary: str, probe: Callable[[str], str] = identity) -> str:
    """`probe(binary)`, run once per file version in this process: the answer is kept under
    the file's device, inode, size and modification and change times, so a binary rebuilt or
    replaced at the same path is asked again. A worker runs many units with one binary; this
    spares each unit a process start (the `--version` child, or the hash of othello-train)."""
    st = os.stat(binary)
    key = (binary, probe, st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
    if key not in _IDENTITY_CACHE:
        _IDENTITY_CACHE[key] = probe(binary)
    return _IDENTITY_CACHE[key]


def check_identity(binary: str, expected: str) -> str:
    """The binary's identity; raises IdentityMismatch unless it is `expected`."""
    got = identity(binary)
    if got != expected:
        raise IdentityMismatch(f"{binary} is build {got!r}, the job runs {expected!r}")
    return got


def run_checked(
    argv: list[str],
    what: str,
    stdin: str | None = None,
    timeout: float | None = None,
    accept: tuple[int, ...] = (0,),
    failed: type[BinaryError] = ChildFailed,
) -> ChildResult:
    """`run(argv)` for a step named `what` (`othello perft`, ...): exit code 2 (bad input)
    raises BadInput, any other exit code not in `accept` raises `failed` (ChildFailed, worth a
    retry, unless the caller names another class); both carry the child's error line."""
    r = run(argv, stdin=stdin, timeout=timeout)
    if r.returncode == 2:
        raise BadInput(f"{what}: {first_error_line(r)}")
    if r.returncode not in accept:
        raise failed(f"{what}: {first_error_line(r)}")
    return r


def json_lines(r: ChildResult, what: str) -> list[Any]:
    """The child's non-blank output lines, each parsed as JSON; ChildFailed when one is not."""
    try:
        return [json.loads(line) for line in r.stdout.splitlines() if line.strip()]
    except ValueError as e:
        raise ChildFailed(f"{what} printed unreadable output: {e}") from e


def first_error_line(r: ChildResult) -> str:
    """The child's one-line error, or a description of how it ended."""
    lines = [line for line in r.stderr.splitlines() if line.strip()]
    if lines:
        return lines[-1].strip()
    if r.returncode < 0:
        return f"killed by signal {-r.returncode}"
    return f"exit code {r.returncode}"
