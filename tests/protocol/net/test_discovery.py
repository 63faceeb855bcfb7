"""Zeroconf discovery on 127.0.0.1 only: advertise, live add / update / remove, untrusted TXT."""

import asyncio
import contextlib
import ipaddress
import os
import signal
import sys

import pytest
from hypothesis import given, settings, strategies as st

from lanterne.protocol.net.discovery import (SERVICE_TYPE, Advert, Discovery, DiscoveryError, TableHint,
                                    advert_from_properties, default_interfaces, instance_label)
from tests.support.clock import FakeClock
from tests.support.waiting import DEADLINE, until

LOOPBACK = ["127.0.0.1"]


def unique_fingerprint() -> str:
    h = os.urandom(8).hex()
    return "-".join(h[i:i + 4] for i in range(0, 16, 4))


async def test_a_peer_is_listed_updated_and_removed_live():
    events: list[tuple[str, Advert]] = []
    changed = asyncio.Event()

    def record(kind):
        def cb(advert):
            events.append((kind, advert))
            changed.set()
        return cb

    fp = unique_fingerprint()
    async with Discovery(LOOPBACK) as host, Discovery(LOOPBACK, on_add=record("add"), on_update=record("update"),
                                                      on_remove=record("remove")) as browser:
        await browser.browse()
        mine = await host.advertise(Advert("Ana", fp, 40001, table=TableHint("pagode", "standard", 1)))
        assert mine.instance.endswith("." + SERVICE_TYPE)

        seen = await browser.wait_for(lambda a: a.fingerprint == fp, timeout=10)
        assert (seen.name, seen.port, seen.addresses, seen.protocol) == ("Ana", 40001, ("127.0.0.1",), 1)
        assert seen.table == TableHint("pagode", "standard", 1)
        assert [k for k, a in events if a.fingerprint == fp] == ["add"]

        await host.update_table(TableHint("pagode", "standard", 0))
        await browser.wait_for(lambda a: a.fingerprint == fp and a.table.free == 0, timeout=10)
        assert [k for k, a in events if a.fingerprint == fp][-1] == "update"

        await host.close()      # its goodbye: browsers see a remove at once
        while not any(k == "remove" and a.fingerprint == fp for k, a in events):
            changed.clear()
            await asyncio.wait_for(changed.wait(), DEADLINE)
        assert not any(a.fingerprint == fp for a in browser.peers.values())


async def test_a_peer_does_not_list_itself():
    fp = unique_fingerprint()
    async with Discovery(LOOPBACK) as me:
        await me.browse()
        await me.advertise(Advert("Solo", fp, 40002))
        with pytest.raises(DiscoveryError, match="no matching peer found within 0.5 s"):
            await me.wait_for(lambda a: a.fingerprint == fp, timeout=0.5)


def test_interfaces_must_be_explicit_ipv4_addresses():
    with pytest.raises(DiscoveryError, match="no network interface"):
        Discovery([])
    with pytest.raises(DiscoveryError, match="not an IPv4 interface address: 'eth0'"):
        Discovery(["eth0"])


def test_default_interfaces_are_lan_ipv4_only():
    for ip in default_interfaces():
        addr = ipaddress.IPv4Address(ip)
        assert not addr.is_loopback and not addr.is_link_local


def test_instance_label_fits_a_dns_label_and_names_the_key():
    label = instance_label("Zoé." * 40, "abcd-ef01-2345-6789")
    assert len(label.encode()) <= 63 and "." not in label and label.endswith("abcd-ef01-2345-6789")


def test_txt_round_trip():
    advert = Advert("Bob", "1111-2222-3333-4444", 5000, table=TableHint("pueblo", "advanced", 2))
    props = {k.encode(): v.encode() for k, v in advert.properties().items()}
    parsed = advert_from_properties(props, 5000, ["10.254.1.2"], "x")
    assert parsed == Advert("Bob", "1111-2222-3333-4444", 5000, ("10.254.1.2",), 1,
                            TableHint("pueblo", "advanced", 2), "x")


