"""No ghost tables: a `lanterne host` stopped by SIGTERM or SIGHUP withdraws its mDNS record.

A host in one namespace, a browser (a plain :class:`Discovery`, which drops a
record only on a goodbye: zeroconf keeps a PTR for its TTL, at least 1125 s)
in another: after the signal the browser must stop listing the table, and the
host must exit with 128 + the signal's number and one line on stderr. How
fast is ``lanterne bench``'s business; run this file alone with ``-s`` to see
the delays measured here (median printed at the end).
"""

import os
import signal
import statistics
import textwrap
import time

import pytest

from bench.netns import Host, output, printed, wait_line
from tests.support.terminal import ALTERNATE_SCREEN_OFF, CURSOR_SHOWN, HOME_DRAWN, MOUSE_OFF, Terminal

pytestmark = [pytest.mark.netns, pytest.mark.slow]

WITHDRAWN = 60.0
"""Seconds to wait for a browser to drop a withdrawn table: a hang guard, and far below the TTL after which
zeroconf would drop a record nobody withdrew (so a table dropped at all was dropped by its goodbye)."""

WATCH = textwrap.dedent("""
    import asyncio, sys, time
    from lanterne.protocol.net.discovery import Discovery
    async def main():
        names = sys.argv[2:]
        def add(a):
            if a.name in names:
                print("add", a.name, a.table.game if a.table else "-", repr(time.time()), flush=True)
        def remove(a):
            if a.name in names:
                print("remove", a.name, repr(time.time()), flush=True)
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
    assert seen.split()[2] == "pagode"
    sent = time.time()
    os.kill(host.pid, signum)
    line = wait_line(watch, "^remove ", WITHDRAWN)
    gone = float(line.split()[2]) - sent
    out, err = output(host, 15)
    return gone, host.returncode, err


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_a_host_stopped_by_a_signal_leaves_no_ghost_table(netns_network, signum):
    net = netns_network(2)
    runs = []
    for n in range(3):
        gone, code, err = ghost_delay(net, signum, f"Ghost{n}")
        runs.append(gone)
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
    """The control: SIGKILL leaves no chance for a goodbye, and the table stays listed, so what dropped
    the tables above was the goodbye. A second host stopped by SIGTERM afterwards is dropped: the
    browser was hearing, and still lists the first."""
    net = netns_network(2)
    a, b = net.hosts
    watch = b.python("-c", WATCH, b.address, "Killed", "Stopped")
    wait_line(watch, "^browsing", 20)
    killed = start_host(a, "Killed")
    wait_line(watch, "^add Killed ", 20)
    os.kill(killed.pid, signal.SIGKILL)
    stopped = start_host(a, "Stopped")
    wait_line(watch, "^add Stopped ", 20)
    os.kill(stopped.pid, signal.SIGTERM)
    wait_line(watch, "^remove Stopped ", WITHDRAWN)
    assert "remove Killed" not in printed(watch), printed(watch)


def app_terminal(host: Host) -> Terminal:
    """The app in a terminal of its own on ``host`` (its controlling terminal: closing it hangs the app up)."""
    import json
    import sys

    (host.home / "settings.json").write_text(json.dumps({"display_name": "AppHost",
                                                          "interfaces": [host.address]}))
    term = Terminal(["ip", "netns", "exec", host.namespace, sys.executable, "-m", "lanterne"], env=host.env(),
                    columns=120, rows=40)
    host.processes.append(term.proc)
    return term


@pytest.mark.parametrize("how,where", [("SIGTERM", "lobby"), ("SIGHUP", "game"), ("closed", "game")],
                         ids=["SIGTERM-open-table", "SIGHUP-game", "closed-terminal-game"])
def test_the_app_leaves_no_ghost_table(netns_network, how, where):
    """The app's table (open in the lobby, or at play on the board) is withdrawn on SIGTERM, SIGHUP or its
    terminal closed, and the terminal gets its screen, cursor and mouse back."""
    net = netns_network(2)
    a, b = net.hosts
    watch = b.python("-c", WATCH, b.address, "AppHost")
    wait_line(watch, "^browsing", 20)
    term = app_terminal(a)
    term.wait_for(HOME_DRAWN)          # the app has started
    mark = term.mark()
    term.send(b"l")                    # the LAN lobby
    term.wait_for(b"Open table", since=mark)
    term.send(b"o")                    # open a table
    wait_line(watch, "^add AppHost pagode", 20)
    if where == "game":
        guest = b.lanterne("join", "AppHost", "--bot", "random", "--name", "Bob", "--interface", b.address,
                           "--log-dir", str(b.home / "games"), "--wait", "20")
        wait_line(guest, "^found", 20)
        mark = term.mark()
        term.wait_for(b"Accept", since=mark)  # the join request's dialog
        mark = term.mark()
        term.send(b"a")                # accept Bob
        wait_line(guest, "^seated 2 of 2", 20)
        term.wait_for(b"legal moves", since=mark)  # the board is on screen
    mark = term.mark()
    sent = time.time()
    if how == "closed":
        term.hang_up()
    else:
        os.kill(term.proc.pid, getattr(signal, how))
    line = wait_line(watch, "^remove ", WITHDRAWN)
    gone = float(line.split()[2]) - sent
    assert term.proc.wait(60) == 128 + (signal.SIGTERM if how == "SIGTERM" else signal.SIGHUP)
    if how != "closed":
        for given_back in (ALTERNATE_SCREEN_OFF, CURSOR_SHOWN, MOUSE_OFF):  # screen, cursor, mouse
            term.wait_for(given_back, since=mark)
    print(f"\napp, {how} at the {where}: record gone after {gone:.3f} s")


def test_a_seated_guest_stopped_by_sigterm_withdraws_itself_too(netns_network):
    """`lanterne join` in the middle of a game: SIGTERM, one line, 143, and its own record (a seated
    guest advertises itself) leaves the other lobbies."""
    net = netns_network(3)
    a, b, c = net.hosts
    watch = c.python("-c", WATCH, c.address, "Bob")
    wait_line(watch, "^browsing", 20)
    host = start_host(a, "Ana")
    guest = b.lanterne("join", "Ana", "--bot", "random", "--name", "Bob", "--interface", b.address,
                       "--log-dir", str(b.home / "games"), "--wait", "20", "--move-delay", "0.5")
    wait_line(guest, "^seated 2 of 2", 20)
    wait_line(watch, "^add ", 20)
    os.kill(guest.pid, signal.SIGTERM)
    wait_line(watch, "^remove ", WITHDRAWN)
    out, err = output(guest, 15)
    assert guest.returncode == 143
    assert err == "lanterne: stopped by SIGTERM: links closed, withdrawn from the LAN\n"
    assert host.poll() is None or host.returncode in (0, 1)   # the host goes on (or ends by its claim)
