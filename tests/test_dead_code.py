"""protocol/, engines/ and client/ hold no dead code that vulture is sure of: at 80 % confidence it finds nothing.

At that confidence vulture reports unused imports, variables and arguments and unreachable code; an
argument a signature must keep (a protocol's stub, ``__exit__``) is named with a leading underscore.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_vulture_at_80_percent_finds_nothing_in_protocol_engines_or_client():
    pytest.importorskip("vulture", reason="vulture comes with the test extra: pip install -e '.[test]'")
    args = [sys.executable, "-m", "vulture", "protocol", "engines", "client", "--min-confidence", "80"]
    done = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
