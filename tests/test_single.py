"""One app per data folder: a second Lanterne on the same folder stops at once with one line."""

from __future__ import annotations

import os
import subprocess

import pytest

from lanterne.client.single import AlreadyRunning, only_instance
from tests.support.commands import LANTERNE, REPO, lanterne, lanterne_env

REFUSED = "another Lanterne is already running on the data folder"




@pytest.fixture
def host(tmp_path):
    """A real ``lanterne host`` waiting for a guest on 127.0.0.1 (no zeroconf), holding its data folder."""
    home = tmp_path / "home"
    proc = subprocess.Popen([*LANTERNE, "host", "pagode", "--bot", "random",
                             "--interface", "127.0.0.1", "--no-discovery"], cwd=REPO, env=lanterne_env(home),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert line.startswith("listening on 127.0.0.1:"), (line, proc.stderr.read() if proc.poll() else "")
        yield proc, home
    finally:
        proc.terminate()
        proc.wait(20)


def test_a_second_host_on_the_same_data_folder_is_refused_in_one_line(host):
    proc, home = host
    r = lanterne("host", "pagode", "--bot", "random", "--interface", "127.0.0.1", "--no-discovery", home=home)
    assert r.returncode == 2
    assert r.stderr.startswith(f"lanterne: {REFUSED} {home} (process {proc.pid})")
    assert len(r.stderr.splitlines()) == 1 and "Traceback" not in r.stderr
    assert r.stdout == ""                                  # refused before it listened or resumed anything
    assert proc.poll() is None                             # the first one goes on


def test_the_app_and_join_are_refused_too_but_not_join_list_or_verify(host, tmp_path):
    proc, home = host
    for args in ([], ["join", "127.0.0.1:9", "--bot", "random", "--no-discovery"]):
        r = lanterne(*args, home=home)
        assert r.returncode == 2 and REFUSED in r.stderr and len(r.stderr.splitlines()) == 1, (args, r.stderr)
    r = lanterne("verify", str(tmp_path / "missing.log"), home=home)
    assert r.returncode == 2 and REFUSED not in r.stderr and "no such file" in r.stderr


def test_another_data_folder_is_another_app(host, tmp_path):
    with only_instance(tmp_path / "other-home") as folder:
        assert folder == tmp_path / "other-home"


def test_the_lock_goes_with_the_process(host):
    proc, home = host
    with pytest.raises(AlreadyRunning, match=f"process {proc.pid}"):
        with only_instance(home):
            pass
    proc.kill()                  # no clean exit: the OS drops the lock all the same
    proc.wait(20)
    with only_instance(home):
        r = lanterne("host", "pagode", "--bot", "random", "--interface", "127.0.0.1", "--no-discovery", home=home)
        assert r.returncode == 2 and f"(process {os.getpid()})" in r.stderr
