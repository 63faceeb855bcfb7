"""No ghost tables: a `lanterne host` stopped by SIGTERM or SIGHUP withdraws its mDNS record.

A host in one namespace, a browser (a plain :class:`Discovery`) in another:
after the signal the browser must stop listing the table within 3 s (the
zeroconf goodbye, not the record's TTL), and the host must exit with
128 + the signal's number and one line on stderr. Run this file alone with
``-s`` to see the measured delays (median printed at the end).
"""

import os
import signal
import statistics
import textwrap
import time

import pytest

from tests.e2e.netns import Host, output, wait_line

pytestmark = pytest.mark.netns

LIMIT = 3.0
"""Seconds from the signal until no other lobby lists the table (issue 18)."""

WATCH = textwrap.dedent("""
    import asyncio, sys, time
    from protocol.net.discovery import Discovery
    async def main():
        name = sys.argv[2]
        def add(a):
            if a.name == name:
                print("add", a.table.game if a.table else "-", repr(time.time()), flush=True)
        def remove(a):
            if a.name == name:
                print("remove", repr(time.time()), flush=True)
        async with Discovery([sys.argv[1]], on_add=add, on_remove=remove) as d:
            await d.browse()
            print("browsing", flush=True)
            await asyncio.sleep(120)
    asyncio.run(main())
""")

delays: dict[str, list[float]] = {}


def start_host(host: Host, name: str):
    proc = host.lanterne("host", "pagode", "--bot", "random", "--name", name, "--interface", host.address,
                         "--log-dir", str(host.home / "games"), "--new")
    wait_line(proc, "^advertised on zeroconf", 30)
    return proc


def ghost_delay(net, signum: int, name: str) -> tuple[float, int, str]:
    """Seconds from ``signum`` sent to the host until the browser drops it; the host's exit code and stderr."""
    a, b = net.hosts
    watch = b.python("-c", WATCH, b.address, name)
    wait_line(watch, "^browsing", 20)
    host = start_host(a, name)
    seen = wait_line(watch, "^add ", 20)
    assert seen.split()[1] == "pagode"
    sent = time.time()
    os.kill(host.pid, signum)
    line = wait_line(watch, "^remove ", 15)
    gone = float(line.split()[1]) - sent
    out, err = output(host, 15)
    return gone, host.returncode, err


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_a_host_stopped_by_a_signal_leaves_no_ghost_table(netns_network, signum):
    net = netns_network(2)
    runs = []
    for n in range(3):
        gone, code, err = ghost_delay(net, signum, f"Ghost{n}")
        runs.append(gone)
        assert gone < LIMIT, f"the browser still listed the table {gone:.2f} s after {signum.name}"
        assert code == 128 + signum, (code, err)
        assert err.splitlines() == [f"lanterne: stopped by {signum.name}: links closed, withdrawn from the LAN"]
    delays[signum.name] = runs
    print(f"\n{signum.name}: record gone after {', '.join(f'{d:.3f}' for d in runs)} s "
          f"(median {statistics.median(runs):.3f} s)")


def test_sigterm_exit_code_and_one_line(netns_network):
    net = netns_network(1)
    (a,) = net.hosts
    host = start_host(a, "Quit")
    os.kill(host.pid, signal.SIGTERM)
    out, err = output(host, 15)
    assert host.returncode == 143
    assert err == "lanterne: stopped by SIGTERM: links closed, withdrawn from the LAN\n"
    assert "Traceback" not in out


def test_the_browser_would_keep_a_ghost_without_the_goodbye(netns_network):
    """The control: SIGKILL leaves no chance for a goodbye, and the table stays listed past the limit,
    so the delays above measure the goodbye, not some expiry."""
    net = netns_network(2)
    a, b = net.hosts
    watch = b.python("-c", WATCH, b.address, "Killed")
    wait_line(watch, "^browsing", 20)
    host = start_host(a, "Killed")
    wait_line(watch, "^add ", 20)
    os.kill(host.pid, signal.SIGKILL)
    with pytest.raises(AssertionError, match="no line matching"):
        wait_line(watch, "^remove ", LIMIT + 1)
