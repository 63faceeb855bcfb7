"""The `lanterne` command line: wrong arguments get one line, never a traceback."""

import subprocess
import sys

import pytest

from tests.support.commands import lanterne




@pytest.mark.parametrize("args, says", [
    (["selfplay", "chess"], "no game 'chess'"),
    (["selfplay", "pagode", "--games", "x"], "invalid int value: 'x'"),
    (["selfplay", "pagode", "--games", "0"], "--games must be at least 1"),
    (["selfplay", "pagode", "--players", "3"], "not 3"),
    (["selfplay", "pagode", "--variant", "turbo"], "no variant 'turbo'"),
    (["selfplay", "pagode", "--bots", "chess"], "no computer player 'chess'"),
    (["frobnicate"], "invalid choice: 'frobnicate'"),
    (["join", "10.1.2.3:abc"], "the port 'abc' is not a number from 1 to 65535"),
    (["join", "127.0.0.1:-4"], "the port '-4' is not a number from 1 to 65535"),
    (["join", "[::1]:70000"], "the port '70000' is not a number from 1 to 65535"),
    (["join", "10.1.2.3:\u00b2"], "the port '\u00b2' is not a number from 1 to 65535"),  # "²".isdigit()
    (["join", "lan.example:0"], "the port '0' is not a number"),
    (["join", ":4000"], "has no host before the ':'"),
    (["join", "Ana", "--wait", "-1"], "'-1' seconds: give 0 or more"),
    (["play", "pagode", "--delay", "-3"], "'-3' seconds: give 0 or more"),
    (["play", "pagode", "--delay", "nan"], "'nan' seconds: give 0 or more"),
    (["play", "pagode", "--delay", "soon"], "'soon' is not a number of seconds"),
])
def test_wrong_arguments_are_one_line(args, says):
    r = lanterne(*args)
    assert r.returncode == 2
    assert says in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "Traceback" not in r.stderr


def test_help_lists_the_commands():
    r = lanterne("--help")
    assert r.returncode == 0 and "selfplay" in r.stdout


def test_bench_refuses_to_write_a_partial_table():
    r = lanterne("bench", "--only", "pagode", "--write-docs")
    assert r.returncode == 2 and "without --only" in r.stderr


def test_bench_names_an_unknown_figure():
    r = lanterne("bench", "--only", "chess")
    assert r.returncode == 2 and "no benchmark 'chess'" in r.stderr


@pytest.mark.parametrize("text", ["Ana", "bf46-3283", "Ana:x", "Dr. Who: the second", "10.1.2.3:4000",
                                  "[::1]:4000", "localhost:9", "host.lan:65535"])
def test_join_takes_names_and_good_addresses(text):
    from lanterne.client.commands.join import target

    assert target(text) == text


def test_a_bad_join_address_is_refused_at_once_not_searched_for():
    # a search would last the whole --wait, past the runner's deadline: the command would fail by timeout
    r = lanterne("join", "10.1.2.3:abc", "--wait", "600")
    assert r.returncode == 2 and "looking for" not in r.stdout
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr


def _in_a_network_of_its_own(*args):
    """``lanterne ARGS`` in a new network namespace with only its loopback: nobody else is around."""
    import os
    import shutil

    if os.geteuid() != 0 or shutil.which("unshare") is None or shutil.which("ip") is None:
        pytest.skip("needs root and unshare to make an empty network")
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    command = " ".join([sys.executable, *args])
    return subprocess.run(["unshare", "-n", "sh", "-c", f"ip link set lo up && exec {command}"],
                          capture_output=True, text=True, timeout=60, cwd=root,
                          env={**os.environ, "PYTHONPATH": str(root)})


@pytest.mark.netns
def test_join_list_with_nobody_around_says_so_and_exits_1():
    r = _in_a_network_of_its_own("-m", "lanterne", "join", "--list", "--interface", "127.0.0.1", "--wait", "1")
    assert r.returncode == 1, r.stderr
    assert r.stdout == ""
    assert r.stderr == "lanterne: nobody heard on 127.0.0.1 within 1 s\n"


@pytest.mark.netns
def test_join_list_with_a_peer_around_lists_it_and_exits_0(tmp_path):
    script = tmp_path / "advertise_and_list.py"
    script.write_text(f"""
import asyncio, subprocess, sys
from lanterne.protocol.identity import Identity
from lanterne.protocol.net.discovery import Advert, Discovery

async def main():
    me = Identity.generate()
    advert = Advert(name="Ana", fingerprint=me.fingerprint, port=4242, addresses=("127.0.0.1",))
    async with Discovery(["127.0.0.1"]) as d:
        await d.advertise(advert)
        for _ in range(6):      # a machine so busy that one listening of 5 s heard nothing: listen again
            r = await asyncio.to_thread(subprocess.run, [sys.executable, "-m", "lanterne", "join", "--list",
                                        "--interface", "127.0.0.1", "--wait", "5"], capture_output=True, text=True)
            if r.returncode == 0:
                break
    print(r.returncode, r.stdout, r.stderr, sep="|")

asyncio.run(main())
""")
    r = _in_a_network_of_its_own(str(script))
    assert r.stdout.count("|") >= 2, r.stderr
    code, out, err = r.stdout.split("|", 2)
    assert code == "0", (r.stdout, r.stderr)
    assert out.startswith("Ana\t") and "127.0.0.1:4242" in out
