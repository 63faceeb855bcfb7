"""Fixtures for the client tests (the apps themselves are made by tests/support/apps.py)."""

from __future__ import annotations

import pytest

from tests.support.logs import make_log


@pytest.fixture(scope="module")
def pueblo_log(tmp_path_factory):
    """A finished Pueblo game's signed log, shared by a module's replay tests (they only read it)."""
    return make_log(tmp_path_factory.mktemp("replay-ui"), "pueblo", seed="ui")


@pytest.fixture(autouse=True)
def board_clocks_stand_still(monkeypatch):
    """The seats' clocks on a board read a clock that stands still: a snapshot is the same however long the
    machine took to draw it. tests/client/test_clocks.py gives its screens a clock it advances."""
    monkeypatch.setattr("lanterne.client.screens.game.monotonic", lambda: 1000.0)
