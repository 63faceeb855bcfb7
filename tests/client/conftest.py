"""Fixtures for the client tests (the apps themselves are made by tests/support/apps.py)."""

from __future__ import annotations

import pytest

from tests.support.logs import make_log


@pytest.fixture(scope="module")
def pueblo_log(tmp_path_factory):
    """A finished Pueblo game's signed log, shared by a module's replay tests (they only read it)."""
    return make_log(tmp_path_factory.mktemp("replay-ui"), "pueblo", seed="ui")