def test_txt_without_fingerprint_is_not_an_advert():
    assert advert_from_properties({b"name": b"x"}, 5000, []) is None
    assert advert_from_properties({b"name": b"x", b"fp": b"f"}, 0, []) is None


def test_txt_fields_are_sanitised():
    props = {b"name": b"Eve\x1b[31m\n" + b"A" * 500, b"fp": b"f", b"free": b"-3", b"game": b"pagode", b"v": b"x"}
    advert = advert_from_properties(props, 1, [])
    assert "\x1b" not in advert.name and "\n" not in advert.name and len(advert.name) <= 80
    assert advert.table.free == 1 and advert.protocol == 0


TXT_KEYS = [b"name", b"fp", b"lobby", b"hb", b"game", b"variant", b"free", b"seats", b"v", b"play", b"pvar",
            b"pseats", b"pnames", b"moves", b"tid", b"zz"]
"""Every key advert_from_properties reads, and one it does not."""


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(TXT_KEYS),
                       st.one_of(st.none(), st.binary(max_size=300), st.text(max_size=12).map(str.encode),
                                 st.sampled_from(["²", "٣", "7", "12", "0", "-1"]).map(str.encode)),
                       max_size=len(TXT_KEYS)),
       st.integers(-5, 70000))
def test_any_txt_parses_or_is_ignored_never_raises(props, port):
    advert = advert_from_properties(props, port, ["127.0.0.1"])
    assert advert is None or (advert.fingerprint and 0 <= advert.port < 65536)


def test_a_number_field_of_other_digits_falls_back_to_its_default():
    """Unicode has digits that are not 0-9 ("²", "٣"): str.isdigit says yes, int() raises."""
    props = {b"name": b"Eve", b"fp": b"f", b"game": b"pagode", b"seats": "²".encode(), b"free": "٣".encode(),
             b"v": "١".encode(), b"play": b"pagode", b"pseats": "²".encode(), b"moves": "³".encode()}
    advert = advert_from_properties(props, 4000, ["10.0.0.2"])
    assert (advert.table.seats, advert.table.free, advert.protocol) == (2, 1, 0)
    assert (advert.running.seats, advert.running.moves) == (2, 0)


async def test_a_service_without_a_lanterne_txt_is_not_listed():
    """Anyone may advertise our service type; a record without a fingerprint is no peer."""
    import socket

    from zeroconf import IPVersion
    from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf

    tag = os.urandom(4).hex()
    fp = unique_fingerprint()
    stranger = AsyncZeroconf(interfaces=LOOPBACK, ip_version=IPVersion.V4Only)
    info = AsyncServiceInfo(SERVICE_TYPE, f"printer {tag}.{SERVICE_TYPE}", addresses=[socket.inet_aton("127.0.0.1")],
                            port=631, properties={"note": "not a game"}, server=f"printer-{tag}.local.")
    try:
        async with Discovery(LOOPBACK) as host, Discovery(LOOPBACK) as browser:
            await browser.browse()
            await asyncio.gather(stranger.async_register_service(info), host.advertise(Advert("Real", fp, 40003)))
            await browser.wait_for(lambda a: a.fingerprint == fp, timeout=10)
            # the stranger's record is there to be seen (it resolves), yet it is not listed
            assert await AsyncServiceInfo(SERVICE_TYPE, info.name).async_request(browser._zc.zeroconf, 3000)
            await until(lambda: not browser._resolving, what="the browser's own resolution of it finished")
            assert not any(tag in name for name in browser.peers)
            assert any(a.fingerprint == fp for a in browser.peers.values())
    finally:
        await stranger.async_close()


