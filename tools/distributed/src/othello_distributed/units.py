"""Work units: a kind, a payload, and a key that is a hash of both (the same work always has the
same key, so a journal can tell which work is already done)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any, Callable

__all__ = ["Unit", "content_hash", "EXECUTORS", "IDENTITIES"]

# Unit kind -> function(payload, binary path) -> JSON-able result, run on a worker. Filled by the
# workload modules (perft, solve) when imported.
EXECUTORS: dict[str, Callable[[dict[str, Any], str], Any]] = {}

# Unit kind -> function(binary path) -> build identity, for kinds whose binary is not `othello`
# (whose identity is `binary.identity`).
IDENTITIES: dict[str, Callable[[str], str]] = {}


def content_hash(obj: Any) -> str:
    """SHA-256 (first 32 hex digits) of the canonical JSON of `obj`."""
    text = json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


@dataclass(frozen=True)
class Unit:
    """One independent piece of work, executed by one task."""

    kind: str
    payload: dict[str, Any]
    key: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "key", content_hash({"kind": self.kind, "payload": self.payload}))
