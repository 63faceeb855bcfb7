"""A peer's seating and mesh decide from what they are handed: no socket, no peer.

Each part gets plain callables (the session, the seats, where things are kept), so what it decides can be
asked directly: which join a host's table takes, who holds a seat, who was given to a computer, where a
returning seat's entries start.
"""

import asyncio
from types import SimpleNamespace

from lanterne.engines.registry import get_game
from lanterne.protocol.identity import Identity
from lanterne.protocol.net.files import GameFiles, SeatedPeer
from lanterne.protocol.net.handshake import PeerIdentity
from lanterne.protocol.net.invite import Request
from lanterne.protocol.net.mesh import Mesh
from lanterne.protocol.net.options import PeerOptions
from lanterne.protocol.net.seating import HostTable, TableSeating

IDS = [Identity.from_seed(f"parts/{i}".encode()) for i in range(4)]
GAME = get_game("pueblo")


def join(i: int, game: str = "pueblo", players: int = 3) -> Request:
    return Request(PeerIdentity(IDS[i].public, f"P{i}"), "000 000", "join", game=game, variant="standard",
                   players=players, address=("127.0.0.1", 5000 + i))


def seating(tmp_path, events: list, accept=None, ours=frozenset(), role="host") -> TableSeating:
    files = GameFiles(tmp_path)
    files.meta["role"] = role
    seated = asyncio.Event()
    seated.set()
    part = TableSeating(IDS[0], "Host", files, table=HostTable(GAME, 3, seed=b"s" * 32), options=lambda: PeerOptions(),
                        clock=lambda: 0.0, port=lambda: 0, table_id=lambda: b"", discovery=lambda: None,
                        seat=events.append, seats=lambda: [], begin=events.append, ours=lambda key: key in ours,
                        computers_seated=seated.wait, emit=events.append, spawn=asyncio.ensure_future)
    part.accept = accept
    return part


async def test_a_host_seats_joiners_that_fit_in_the_order_it_accepts_them(tmp_path):
    events: list = []
    part = seating(tmp_path, events, accept=lambda req: req.peer.name != "P2")
    assert (await part.answer(join(1, game="pagode"))).reason == "this table plays pueblo standard"
    assert (await part.answer(join(1, players=4))).reason == "this table seats 3, not 4"
    assert (await part.answer(join(2))).reason == "the host declined"
    assert (await part.answer(join(1))).accept and part.holds(IDS[1].public)
    assert (await part.answer(join(1))).reason == "you already hold a seat here"
    assert part.seated_joiners() == 1 and part.hint().free == 1
    assert (await part.answer(join(3))).accept
    assert (await part.answer(join(2))).reason == "the table is full"
    assert part.seated_joiners() == 2 and part.hint().free == 0


async def test_a_computer_the_host_runs_is_seated_without_asking_its_policy(tmp_path):
    asked = []
    part = seating(tmp_path, [], accept=lambda req: asked.append(req) or False, ours={IDS[3].public})
    assert (await part.answer(join(3))).accept and not asked


async def test_a_guest_has_no_table_to_answer_for(tmp_path):
    part = seating(tmp_path, [], role="guest")
    assert (await part.answer(join(1))).reason == "no open table here"


def mesh(seats, kept: list, session=None) -> Mesh:
    return Mesh(IDS[1], "P1", options=lambda: PeerOptions(), clock=lambda: 0.0, table_id=lambda: b"t", session=lambda: session,
                port=lambda: 0, discovery=lambda: None, linked=lambda key: False, carry=None, keep=kept.append,
                emit=lambda ev: None, spawn=asyncio.ensure_future, turned_away=lambda key: None, seats=seats)


def test_a_seat_given_to_a_computer_is_kept_as_a_former_seat_until_the_replacement_is_refused():
    kept: list = []
    seats = [SeatedPeer(IDS[i].public, f"P{i}") for i in range(3)]
    part = mesh(seats, kept, session=SimpleNamespace(replaced_at=7))
    assert part.others() == [seats[0], seats[2]] and part.index(IDS[2].public) == 2
    former = part.replace(2, IDS[3].public, "[computer] P2")
    assert former == seats[2] and part.was_seated(IDS[2].public) and part.keys()[2] == IDS[3].public
    assert part.replace(2, IDS[3].public, "[computer] P2") is None       # already its
    assert part.resume_from(IDS[2].public, 12) == 7                     # everything from the replacement on
    assert part.resume_from(IDS[0].public, 12) == 12
    part.restore(2, former)
    assert part.keys()[2] == IDS[2].public and not part.was_seated(IDS[2].public)
    assert [s["key"] for s in kept[-1]] == [IDS[i].public.hex() for i in range(3)]    # every change kept


def test_without_discovery_a_seat_is_dialled_at_its_rosters_address():
    part = mesh([SeatedPeer(IDS[0].public, "P0", ("10.0.0.9", 4000))], [])
    assert part.target(part.seats[0]) == ("10.0.0.9", 4000)
