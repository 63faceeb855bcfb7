"""A small internet made of network namespaces: a public side, and homes behind NAT routers.

::

    public  198.51.100.1 (the mailbox, the transit relay)  on bridge br0
      |-- router a  198.51.100.11 ... MASQUERADE ... home a 10.0.1.2 (and its neighbours 10.0.1.3, ...)
      |-- router b  198.51.100.12 ... MASQUERADE ... home b 10.0.2.2
      |-- open host 198.51.100.51 (reachable from everywhere: the direct case)

A router forwards what its home sends out (masqueraded as its own address)
and what answers it, nothing else; no router knows a route to another home,
so neither home can reach the other: only the relay joins them. The machines
of one home share its LAN (a bridge in the router: zeroconf works between
them); ``neighbours`` adds machines to the first home. Addresses
exist only inside these namespaces (198.51.100.0/24 is documentation's
TEST-NET-2); nothing touches the machine's own interfaces. It is a
`bench/netns.py:TestNetwork` of another shape (the same naming,
clean-up and stale-namespace removal); each host is a
`bench/netns.py:Host` (``popen``, ``python``; ``link_down`` pulls the
router's public cable).
"""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

from .netns import Host, TestNetwork, ip, remove_stale_namespaces, unavailable_reason, wait_line

PUBLIC = "198.51.100.1"
START_WAIT = 60.0


class Internet(TestNetwork):
    """Use as a context manager; every namespace it made is deleted at the end, processes killed first.

    ``hosts`` holds them all (public first); ``homes``, ``neighbours`` (more machines on the first home's LAN)
    and ``open`` name them by role.
    """

    def __init__(self, workdir: Path, homes: int = 2, open_hosts: int = 0, neighbours: int = 0):
        super().__init__(1 + homes + open_hosts + neighbours, workdir)
        self.layout = (homes, open_hosts, neighbours)
        self.public: Host | None = None
        self.homes: list[Host] = []
        self.neighbours: list[Host] = []
        self.open: list[Host] = []

    def _namespace(self, name: str) -> str:
        namespace = f"{self.tag}-{name}"
        self._netns(namespace)
        return namespace

    def _host(self, namespace: str, address: str, uplink: str) -> Host:
        home = self.workdir / namespace
        home.mkdir(parents=True, exist_ok=True)
        host = Host(namespace, address, uplink, self.public.namespace, home)
        self.hosts.append(host)
        return host

    def _build(self) -> None:
        remove_stale_namespaces()
        public = self._namespace("pub")
        ip("-n", public, "link", "add", "br0", "type", "bridge")
        ip("-n", public, "link", "set", "br0", "up")
        ip("-n", public, "addr", "add", f"{PUBLIC}/24", "dev", "br0")
        self.public = Host(public, PUBLIC, "br0", public, self.workdir / "public")
        self.public.home.mkdir(parents=True, exist_ok=True)
        self.hosts.append(self.public)
        homes, open_hosts, neighbours = self.layout
        for i in range(homes):
            router = self._namespace(f"r{i}")
            self._plug(router, f"up{i}", f"198.51.100.{11 + i}", "wan")
            ip("-n", router, "link", "add", "lan", "type", "bridge")
            ip("-n", router, "addr", "add", f"10.0.{i + 1}.1/24", "dev", "lan")
            ip("-n", router, "link", "set", "lan", "up")
            for j in range(1 + (neighbours if i == 0 else 0)):
                machine = self._namespace(f"h{i}" + (f"n{j}" if j else ""))
                ip("link", "add", f"m{j}", "netns", router, "type", "veth", "peer", "name", "eth0", "netns", machine)
                ip("-n", router, "link", "set", f"m{j}", "master", "lan")
                ip("-n", router, "link", "set", f"m{j}", "up")
                ip("-n", machine, "addr", "add", f"10.0.{i + 1}.{2 + j}/24", "dev", "eth0")
                ip("-n", machine, "link", "set", "eth0", "up")
                ip("-n", machine, "route", "add", "default", "via", f"10.0.{i + 1}.1")
                (self.neighbours if j else self.homes).append(self._host(machine, f"10.0.{i + 1}.{2 + j}", f"up{i}"))
            self._nat(router)
        for i in range(open_hosts):
            host = self._namespace(f"o{i}")
            self._plug(host, f"op{i}", f"198.51.100.{51 + i}", "eth0")
            self.open.append(self._host(host, f"198.51.100.{51 + i}", f"op{i}"))

    def _plug(self, namespace: str, port: str, address: str, name: str) -> None:
        """A cable from ``namespace`` (its interface ``name``) to the public bridge (port ``port``)."""
        public = self.public.namespace
        ip("link", "add", name, "netns", namespace, "type", "veth", "peer", "name", port, "netns", public)
        ip("-n", public, "link", "set", port, "master", "br0")
        ip("-n", public, "link", "set", port, "up")
        ip("-n", namespace, "addr", "add", f"{address}/24", "dev", name)
        ip("-n", namespace, "link", "set", name, "up")

    def _nat(self, router: str) -> None:
        """A home router: masquerade outward, let in only the answers."""
        for command in (["sysctl", "-qw", "net.ipv4.ip_forward=1"],
                        ["iptables", "-t", "nat", "-A", "POSTROUTING", "-o", "wan", "-j", "MASQUERADE"],
                        ["iptables", "-A", "FORWARD", "-i", "wan", "-m", "conntrack", "--ctstate",
                         "ESTABLISHED,RELATED", "-j", "ACCEPT"],
                        ["iptables", "-A", "FORWARD", "-i", "wan", "-j", "DROP"]):
            ip("netns", "exec", router, *command)

    def serve(self) -> tuple[str, str]:
        """Start the mailbox and the transit relay on the public side; their URL and ``tcp:HOST:PORT``."""
        ports = []
        for args in (["wormhole-mailbox", "--channel-db", str(self.public.home / "channels.sqlite")],
                     ["transitrelay"]):
            proc = self.public.popen(sys.executable, "-m", "twisted", *args, "--port", f"tcp:0:interface={PUBLIC}",
                                     cwd=str(self.public.home))
            line = wait_line(proc, r"starting on \d+", START_WAIT)
            ports.append(int(re.search(r"starting on (\d+)", line).group(1)))
        return f"ws://{PUBLIC}:{ports[0]}/v1", f"tcp:{PUBLIC}:{ports[1]}"


def internet_unavailable_reason() -> str | None:
    """Why an :class:`Internet` cannot be built here (namespaces, or its routers' ``iptables``), or None."""
    return unavailable_reason() or (None if shutil.which("iptables") else "iptables is missing (apt install iptables)")
