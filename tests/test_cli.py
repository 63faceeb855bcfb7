"""The `lanterne` command line: wrong arguments get one line, never a traceback."""

import subprocess
import sys

import pytest


def lanterne(*args):
    return subprocess.run([sys.executable, "-m", "client", *args], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("args, says", [
    (["selfplay", "chess"], "no game 'chess'"),
    (["selfplay", "pagode", "--games", "x"], "invalid int value: 'x'"),
    (["selfplay", "pagode", "--games", "0"], "--games must be at least 1"),
    (["selfplay", "pagode", "--players", "3"], "not 3"),
    (["selfplay", "pagode", "--variant", "turbo"], "no variant 'turbo'"),
    (["selfplay", "pagode", "--bots", "chess"], "no computer player 'chess'"),
    (["frobnicate"], "invalid choice: 'frobnicate'"),
])
def test_wrong_arguments_are_one_line(args, says):
    r = lanterne(*args)
    assert r.returncode == 2
    assert says in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "Traceback" not in r.stderr


def test_help_lists_the_commands():
    r = lanterne("--help")
    assert r.returncode == 0 and "selfplay" in r.stdout


def test_bench_refuses_to_write_a_partial_table():
    r = lanterne("bench", "--only", "pagode", "--write-docs")
    assert r.returncode == 2 and "without --only" in r.stderr


def test_bench_names_an_unknown_figure():
    r = lanterne("bench", "--only", "chess")
    assert r.returncode == 2 and "no benchmark 'chess'" in r.stderr
