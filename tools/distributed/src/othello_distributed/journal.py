"""The driver's journal: one header line naming the job and the build, then one line per
finished unit, each flushed and synced to disk as it is written. Only the driver writes it.

A rerun reads it back and skips the units it lists. An interruption can leave a last line half
written (every record ends with its newline, so a last line without one is that); it is
dropped (and cut from the file) on reading, and that unit runs again. Any other unreadable line
is an error: the file is corrupt, or not a journal. A unit
listed twice must carry the same result both times and is counted once.
"""

from __future__ import annotations

import json
import os
from typing import Any

__all__ = ["Journal", "JournalError", "FORMAT"]

FORMAT = "othello-distributed-journal/1"


class JournalError(Exception):
    """The journal belongs to another job or build, or is corrupt before its last line."""


class Journal:
    """An append-only record of finished units for one job and one build."""

    def __init__(self, path: str, job: str, identity: str, kind: str):
        self.path = path
        self.job = job
        self.identity = identity
        self.kind = kind
        self.done: dict[str, Any] = {}
        self._file = None
        self._load()

    def _header(self) -> dict[str, Any]:
        return {"journal": FORMAT, "job": self.job, "identity": self.identity, "kind": self.kind}

    def _header_text(self) -> str:
        return json.dumps(self._header(), sort_keys=True, separators=(",", ":")) + "\n"

    def _load(self) -> None:
        if not os.path.exists(self.path):
            return
        with open(self.path, "rb") as f:
            data = f.read()
        good_end = 0
        pos = 0
        header_seen = False
        while pos < len(data):
            nl = data.find(b"\n", pos)
            if nl < 0:
                break  # a last line without its newline: half written
            raw = data[pos:nl]
            try:
                rec = json.loads(raw)
            except ValueError:
                raise JournalError(f"{self.path}: unreadable line at byte {pos} (not a journal, or corrupt)") from None
            pos = nl + 1
            if not header_seen:
                self._check_header(rec)
                header_seen = True
            else:
                self._add(rec)
            good_end = pos
        if good_end < len(data):
            if not header_seen and not self._header_text().startswith(data.decode("utf-8", "replace")):
                raise JournalError(f"{self.path} is not a journal of this job")
            # Cut the half-written tail so appends start on a fresh line.
            with open(self.path, "r+b") as f:
                f.truncate(good_end)

    def _check_header(self, rec: Any) -> None:
        if not isinstance(rec, dict) or rec.get("journal") != FORMAT:
            raise JournalError(f"{self.path} is not a journal of this tool")
        if rec.get("identity") != self.identity:
            raise JournalError(
                f"{self.path} holds results of build {rec.get('identity')!r}; this run uses "
                f"{self.identity!r}: refusing to mix builds (use another --journal or that build)"
            )
        if rec.get("job") != self.job or rec.get("kind") != self.kind:
            raise JournalError(f"{self.path} belongs to another job ({rec.get('kind')} {rec.get('job')})")

    def _add(self, rec: Any) -> None:
        if not isinstance(rec, dict) or "unit" not in rec or "result" not in rec:
            raise JournalError(f"{self.path}: malformed record {rec!r}")
        if rec.get("identity") != self.identity:
            raise JournalError(f"{self.path}: unit {rec['unit']} is from build {rec.get('identity')!r}")
        key = rec["unit"]
        if key in self.done and self.done[key] != rec["result"]:
            raise JournalError(f"{self.path}: unit {key} is listed twice with different results")
        self.done[key] = rec["result"]

    def record(self, key: str, result: Any) -> None:
        """Appends one finished unit and makes it durable before returning."""
        if key in self.done:
            if self.done[key] != result:
                raise JournalError(f"unit {key} finished twice with different results")
            return
        if self._file is None:
            new = not os.path.exists(self.path) or os.path.getsize(self.path) == 0
            self._file = open(self.path, "a", encoding="utf-8")
            if new:
                self._file.write(self._header_text())
                self._file.flush()
                os.fsync(self._file.fileno())
        self._write({"unit": key, "identity": self.identity, "result": result})
        self.done[key] = result

    def _write(self, rec: dict[str, Any]) -> None:
        assert self._file is not None
        self._file.write(json.dumps(rec, sort_keys=True, separators=(",", ":")) + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
