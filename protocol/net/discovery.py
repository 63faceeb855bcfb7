"""Zeroconf discovery: advertise our table, list the peers of the LAN live.

Every peer advertises ``_lanterne._tcp.local.`` with TXT records saying the
protocol version, its display name, its key fingerprint and, when it has one,
its open table (game, variant, free seats), or that it is an app idle in
its lobby (``lobby=1``: no table, nothing listening), and, while it plays
at a table that lets spectators watch, that table (game, seats, moves:
``play``...). TXT records are *hints*: anyone
on the LAN can advertise anything, so a fingerprint here only says whom to
expect; identity is proven on the TCP connection (the hello of the session).

Interfaces are always explicit: :func:`default_interfaces` picks the LAN
IPv4 addresses of this machine for real use; tests pass ``["127.0.0.1"]`` or
the addresses of their own network namespaces. Nothing here ever lets
zeroconf bind every interface.

Gone within 3 s: a peer that quits sends zeroconf goodbyes (browsers drop
it at once). A peer that cannot (killed, crashed, its cable pulled) stops
its heartbeat: every advertiser re-sends its TXT record each
:data:`HEARTBEAT` seconds (TXT ``hb``), and a browser made with
``stale_after`` (the lobby's) drops an advert that has said nothing for that
long, and lists it again as soon as it is heard again. zeroconf itself keeps
a PTR for its TTL (at least 1125 s in python-zeroconf, whatever we send).

Never missed for good: zeroconf tells a browser of a name once (and again
only when one of its records changes), so a resolve that fails (a question
unanswered on a busy machine) would leave that table unlisted while it
beats on. Every browser hears the heartbeats, and a name heard that is not
listed, not refused and not being resolved is resolved again, when a
resolve is free.
"""

from __future__ import annotations

import asyncio
import ipaddress
import re
import socket
from dataclasses import dataclass, field, replace
from typing import Callable, Iterable, Sequence

import ifaddr
from zeroconf import DNSOutgoing, IPVersion, RecordUpdateListener, ServiceStateChange
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from lanterne.engines.core import only_digits
from lanterne.protocol.wire import visible

from .clock import MONOTONIC, Clock
from .transport import within

SERVICE_TYPE = "_lanterne._tcp.local."
TXT_VERSION = 1
"""Version of the TXT record layout (key ``txt``)."""
MAX_NAME = 40
"""Longest display name put in a service instance label (bytes, UTF-8)."""
RESOLVE_MS = 3000
MAX_ADVERTS = 256
"""Adverts listed at once (anyone on the LAN can announce any number): past it a new one is not listed
until a listed one goes; the names heard and gone silent are kept as many times."""
MAX_RESOLVING = 16
"""Adverts being resolved at once (each a question on the LAN for up to RESOLVE_MS); past it a name waits
its turn, oldest first, and past MAX_ADVERTS waiting the oldest is forgotten (a browser hears a name once:
one left out would never be listed)."""
HEARTBEAT = 1.0
"""Seconds between two re-sends of our TXT record. More than zeroconf's 0.8 s window in which a
browser drops a packet identical to one it just got (a faster beat would be half ignored)."""
STALE_AFTER = 2.5
"""The lobby's limit: an advert with a heartbeat, silent this long, is dropped (a killed app).
Two beats may be lost in a row before a live peer blinks out of the list."""
_RESPONSE_FLAGS = 0x8400
"""An mDNS response, authoritative (QR and AA bits, RFC 6762 section 18)."""
_TYPE_TXT, _TYPE_SRV = 16, 33

_VIRTUAL_PREFIXES = ("docker", "br-", "veth", "virbr", "lxcbr", "lxdbr", "cni", "flannel", "cali",
                     "vmnet", "vboxnet", "podman", "tailscale", "zt", "wg", "tun", "tap", "kube")


class DiscoveryError(RuntimeError):
    """Discovery cannot start (no interface, address in use...); one line."""


@dataclass(frozen=True)
class TableHint:
    """An open table as its host advertises it (untrusted)."""

    game: str
    variant: str = "standard"
    free: int = 1
    seats: int = 2
    """Seats at the table, 2 to 16 (its TXT record says ``seats`` only from 3 on)."""


@dataclass(frozen=True)
class RunningHint:
    """A table under way that lets spectators watch, as one of its players advertises it (untrusted).

    Every player of such a table says it, so a lobby groups the lines by
    ``table`` (the first 16 hex digits of the table id)."""

    game: str
    variant: str = "standard"
    seats: int = 2
    names: tuple[str, ...] = ()
    """The seats' names, in seat order (cut to fit the TXT record)."""
    moves: int = 0
    table: str = ""


