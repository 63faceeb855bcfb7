"""Spectators over TCP: a peer watches a running table from the middle of the game.

It receives every signed entry, checks each one as a peer does (its own
session, no seat), catches up from the start, and sees only what is public:
at every point no card of a hand is known to it. It cannot change the game:
any byte it sends closes its link. A table that does not allow spectators
declines in one line; the players see who watches.
"""

import asyncio
import dataclasses

import pytest

from lanterne.engines.registry import get_game
from lanterne.protocol.identity import Identity
from lanterne.protocol.log import read_log, seal
from lanterne.protocol.net.events import WatcherJoined
from lanterne.protocol.net.invite import Declined
from lanterne.protocol.net.peer import GOODBYE
from lanterne.protocol.net.transport import LinkClosed
from lanterne.protocol.net.watchers import SPECTATOR_SENT, Spectator
from lanterne.protocol.session import GameOver, Moved
from tests.support.net import FAST, LOCAL, make_table, seated, wait_port
from tests.support.waiting import until

EVE = Identity.from_seed(b"spectator-eve")
SLOW = dataclasses.replace(FAST, move_delay=0.02)


def hidden_cards_known(session) -> list[int]:
    """Slots not public whose card the spectator's view knows (must stay empty)."""
    cards = session.view.cards
    return [slot for slot, (ident, seen) in enumerate(zip(cards.ids, cards.seen))
            if seen != cards.everyone and ident is not None]


async def test_a_spectator_joining_a_pandoria_table_mid_game_sees_the_public_board_and_no_hidden_card(tmp_path):
    host, guests, lines = make_table(tmp_path, "pandoria", 3, options=SLOW)
    watched = []
    host.on_peer_event = watched.append
    tasks = [asyncio.create_task(host.run_host([LOCAL], 0, discover=False))]
    port = await wait_port(host)
    for g in guests:
        tasks.append(asyncio.create_task(g.run_guest((LOCAL, port), [LOCAL], game="pandoria")))
        await until(lambda: seated(host) >= len(tasks) - 1)
    await until(lambda: sum(e.kind == "move" for e in host.session.chain) >= 10, what="ten moves")
    said, checked = [], []
    spectator = Spectator(EVE, "Eve", say=said.append)

    def check(events):           # at every step of the watch: nothing hidden is known to the spectator
        if spectator.session.view is not None:
            checked.append(hidden_cards_known(spectator.session))
    spectator.on_events = check
    watch = asyncio.create_task(spectator.watch(LOCAL, port))
    await until(lambda: spectator.link is not None)
    for peer in (host, *guests):      # watched from mid-game on: the rest at full speed
        peer.options = dataclasses.replace(peer.options, move_delay=0.0)
    watching = await asyncio.wait_for(watch, 120)
    sessions = await asyncio.wait_for(asyncio.gather(*tasks), 120)
    assert isinstance(watching.result, GameOver) and all(isinstance(s.result, GameOver) for s in sessions)
    assert watching.result == sessions[0].result
    assert [e.raw for e in watching.chain] == read_log(host.files.log_path)[0], "caught up from the start"
    assert checked and not any(checked), "a card of a hand was known to the spectator"
    game = get_game("pandoria")
    assert game.digest(watching.view) == game.digest(sessions[0].view), "the same public board"
    assert watching.my_seat is None and EVE.public not in watching.seats
    assert any(line.startswith("move ") for line in said) and said[0].startswith("watching Ana")
    assert any(isinstance(e, WatcherJoined) and e.name == "Eve" for e in watched), "the players see who watches"


async def test_a_spectator_cannot_send_an_entry(tmp_path):
    host, guests, lines = make_table(tmp_path, "pagode", 2, options=dataclasses.replace(FAST, move_delay=0.05))
    tasks = [asyncio.create_task(host.run_host([LOCAL], 0, discover=False))]
    port = await wait_port(host)
    tasks.append(asyncio.create_task(guests[0].run_guest((LOCAL, port), [LOCAL], game="pagode")))
    await until(lambda: len(host.session.chain) >= 12, what="twelve entries")
    from lanterne.protocol.net.invite import ask, watch_request

    link, hs, _ = await ask(LOCAL, port, EVE, "Eve", watch_request(0))
    first = await link.recv()
    head = host.session.chain[-1]
    forged = seal(EVE, game=head.game, seq=len(host.session.chain), prev=head.hash, kind="move",
                  body={"action": ["end"], "digest": bytes(32)})
    await link.send(forged.raw)
    with pytest.raises(LinkClosed):
        while True:
            await link.recv()
    assert link.peer_reason == SPECTATOR_SENT
    assert all(e.raw != forged.raw for e in host.session.chain) and first == host.session.chain[0].raw
    for peer in (host, *guests):      # the rest of the game at full speed
        peer.options = dataclasses.replace(peer.options, move_delay=0.0)
    sessions = await asyncio.wait_for(asyncio.gather(*tasks), 120)
    assert all(isinstance(s.result, GameOver) for s in sessions), "the game went on as if nothing was sent"


async def test_a_table_that_does_not_allow_spectators_declines_in_one_line(tmp_path):
    private = dataclasses.replace(FAST, move_delay=0.05, spectators=False)
    host, guests, lines = make_table(tmp_path, "pagode", 2, options=private)
    tasks = [asyncio.create_task(host.run_host([LOCAL], 0, discover=False))]
    port = await wait_port(host)
    tasks.append(asyncio.create_task(guests[0].run_guest((LOCAL, port), [LOCAL], game="pagode")))
    await until(lambda: host.session.game is not None, what="the game set")
    assert not host.session.spectators and "watch" not in host.session.chain[1].body
    with pytest.raises(Declined) as declined:
        await Spectator(EVE, "Eve", say=lambda line: None).watch(LOCAL, port)
    assert str(declined.value) == "Ana declined: this table does not let spectators watch"
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


def test_lanterne_watch_prints_every_move_of_a_table_of_processes(tmp_path):
    """`lanterne watch HOST:PORT` as a process beside a host and a guest: every move in words, the end, exit 0."""
    import re

    from tests.support.commands import started as start

    common = ["--bot", "random", "--interface", "127.0.0.1", "--no-discovery", "--read-timeout", "5",
              "--move-delay", "0.05"]
    host = start("host", "pagode", "--name", "Ana", "--log-dir", str(tmp_path / "a"), "--spectators", "everyone",
                 *common, home=tmp_path / "a")
    first = host.stdout.readline()
    port = re.search(r"listening on 127\.0\.0\.1:(\d+)", first).group(1)
    guest = start("join", f"127.0.0.1:{port}", "--name", "Bob", "--log-dir", str(tmp_path / "b"), *common,
                  home=tmp_path / "b")
    seen = [first]
    while "table:" not in seen[-1]:
        seen.append(host.stdout.readline())
        assert seen[-1], "the host ended before the table was set"
    watch = start("watch", f"127.0.0.1:{port}", "--no-discovery", "--name", "Eve", home=tmp_path / "e")
    try:
        out, err = watch.communicate(timeout=120)
        host_out, _ = host.communicate(timeout=60)
        guest.communicate(timeout=60)
    finally:
        for proc in (host, guest, watch):
            proc.kill()
    assert watch.returncode == 0, err[-2000:] + out[-2000:]
    assert out.startswith("watching Ana (") and re.search(r"^move \d+: seat [12] ", out, re.M)
    assert re.search(r"^move \d+: seat [12] .+ \(.+\)$", out, re.M), "moves in the engine's words, too"
    assert "game over: scores" in out
    assert "Eve (" in "".join(seen) + host_out and "is watching" in "".join(seen) + host_out
