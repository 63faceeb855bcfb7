"""Zeroconf discovery on 127.0.0.1 only: advertise, live add / update / remove, untrusted TXT."""

import asyncio
import ipaddress
import os

import pytest
from hypothesis import given, settings, strategies as st

from protocol.net.discovery import (SERVICE_TYPE, Advert, Discovery, DiscoveryError, TableHint,
                                    advert_from_properties, default_interfaces, instance_label)

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

        await host.withdraw()
        while not any(k == "remove" and a.fingerprint == fp for k, a in events):
            changed.clear()
            await asyncio.wait_for(changed.wait(), 10)
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


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from([b"name", b"fp", b"game", b"variant", b"free", b"v", b"zz"]),
                       st.one_of(st.none(), st.binary(max_size=300)), max_size=7),
       st.integers(-5, 70000))
def test_any_txt_parses_or_is_ignored_never_raises(props, port):
    advert = advert_from_properties(props, port, ["127.0.0.1"])
    assert advert is None or (advert.fingerprint and 0 < advert.port < 65536)


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
            await asyncio.sleep(0.2)  # let the browser's own resolution of it finish
            assert not any(tag in name for name in browser.peers)
            assert any(a.fingerprint == fp for a in browser.peers.values())
    finally:
        await stranger.async_close()