class FirstAnswerLost(Discovery):
    """A browser whose first resolve of each name gets no full answer in time, as one did on a busy machine
    (zeroconf told it of a table once, the resolve timed out, and the table beat on unlisted); the network,
    the advertiser and every later resolve are real."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self.asked: list[str] = []
        self.heard: list[str] = []

    async def _ask(self, info) -> bool:
        self.asked.append(info.name)
        return self.asked.count(info.name) > 1 and await super()._ask(info)

    def _was_heard(self, name: str) -> None:
        self.heard.append(name)
        super()._was_heard(name)


async def test_a_table_whose_resolve_failed_is_listed_at_its_next_heartbeat():
    fp = unique_fingerprint()
    async with Discovery(LOOPBACK) as host, FirstAnswerLost(LOOPBACK) as browser:
        await browser.browse()
        mine = await host.advertise(Advert("Late", fp, 40005, table=TableHint("pagode", "standard", 1)))
        seen = await browser.wait_for(lambda a: a.fingerprint == fp, timeout=DEADLINE)
        assert seen.table == TableHint("pagode", "standard", 1)
        assert browser.asked.count(mine.instance) >= 2     # the lost answer, then a heartbeat's


async def test_a_name_resolved_to_no_peer_is_not_asked_again_at_every_heartbeat():
    """Our own key's advert from another Discovery of the same app (its table beside its lobby) is refused
    once; its heartbeats do not make the browser ask again."""
    fp = unique_fingerprint()
    async with FirstAnswerLost(LOOPBACK) as lobby, Discovery(LOOPBACK) as table:
        await lobby.browse()
        await lobby.advertise(Advert("Own", fp, 0, lobby=True))
        hosted = await table.advertise(Advert("Own", fp, 40006, table=TableHint("pagode")))
        await until(lambda: lobby.asked.count(hosted.instance) == 2 and not lobby._resolving,
                    what="the lost answer, then a resolve at a heartbeat")
        heard = lobby.heard.count(hosted.instance)
        await until(lambda: lobby.heard.count(hosted.instance) >= heard + 3, what="three more records heard")
        assert lobby.asked.count(hosted.instance) == 2     # refused once: not asked again
        assert not any(a.fingerprint == fp for a in lobby.peers.values())


# -- an app idle in its lobby is listed too, and a quitting or killed app is gone within 3 s

def test_a_lobby_advert_round_trips_without_a_port_or_a_table():
    advert = Advert("Ann", "1111-2222-3333-4444", 0, lobby=True, heartbeat=1.0)
    props = {k.encode(): v.encode() for k, v in advert.properties().items()}
    assert props[b"lobby"] == b"1" and props[b"hb"] == b"1000" and b"game" not in props
    parsed = advert_from_properties(props, 0, ["10.254.1.2"], "x")
    assert (parsed.lobby, parsed.port, parsed.table, parsed.heartbeat) == (True, 0, None, 1.0)
    # port 0 is a lobby's only; a table's advert still needs a port, and a lobby never carries a table
    assert advert_from_properties({b"name": b"x", b"fp": b"f", b"lobby": b"0"}, 0, []) is None
    assert advert_from_properties({**props, b"game": b"pagode"}, 0, []).table is None
    assert advert_from_properties({**props, b"hb": b"5"}, 0, []).heartbeat == 0.0  # out of range: no beat


def test_a_lobby_advert_says_whose_table_it_watches_and_its_rematch_answer():
    tag = "0123456789abcdef"
    for again in (tag, "no:" + tag, tag + "@41234"):
        advert = Advert("Eve", "1111-2222-3333-4444", 0, lobby=True, watching="Ann", again=again)
        props = {k.encode(): v.encode() for k, v in advert.properties().items()}
        parsed = advert_from_properties(props, 0, ["10.254.1.2"], "x")
        assert (parsed.watching, parsed.again) == ("Ann", again)
    lobby = {b"name": b"Eve", b"fp": b"f", b"lobby": b"1"}
    for bad in (b"yes", b"no:" + tag.encode() + b"x", tag.encode() + b"@", b"\x1b]2;" + tag.encode()):
        assert advert_from_properties({**lobby, b"again": bad}, 0, []).again == "", bad   # another shape: ignored
    table = {b"name": b"Ann", b"fp": b"f", b"game": b"pagode", b"again": tag.encode(), b"watch": b"Bob"}
    parsed = advert_from_properties(table, 4000, [])
    assert (parsed.again, parsed.watching) == ("", ""), "only a lobby advert says them"


def test_lobby_and_table_labels_of_one_key_differ_and_fit():
    fp = "abcd-ef01-2345-6789"
    assert instance_label("Ann", fp) == f"Ann {fp}"
    assert instance_label("Ann", fp, lobby=True) == f"Ann {fp} lobby"
    long = instance_label("Zoé" * 40, fp, lobby=True)
    assert len(long.encode()) <= 63 and long.endswith(f"{fp} lobby")


async def test_a_lobby_and_its_table_are_listed_side_by_side_not_renamed():
    fp = unique_fingerprint()
    async with Discovery(LOOPBACK) as lobby, Discovery(LOOPBACK) as table, Discovery(LOOPBACK) as browser:
        await browser.browse()
        mine = await lobby.advertise(Advert("Lia", fp, 0, lobby=True))
        hosted = await table.advertise(Advert("Lia", fp, 40011, table=TableHint("pagode")))
        assert mine.instance.startswith(f"Lia {fp} lobby.") and hosted.instance.startswith(f"Lia {fp}.")
        await browser.wait_for(lambda a: a.fingerprint == fp and a.lobby, timeout=10)
        await browser.wait_for(lambda a: a.fingerprint == fp and a.table is not None, timeout=10)
        heard = {a.lobby: a for a in browser.peers.values() if a.fingerprint == fp}
        assert heard[True].port == 0 and heard[True].heartbeat == 1.0 and heard[False].port == 40011


ADVERTISE = """
import asyncio, signal, sys
from lanterne.protocol.net.discovery import Advert, Discovery
async def main():
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    async with Discovery(["127.0.0.1"]) as d:
        await d.advertise(Advert(sys.argv[1], sys.argv[2], 0, lobby=True))
        print("advertised", flush=True)
        await stop.wait()          # a clean quit: the Discovery closes, zeroconf says goodbye
