"""A hostile peer among honest ones, over real TCP on 127.0.0.1, and what the honest users see.

Every peer of a table is a :class:`protocol.net.peer.Peer` in this test's
event loop, linked with the others over real sockets on 127.0.0.1 (the
handshake, the mesh, the reconnects, the claim clock: the real code). One
seat is :class:`Hostile`: a Peer that lies through the Peer-level hooks only

* ``lie(peer, key, entry)``: what its senders put on the link to ``key``
  instead of ``entry`` (``Peer._outgoing``, the one hook a cheat test
  overrides), None for the truth;
* ``at_turn(peer)``: called on its own turn instead of its bot's choice
  (through ``Peer.think``); it may write a lie into its own chain with
  :func:`write_abort`, which its senders then carry to everyone.

The honest seats are plain Peers with random bots. What their user sees is
recorded by :class:`Seen` (the ``say`` lines, the session events given to
``on_events``, the peer events given to ``on_peer_event``), and
:func:`assert_no_honest_seat_named` checks the rule every adversary test
ends with: no honest seat is ever named, live or by ``verify``.

The keys are the ones :func:`protocol.memory.make_sessions` derives from
:data:`SEED`, so :func:`earlier_game` is an earlier game between the very
same keys (played in memory: the bytes it signed are what a peer kept from
an earlier evening).
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections import defaultdict
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

from lanterne.engines.bots import RandomBot, make_bot
from lanterne.engines.registry import get_game
from lanterne.protocol.identity import Identity, fingerprint
from lanterne.protocol.log import Entry, open_entry
from lanterne.protocol.memory import make_sessions, play
from lanterne.protocol.net.events import LinkLost, Linked, Note, SeatTaken
from lanterne.protocol.net.clock import MONOTONIC, Clock
from lanterne.protocol.net.peer import Peer, PeerOptions, think_on_thread
from lanterne.protocol.net.transport import LinkOptions
from lanterne.protocol.session import Aborted, Dropped, GameOver, Session
from lanterne.protocol.verify import Report, verify_file
from tests.support.waiting import until

LOCAL = "127.0.0.1"
SEED = "adversary"
IDS = [Identity.from_seed(f"{SEED}/identity/{i}".encode()) for i in range(3)]
NAMES = ["Ana", "Bob", "Cy"]
FAST = PeerOptions(link=LinkOptions(read_timeout=3.0, keepalive=0.5, connect_timeout=1.0),
                   reconnect_every=0.1, linger=2.0, claim_after=1.5)
ON_A_FAKE_CLOCK = replace(FAST, link=LinkOptions(read_timeout=3600.0, keepalive=60.0, connect_timeout=1.0))
"""FAST for a table on a :class:`FakeClock` the test drives: links outlive any claim time the clock passes."""
GAME = "pueblo"
ROOT = Path(__file__).resolve().parents[2]


class Hostile(Peer):
    """A Peer that lies through :attr:`lie` (its outgoing bytes) and :attr:`at_turn` (its own turn)."""

    lie: Callable[["Hostile", bytes, Entry], bytes | None] | None = None
    at_turn: Callable[["Hostile"], bool] | None = None
    told: list

    def _outgoing(self, key: bytes, entry: Entry) -> bytes:
        if self.lie is not None:
            out = self.lie(self, key, entry)
            if out is not None:
                self.told.append((key, out))
                return out
        return entry.raw


async def hostile_think(peer: Hostile, player, game, view, seat):
    """The hostile seat's turn: its lie if ``at_turn`` says it lied (the move is then never played)."""
    if peer.at_turn is not None and peer.at_turn(peer):
        return None     # the lie ended the game for us: choose() drops whatever we return
    return await think_on_thread(player, game, view, seat)


def write_abort(peer: Peer, reason: str, culprit: int | None, evidence: list[bytes]) -> bytes:
    """Sign an abort into our own chain as the next entry (what a modified client does); the senders carry it."""
    session = peer.session
    session.ending.abort(reason, culprit, evidence)
    peer._report(session.state.flush())
    return session.chain[-1].raw


