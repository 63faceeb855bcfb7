"""One side of a code, run as a script inside a network namespace: ``side.py invite|accept MAILBOX RELAY [CODE]``.

It prints JSON lines: ``{"process": pid}`` (its wormhole process), ``{"code": ...}`` (the inviter), then
``{"peer": fingerprint, "route": ..., "me": own key in hex}`` once the Noise link is
authenticated with the code's key, then ``{"echoed": true}`` each time a
message went through both ways: the inviter sends one, then one more for
each line on its stdin until it closes; the joiner sends each back, and
says ``{"closed": reason}`` when the inviter is done. Any failure is
``{"error": one line}``.
"""

from __future__ import annotations

import asyncio
import json
import sys

from lanterne.protocol import identity as ids
from lanterne.protocol import wire
from lanterne.protocol.net.invite import authenticate
from lanterne.protocol.net.online.code import OnlineError, accept, invite
from lanterne.protocol.net.online.servers import Servers

MESSAGE = b"the move e2-e4, in plaintext; " * 170
"""What the inviter sends first: text that a capture on the wire must never show."""
NAMES = {"invite": "Annabelle Inviter", "accept": "Bartholomew Joiner"}


def say(**fields) -> None:
    print(json.dumps(fields), flush=True)


async def main(role: str, mailbox: str, relay: str, code: str = "") -> None:
    me = ids.Identity.generate()
    servers = Servers(mailbox=mailbox, relay=relay)
    wormhole = await invite(me, servers) if role == "invite" else await accept(code, me, servers)
    async with wormhole:
        say(process=wormhole.process_id)
        if role == "invite":
            say(code=wormhole.code)
        connected = await wormhole.connected(timeout=120)
        await authenticate(connected.link, me, NAMES[role], expect=connected.peer_key)
        await wormhole.connected_route.wait()
        say(peer=connected.fingerprint, route=wormhole.route, me=me.public.hex())
        # the inviter speaks first, as a host answers a request: the joiner (Noise's initiator) is done
        # with the handshake before the inviter, whose link takes only small frames until it is done too
        if role == "invite":
            await connected.link.send(MESSAGE)
            say(echoed=await connected.link.recv() == MESSAGE)
            while line := await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline):
                message = line.strip().encode() * 100
                await connected.link.send(message)
                say(echoed=await connected.link.recv() == message)
        else:
            try:
                while True:
                    await connected.link.send(await connected.link.recv())
                    say(echoed=True)
            except ConnectionError as e:
                say(closed=str(e))


if __name__ == "__main__":
    try:
        asyncio.run(main(*sys.argv[1:]))
    except (OnlineError, ConnectionError, ValueError, wire.ProtocolError) as e:
        say(error=str(e))