@dataclass(frozen=True)
class Advert:
    """What a peer says about itself on the LAN. Everything but the address is a hint."""

    name: str
    fingerprint: str
    port: int
    addresses: tuple[str, ...] = ()
    protocol: int = 1
    table: TableHint | None = None
    instance: str = ""
    """Full zeroconf service name (set for adverts heard on the LAN)."""
    lobby: bool = False
    """An app open in its lobby (no table of its own, ``port`` 0): listed so people see each other."""
    heartbeat: float = 0.0
    """Seconds between its heartbeats (TXT ``hb``; 0: an advertiser that does not beat, never expired)."""
    running: RunningHint | None = None
    """The table it plays at, under way, that spectators may watch (TXT ``play``...)."""
    watching: str = ""
    """An app in its lobby watching a table: the name of the player it watches through (TXT ``watch``)."""
    again: str = ""
    """An app in its lobby after a table ended: its answer to a rematch of that table (TXT ``again``:
    ``<table>`` yes, ``no:<table>`` no, ``<table>@<port>`` the host's new table; client/lan_rematch.py)."""

    @property
    def address(self) -> str:
        return self.addresses[0] if self.addresses else ""

    def properties(self) -> dict[str, str]:
        props = {"txt": str(TXT_VERSION), "v": str(self.protocol), "name": self.name, "fp": self.fingerprint}
        if self.lobby:
            props["lobby"] = "1"
            if self.watching:
                props["watch"] = self.watching
            if self.again:
                props["again"] = self.again
        if self.heartbeat > 0:
            props["hb"] = str(round(self.heartbeat * 1000))
        if self.table is not None:
            props.update(game=self.table.game, variant=self.table.variant, free=str(self.table.free))
            if self.table.seats != 2:
                props["seats"] = str(self.table.seats)
        if self.running is not None:
            run = self.running
            props.update(play=run.game, pvar=run.variant, pseats=str(run.seats), moves=str(run.moves),
                         tid=run.table[:16], pnames=_cut_utf8(NAMES_SEP.join(n.replace(",", " ") for n in run.names),
                                                             160))
        return {k: _cut_utf8(v, 250 - len(k)) for k, v in props.items()}


NAMES_SEP = ","
"""Between two seat names in TXT ``pnames`` (a comma in a name is sent as a space)."""


def _cut_utf8(text: str, limit: int) -> str:
    raw = text.encode("utf-8")[:limit]
    return raw.decode("utf-8", "ignore")


def _text(props: dict, key: str, limit: int = 64) -> str | None:
    raw = props.get(key.encode())
    if raw is None:
        return None
    if not isinstance(raw, bytes):
        return None
    text = visible(raw[:limit].decode("utf-8", "replace"))
    return "".join(c for c in text if c.isprintable())


def _int(props: dict, key: str, default: int) -> int:
    text = _text(props, key, 8)
    if text is None or not only_digits(text):
        return default
    return int(text)


def advert_from_properties(props: dict, port: int, addresses: Iterable[str], instance: str = "") -> Advert | None:
    """Parse TXT records heard on the LAN; None if they are not a Lanterne advert.

    Never raises: a malformed field is dropped, an over-long one is cut.
    """
    name, fp = _text(props, "name", MAX_NAME * 2), _text(props, "fp", 64)
    lobby = _text(props, "lobby", 4) == "1"
    if not fp or name is None or not (0 if lobby else 1) <= port < 65536:
        return None
    beat = _int(props, "hb", 0)
    table = None
    game = _text(props, "game", 32)
    if game:
        seats = _int(props, "seats", 2)
        table = TableHint(game, _text(props, "variant", 32) or "standard", _int(props, "free", 1),
                          seats if 2 <= seats <= 16 else 2)
    running = None
    play = _text(props, "play", 32)
    if play and not lobby and port:
        seats = _int(props, "pseats", 2)
        names = tuple(n.strip()[:MAX_NAME] for n in (_text(props, "pnames", 200) or "").split(NAMES_SEP))[:16]
        tid = _text(props, "tid", 16) or ""
        running = RunningHint(play, _text(props, "pvar", 32) or "standard", seats if 2 <= seats <= 16 else 2,
                              names if any(names) else (), min(_int(props, "moves", 0), 10**6),
                              tid if re.fullmatch(r"[0-9a-f]{16}", tid) else "")
    return Advert(name=name, fingerprint=fp, port=port, addresses=tuple(addresses),
                  protocol=_int(props, "v", 0), table=None if lobby else table, instance=instance, lobby=lobby,
                  heartbeat=beat / 1000 if 100 <= beat <= 60_000 else 0.0, running=running,
                  watching=(_text(props, "watch", MAX_NAME * 2) or "")[:MAX_NAME] if lobby else "",
                  again=_again(_text(props, "again", 32) or "") if lobby else "")


