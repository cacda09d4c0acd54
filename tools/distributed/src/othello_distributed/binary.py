"""The `othello` binary: finding it, its build identity, and running it as a child process that
never outlives the task that started it."""

from __future__ import annotations

import ctypes
import os
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass

__all__ = [
    "BadInput",
    "BinaryError",
    "ChildFailed",
    "IdentityMismatch",
    "MixedBuilds",
    "ChildResult",
    "identity",
    "resolve",
    "run",
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
    """In the child, before exec: its own process group (set by start_new_session), and on
    Linux a SIGKILL when the parent dies, so even a SIGKILLed worker leaves no child."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: the process-group kill below still applies
        pass


def run(argv: list[str], stdin: str | None = None, timeout: float | None = None) -> ChildResult:
    """Runs the binary to completion. The child runs in its own process group; if this call is
    interrupted (an exception, a task cancellation, a timeout), the whole group is killed
    before the exception propagates."""
    proc = subprocess.Popen(
        argv,
        stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=_die_with_parent,
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


def check_identity(binary: str, expected: str) -> str:
    """The binary's identity; raises IdentityMismatch unless it is `expected`."""
    got = identity(binary)
    if got != expected:
        raise IdentityMismatch(f"{binary} is build {got!r}, the job runs {expected!r}")
    return got


def first_error_line(r: ChildResult) -> str:
    """The child's one-line error, or a description of how it ended."""
    lines = [line for line in r.stderr.splitlines() if line.strip()]
    if lines:
        return lines[-1].strip()
    if r.returncode < 0:
        return f"killed by signal {-r.returncode}"
    return f"exit code {r.returncode}"
