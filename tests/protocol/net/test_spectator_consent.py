"""Spectators by consent, over TCP on 127.0.0.1: who may watch is signed in the table (off, ask, known,
everyone; a game with hidden hands asks by default), each player serves at most its cap, watch requests come
at a bounded rate (on the injected clock), and the players see who watches."""

import asyncio
import dataclasses

import pytest

from lanterne.engines.registry import get_game
from lanterne.protocol.identity import Identity
from tests.support.clock import FakeClock
from lanterne.protocol.net.events import WatcherJoined
from lanterne.protocol.net.invite import Declined
from lanterne.protocol.net.peer import Peer
from lanterne.protocol.net.watchers import REQUEST_WINDOW, REQUESTS_PER_KEY, Spectator
from lanterne.protocol.session import WATCH_ASK, WATCH_KNOWN, WATCH_MODES, Session, default_watch
from lanterne.engines.core import RulesError
from tests.support.net import FAST, IDS, LOCAL, NAMES, ON_A_FAKE_CLOCK, seated, wait_port
from tests.support.waiting import until

WATCHERS = [Identity.from_seed(f"consent-watcher-{i}".encode()) for i in range(4)]


class Table:
    """Two people at ``game`` (no bot: the game waits for a move nobody makes), the host's spectators' rule."""

    def __init__(self, tmp_path, spectators, game="pagode", clock=None):
        options = dataclasses.replace(ON_A_FAKE_CLOCK if clock else FAST, spectators=spectators)
        extra = {"clock": clock} if clock else {}
        self.host = Peer.host(IDS[0], NAMES[0], get_game(game), 2, tmp_path / "p0", options=options,
                              say=lambda line: None, **extra)
        self.guest = Peer.guest(IDS[1], NAMES[1], tmp_path / "p1", options=options, say=lambda line: None, **extra)
        self.events: list = []
        self.host.on_peer_event = self.events.append
        self.game = game
        self.watching: list[asyncio.Task] = []

    async def __aenter__(self):
        self.tasks = [asyncio.create_task(self.host.run_host([LOCAL], 0, discover=False))]
        self.port = await wait_port(self.host)
        self.tasks.append(asyncio.create_task(self.guest.run_guest((LOCAL, self.port), [LOCAL], game=self.game)))
        await until(lambda: seated(self.host) >= 1 and all(p.session is not None and p.session.game is not None
                                                             for p in (self.host, self.guest)))
        return self

    async def __aexit__(self, *exc):
        for t in [*self.tasks, *self.watching]:
            t.cancel()
        await asyncio.gather(*self.tasks, *self.watching, return_exceptions=True)

    def table(self) -> dict:
        """The body of the host's signed table entry."""
        return next(e.body for e in self.host.session.chain if e.kind == "table")

    def watch(self, who: Identity, name: str) -> Spectator:
        spectator = Spectator(who, name, say=lambda line: None)
        self.watching.append(asyncio.create_task(spectator.watch(LOCAL, self.port)))
        return spectator

    async def refused(self, who: Identity, name: str = "Stranger") -> str:
        with pytest.raises(Declined) as declined:
            await asyncio.wait_for(Spectator(who, name, say=lambda line: None).watch(LOCAL, self.port), 30)
        return str(declined.value)


def test_a_game_with_hidden_hands_asks_by_default_and_an_open_one_lets_known_peers_watch():
    assert default_watch(get_game("pagode")) == WATCH_ASK and default_watch(get_game("pandoria")) == WATCH_ASK
    assert default_watch(get_game("pueblo")) == WATCH_KNOWN and default_watch(get_game("pacal")) == WATCH_KNOWN
    for mode in WATCH_MODES:
        assert Session(IDS[0], host=True, game=get_game("pagode"), guests=[IDS[1].public],
                       spectators=mode).watch_mode == mode
    with pytest.raises(RulesError, match="spectators 'friends' is not one of off, ask, known, everyone"):
        Session(IDS[0], host=True, game=get_game("pagode"), guests=[IDS[1].public], spectators="friends")


async def test_the_rule_is_signed_in_the_table_and_a_stranger_is_refused_in_one_line(tmp_path):
    async with Table(tmp_path, None) as t:       # pagode hides hands: ask; a headless host has nobody to ask
        table = t.table()
        assert (table["watch"], table["watch_by"]) == (True, "ask")
        assert t.guest.session.watch_mode == WATCH_ASK, "every seat reads the signed rule"
        assert await t.refused(WATCHERS[0]) == ("Ana declined: this table lets spectators watch when a player "
                                                "says yes; nobody is here to ask")


async def test_a_table_of_known_peers_lets_in_only_the_peers_its_player_knows(tmp_path):
    async with Table(tmp_path, WATCH_KNOWN) as t:
        assert t.table()["watch_by"] == "known"
        t.host.watchers.known = lambda key: key == WATCHERS[0].public
        eve = t.watch(WATCHERS[0], "Eve")
        await until(lambda: eve.link is not None and "Eve" in t.host.watchers.names)
        assert await t.refused(WATCHERS[1]) == "Ana declined: this table lets only peers its players know watch"
        assert [e.name for e in t.events if isinstance(e, WatcherJoined)] == ["Eve"], "the player sees who watches"


async def test_a_table_that_asks_lets_in_whom_the_player_says_yes_to(tmp_path):
    asked = []

    async def ask(req):
        asked.append(req.peer.name)
        await asyncio.sleep(0)          # (a question on the player's screen, answered later)
        return req.peer.name == "Eve"

    async with Table(tmp_path, WATCH_ASK) as t:
        t.host.watchers.ask = ask
        eve = t.watch(WATCHERS[0], "Eve")
        await until(lambda: eve.link is not None)
        assert await t.refused(WATCHERS[1], "Mallory") == "Ana declined: the player said no"
        assert asked == ["Eve", "Mallory"]
        eve.link._writer.transport.abort()           # Eve's link drops: she comes back without a second question
        await until(lambda: eve.link is not None and len(t.host.watchers.names) == 1)
        assert asked == ["Eve", "Mallory"]


async def test_a_player_serves_at_most_its_cap_of_spectators(tmp_path):
    async with Table(tmp_path, "everyone", game="pueblo") as t:
        t.host.watchers.most = 2
        watching = [t.watch(WATCHERS[i], f"Watcher {i}") for i in range(2)]
        await until(lambda: all(w.link is not None for w in watching) and len(t.host.watchers.names) == 2)
        assert await t.refused(WATCHERS[2]) == "Ana declined: 2 spectators already watch through this player"
        watching[0].link._writer.transport.abort()   # one leaves (its task goes on trying): there is room again
        t.watching[0].cancel()
        await until(lambda: len(t.host.watchers.names) == 1)
        late = t.watch(WATCHERS[2], "Late")
        await until(lambda: late.link is not None and "Late" in t.host.watchers.names)


async def test_watch_requests_come_at_a_bounded_rate_on_the_players_clock(tmp_path):
    clock = FakeClock()
    async with Table(tmp_path, WATCH_KNOWN, game="pueblo", clock=clock) as t:
        t.host.watchers.known = lambda key: False
        for _ in range(REQUESTS_PER_KEY):
            assert await t.refused(WATCHERS[3]) == "Ana declined: this table lets only peers its players know watch"
        assert await t.refused(WATCHERS[3]) == "Ana declined: too many watch requests: try again in a minute"
        assert await t.refused(WATCHERS[2]) == "Ana declined: this table lets only peers its players know watch", \
            "another key has its own share"
        clock.advance(REQUEST_WINDOW)
        assert await t.refused(WATCHERS[3]) == "Ana declined: this table lets only peers its players know watch"