AGAIN = re.compile(r"(no:)?[0-9a-f]{16}(@[0-9]{1,5})?")
"""A rematch answer's shape (``Advert.again``)."""


def _again(text: str) -> str:
    return text if AGAIN.fullmatch(text) else ""


def instance_label(name: str, fingerprint: str, lobby: bool = False) -> str:
    """The service instance label: display name + fingerprint (+ `` lobby``), at most 63 bytes, no dots.

    An app's lobby and its table are two adverts of one key: two labels, so neither is renamed."""
    clean = re.sub(r"[.\x00-\x1f\\]", "_", name).strip() or "peer"
    tail = f" {fingerprint}" + (" lobby" if lobby else "")
    return f"{_cut_utf8(clean, min(MAX_NAME, max(63 - len(tail.encode()), 1)))}{tail}"[:63]


def default_interfaces() -> list[str]:
    """The machine's LAN IPv4 addresses: not loopback, not link-local, not virtual bridges."""
    found: list[str] = []
    for adapter in ifaddr.get_adapters():
        if adapter.nice_name.startswith(_VIRTUAL_PREFIXES) or adapter.nice_name == "lo":
            continue
        for ip in adapter.ips:
            if not ip.is_IPv4:
                continue
            addr = ipaddress.IPv4Address(ip.ip)
            if addr.is_loopback or addr.is_link_local or addr.is_multicast or addr.is_unspecified:
                continue
            found.append(str(addr))
    return found


Callback = Callable[[Advert], None]


