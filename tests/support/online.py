"""Two peers for the tests of tables seated by a code (tests/online): their keys, options and making."""

from __future__ import annotations

from lanterne.engines.bots import make_bot
from lanterne.engines.registry import get_game
from lanterne.protocol.identity import Identity
from lanterne.protocol.net.peer import Peer, PeerOptions
from lanterne.protocol.net.transport import LinkOptions

LOCAL = "127.0.0.1"
OPTIONS = PeerOptions(link=LinkOptions(read_timeout=20.0, keepalive=5.0, connect_timeout=3.0),
                      reconnect_every=0.2, linger=3.0)
HOST_ID, GUEST_ID = (Identity.from_seed(s) for s in (b"peer-host", b"peer-guest"))
# the same keys as tests/protocol/net/test_peer.py


def make_pair(tmp_path, options=OPTIONS):
    """A Pagode host (Hana) and a guest (Gus), random players, and the lines each says."""
    lines = {"host": [], "guest": []}
    host = Peer.host(HOST_ID, "Hana", get_game("pagode"), 2, tmp_path / "host", player=make_bot("random", 1),
                     options=options, say=lines["host"].append)
    guest = Peer.guest(GUEST_ID, "Gus", tmp_path / "guest", player=make_bot("random", 2), options=options,
                       say=lines["guest"].append)
    return host, guest, lines
