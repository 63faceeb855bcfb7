"""Suite-wide fixtures: every test gets its own Lanterne home (identity, logs).

The suite reads Lanterne in English (the message ids): ``LANGUAGE=en`` wins over a developer's French
locale (client/i18n.py reads it first), for this process and the commands it starts; the French tests
choose French themselves (tests/client/test_i18n.py).
"""

import os

import pytest

os.environ["LANGUAGE"] = "en"


@pytest.fixture(autouse=True)
def lanterne_home(tmp_path, monkeypatch):
    home = tmp_path / "lanterne-home"
    monkeypatch.setenv("LANTERNE_HOME", str(home))
    return home
