"""Another peer's words never reach the user's terminal as control characters.

A stranger on the LAN who closes a link with a reason, a host that declines
with one, a seat whose name or abort reason is written in its signed
entries: any of them could put an ESC sequence in front of the user
(recolour the terminal, move its cursor, retitle its window; Textual passes
ESC on too). The protocol makes such text printable where it arrives
(``protocol.wire.printable``); every headless command prints through
``client.cli.PrintableStream`` as well. Real TCP on 127.0.0.1, real Noise,
real processes.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import threading
from pathlib import Path

from lanterne.engines.bots import RandomBot
from lanterne.engines.registry import get_game
from lanterne.protocol.identity import Identity
from lanterne.protocol.net.events import JoinRefused
from lanterne.protocol.net.framing import PREFACE, encode_close
from lanterne.protocol.net.invite import Answer, Declined, ask, host_connection, join_request
from lanterne.protocol.net.tcp import bound_port, serve
from lanterne.protocol.session import Aborted, Session, TableSet
from lanterne.protocol.wire import printable
from tests.protocol.helpers import drive
from tests.support.logs import write_log

REPO = Path(__file__).resolve().parents[2]
EVIL = "busy \x1b]0;PWNED\x07\x1b[2J\x1b[31mRED\x9b0m\u202edone"
"""Set the window title, clear the screen, turn red (ESC and the one-byte C1 CSI), reverse the text."""


def clean(text: str) -> bool:
    return not any(c in text for c in "\x1b\x07\x9b\u202e")


def lanterne(*args: str, home: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, LANTERNE_HOME=str(home), PYTHONUNBUFFERED="1")
    return subprocess.run([sys.executable, "-m", "lanterne", *args], cwd=REPO, env=env, capture_output=True,
                          text=True, timeout=120)


def test_printable_makes_every_control_a_space_and_keeps_the_rest():
    assert printable(EVIL) == "busy  ]0;PWNED  [2J [31mRED 0mdone"     # the reversal mark draws nothing: gone
    assert printable("Ann Lee, été 2026 ♥") == "Ann Lee, été 2026 ♥"
    assert printable("two\nlines\ttab") == "two lines tab"


def test_a_strangers_closing_words_reach_a_headless_joiner_printable(tmp_path):
    """Anyone on the LAN can answer a connection with a plaintext CLOSE frame, before any proof of identity."""
    ready, stop = threading.Event(), threading.Event()
    port: list[int] = []

    def stranger() -> None:
        async def main() -> None:
            async def answer(reader, writer):
                writer.write(PREFACE + encode_close(EVIL))
                await writer.drain()
                await reader.read()     # the joiner read the frame and went: then the connection goes
                writer.close()
            server = await asyncio.start_server(answer, "127.0.0.1", 0)
            port.append(server.sockets[0].getsockname()[1])
            ready.set()
            await asyncio.to_thread(stop.wait)
            server.close()
        asyncio.run(main())

    thread = threading.Thread(target=stranger, daemon=True)
    thread.start()
    assert ready.wait(10)
    try:
        r = lanterne("join", f"127.0.0.1:{port[0]}", "--bot", "random", "--no-discovery", home=tmp_path)
    finally:
        stop.set()
        thread.join(10)
    assert r.returncode != 0 and "PWNED" in r.stderr and "RED" in r.stderr
    assert clean(r.stderr) and clean(r.stdout), repr(r.stderr)


async def test_a_hosts_decline_reason_arrives_printable():
    host, joiner = Identity.from_seed(b"evil host"), Identity.from_seed(b"joiner")

    async def decide(request):
        return Answer(False, EVIL)

    async def handler(link):
        await host_connection(link, host, "Host", decide, lambda request, link: None)

    server = await serve(handler, "127.0.0.1", 0)
    async with server:
        try:
            await ask("127.0.0.1", bound_port(server), joiner, "Jo", join_request("pagode", "standard", 2))
        except Declined as e:
            said = str(e)
        else:
            raise AssertionError("the host declined")
    assert "PWNED" in said and clean(said), repr(said)


def test_events_carry_printable_names_and_reasons():
    ended = Aborted(by=1, culprit=1, reason=EVIL)
    table = TableSet("pagode", "standard", 2, ("Ann", EVIL), 0, "12345")
    refused = JoinRefused(EVIL, EVIL)
    assert clean(ended.reason) and "PWNED" in ended.reason
    assert table.names[0] == "Ann" and clean(table.names[1])
    assert clean(refused.name) and clean(refused.reason) and clean(str(refused))


def test_verify_and_log_show_print_a_hostile_resignation_printable(tmp_path):
    """A seat that resigns with escapes in its own signed abort: a tester's terminal stays its own."""
    game = get_game("pagode")
    chains: list[list[bytes]] = [[], []]
    ids = [Identity.from_seed(f"esc/{i}".encode()) for i in range(2)]
    sessions = [Session(ids[i], host=i == 0, name=("Ann", EVIL)[i], game=game if i == 0 else None,
                        guests=[ids[1].public] if i == 0 else None,
                        seed=Identity.from_seed(f"esc/seed/{i}".encode()).public, store=chains[i].append)
                for i in range(2)]
    moves = []

    def resign_after_ten(i, sessions, pipe):
        moves.append(i)
        if len(moves) >= 10 and i == 1 and not sessions[1].over:
            pipe.collect(1, sessions[1].resign(EVIL))
            return True
        return False

    drive(sessions, [RandomBot(f"esc/{i}") for i in range(2)], before_move=resign_after_ten)
    assert sessions[0].over
    path = tmp_path / "game.log"
    write_log(path, chains[0])
    for args in (["verify", str(path)], ["log", "show", str(path)]):
        r = lanterne(*args, home=tmp_path / "home")
        assert "PWNED" in r.stdout + r.stderr, (args, r.stdout, r.stderr)
        assert clean(r.stdout) and clean(r.stderr), args
