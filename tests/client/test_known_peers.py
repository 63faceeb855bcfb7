"""client/known_peers.py: the players met once (name, key, date), in a real file, like known_hosts."""

from __future__ import annotations

import json
import threading

from lanterne.client.known_peers import (CHANGED, FILE, KNOWN, NEW, RENAMED, KnownPeers, KnownPeersFile)
from lanterne.protocol.identity import Identity, fingerprint, safety_code

BEA, BEA2, CARL, ME = (Identity.from_seed(s).public for s in (b"bea", b"bea-new-phone", b"carl", b"me"))


def test_new_known_changed_and_renamed():
    peers = KnownPeers()
    assert peers.check("Bea", BEA).status == NEW and peers.check("Bea", BEA).compare
    peers.remember("Bea", BEA, "2025-03-02")
    known = peers.check("Bea", BEA)
    assert (known.status, known.since, known.compare) == (KNOWN, "2025-03-02", False)
    assert "optional" in known.text
    changed = peers.check("Bea", BEA2)
    assert (changed.status, changed.since, changed.compare) == (CHANGED, "2025-03-02", True)
    assert changed.text.startswith("Warning: Bea's key changed since 2025-03-02: compare the safety code again")
    renamed = peers.check("Beatrice", BEA)
    assert (renamed.status, renamed.other_names, renamed.compare) == (RENAMED, ("Bea",), False)
    assert "as Bea" in renamed.text
    assert peers.check("Carl", CARL).status == NEW


def test_a_changed_key_compared_again_is_known_from_then_on():
    peers = KnownPeers()
    peers.remember("Bea", BEA, "2025-03-02")
    peers.remember("Bea", BEA2, "2025-04-01")      # the person accepted after a fresh comparison
    assert peers.check("Bea", BEA2).status == KNOWN and peers.check("Bea", BEA2).since == "2025-04-01"
    assert peers.check("Bea", BEA).status == KNOWN  # both devices
    peers.remember("Bea", BEA2, "2025-05-01")
    assert len(peers) == 2 and peers.peers[1].last_seen == "2025-05-01" and peers.peers[1].first_seen == "2025-04-01"
    # another key under that name: changed since the newest key's date, and a key met as another is named
    peers.remember("Carl", CARL, "2025-01-01")
    odd = peers.check("Bea", CARL)
    assert odd.status == CHANGED and odd.since == "2025-04-01" and odd.other_names == ("Carl",)
    assert "met as Carl" in odd.text


def test_a_joiner_checks_the_host_from_the_safety_code_alone():
    peers = KnownPeers()
    peers.remember("Bea", BEA, "2025-03-02")
    assert peers.check_code("Bea", ME, safety_code(ME, BEA)).status == KNOWN
    assert peers.check_code("Bea", ME, safety_code(BEA2, ME)).status == CHANGED
    assert peers.check_code("Beatrice", ME, safety_code(ME, BEA)).status == RENAMED
    assert peers.check_code("Bea", ME, safety_code(CARL, BEA)).status == NEW        # not our code at all
    assert peers.check_code("Bea", ME, "12345").status == NEW


def test_an_advert_with_another_fingerprint_is_a_changed_key():
    peers = KnownPeers()
    peers.remember("Bea", BEA, "2025-03-02")
    assert peers.check_fingerprint("Bea", fingerprint(BEA)).status == KNOWN
    assert peers.check_fingerprint("Bea", fingerprint(BEA2)).status == CHANGED


def test_the_text_round_trips_and_damage_is_refused():
    peers = KnownPeers()
    peers.remember("[b]Bea\n", BEA, "2025-03-02")
    again = KnownPeers.loads(peers.dumps())
    assert again.peers == peers.peers
    for bad in ("", "[]", '{"version": 2, "peers": []}', '{"version": 1, "peers": [{"name": "x"}]}',
                json.dumps({"version": 1, "peers": [{"name": "x", "key": "zz" * 32, "first_seen": "2025-01-01",
                                                     "last_seen": "2025-01-01"}]}),
                json.dumps({"version": 1, "peers": [{"name": "x", "key": BEA.hex(), "first_seen": "yesterday",
                                                     "last_seen": "2025-01-01"}]})):
        try:
            KnownPeers.loads(bad)
        except ValueError as e:
            assert "\n" not in str(e)
        else:
            raise AssertionError(f"accepted {bad!r}")


def test_the_file_remembers_across_instances(tmp_path):
    path = tmp_path / "home" / FILE
    first = KnownPeersFile(path)
    assert len(first.peers) == 0 and first.warning is None and not path.exists()
    assert first.remember("Bea", BEA, "2025-03-02")
    second = KnownPeersFile(path)
    assert second.check("Bea", BEA).status == KNOWN and second.warning is None
    # another app wrote meanwhile: remember reads the file again under the lock, nothing is lost
    assert second.remember("Carl", CARL, "2025-03-03")
    assert first.remember("Dan", ME, "2025-03-04")
    names = [p.name for p in KnownPeersFile(path).peers.peers]
    assert names == ["Bea", "Carl", "Dan"]


def test_concurrent_writers_lose_nothing(tmp_path):
    path = tmp_path / FILE
    keys = [Identity.from_seed(bytes([i]) * 32).public for i in range(12)]

    def write(i):
        KnownPeersFile(path).remember(f"P{i}", keys[i], "2025-03-02")

    threads = [threading.Thread(target=write, args=(i,)) for i in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(p.name for p in KnownPeersFile(path).peers.peers) == sorted(f"P{i}" for i in range(12))


def test_a_damaged_file_is_set_aside_with_one_line_and_the_list_starts_empty(tmp_path):
    path = tmp_path / FILE
    path.write_text('{"version": 1, "peers": [{"name": "Bea", "key": "00"}]', encoding="utf-8")
    store = KnownPeersFile(path)
    assert len(store.peers) == 0
    assert store.warning and "\n" not in store.warning and "damaged" in store.warning
    aside = [p for p in tmp_path.iterdir() if p.name.startswith(FILE + ".damaged-")]
    assert len(aside) == 1 and aside[0].read_text(encoding="utf-8").startswith('{"version": 1')
    assert not path.exists()
    assert store.remember("Bea", BEA, "2025-03-02")
    assert KnownPeersFile(path).check("Bea", BEA).status == KNOWN and aside[0].exists()
    path.write_bytes(b"\xff\xfe garbage")
    assert "damaged" in KnownPeersFile(path).warning


def test_an_unwritable_folder_is_a_warning_and_remembers_for_the_session(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    store = KnownPeersFile(blocker / FILE)       # its folder is a file: nothing can be written there
    assert not store.remember("Bea", BEA, "2025-03-02")
    assert store.warning and "Cannot write" in store.warning
    assert store.check("Bea", BEA).status == KNOWN


def test_the_default_place_is_the_data_folder(lanterne_home):
    assert KnownPeersFile().path == lanterne_home / FILE