asyncio.run(main())
"""


class Advertiser:
    """A lobby advert in a process of its own (ADVERTISE), so that it can quit or be killed; a lobby's browser
    on ``clock`` (stale_after=STALE_AFTER) and a browser that never expires (the witness of a goodbye) list it."""

    def __init__(self, clock: FakeClock):
        self.fp = unique_fingerprint()
        self.clock = clock
        self.events: list[tuple[str, str]] = []      # (the browser, "add" or "remove")

    def note(self, browser: str, kind: str):
        return lambda a: a.fingerprint == self.fp and self.events.append((browser, kind))

    @contextlib.asynccontextmanager
    async def listed(self):
        from lanterne.protocol.net.discovery import STALE_AFTER
        from tests.support.commands import REPO

        async with Discovery(LOOPBACK, on_add=self.note("lobby", "add"), on_remove=self.note("lobby", "remove"),
                             stale_after=STALE_AFTER, clock=self.clock) as lobby, \
                Discovery(LOOPBACK, on_add=self.note("plain", "add"), on_remove=self.note("plain", "remove")) as plain:
            await lobby.browse()
            await plain.browse()
            self.proc = await asyncio.create_subprocess_exec(sys.executable, "-c", ADVERTISE, "Quit", self.fp,
                                                             cwd=str(REPO), stdout=asyncio.subprocess.PIPE)
            try:
                assert (await asyncio.wait_for(self.proc.stdout.readline(), 30)).startswith(b"advertised")
                await until(lambda: {("lobby", "add"), ("plain", "add")} <= set(self.events), what="both list it")
                yield
            finally:
                if self.proc.returncode is None:
                    self.proc.kill()
                await self.proc.wait()

    def gone(self, browser: str) -> bool:
        return (browser, "remove") in self.events


async def test_a_quitting_lobby_is_gone_at_once_by_its_goodbye():
    """The lobby's clock never moves, so no silence can be what drops the advert: its goodbye does, and a
    browser that never expires drops it too."""
    advertiser = Advertiser(FakeClock())
    async with advertiser.listed():
        advertiser.proc.send_signal(signal.SIGTERM)
        await until(lambda: advertiser.gone("lobby") and advertiser.gone("plain"), what="dropped by its goodbye")
        assert await advertiser.proc.wait() == 0


async def test_a_killed_lobby_is_gone_within_3_s_by_its_silence():
    """No goodbye (the browser that never expires keeps it): the lobby drops it after STALE_AFTER seconds of
    silence on its clock, not before, and within 3 s."""
    from lanterne.protocol.net.discovery import STALE_AFTER

    clock = FakeClock()
    advertiser = Advertiser(clock)
    async with advertiser.listed():
        advertiser.proc.kill()
        await advertiser.proc.wait()
        killed = clock()
        await clock.run(lambda: clock() - killed >= STALE_AFTER - 0.1, step=0.05)
        assert not advertiser.gone("lobby"), "dropped before STALE_AFTER of silence"
        await clock.run(lambda: advertiser.gone("lobby"), step=0.05, limit=3.0 - STALE_AFTER)
        assert STALE_AFTER < clock() - killed <= 3.0
        assert not advertiser.gone("plain"), "a killed process said goodbye"


async def test_a_browser_without_stale_after_keeps_a_silent_advert_and_a_lobby_lists_it_again():
    """The default Discovery never expires (the table list of a peer); the lobby's drops a silent
    advert and lists it again once it beats again."""
    fp = unique_fingerprint()
    events: list[str] = []

    def note(kind):
        return lambda a: a.fingerprint == fp and events.append(kind)

    clock = FakeClock()
    async with Discovery(LOOPBACK) as peer, Discovery(LOOPBACK) as plain, \
            Discovery(LOOPBACK, on_add=note("add"), on_remove=note("remove"), stale_after=1.2, clock=clock) as lobby:
        await plain.browse()
        await lobby.browse()
        await peer.advertise(Advert("Sil", fp, 0, lobby=True))
        await lobby.wait_for(lambda a: a.fingerprint == fp, timeout=10)
        await plain.wait_for(lambda a: a.fingerprint == fp, timeout=10)
        for task in list(peer._tasks):      # the heartbeat stops (zeroconf still answers queries)
            task.cancel()
        await clock.run(lambda: "remove" in events, step=0.05, limit=10)
        assert any(a.fingerprint == fp for a in plain.peers.values())
        peer._spawn(peer._beat())            # it beats again
        await until(lambda: events[-1] == "add", what="listed again")
        assert events[:2] == ["add", "remove"]


async def test_a_seat_is_dialled_at_its_table_record_never_at_its_idle_lobby_record(tmp_path):
    """An app lists itself while idle in its lobby (port 0) and, seated, as a player: both records of one
    key are heard side by side. The later seat dials the earlier ones where discovery lists them; it must
    take the record with a port (the four-friends trial in the app: the last joiner dialled port 0 for ever
    and never linked with the other guests)."""
    from lanterne.protocol.identity import Identity, fingerprint
    from lanterne.protocol.net.files import SeatedPeer
    from lanterne.protocol.net.peer import Peer

    bob = Identity.from_seed(os.urandom(16))
    fp = fingerprint(bob.public)
    async with Discovery(LOOPBACK) as lobby, Discovery(LOOPBACK) as seat, Discovery(LOOPBACK) as browser:
        await browser.browse()
        await lobby.advertise(Advert("Bob", fp, 0, lobby=True))
        await browser.wait_for(lambda a: a.fingerprint == fp and a.lobby, timeout=10)
        await seat.advertise(Advert("Bob", fp, 40123))
        await browser.wait_for(lambda a: a.fingerprint == fp and a.port == 40123, timeout=10)
        dan = Peer.guest(Identity.from_seed(os.urandom(16)), "Dan", tmp_path / "dan", say=lambda line: None)
        dan.discovery = browser
        assert dan.mesh.target(SeatedPeer(bob.public, "Bob", ("10.9.9.9", 40999))) == ("127.0.0.1", 40123)
        await seat.close()
        await browser.wait_for(lambda a: a.fingerprint == fp and a.lobby, timeout=1)
        await until(lambda: not any(a.fingerprint == fp and a.port for a in browser.peers.values()),
                    what="the seat's table record gone")
        # only the lobby record left: the roster's address, not port 0
        assert dan.mesh.target(SeatedPeer(bob.public, "Bob", ("10.9.9.9", 40999))) == ("10.9.9.9", 40999)
