"""`lanterne host`, `lanterne join` and `selfplay --net tcp` from the command line (127.0.0.1 only)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from lanterne.client.cli import main

REPO = Path(__file__).resolve().parents[3]


def lanterne(*args: str, home: Path) -> subprocess.CompletedProcess:
    import os
    env = dict(os.environ, LANTERNE_HOME=str(home))
    return subprocess.run([sys.executable, "-m", "lanterne", *args], cwd=REPO, env=env, capture_output=True,
                          text=True, timeout=120)


@pytest.mark.parametrize("argv, message", [
    (["host", "pagode", "--bot", "random", "--interface", "eth0"], "--interface takes an IPv4 address, not 'eth0'"),
    (["host", "pagode", "--bot", "nobody", "--interface", "127.0.0.1"], "no computer player 'nobody'"),
    (["host", "chess", "--bot", "random"], "chess"),
    (["host", "pagode", "--bot", "random", "--port", "70000", "--interface", "127.0.0.1"], "--port must be 0..65535"),
    (["host", "pagode", "--bot", "random", "--read-timeout", "0", "--interface", "127.0.0.1"],
     "--read-timeout must be positive"),
    (["join", "--bot", "random", "--interface", "127.0.0.1"], "join needs a host: NAME or HOST:PORT"),
    (["host", "pagode", "--interface", "127.0.0.1"], "--bot KIND is required"),
    (["join", "--list", "--no-discovery"], "--list needs zeroconf"),
    (["join", "Ana", "--bot", "random", "--no-discovery"], "'Ana' is not HOST:PORT, and --no-discovery forbids"),
    # 192.0.2.0/24 is TEST-NET-1: no machine has it, so nothing is ever bound or sent
    (["host", "pagode", "--bot", "random", "--interface", "192.0.2.7"], "cannot listen on 192.0.2.7"),
    (["join", "Ana", "--bot", "random", "--interface", "192.0.2.7"], "cannot start zeroconf on 192.0.2.7"),
])
def test_bad_input_is_one_line(argv, message, capsys, tmp_path):
    assert main([*argv, "--log-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_join_to_an_address_where_nobody_listens_is_one_line(capsys, tmp_path):
    import socket
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    assert main(["join", f"127.0.0.1:{port}", "--bot", "random", "--no-discovery", "--log-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert f"cannot connect to 127.0.0.1:{port}" in err and err.count("\n") == 1


def test_join_by_name_finds_nothing_in_time(capsys, tmp_path):
    code = main(["join", "Nobody-here", "--bot", "random", "--interface", "127.0.0.1", "--wait", "0.5",
                 "--log-dir", str(tmp_path)])
    assert code == 2
    assert "no open table of 'Nobody-here' found on the LAN within 0.5 s" in capsys.readouterr().err


@pytest.mark.parametrize("game, players", [("pagode", 2), ("pueblo", 3)])
def test_selfplay_over_tcp_gives_identical_verified_logs(game, players, tmp_path, capsys):
    """One process per seat, every size through the same peer: the logs are one log, valid."""
    run = lanterne("selfplay", game, "--net", "tcp", "--players", str(players), "--bots", "random,greedy", "--json",
                   "--log-dir", str(tmp_path / "logs"), home=tmp_path / "home")
    assert run.returncode == 0, run.stderr
    result, summary = (json.loads(line) for line in run.stdout.splitlines())
    assert summary["summary"]["net"] == "tcp" and len(result["scores"]) == players
    logs = [Path(result["log"])] + [next((tmp_path / "logs" / "game0" / f"seat{i + 1}").glob("*.log"))
                                    for i in range(1, players)]
    assert len({log.read_bytes() for log in logs}) == 1
    assert main(["verify", *map(str, logs)]) == 0, capsys.readouterr()
    assert capsys.readouterr().out.count(f": valid: {game}") == players


LISTENINGS = 12
"""How many times the join --list test listens (5 s each) before it says the advert was never heard."""


def test_join_list_prints_the_peers_heard_on_the_lan(tmp_path, capsys):
    import asyncio
    import os
    import threading

    from lanterne.protocol.net.discovery import Advert, Discovery, TableHint

    fp = "list-" + os.urandom(4).hex()
    ready, stop = threading.Event(), threading.Event()

    def advertise():
        async def main():
            async with Discovery(["127.0.0.1"]) as d:
                await d.advertise(Advert("Lister", fp, 40123, table=TableHint("pueblo", "standard", 1)))
                ready.set()
                await asyncio.to_thread(stop.wait)
        asyncio.run(main())

    expected = ["Lister", fp, "127.0.0.1:40123", "pueblo standard free=1"]
    printed: list[str] = []
    thread = threading.Thread(target=advertise)
    thread.start()
    try:
        assert ready.wait(20)
        # Listen again until it is heard: a loopback that other workers' zeroconf tests keep busy can leave
        # one listening's questions unanswered (every mDNS responder on the machine shares port 5353).
        for _ in range(LISTENINGS):
            code = main(["join", "--list", "--interface", "127.0.0.1", "--wait", "5"])
            printed.append(capsys.readouterr().out)
            if code == 0 and expected in [line.split("\t") for line in printed[-1].splitlines()]:
                break
    finally:
        stop.set()
        thread.join(20)
    assert expected in [line.split("\t") for line in printed[-1].splitlines()], printed