@dataclass
class Seen:
    """What one peer's user sees: the lines it prints, the session's events, the table's and links' events."""

    lines: list[str] = field(default_factory=list)
    events: list = field(default_factory=list)
    peer_events: list = field(default_factory=list)

    def of(self, kind: type) -> list:
        return [e for e in self.events + self.peer_events if isinstance(e, kind)]

    def notes(self, words: str) -> list[str]:
        return [e.text for e in self.of(Note) if words in e.text]

    def lost(self, key: bytes) -> list[str]:
        """Reasons of the links to ``key`` that went down (closed by either side)."""
        return [e.reason for e in self.of(LinkLost) if e.key == key]

    def linked(self, key: bytes) -> int:
        return sum(1 for e in self.of(Linked) if e.key == key)

    def ended(self) -> list[Aborted]:
        return self.of(Aborted)


@dataclass
class Table:
    """A table of ``players`` Peers over 127.0.0.1, seat ``hostile`` a :class:`Hostile`."""

    tmp_path: Path
    players: int
    hostile: int
    options: PeerOptions = FAST
    honest_options: PeerOptions | None = None
    game: str = GAME
    clock: Clock = MONOTONIC
    """Every peer's clock (a test's :class:`FakeClock` decides the claim times with numbers)."""
    peers: list[Peer] = field(default_factory=list)
    seen: list[Seen] = field(default_factory=list)

    def __post_init__(self) -> None:
        for i in range(self.players):
            cls = Hostile if i == self.hostile else Peer
            options = self.options if i == self.hostile or self.honest_options is None else self.honest_options
            seen = Seen()
            folder = self.tmp_path / f"seat{i + 1}"
            if i == 0:
                peer = cls.host(IDS[i], NAMES[i], get_game(self.game), self.players, folder,
                                player=make_bot("random", i + 11), options=options, say=seen.lines.append,
                                clock=self.clock)
            else:
                peer = cls.guest(IDS[i], NAMES[i], folder, player=make_bot("random", i + 11), options=options,
                                 say=seen.lines.append, clock=self.clock)
            peer.on_events = seen.events.extend
            peer.on_peer_event = seen.peer_events.append
            if cls is Hostile:
                peer.told = []
                peer.think = lambda player, game, view, seat, peer=peer: hostile_think(peer, player, game, view,
                                                                                      seat)
            self.peers.append(peer)
            self.seen.append(seen)

    @property
    def cheat(self) -> Hostile:
        return self.peers[self.hostile]

    @property
    def honest(self) -> list[int]:
        return [i for i in range(self.players) if i != self.hostile]

    def key(self, seat: int) -> bytes:
        return self.peers[seat].me.public

    def keys_honest(self) -> list[bytes]:
        return [self.key(i) for i in self.honest]

    async def play(self, timeout: float = 30.0) -> list[Session]:
        """Open the table, seat the guests in order, play to the end; every peer's session."""
        host = self.peers[0]
        tasks = [asyncio.create_task(host.run_host([LOCAL], 0, discover=False))]
        try:
            await until(lambda: host.port)
            for i, guest in enumerate(self.peers[1:], 1):
                tasks.append(asyncio.create_task(guest.run_guest((LOCAL, host.port), [LOCAL], game=self.game)))
                await until(lambda: len(self.seen[0].of(SeatTaken)) >= i)  # the join order is the seat order
            done, pending = await asyncio.wait(tasks, timeout=timeout)
            if pending:
                raise asyncio.TimeoutError(f"the table did not end within {timeout:g} s")
            return [task.result() for task in tasks]
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    def report(self, seat: int) -> Report:
        return verify_file(self.peers[seat].files.log_path)

    async def play_paced_until_relinked(self, victim: int) -> list[Session]:
        """Play with every seat thinking 0.05 s a move until the victim's link to the hostile seat is back
        (a game at full speed could end before it), then at full speed."""
        for peer in self.peers:
            peer.options = replace(peer.options, move_delay=0.05)

        async def full_speed_once_relinked() -> None:
            await until(lambda: self.seen[victim].linked(self.key(self.hostile)) >= 2)
            for peer in self.peers:
                peer.options = replace(peer.options, move_delay=0.0)
        speed = asyncio.create_task(full_speed_once_relinked())
        try:
            return await self.play()
        finally:
            speed.cancel()


def earlier_game(players: int) -> list[Session]:
    """A finished game of High card between the same keys (seat i = IDS[i]), played earlier, in memory."""
    from tests.protocol.helpers import HIGHCARD, games

    sessions = make_sessions(HIGHCARD, players, SEED, games=games)
    assert [s.public for s in sessions] == [k.public for k in IDS[:players]]
    play(sessions, [RandomBot(f"earlier/{i}") for i in range(players)])
    assert all(isinstance(s.result, GameOver) for s in sessions)
    return sessions


