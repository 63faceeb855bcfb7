"""The namespace harness itself: two hosts see each other by mDNS over the veths, and nothing leaks."""

import textwrap

import pytest

from bench.netns import TestNetwork, ip, wait_line

pytestmark = pytest.mark.netns

ADVERTISE = textwrap.dedent("""
    import asyncio, sys
    from lanterne.protocol.net.discovery import Advert, Discovery, TableHint
    async def main():
        async with Discovery([sys.argv[1]]) as d:
            await d.advertise(Advert("Bea", sys.argv[2], 41000, table=TableHint("pagode")))
            print("advertised", flush=True)
            await asyncio.sleep(60)
    asyncio.run(main())
""")

BROWSE = textwrap.dedent("""
    import asyncio, sys, time
    from lanterne.protocol.net.discovery import Discovery
    async def main():
        start = time.perf_counter()
        async with Discovery([sys.argv[1]]) as d:
            a = await d.wait_for(lambda a: a.fingerprint == sys.argv[2], timeout=20)
            print("found", a.name, a.address, a.port, a.table.game, round(time.perf_counter() - start, 3), flush=True)
    asyncio.run(main())
""")


def test_zeroconf_in_one_namespace_sees_a_service_in_another(netns_network):
    net = netns_network(2)
    a, b = net.hosts
    fp = "beef-0000-1111-2222"
    adv = b.python("-c", ADVERTISE, b.address, fp)
    wait_line(adv, "advertised", 20)
    browse = a.python("-c", BROWSE, a.address, fp)
    line = wait_line(browse, "^found", 25)
    assert line.split()[1:5] == ["Bea", b.address, "41000", "pagode"]
    assert browse.wait(10) == 0


def test_hosts_are_isolated_from_the_machine_and_cleaned_up(tmp_path):
    from bench.netns import unavailable_reason

    if unavailable_reason():
        pytest.skip(unavailable_reason())
    with TestNetwork(2, tmp_path) as net:
        names = ip("netns", "list").stdout
        assert all(h.namespace in names for h in net.hosts)
        a, b = net.hosts
        assert a.address.startswith("10.254.") and a.address != b.address
        # the test addresses live only inside the namespaces
        assert a.address not in ip("-4", "addr").stdout
        assert a.address in a.run("ip", "-4", "addr", "show", "eth0").stdout
        assert "MULTICAST" in a.run("ip", "link", "show", "eth0").stdout
        # TCP works between the hosts, and stops when the cable is pulled
        server = b.python("-c", "import socket,sys;s=socket.create_server((sys.argv[1],42000));print('up',flush=True);"
                                "c,_=s.accept();c.sendall(b'hi')", b.address)
        wait_line(server, "up", 10)
        got = a.run(net_python(), "-c", "import socket,sys;print(socket.create_connection((sys.argv[1],42000),5)"
                                        ".recv(2).decode())", b.address)
        assert got.stdout.strip() == "hi", got.stderr
        a.link_down()
        down = a.run(net_python(), "-c", "import socket,sys;socket.create_connection((sys.argv[1],42000),1)", b.address)
        assert down.returncode != 0
        a.link_up()
        sleeper = a.popen("sleep", "600")
    assert sleeper.poll() is not None, "processes in the namespaces are killed at cleanup"
    names = ip("netns", "list").stdout
    assert not any(h.namespace in names for h in net.hosts) and net.switch_ns not in names


def net_python() -> str:
    import sys
    return sys.executable
