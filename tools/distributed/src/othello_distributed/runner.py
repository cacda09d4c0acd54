"""Running units as Ray tasks. Workers execute a unit with the `othello` binary and return its
result; the driver alone writes: it records each finished unit in the journal as it arrives.

Retries are Ray's: a crashed or killed worker (a system failure) and a `ChildFailed` (the child
crashed or printed nothing readable) are retried up to `retries` times; bad input and a build
mismatch are not, since a retry cannot fix them. A unit that still fails is reported in
`Outcome.failures`, never dropped silently.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable

import ray

from . import binary as bin_
from .journal import Journal
from .units import EXECUTORS, IDENTITIES, Unit

__all__ = ["Outcome", "run_units", "execute"]


def execute(kind: str, payload: dict[str, Any], binary: str | None, identity: str) -> dict[str, Any]:
    """Runs one unit where it is called (a worker): checks the binary's build identity first
    (asked once per version of the file in this worker: `binary.cached_identity`), then runs
    the unit's executor. Returns {"identity": the identity this node's binary
    reported, "result": ...}; the driver checks the identity again."""
    from . import book, match, perft, selfplay, solve  # noqa: F401  (register the executors in the worker)

    path = bin_.resolve(binary)
    seen = bin_.cached_identity(path, IDENTITIES.get(kind, bin_.identity))
    if seen != identity:
        raise bin_.IdentityMismatch(f"{path} is build {seen!r}, the job runs {identity!r}")
    result = EXECUTORS[kind](payload, path)
    return {"identity": seen, "result": result}


@ray.remote
def _task(kind: str, payload: dict[str, Any], binary: str | None, identity: str) -> dict[str, Any]:
    return execute(kind, payload, binary, identity)


@dataclass
class Outcome:
    """The results of a job's units, keyed by unit key, and what happened on the way."""

    results: dict[str, Any]
    failures: dict[str, str] = field(default_factory=dict)
    executed: int = 0
    resumed: int = 0
    seconds: float = 0.0
    stopped: bool = False  # `on_result` asked to stop: units not run (or cancelled) are absent

    @property
    def complete(self) -> bool:
        return not self.failures


def run_units(
    units: list[Unit],
    journal: Journal,
    binary: str | None,
    identity: str,
    retries: int = 3,
    max_in_flight: int | None = None,
    num_cpus: float = 1,
    on_result: Callable[[Unit, Any], bool | None] | None = None,
) -> Outcome:
    """Runs every unit not already in `journal` as a Ray task, recording each result as it
    arrives. `binary` is the path (or name on PATH) the workers run; `identity` the build every
    task must find there. When `on_result` (called in the driver after each result is
    recorded) returns true, no further unit is submitted and the pending ones are cancelled
    (their children killed); `Outcome.stopped` says so."""
    t0 = time.monotonic()
    distinct: dict[str, Unit] = {}
    for u in units:
        distinct.setdefault(u.key, u)
    results: dict[str, Any] = {}
    todo: list[Unit] = []
    for key, u in distinct.items():
        if key in journal.done:
            results[key] = journal.done[key]
        else:
            todo.append(u)
    outcome = Outcome(results=results, resumed=len(results))
    if max_in_flight is None:
        cpus = int(ray.cluster_resources().get("CPU", 1))
        max_in_flight = max(2, 2 * cpus)
    task = _task.options(
        max_retries=retries,
        retry_exceptions=[bin_.ChildFailed],
        num_cpus=num_cpus,
    )
    pending: dict[Any, Unit] = {}
    queue = list(reversed(todo))
    while queue or pending:
        while queue and len(pending) < max_in_flight:
            u = queue.pop()
            pending[task.remote(u.kind, u.payload, binary, identity)] = u
        ready, _ = ray.wait(list(pending), num_returns=1)
        for ref in ready:
            u = pending.pop(ref)
            try:
                got = ray.get(ref)
            except Exception as e:  # noqa: BLE001  every failure is reported with its unit
                outcome.failures[u.key] = _describe(e)
                continue
            if got.get("identity") != identity:
                raise bin_.MixedBuilds(f"unit {u.key} came back from build {got.get('identity')!r}, not {identity!r}")
            journal.record(u.key, got["result"])
            results[u.key] = got["result"]
            outcome.executed += 1
            if on_result is not None and on_result(u, got["result"]):
                outcome.stopped = True
        if outcome.stopped:
            queue.clear()
            for ref in pending:
                ray.cancel(ref, force=False)
            for ref in pending:  # wait for the cancellations, so no child outlives the job
                try:
                    ray.get(ref)
                except Exception:  # noqa: BLE001  cancelled (or failed): not a result
                    pass
            pending.clear()
    outcome.seconds = time.monotonic() - t0
    return outcome


def _describe(e: BaseException) -> str:
    """The root cause of a task failure on one line."""
    cause = getattr(e, "cause", None)
    if isinstance(cause, BaseException):
        return f"{type(cause).__name__}: {cause}".splitlines()[0]
    text = str(e).strip().splitlines()
    return f"{type(e).__name__}: {text[-1] if text else ''}"
