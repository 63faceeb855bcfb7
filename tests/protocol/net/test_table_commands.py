"""`lanterne host --players N` and `lanterne join HOST:PORT --players N` as processes on 127.0.0.1."""

import re
from pathlib import Path

import pytest

from lanterne.client.cli import main
from lanterne.protocol.verify import verify_file
from tests.support.commands import started as start

@pytest.mark.parametrize("argv, message", [
    (["host", "pueblo", "--players", "5", "--bot", "random", "--interface", "127.0.0.1"],
     "Pueblo seats 2 to 4 players, not 5"),
    (["join", "127.0.0.1:9", "--players", "40", "--bot", "random", "--interface", "127.0.0.1"],
     "--players must be 2..16, not 40"),
    (["host", "pueblo", "--players", "3", "--computers", "3", "--bot", "random", "--interface", "127.0.0.1"],
     "--computers must be 0..2 at a table of 3 (one seat is yours), not 3"),
])
def test_bad_player_counts_are_one_line(argv, message, capsys, tmp_path):
    assert main([*argv, "--log-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_three_processes_play_pueblo_by_address_without_discovery(tmp_path):
    common = ["--bot", "random", "--interface", "127.0.0.1", "--no-discovery", "--read-timeout", "5"]
    host = start("host", "pueblo", "--players", "3", "--name", "Ana", "--log-dir", str(tmp_path / "a"), *common,
                 home=tmp_path / "a")
    first = host.stdout.readline()
    port = re.search(r"listening on 127\.0\.0\.1:(\d+)", first).group(1)
    guests, seen = [], [first]
    for name in ("Bob", "Cy"):
        guests.append(start("join", f"127.0.0.1:{port}", "--players", "3", "--name", name,
                            "--log-dir", str(tmp_path / name), *common, home=tmp_path / name))
        while not seen[-1].startswith(f"accepted {name}"):  # the join order is the seat order
            seen.append(host.stdout.readline())
            assert seen[-1], "the host ended before seating everyone"
    outs = []
    for proc in (host, *guests):
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err[-2000:] + out[-2000:]
        outs.append("".join(seen) + out if proc is host else out)
    paths = [Path(re.findall(r"^log: (.+)$", out, re.M)[-1]) for out in outs]
    assert paths[0].read_bytes() == paths[1].read_bytes() == paths[2].read_bytes()
    report = verify_file(paths[0])
    assert report.ok and len(report.seats) == 3, report
    assert "table: pueblo standard, seats Ana, Bob, Cy" in outs[0]


def test_a_host_with_a_computer_seat_and_one_joiner(tmp_path):
    common = ["--bot", "random", "--interface", "127.0.0.1", "--no-discovery", "--read-timeout", "5"]
    host = start("host", "pueblo", "--players", "3", "--computers", "1", "--name", "Ana",
                 "--log-dir", str(tmp_path / "a"), *common, home=tmp_path / "a")
    first = host.stdout.readline()
    port = re.search(r"listening on 127\.0\.0\.1:(\d+)", first).group(1)
    guest = start("join", f"127.0.0.1:{port}", "--players", "3", "--name", "Bob", "--log-dir",
                  str(tmp_path / "b"), *common, home=tmp_path / "b")
    outs = []
    for proc in (host, guest):
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err[-2000:] + out[-2000:]
        outs.append(out)
    assert "table: pueblo standard, seats Ana, [computer] Ana 1, Bob" in outs[1]
    paths = [Path(re.findall(r"^log: (.+)$", out, re.M)[-1]) for out in outs]
    assert paths[0].read_bytes() == paths[1].read_bytes()
    assert verify_file(paths[1]).ok


def test_a_table_of_two_takes_a_computer_seat_like_any_other(tmp_path):
    """Computer seats at two seats too: the host and the computer it runs, each a peer with its own log."""
    common = ["--bot", "random", "--interface", "127.0.0.1", "--no-discovery", "--read-timeout", "5"]
    host = start("host", "pagode", "--players", "2", "--computers", "1", "--name", "Ana",
                 "--log-dir", str(tmp_path / "a"), *common, home=tmp_path / "a")
    out, err = host.communicate(timeout=120)
    assert host.returncode == 0, err[-2000:] + out[-2000:]
    assert "table: pagode standard, seats Ana, [computer] Ana 1" in out
    path = Path(re.findall(r"^log: (.+)$", out, re.M)[-1])
    [computer_log] = (tmp_path / "a" / "computers").glob("*/*.log")
    assert computer_log.read_bytes() == path.read_bytes() and verify_file(path).ok
