"""Where the wormhole mailbox and the transit relay are, and the name Lanterne's codes live under.

The defaults are the magic-wormhole project's public servers, the ones its own
``wormhole`` command uses; a self-hosted pair (``twist wormhole-mailbox``,
``twist transitrelay``) is given by URL (docs/online.md says what each can see).
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlparse

PUBLIC_MAILBOX = "ws://relay.magic-wormhole.io:4000/v1"
PUBLIC_RELAY = "tcp:transit.magic-wormhole.io:4001"
APPID = "lanterne.game/table/v1"
"""The mailbox keeps each application's codes apart: a Lanterne code never meets a file transfer's."""


class ServersError(ValueError):
    """A mailbox or relay address that cannot be used; one line."""


@dataclass(frozen=True)
class Servers:
    """The mailbox (a WebSocket URL) and the transit relay (``tcp:HOST:PORT``, or "" for none)."""

    mailbox: str = PUBLIC_MAILBOX
    relay: str = PUBLIC_RELAY
    appid: str = APPID

    def __post_init__(self) -> None:
        url = urlparse(self.mailbox)
        if url.scheme not in ("ws", "wss") or not url.hostname:
            raise ServersError(f"the mailbox must be a ws:// or wss:// URL, not {self.mailbox!r}")
        if self.relay:
            relay_host(self.relay)


def relay_host(relay: str) -> tuple[str, int]:
    """``tcp:HOST:PORT`` as a pair (the form magic-wormhole's relay hints take)."""
    kind, _, rest = relay.partition(":")
    host, _, port = rest.rpartition(":")
    if kind != "tcp" or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ServersError(f"the transit relay must look like tcp:HOST:PORT, not {relay!r}")
    return host, int(port)
