"""Suite-wide fixtures: every test gets its own Lanterne home (identity, logs)."""

import pytest


@pytest.fixture(autouse=True)
def lanterne_home(tmp_path, monkeypatch):
    home = tmp_path / "lanterne-home"
    monkeypatch.setenv("LANTERNE_HOME", str(home))
    return home