@dataclass
class Discovery:
    """One zeroconf responder + browser on the given interfaces.

    ``on_add`` / ``on_update`` get an :class:`Advert`; ``on_remove`` gets the
    advert last heard from that instance. Callbacks run on the event loop.
    ``peers`` is the live list (instance name -> advert), ourselves excluded.
    ``stale_after`` (seconds, None: never): drop an advert with a heartbeat that
    has not been heard for that long (``on_remove``), and add it again when it
    is heard again (``on_add``); the silence is timed on ``clock``.
    """

    interfaces: Sequence[str]
    on_add: Callback | None = None
    on_update: Callback | None = None
    on_remove: Callback | None = None
    peers: dict[str, Advert] = field(default_factory=dict)
    stale_after: float | None = None
    clock: Clock = MONOTONIC

    def __post_init__(self) -> None:
        if not self.interfaces:
            raise DiscoveryError("no network interface to discover peers on (pass one explicitly)")
        for ip in self.interfaces:
            try:
                ipaddress.IPv4Address(ip)
            except ValueError:
                raise DiscoveryError(f"not an IPv4 interface address: {ip!r}") from None
        self._zc: AsyncZeroconf | None = None
        self._browser: AsyncServiceBrowser | None = None
        self._mine: AsyncServiceInfo | None = None
        self._advert: Advert | None = None
        self._tasks: set[asyncio.Task] = set()
        self._changed = asyncio.Event()
        self._own_fingerprint: str | None = None
        self._heard: dict[str, float] = {}
        """Lower-case instance name -> when one of its records was last received (seconds on ``clock``)."""
        self._expired: dict[str, None] = {}
        """Lower-case instance names dropped for silence, listed again once heard (the longest silent first)."""
        self._resolving: set[str] = set()
        self._refused: dict[str, None] = {}
        """Lower-case names resolved to no advert of ours to list (not Lanterne's, our own key): resolved
        again when a record of theirs changes, not at every heartbeat (the newest MAX_ADVERTS kept)."""
        self._waiting: dict[str, str] = {}
        """Names heard while MAX_RESOLVING were being resolved -> their service type, oldest first."""
        self._listener: _HeardListener | None = None

    def _started(self) -> AsyncZeroconf:
        """The responder (DiscoveryError, one line, before :meth:`start`)."""
        if self._zc is None:
            raise DiscoveryError("discovery is not started")
        return self._zc

    async def start(self) -> "Discovery":
        if self._zc is None:
            try:
                self._zc = AsyncZeroconf(interfaces=list(self.interfaces), ip_version=IPVersion.V4Only)
            except OSError as e:
                raise DiscoveryError(f"cannot start zeroconf on {', '.join(self.interfaces)}: {e}") from None
        return self

    async def __aenter__(self) -> "Discovery":
        return await self.start()

    async def __aexit__(self, *_exc) -> None:
        await self.close()

    # -- advertising
    async def advertise(self, advert: Advert) -> Advert:
        """Announce ourselves; returns the advert with its instance name. Waits for probing (~1.6 s)."""
        await self.start()
        self._own_fingerprint = advert.fingerprint
        addresses = advert.addresses or tuple(self.interfaces)
        advert = replace(advert, heartbeat=HEARTBEAT)
        label = instance_label(advert.name, advert.fingerprint, advert.lobby)
        instance = f"{label}.{SERVICE_TYPE}"
        where = "lobby" if advert.lobby else advert.port
        host = f"lnt-{advert.fingerprint.replace('-', '')[:16]}-{where}.local."
        info = AsyncServiceInfo(SERVICE_TYPE, instance, addresses=[socket.inet_aton(a) for a in addresses],
                                port=advert.port, properties=advert.properties(), server=host)
        await (await self._started().async_register_service(info, allow_name_change=True))
        self._mine = info
        self._advert = replace(advert, addresses=addresses, instance=info.name)
        self._spawn(self._beat())
        return self._advert

    @property
    def advert(self) -> Advert | None:
        """What we advertise now (None before :meth:`advertise` has finished)."""
        return self._advert if self._mine is not None else None

    async def update_table(self, table: TableHint | None) -> None:
        """Change the open table we advertise (None: no open table)."""
        await self.update(table=table)

    async def update(self, **fields) -> None:
        """Change what we advertise (fields of :class:`Advert`: ``table``, ``running``)."""
        if self._mine is None or self._advert is None:
            raise DiscoveryError("update before advertise")
        self._advert = replace(self._advert, **fields)
        self._mine = AsyncServiceInfo(SERVICE_TYPE, self._mine.name, addresses=self._mine.addresses,
                                      port=self._mine.port, properties=self._advert.properties(),
                                      server=self._mine.server)
        await (await self._started().async_update_service(self._mine))

    async def _beat(self) -> None:
        """Re-send our TXT record every HEARTBEAT seconds while we advertise (one small packet)."""
        while True:
            await asyncio.sleep(HEARTBEAT)
            info, zc = self._mine, self._zc
            if info is None or zc is None:
                return
            out = DNSOutgoing(_RESPONSE_FLAGS)
            out.add_answer_at_time(info.dns_text(), 0)
            try:
                zc.zeroconf.async_send(out)
            except Exception:  # an interface gone for a while: the next beat tries again
                pass

    def _spawn(self, coro) -> asyncio.Task:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # -- browsing
    async def browse(self) -> None:
        """Start listing peers; callbacks fire as they come, change and go."""
        await self.start()
        if self._browser is None:
            self._listener = _HeardListener(self._was_heard)
            self._started().zeroconf.async_add_listener(self._listener, None)
            if self.stale_after is not None:
                self._spawn(self._sweep(self.stale_after))
            self._browser = AsyncServiceBrowser(self._started().zeroconf, [SERVICE_TYPE],
                                                handlers=[self._on_change])

    def _was_heard(self, name: str) -> None:
        key = name.lower()
        if key in self._expired:   # back after a silence (a cable plugged in again): list it again
            self._expired.pop(key, None)
            self._resolve_soon(SERVICE_TYPE, name)
        elif key in self._heard:    # (a name never listed is not kept: anyone may send records)
            self._heard[key] = self.clock()
        elif (key not in self._refused and len(self._resolving) < MAX_RESOLVING
              and not (self._mine is not None and key == self._mine.name.lower())):
            # heard, never listed: its resolve failed. Only with a resolve free, so that records heard never
            # push an announced name out of the waiting line (the next beat asks again)
            self._resolve_soon(SERVICE_TYPE, name)

    def _resolve_soon(self, service_type: str, name: str) -> None:
        if name in self._resolving:
            return
        if len(self._resolving) >= MAX_RESOLVING:
            self._waiting.pop(name, None)
            self._waiting[name] = service_type
            while len(self._waiting) > MAX_ADVERTS:
                self._waiting.pop(next(iter(self._waiting)))
            return
        self._resolving.add(name)
        self._spawn(self._resolve(service_type, name)).add_done_callback(lambda _: self._resolved(name))

    def _resolved(self, name: str) -> None:
        self._resolving.discard(name)
        if self._waiting:
            waiting = next(iter(self._waiting))
            self._resolve_soon(self._waiting.pop(waiting), waiting)

    async def _sweep(self, stale_after: float) -> None:
        """Drop the adverts with a heartbeat that went silent (a killed app, a pulled cable)."""
        step = min(0.25, stale_after / 4)
        while True:
            await self.clock.sleep(step)
            now = self.clock()
            for name, advert in list(self.peers.items()):
                if not advert.heartbeat:
                    continue   # an advertiser that does not beat: only its goodbye removes it
                key = name.lower()
                if now - self._heard.get(key, now) > max(stale_after, 2.5 * advert.heartbeat):
                    self.peers.pop(name, None)
                    self._heard.pop(key, None)
                    self._expired[key] = None
                    while len(self._expired) > MAX_ADVERTS:    # the longest silent is forgotten
                        self._expired.pop(next(iter(self._expired)))
                    self._notify(self.on_remove, advert)

    def _on_change(self, zeroconf, service_type: str, name: str, state_change: ServiceStateChange) -> None:
        if self._mine is not None and name == self._mine.name:
            return
        if state_change is ServiceStateChange.Removed:
            self._waiting.pop(name, None)
            self._expired.pop(name.lower(), None)
            self._heard.pop(name.lower(), None)
            gone = self.peers.pop(name, None)
            if gone is not None:
                self._notify(self.on_remove, gone)
            return
        self._refused.pop(name.lower(), None)      # its records changed: worth a look again
        self._resolve_soon(service_type, name)

    async def _ask(self, info: AsyncServiceInfo) -> bool:
        """Fill ``info`` from the cache or the LAN within RESOLVE_MS (False: no full answer came)."""
        return await info.async_request(self._started().zeroconf, RESOLVE_MS)

    async def _resolve(self, service_type: str, name: str) -> None:
        try:
            info = AsyncServiceInfo(service_type, name)
            if not await self._ask(info):
                return      # its next heartbeat heard asks again
        except Exception:   # a name zeroconf refuses, zeroconf closing: no answer this time
            return
        try:
            addresses = list(info.parsed_addresses(IPVersion.V4Only))
            advert = advert_from_properties(info.properties or {}, info.port or 0, addresses, name)
        except Exception:  # anything on the LAN can answer anything: a bad record is no peer
            advert = None
        if advert is None or (self._own_fingerprint is not None and advert.fingerprint == self._own_fingerprint):
            self._refused[name.lower()] = None
            while len(self._refused) > MAX_ADVERTS:
                self._refused.pop(next(iter(self._refused)))
            return
        if name.lower() in self._expired:
            return     # silent since: listed again when heard (its cached records outlive it)
        if name not in self.peers and len(self.peers) >= MAX_ADVERTS:
            return
        self._heard[name.lower()] = self.clock()
        old = self.peers.get(name)
        self.peers[name] = advert
        if old is None:
            self._notify(self.on_add, advert)
        elif old != advert:
            self._notify(self.on_update, advert)

    def _notify(self, callback: Callback | None, advert: Advert) -> None:
        self._changed.set()
        if callback is not None:
            callback(advert)

    async def wait_for(self, predicate: Callable[[Advert], bool], timeout: float) -> Advert:
        """The first listed peer matching ``predicate``, waiting up to ``timeout`` seconds."""
        async def look() -> Advert:
            while True:
                for advert in list(self.peers.values()):
                    if predicate(advert):
                        return advert
                self._changed.clear()
                await self._changed.wait()

        await self.browse()
        try:
            return await within(look(), timeout)
        except asyncio.TimeoutError:
            raise DiscoveryError(f"no matching peer found within {timeout:g} s") from None

    async def close(self) -> None:
        """Stop browsing and advertising: the goodbye makes other lobbies drop our record at once."""
        self._waiting.clear()
        for task in list(self._tasks):
            task.cancel()
        if self._browser is not None:
            await self._browser.async_cancel()
            self._browser = None
        if self._listener is not None and self._zc is not None:
            self._zc.zeroconf.async_remove_listener(self._listener)
            self._listener = None
        if self._zc is not None:
            await self._zc.async_close()
            self._zc = None
            self._mine = None


class _HeardListener(RecordUpdateListener):
    """Notes every TXT or SRV record of a Lanterne instance received (heartbeats, answers, updates)."""

    def __init__(self, heard: Callable[[str], None]):
        super().__init__()
        self._heard = heard

    def async_update_records(self, zc, now: float, records) -> None:
        for update in records:
            record = update.new
            if record.ttl and record.type in (_TYPE_TXT, _TYPE_SRV) and \
                    record.name.lower().endswith("." + SERVICE_TYPE):
                self._heard(record.name)

    def async_update_records_complete(self) -> None:
        pass
