"""`lanterne join CODE` told apart from HOST:PORT and names; the commands' one-line failures on local servers."""

from __future__ import annotations

import pytest

from lanterne.client.commands.online import is_code
from tests.support.commands import lanterne


@pytest.mark.parametrize("text, code", [("7-crossover-clockwork", True), ("12-Aardvark-Zulu", True),
                                        (" 3-a-b ", True), ("10.0.0.2:4000", False), ("localhost:80", False),
                                        ("Ana", False), ("06dd-f410", False), ("7", False), ("7-", False)])
def test_a_code_has_its_own_shape(text, code):
    assert is_code(text) is code


def run(tmp_path, *args):
    return lanterne(*args, "--bot", "random", "--no-discovery", "--interface", "127.0.0.1", "--relay-only",
                    "--log-dir", str(tmp_path / "games"), home=tmp_path)


def test_a_code_nobody_waits_on_is_one_line(tmp_path, mailbox, relay):
    done = run(tmp_path, "join", "5-nobody-here", "--wait", "2", "--mailbox", mailbox, "--relay", relay)
    assert done.returncode == 2 and done.stderr.splitlines() == [
        "lanterne: nobody is waiting on 5-nobody-here (it was used already, or it expired, or it was never made)"]


def test_a_host_whose_mailbox_is_down_says_so_and_opens_no_table(tmp_path, refused_port, relay):
    done = run(tmp_path, "host", "pagode", "--invite", "--mailbox", f"ws://127.0.0.1:{refused_port}/v1",
               "--relay", relay)
    assert done.returncode == 2 and done.stderr.splitlines() == [
        f"lanterne: cannot reach the mailbox at ws://127.0.0.1:{refused_port}/v1: no internet here? on a LAN "
        "use the lobby"]
    assert not list((tmp_path / "games").glob("*"))


def test_servers_that_are_no_urls_are_one_line(tmp_path):
    done = run(tmp_path, "join", "3-a-b", "--mailbox", "http://x")
    assert done.returncode == 2 and done.stderr.splitlines() == [
        "lanterne: the mailbox must be a ws:// or wss:// URL, not 'http://x'"]
