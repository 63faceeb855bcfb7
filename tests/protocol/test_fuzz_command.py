"""``python -m fuzz`` (the checkout's fuzz/): a short run finds no crash and no hang; a crash is reported with its input."""

from __future__ import annotations

import io
import subprocess
import sys

import fuzz
from fuzz import targets
from tests.support.commands import REPO


def test_a_short_run_has_no_crash_and_no_hang():
    out = io.StringIO()
    result = fuzz.run(2500, seed=15, quick=True, out=out)
    assert result.ok, out.getvalue()
    assert result.inputs == 2500 and all(result.by_target.get(name) for name, _ in fuzz.SHARES)
    assert result.line().startswith("fuzz: 2500 inputs") and "0 crashes, 0 hangs over 1 s" in result.line()


def test_a_crash_is_one_line_with_the_input_hex_and_the_exit_status_says_so(monkeypatch, capsys):
    def crashing(self):
        data = b"\x01\x02"

        def run():
            raise KeyError("boom")
        return data, run
    monkeypatch.setattr(fuzz.Fuzzer, "frames_input", crashing)
    monkeypatch.setattr(targets, "play_game", lambda game, seed: _tiny(game, seed))
    assert fuzz.main(["--inputs", "40", "--seed", "2"]) == 1
    lines = capsys.readouterr().out.splitlines()
    crashes = [line for line in lines if line.startswith("crash: frames")]
    assert crashes and all(line.endswith("input 0102") and "KeyError" in line for line in crashes)
    assert lines[-1].startswith("fuzz: 40 inputs") and f"{len(crashes)} crashes" in lines[-1]


_PLAYED = {}


def _tiny(game, seed):
    """High card instead of the four games: the test of the report needs no long games."""
    if "g" not in _PLAYED:
        _PLAYED["g"] = _REAL_PLAY("highcard", seed)
    return _PLAYED["g"]


_REAL_PLAY = targets.play_game


def test_the_command_line_prints_its_usage():
    done = subprocess.run([sys.executable, "-m", "fuzz", "--help"], cwd=REPO, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0 and "--inputs" in done.stdout and "--seed" in done.stdout
