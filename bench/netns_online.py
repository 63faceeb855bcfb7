"""A game by code between two homes behind NAT, timed (needs root): ``python -m bench.netns_online``.

`lanterne host pagode --invite` in one home, `lanterne join CODE` in the other (homes.py: the mailbox and
the relay on the public side, neither home reachable from the other); the figure is the seconds from the
join command's start (Python start-up included) to the host's first move line, through the relay.
``lanterne bench --only online.first_move`` reads it.
"""

from __future__ import annotations

import json
import re
import tempfile
import time
from pathlib import Path

from .homes import Internet
from .netns import wait_line

WAIT = 120.0


def first_move_s() -> float:
    with tempfile.TemporaryDirectory() as folder, Internet(Path(folder), homes=2) as net:
        mailbox, relay = net.serve()
        a, b = net.homes

        def common(home):
            return ["--bot", "random", "--no-discovery", "--interface", home.address, "--mailbox", mailbox,
                    "--relay", relay, "--log-dir", str(home.home / "games"), "--new"]

        host = a.lanterne("host", "pagode", "--invite", *common(a))
        code = re.search(r"^code: (\S+) ", wait_line(host, r"^code: ", WAIT)).group(1)
        started = time.monotonic()
        b.lanterne("join", code, *common(b))
        wait_line(host, r"^move \d+: ", WAIT)
        return round(time.monotonic() - started, 3)


if __name__ == "__main__":
    print(json.dumps({"first_move_s": first_move_s()}))
