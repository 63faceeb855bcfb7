"""The messages between the app and its wormhole process, sans-IO; and that process's local streams."""

from __future__ import annotations

import asyncio
import socket
import sys

import pytest

from lanterne.protocol import identity as ids
from lanterne.protocol import wire
from lanterne.protocol.net.framing import DATA, encode_frame
from lanterne.protocol.net.online import control
from lanterne.protocol.net.online.code import PROCESS, invite

from tests.support.waiting import until

KEY = bytes(range(32))


def test_messages_arrive_whole_whatever_the_pipe_cuts():
    data = control.encode("code", code="7-crossover-clockwork") + control.encode("stream", port=4000, token=b"t" * 16)
    decoder = control.Decoder(*control.PROCESS_SENDS)
    messages = [m for i in range(len(data)) for m in decoder.feed(data[i:i + 1])]
    assert messages == [{"t": "code", "code": "7-crossover-clockwork"},
                        {"t": "stream", "port": 4000, "token": b"t" * 16}]


@pytest.mark.parametrize("payload, reason", [
    (wire.pack({"t": "invite", "mailbox": "", "relay": "", "appid": "", "key": KEY, "direct": True}),
     "unexpected message 'invite'"),
    (wire.pack({"t": "code"}), "code"),
    (b"\xc1", "wormhole process"),
])
def test_a_message_out_of_place_is_a_one_line_error(payload, reason):
    with pytest.raises(control.ControlError, match=reason):
        control.Decoder(*control.PROCESS_SENDS).feed(encode_frame(DATA, payload))


class _Transport:
    """What the wormhole process asks of a Twisted TCP transport here: its socket."""

    def __init__(self, sock: socket.socket):
        self.sock = sock

    def getHandle(self) -> socket.socket:  # noqa: N802 - Twisted's name
        return self.sock


@pytest.mark.skipif(not hasattr(socket, "TCP_QUICKACK"), reason="TCP_QUICKACK is Linux's")
def test_what_the_wormhole_process_reads_from_dilation_is_acknowledged_at_once():
    """A stock transit relay keeps Nagle on: it holds a move back until our end acknowledges the record it
    sent before, which Linux would delay up to 40 ms once traffic looks interactive."""
    from lanterne.protocol.net.online import process

    with socket.create_server(("127.0.0.1", 0)) as listener, \
            socket.create_connection(listener.getsockname()) as ours:
        theirs, _ = listener.accept()
        with theirs:
            ours.setsockopt(socket.IPPROTO_TCP, socket.TCP_QUICKACK, 0)   # the delayed mode of interactive use
            assert ours.getsockopt(socket.IPPROTO_TCP, socket.TCP_QUICKACK) == 0
            process.acknowledge_now(_Transport(ours))
            assert ours.getsockopt(socket.IPPROTO_TCP, socket.TCP_QUICKACK) == 1
    process.acknowledge_now(object())      # a transport with no socket (not TCP): nothing to do, no error


def test_each_failure_reads_as_one_line():
    assert control.failure_text(control.MAILBOX_DOWN, mailbox="ws://m/v1") == \
        "cannot reach the mailbox at ws://m/v1: no internet here? on a LAN use the lobby"
    assert control.failure_text("something new", "it\nbroke") == "the wormhole closed: it broke"


async def test_a_local_program_without_the_token_never_reaches_the_subchannel(servers):
    """The joiner's process is driven by hand, as the app would: a stranger connects first and is dropped."""
    ann, bob = ids.Identity.from_seed(b"ann"), ids.Identity.from_seed(b"bob")
    host = await invite(ann, servers, direct=False)
    async with host:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-P", "-m", PROCESS, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
        process.stdin.write(control.encode("accept", mailbox=servers.mailbox, relay=servers.relay,
                                           appid=servers.appid, key=bob.public, direct=False, code=host.code))
        decoder, said = control.Decoder(*control.PROCESS_SENDS), {}
        while "stream" not in said:
            for msg in decoder.feed(await process.stdout.read(4096)):
                said[msg["t"]] = msg
        assert said["peer"]["key"] == ann.public
        port, token = said["stream"]["port"], said["stream"]["token"]
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(bytes(len(token)) + b"hello?")            # a stranger on this machine
        assert await reader.read() == b""                      # dropped at once
        writer.close()
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(token + b"raw bytes")
        at_host = await host.connected()
        await until(lambda: at_host.link.closed, what="the host's link refusing bytes that are not a Lanterne's")
        assert "bad framing" in at_host.link.close_reason      # the bytes came through: the token opened it
        writer.close()
        process.stdin.close()
        await process.wait()

