"""Shared fixtures: the othello binary under test and one local Ray cluster on 127.0.0.1."""

from __future__ import annotations

import os
import pathlib

import pytest

from othello_distributed.cli import local_only

local_only()  # before ray is imported: every Ray server of the tests listens on 127.0.0.1 only

import ray  # noqa: E402

REPO = pathlib.Path(__file__).resolve().parents[3]
DATA = REPO / "crates" / "endgame" / "data"

# The published perft counts of the 8x8 start position, depth 0 to 11.
PUBLISHED = [1, 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284, 212258800]


def _find_binary(name: str, variable: str, package: str) -> str:
    """The binary `name`: the path in the environment variable `variable`, else the
    workspace's release or debug build (of the Cargo package `package`)."""
    env = os.environ.get(variable)
    if env:
        return str(pathlib.Path(env).resolve())
    for profile in ("release", "debug"):
        p = REPO / "target" / profile / name
        if p.is_file():
            return str(p)
    raise RuntimeError(f"no {name} binary: build it (cargo build --release -p {package}) or set {variable}")


@pytest.fixture(scope="session")
def train_bin() -> str:
    """othello-train: TRAIN_BIN, else the workspace's release or debug build."""
    return _find_binary("othello-train", "TRAIN_BIN", "othello-train")


@pytest.fixture(scope="session")
def othello_bin() -> str:
    """othello: OTHELLO_BIN, else the workspace's release or debug build."""
    return _find_binary("othello", "OTHELLO_BIN", "othello-cli")


@pytest.fixture(scope="session")
def identity(othello_bin: str) -> str:
    from othello_distributed.binary import identity as ident

    return ident(othello_bin)


@pytest.fixture(scope="session")
def cluster():
    """A local two-CPU Ray cluster bound to 127.0.0.1, shared by every test."""
    ray.init(_node_ip_address="127.0.0.1", include_dashboard=False, num_cpus=2, log_to_driver=False)
    yield ray.get_runtime_context().gcs_address
    ray.shutdown()
