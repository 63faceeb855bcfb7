"""Four friends on four hosts in network namespaces: one leaves on purpose, one is cut off.

Real headless peers, one per namespace: Ana hosts Pueblo for 4 (``--on-gone
computer``, a claim time of 2 s), Bob, Cy and Dee join by zeroconf. Mid-game
Dee pauses (what the app's Pause does: ``Peer.pause()``, then a clean stop; the
links close saying "left on purpose"): the others see Dee left, not a broken
link, and a computer takes Dee's seat once the others agree. Then Cy's cable is
pulled, for well past the claim time: Cy, linked with nobody, must never claim
(``Peer.may_claim``: a peer cut off from every other seat waits), while Ana and
Bob give Cy's seat to a computer and play to the end. At the end Ana's and
Bob's logs are identical, Dee's is the start of theirs, Cy's is theirs up to
the cut (past it only its own moves, which the others never got: a Pueblo turn is two, a
placement and the chieftain's move), and
``lanterne verify`` says Ana's and Bob's logs are valid (both seats taken
over by computers) and Cy's and Dee's unfinished, every entry sound.
"""

import os
import re
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from lanterne.protocol.identity import Identity
from lanterne.protocol.log import open_entry, read_log
from tests.support.commands import REPO
from bench.netns import Host, output, printed, wait_line
from tests.support.lan_tables import finish, log_path

pytestmark = [pytest.mark.netns, pytest.mark.slow]

CLAIM = ["--claim-after", "2", "--min-claim", "1", "--read-timeout", "3"]
SLOW = ["--move-delay", "0.08"]   # a game long enough for a pause, a replacement and a cut cable

PAUSABLE = textwrap.dedent("""
    # `lanterne join ...`, where SIGUSR1 is the player choosing Pause (as the app's leave dialog:
    # Peer.pause(), then the peer stops): a SIGTERM afterwards closes its links saying it left on purpose.
    import asyncio, signal, sys
    from lanterne.protocol.net import peer as P
    run_guest = P.Peer.run_guest
    async def pausable(self, *a, **k):
        def pause():
            self.pause()
            print("paused", flush=True)   # what the test waits for before it stops the peer
        asyncio.get_running_loop().add_signal_handler(signal.SIGUSR1, pause)
        return await run_guest(self, *a, **k)
    P.Peer.run_guest = pausable
    from lanterne.client.cli import main
    sys.exit(main(sys.argv[1:]))
""")


def join_args(guest: Host, name: str) -> list[str]:
    return ["join", "Ana", "--bot", "random", "--bot-seed", name, "--name", name, "--interface", guest.address,
            "--log-dir", str(guest.home / "games"), "--wait", "30", *CLAIM, *SLOW]


def fingerprint_of(out: str) -> str:
    return re.search(r"^listening on \S+ as \S+ \((\S+)\)", out, re.M).group(1)


def the_log(host: Host) -> Path:
    (path,) = (host.home / "games").glob("*.log")
    return path


def entries(path: Path) -> list[bytes]:
    return read_log(path)[0]


