"""Fixtures for the client tests: the app with fixed settings, on any controller."""

from __future__ import annotations

import pytest

from lanterne.client.app import LanterneApp
from lanterne.client.settings import Settings


def make_app(start=None, name: str = "Ann") -> LanterneApp:
    # the LAN lobby listens on loopback only: tests never let zeroconf bind every interface
    return LanterneApp(settings=Settings(display_name=name, computer_delay=0.0, interfaces=["127.0.0.1"]),
                       start=start)


@pytest.fixture
def app_factory():
    return make_app