def named(report: Report, seat: int) -> bool:
    """Whether verify's report names ``seat`` (0-based): as the culprit, or as the author at fault."""
    label = f"seat {seat + 1} ("
    at_fault = f"at fault: seat {seat + 1}"
    blamed_author = report.bad_author.startswith(label) and "at fault:" not in report.bad_author
    return report.culprit == seat + 1 or blamed_author or at_fault in report.bad_author


def assert_no_honest_seat_named(table: Table) -> dict[int, Report]:
    """Live (every abort an honest peer saw or wrote) and in ``verify`` of every honest log: no honest seat named.

    Returns each honest seat's verify report.
    """
    honest = set(table.honest)
    reports = {}
    for i in table.honest:
        for ended in table.seen[i].ended():
            assert ended.culprit not in honest, (i, ended, table.seen[i].lines[-20:])
        result = table.peers[i].session.result
        assert not (isinstance(result, Aborted) and result.culprit in honest), (i, result)
        report = reports[i] = table.report(i)
        for h in honest:
            assert not named(report, h), (i, report)
    return reports


def assert_dropped_and_relinked(table: Table, victim: int, words: str) -> None:
    """The victim noted the dropped entry (nobody blamed), its link to the hostile seat went down and came back."""
    seen, cheat = table.seen[victim], table.key(table.hostile)
    dropped = [e for e in seen.of(Dropped) if words in e.reason]
    assert dropped and all(e.sender == cheat and e.hostile for e in dropped), seen.of(Dropped)
    notes = seen.notes(f"dropped an entry from {fingerprint(cheat)}: ")
    assert notes and words in notes[0], seen.lines[-30:]
    assert any("sent an entry out of place" in reason for reason in seen.lost(cheat)), seen.lost(cheat)
    assert seen.linked(cheat) >= 2, "the link to the sender came back"


def signed_twice(*logs) -> list[tuple[str, int]]:
    """(author, place) pairs signed with two different entries, in these logs and the evidence their aborts carry."""
    seen: dict[tuple[bytes, int], set[bytes]] = defaultdict(set)
    for raws in logs:
        for raw in raws:
            entry = open_entry(raw)
            seen[(entry.author, entry.seq)].add(raw)
            if entry.kind == "abort":
                for evidence in entry.body.get("evidence", []):
                    try:
                        other = open_entry(evidence)
                    except Exception:  # noqa: BLE001 - a hash of evidence too long to carry
                        continue
                    seen[(other.author, other.seq)].add(evidence)
    return [(author.hex()[:8], seq) for (author, seq), raws in seen.items() if len(raws) > 1]



def dies_once_the_host_holds_what_it_signed(host: Peer, guest: Peer, moves: int = 3) -> Callable[[], bool]:
    """A condition for ``until`` that, once ``guest`` made ``moves`` moves and ``host`` holds every entry the
    guest signed, kills the guest's process there and then: its links are cut and it acts no more (its task
    ends a few steps later: a bot's move then is never made); only its disk is left."""
    def dies() -> bool:
        chain = guest.session.chain if guest.session is not None else []
        mine = [i for i, e in enumerate(chain) if e.author == guest.me.public]
        if sum(chain[i].kind == "move" for i in mine) < moves or len(host.session.chain) <= mine[-1]:
            return False
        for link in list(guest.links.values()):
            link._writer.transport.abort()
        guest.session.act = lambda action: []
        return True
    return dies


def cut_after_last_move_but(raws: list[bytes], key: bytes, keep: int) -> list[bytes]:
    """The log without the guest's last move (and every entry after it), or ``keep`` entries short of it."""
    last = max(i for i, raw in enumerate(raws) if open_entry(raw).author == key and open_entry(raw).kind == "move")
    return raws[:last - keep]


def assert_logs_alike(table: Table) -> None:
    from lanterne.protocol.log import read_log

    logs = [read_log(p.files.log_path)[0] for p in table.peers]
    assert all(log == logs[0] for log in logs), [len(log) for log in logs]


def lanterne_verify(*logs: Path) -> tuple[int, str]:
    """The ``lanterne verify LOG...`` command line, in a process of its own: (exit status, stdout)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "lanterne", "verify", *map(str, logs)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    return done.returncode, done.stdout + done.stderr
