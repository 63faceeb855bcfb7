"""Invitations over links: a host opens a table, a joiner asks, the host decides.

The host sees the joiner's proven name, fingerprint and safety code before
it answers (a person compares the code aloud; a bot applies a policy). A
``resume`` request names a game already under way: the host accepts it only
from the key that holds a seat in that game. Manual ``HOST:PORT`` joins go
through the same path as joins found by zeroconf.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Awaitable, Callable

from lanterne.engines.core import only_digits
from lanterne.protocol import identity as ids

from .clock import MONOTONIC, Clock, within
from .handshake import Handshake, HandshakeError, PeerIdentity, decode, encode
from .tcp import connect
from .transport import Link, LinkClosed, LinkOptions

HANDSHAKE_TIMEOUT = 4.0
"""Seconds for the key proof (and then for the joiner's request); the link itself drops a stranger still
unproven 5 s after it connected (:data:`.transport.PREAUTH_TIMEOUT`)."""


class Declined(ConnectionError):
    """The host said no (or the link failed before it said yes); one line."""


@dataclass(frozen=True)
class Request:
    """What a proven peer asks of a host."""

    peer: PeerIdentity
    safety_code: str
    kind: str  # "join", "resume" or "watch" (a spectator)
    game: str = ""
    variant: str = ""
    players: int = 0
    game_id: bytes = b""
    have: int = 0
    """For a resume or a watch: how many log entries the asker holds."""
    address: tuple[str, int] = ("", 0)
    port: int = 0
    """The port the joiner listens on for the other peers of an N-peer table (0: none)."""


@dataclass(frozen=True)
class Answer:
    accept: bool
    reason: str = ""
    have: int = 0
    """With an accept: how many log entries the host holds."""


def proven(hs: Handshake) -> PeerIdentity:
    """Who a finished handshake proved the other side to be."""
    if hs.peer is None:
        raise HandshakeError("handshake: not finished")
    return hs.peer


async def authenticate(link: Link, me: ids.Identity, name: str, *, expect: bytes | None = None,
                       expect_fingerprint: str | None = None,
                       timeout: float = HANDSHAKE_TIMEOUT) -> Handshake:
    """Run the Noise handshake on ``link`` and switch it to encrypted records.

    The side that connected (``link.initiator``) is the Noise initiator.
    Raises HandshakeError (and closes the link) on failure.
    """
    hs = Handshake(me, name, expect=expect, expect_fingerprint=expect_fingerprint, initiator=link.initiator)
    link.guard()       # small frames, few of them, and a deadline until the key is proven

    async def run() -> None:
        first = hs.opening()
        if first is not None:
            await link.send(first)
        while True:
            reply = hs.receive(await link.recv())
            if hs.done:      # our last message (if any) goes out in plaintext, then only records
                link.secure(hs.send_cipher, hs.recv_cipher, last=reply)
                return
            if reply is None:      # (only a finished handshake has nothing to say)
                raise HandshakeError("handshake: no answer before the end")
            await link.send(reply)

    try:
        await within(run(), timeout, link.clock)
    except asyncio.TimeoutError:
        await link.close("handshake timed out")
        raise HandshakeError(f"handshake: no proof from {link.peer[0]}:{link.peer[1]} within {timeout:g} s") from None
    except HandshakeError as e:
        await link.close(str(e))
        raise
    except LinkClosed as e:
        raise HandshakeError(f"handshake: {e.reason}") from None
    link.prove()
    return hs


Decide = Callable[[Request], Awaitable[Answer]]
OnAccepted = Callable[[Request, Link], Awaitable[None]]


async def host_connection(link: Link, me: ids.Identity, name: str, decide: Decide, on_accepted: OnAccepted,
                          timeout: float = HANDSHAKE_TIMEOUT, *, expect: bytes | None = None) -> Request | None:
    """Serve one incoming link: proof, request, decision; then hand the link over.

    ``expect``: the only key this link may belong to (a link made by a code, which authenticated that key).

    Returns the request (None if the link failed before making one). Any
    failure of the stranger closes its link with a reason and goes no further.
    A joiner that leaves (gives up waiting, quits) while the host decides
    withdraws its request: the decision is cancelled (a dialog closes) and
    nothing is answered, so a late accept can never seat somebody absent.
    """
    try:
        hs = await authenticate(link, me, name, expect=expect, timeout=timeout)
        msg = decode(await within(link.recv(), timeout, link.clock), "join", "resume", "watch")
    except (HandshakeError, LinkClosed, asyncio.TimeoutError) as e:
        await link.close(str(e) or "no request in time")
        return None
    peer = proven(hs)
    if msg["t"] == "join":
        request = Request(peer, hs.safety_code, "join", game=msg["game"][:32], variant=msg["variant"][:32],
                          players=msg["players"], address=link.peer, port=msg.get("port", 0))
    elif msg["t"] == "watch":
        request = Request(peer, hs.safety_code, "watch", have=msg["have"], address=link.peer)
    else:
        request = Request(peer, hs.safety_code, "resume", game_id=msg["game_id"], have=msg["have"],
                          address=link.peer, port=msg.get("port", 0))
    deciding = asyncio.ensure_future(decide(request))
    gone = asyncio.ensure_future(link.wait_closed())
    try:
        await asyncio.wait([deciding, gone], return_when=asyncio.FIRST_COMPLETED)
    finally:
        gone.cancel()
        if not deciding.done():
            deciding.cancel()
    if deciding.cancelled() or not deciding.done():
        try:
            await deciding
        except asyncio.CancelledError:
            pass
        return request      # withdrawn: the asker left before the host decided
    answer = deciding.result()
    if not answer.accept:
        try:
            await link.send(encode("decline", reason=answer.reason[:200]))
        except LinkClosed:
            pass
        await link.close("declined")
        return request
    try:
        await link.send(encode("accept", note=answer.reason[:200], have=answer.have))
    except LinkClosed:
        pass   # on_accepted finds the link closed and gives back what the accept reserved
    await on_accepted(request, link)
    return request


async def ask(host: str, port: int, me: ids.Identity, name: str, request: dict, *,
              expect: bytes | None = None, expect_fingerprint: str | None = None,
              options: LinkOptions = LinkOptions(), timeout: float = 60.0,
              on_proven: Callable[[Handshake], None] | None = None,
              clock: Clock = MONOTONIC) -> tuple[Link, Handshake, int]:
    """Connect, prove keys, send ``request`` (join or resume fields) and wait for the answer.

    ``timeout`` covers the host's decision (a person may take a while).
    ``on_proven`` gets the finished handshake before the wait: the safety
    code is known on both sides while the host decides, so the two people
    compare it before the host accepts.
    Returns the link, the finished handshake and how many log entries the
    host holds. Raises :class:`Declined` with the host's reason, or
    HandshakeError/LinkClosed. ``clock``: what the link is timed by.
    """
    link = await connect(host, port, options, clock)
    return await ask_over(link, me, name, request, expect=expect, expect_fingerprint=expect_fingerprint,
                          timeout=timeout, on_proven=on_proven)


async def ask_over(link: Link, me: ids.Identity, name: str, request: dict, *, expect: bytes | None = None,
                   expect_fingerprint: str | None = None, timeout: float = 60.0,
                   on_proven: Callable[[Handshake], None] | None = None) -> tuple[Link, Handshake, int]:
    """:func:`ask` over a link already connected (a code's link: ``expect`` is the key the code proved)."""
    try:
        hs = await authenticate(link, me, name, expect=expect, expect_fingerprint=expect_fingerprint)
        await link.send(encode(request["t"], **{k: v for k, v in request.items() if k != "t"}))
        if on_proven is not None:
            on_proven(hs)
        host_name = proven(hs).name
        try:
            answer = decode(await within(link.recv(), timeout, link.clock), "accept", "decline")
        except asyncio.TimeoutError:
            raise Declined(f"{host_name} did not answer within {timeout:g} s") from None
        except LinkClosed as e:
            raise Declined(f"{host_name} closed the link: {e.reason}") from None
        if answer["t"] == "decline":
            raise Declined(f"{host_name} declined: {answer['reason'] or 'no reason given'}")
    except BaseException:
        await link.close("giving up")
        raise
    return link, hs, answer["have"]


def join_request(game: str, variant: str, players: int, port: int = 0) -> dict:
    request = {"t": "join", "game": game, "variant": variant, "players": players}
    if port:
        request["port"] = port
    return request


def watch_request(have: int = 0) -> dict:
    """A spectator asks to watch the table (holding ``have`` entries already)."""
    return {"t": "watch", "have": have}


def resume_request(game_id: bytes, have: int, port: int = 0) -> dict:
    request = {"t": "resume", "game_id": game_id, "have": have}
    if port:
        request["port"] = port
    return request


def parse_address(text: str) -> tuple[str, int] | None:
    """``HOST:PORT`` as a pair, or None if ``text`` is not an address (then it is a name)."""
    host, sep, port = text.rpartition(":")
    if not sep:
        return None
    if not only_digits(port) or not 0 < int(port) < 65536 or not host:
        return None
    return host.strip("[]"), int(port)