def test_four_friends_one_pauses_one_is_cut_off_and_never_claims(netns_network):
    started = time.monotonic()
    net = netns_network(4)
    a, b, c, d = net.hosts
    ana = a.lanterne("host", "pueblo", "--players", "4", "--on-gone", "computer", "--bot", "random",
                     "--bot-seed", "Ana", "--name", "Ana", "--interface", a.address,
                     "--log-dir", str(a.home / "games"), *CLAIM, *SLOW)
    wait_line(ana, r"^advertised", 30)
    bob = b.lanterne(*join_args(b, "Bob"))
    cy = c.lanterne(*join_args(c, "Cy"))
    dee = d.python("-c", PAUSABLE, *join_args(d, "Dee"))
    for guest in (bob, cy, dee):
        wait_line(guest, r"^seated \d of 4", 60)
    for guest in (cy, dee):      # linked with all three others: each of them sees it go
        for _ in range(3):
            wait_line(guest, r"^linked with ", 60)

    # Dee pauses mid-game: the others see it left on purpose, and a computer takes the seat
    wait_line(dee, r"^move (1\d|[2-9]\d|\d{3,}):", 60)
    dee_fp = fingerprint_of(printed(dee))
    os.kill(dee.pid, signal.SIGUSR1)
    wait_line(dee, r"^paused$", 20)
    os.kill(dee.pid, signal.SIGTERM)
    _, dee_err = output(dee, 20)
    assert dee.returncode == 143, dee_err
    for other in (ana, bob, cy):
        wait_line(other, rf"^left on purpose \(paused\): {dee_fp}", 20)
    asked = wait_line(ana, r"^replace: seat \d asks to give seat \d to \[computer\] Dee ", 30)
    dee_seat = re.search(r"give seat (\d)", asked).group(1)
    # the replacement is agreed by every seat (Cy's answer included) once the computer moves for Dee, as
    # Cy sees it: cut before that, the replacement would wait for Cy's answer
    wait_line(cy, rf"^move \d+: seat {dee_seat} ", 40)

    # Cy's cable is pulled for five claim times: Cy waits, Ana and Bob give its seat to a computer
    c.link_down()
    cut_at = time.monotonic()
    try:
        wait_line(ana, r"^(seat \d is now|hosting) \[computer\] Cy ", 40)
    except AssertionError:
        for who, proc in (("Ana", ana), ("Bob", bob), ("Cy", cy)):
            print(f"---- {who}\n" + printed(proc)[-2500:])
        raise
    outs = [finish(p, 120) for p in (ana, bob)]
    # the point is a span of time: Cy stays cut off for five claim times (its own clock runs; no event
    # says "it did not claim" sooner)
    time.sleep(max(0.0, cut_at + 10 - time.monotonic()))
    assert cy.poll() is None, "Cy, cut off, stopped on its own"
    cy_seen = printed(cy)
    os.kill(cy.pid, signal.SIGTERM)       # Cy gives up: a clean stop, its game left unfinished
    output(cy, 20)
    c.link_up()

    # Cy (cut off from every other seat) never claimed, nor ran a computer for a seat
    cy_seat = re.search(r"^seated (\d) of 4", cy_seen, re.M).group(1)
    assert not re.search(rf"^(claim|replace): seat {int(cy_seat)} ", cy_seen, re.M), cy_seen[-3000:]
    assert "hosting [computer]" not in cy_seen
    after_cut = cy_seen.split("link lost with")[-1] if "link lost with" in cy_seen else ""
    assert "game over" not in after_cut

    for out in outs:
        assert re.search(r"^game over: scores ", out, re.M), out[-2000:]
    ana_log, bob_log, cy_log, dee_log = log_path(outs[0]), log_path(outs[1]), the_log(c), the_log(d)
    assert ana_log.read_bytes() == bob_log.read_bytes(), "Ana's and Bob's logs differ"
    final = entries(ana_log)
    dee_entries = entries(dee_log)
    assert final[:len(dee_entries)] == dee_entries, "Dee's log is not the start of the table's"
    cy_entries = entries(cy_log)
    same = next((i for i, (x, y) in enumerate(zip(cy_entries, final)) if x != y), len(cy_entries))
    cy_key = Identity.load_or_create(c.home).public
    past_the_cut = [open_entry(raw) for raw in cy_entries[same:]]
    assert len(past_the_cut) <= 2 and all(e.author == cy_key and e.kind == "move" for e in past_the_cut), \
        f"Cy's log leaves the table's at entry {same} of {len(cy_entries)} with others' entries " \
        f"{[(e.kind, e.author.hex()[:8]) for e in past_the_cut]}"
    assert len(cy_entries) > len(dee_entries), "Cy was cut off after Dee left"

    def verify(*paths: Path) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "lanterne", "verify", *map(str, paths)], cwd=REPO,
                              capture_output=True, text=True, timeout=120)

    finished = verify(ana_log, bob_log)
    assert finished.returncode == 0, finished.stdout + finished.stderr
    assert finished.stdout.count(": valid: pueblo") == 2, finished.stdout
    assert "taken over by [computer] Cy" in finished.stdout and "taken over by [computer] Dee" in finished.stdout
    for path, at in ((cy_log, len(cy_entries)), (dee_log, len(dee_entries))):   # each stopped early: sound
        left = verify(path)
        assert f"unfinished: pueblo (standard), 4 players, {at} entries, every one sound so far" in left.stdout, \
            left.stdout + left.stderr
    print(f"\nfour friends: {len(final)} entries, Dee left at {len(dee_entries)}, Cy cut off at "
          f"{len(cy_entries)}; {time.monotonic() - started:.1f} s")
