"""Players whose safety code was compared once, like SSH's ``known_hosts``.

After a join was accepted (the host's person accepted it in the join
dialog, having compared the safety code aloud; or the host accepted us),
the other person's name and identity key are kept with the date they were
first met. Later a join request is checked against them:

* ``known``: this name with this key was met before; comparing the code
  again is optional;
* ``changed``: this name was met with another key: a warning, and the code
  must be compared afresh (a new device, a reinstall... or somebody else);
* ``renamed``: this key was met under another name: a note (the key is what
  was compared; the name is only what the person typed);
* ``new``: never met.

:class:`KnownPeers` is the sans-IO part (parse, check, remember, dump:
tested without files); :class:`KnownPeersFile` keeps it in
``<data folder>/known_peers.json`` (the folder of the identity key), written
whole under a ``filelock`` lock (two apps of one data folder, or the two
apps of a test, may record at once) and replaced atomically. A damaged file
is set aside (``known_peers.json.damaged-<time>``) with a one-line warning,
and the list starts empty: nothing is lost, and nothing is trusted from it.

It lives in the client, not in ``protocol``: only the client reads and
writes the user's data folder (settings, the key), and what a person once
compared is the app's memory, not part of the wire protocol. It depends on
``protocol.identity`` (dependencies point client -> protocol -> engines).
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path
from typing import Callable

from filelock import FileLock

from lanterne.client.i18n import _
from lanterne.protocol.identity import PART_DIGITS, fingerprint, home, safety_part

FILE = "known_peers.json"
VERSION = 1
NEW, KNOWN, CHANGED, RENAMED = "new", "known", "changed", "renamed"
MAX_NAME = 200


@dataclass(frozen=True)
class KnownPeer:
    name: str
    key: bytes
    first_seen: str
    """ISO date (YYYY-MM-DD) of the first accepted join with this name and key."""
    last_seen: str


@dataclass(frozen=True)
class Check:
    """What the list says of a name and a key. ``since``: the date to show (see :attr:`text`)."""

    status: str
    name: str
    since: str = ""
    other_names: tuple[str, ...] = ()
    """Other names this key was met under."""

    @property
    def compare(self) -> bool:
        """Whether the safety code must be compared (everything but a known name with its known key)."""
        return self.status not in (KNOWN, RENAMED)

    @property
    def text(self) -> str:
        """One line for the join dialog or the joiner's status."""
        name = self.name
        met_as = ", ".join(self.other_names)
        if self.status == KNOWN:
            return _("Known: you met {name} with this key on {since}; comparing the code again is optional.").format(
                name=name, since=self.since)
        if self.status == CHANGED:
            if self.other_names:
                return _("Warning: {name}'s key changed since {since}: compare the safety code again (this key was "
                         "met as {others}).").format(name=name, since=self.since, others=met_as)
            return _("Warning: {name}'s key changed since {since}: compare the safety code again.").format(
                name=name, since=self.since)
        if self.status == RENAMED:
            return _("Known key, new name: you met this key as {others} on {since}; comparing the code again is "
                     "optional.").format(others=met_as, since=self.since)
        return _("First meeting: you never met {name} before.").format(name=name)


class KnownPeers:
    """The list itself, without files: one entry per (name, key) met."""

    def __init__(self, peers: list[KnownPeer] | tuple[KnownPeer, ...] = ()):
        self.peers: list[KnownPeer] = list(peers)

    def __len__(self) -> int:
        return len(self.peers)

    # -- reading and writing the text
    @classmethod
    def loads(cls, text: str) -> "KnownPeers":
        """Parse the file's text; ValueError (one line) if it is not a known-peers list of this version."""
        try:
            data = json.loads(text)
        except ValueError as e:
            raise ValueError(f"not JSON ({e})") from None
        if not isinstance(data, dict) or data.get("version") != VERSION or not isinstance(data.get("peers"), list):
            raise ValueError(f"not a version {VERSION} known-peers list")
        peers = []
        for i, entry in enumerate(data["peers"]):
            try:
                name, key, first, last = entry["name"], entry["key"], entry["first_seen"], entry["last_seen"]
                if not isinstance(name, str) or not name or len(name) > MAX_NAME:
                    raise ValueError("a bad name")
                if not isinstance(key, str) or len(key) != 64:
                    raise ValueError("a key is not 64 hex digits")
                raw = bytes.fromhex(key)
                for d in (first, last):
                    date.fromisoformat(d)
            except (KeyError, TypeError, ValueError) as e:
                raise ValueError(f"entry {i + 1} is damaged ({e})") from None
            peers.append(KnownPeer(name, raw, first, last))
        return cls(peers)

    def dumps(self) -> str:
        return json.dumps({"version": VERSION, "peers": [
            {"name": p.name, "key": p.key.hex(), "first_seen": p.first_seen, "last_seen": p.last_seen}
            for p in self.peers]}, indent=1, ensure_ascii=False) + "\n"

    # -- checking
    def knows(self, key: bytes) -> bool:
        """Whether ``key`` was met before, under any name (a table of known peers lets it watch)."""
        return any(p.key == key for p in self.peers)

    def check(self, name: str, key: bytes) -> Check:
        """What to tell the person about ``name`` proving ``key`` (a join request: the key is proven)."""
        return self._check(name, lambda k: k == key)

    def check_code(self, name: str, mine: bytes, code: str) -> Check:
        """The same, knowing only the safety code of our key ``mine`` and the other's (a joiner before the
        roster): the other key's 30-digit part is the code without ours, as strong as comparing the code."""
        digits = "".join(code.split())
        parts = [digits[i:i + PART_DIGITS] for i in range(0, len(digits), PART_DIGITS)]
        own = safety_part(mine)
        if len(parts) != 2 or own not in parts:
            return Check(NEW, name)
        parts.remove(own)
        theirs = parts[0]
        return self._check(name, lambda k: safety_part(k) == theirs)

    def check_fingerprint(self, name: str, fp: str) -> Check:
        """For a zeroconf advert (a hint only: its fingerprint is 64 bits and proves nothing)."""
        return self._check(name, lambda k: fingerprint(k) == fp)

    def _check(self, name: str, matches: Callable[[bytes], bool]) -> Check:
        same_name = [p for p in self.peers if p.name == name]
        same_key = [p for p in self.peers if matches(p.key)]
        if any(p.name == name for p in same_key):
            met = min(p.first_seen for p in same_key if p.name == name)
            return Check(KNOWN, name, met)
        others = tuple(dict.fromkeys(p.name for p in same_key))
        if same_name:  # the date of the key we had for this name (the newest, if several)
            return Check(CHANGED, name, max(p.first_seen for p in same_name), others)
        if same_key:
            return Check(RENAMED, name, min(p.first_seen for p in same_key), others)
        return Check(NEW, name)

    # -- learning
    def remember(self, name: str, key: bytes, today: str | None = None) -> None:
        """A join with ``name`` and ``key`` was accepted ``today`` (ISO date; default: today)."""
        today = today or date.today().isoformat()
        name = name[:MAX_NAME] or "?"
        for i, p in enumerate(self.peers):
            if p.name == name and p.key == key:
                self.peers[i] = replace(p, last_seen=today)
                return
        self.peers.append(KnownPeer(name, bytes(key), today, today))


class KnownPeersFile:
    """The list kept in a file. Every failure is a one-line :attr:`warning`, never an exception."""

    def __init__(self, path: Path | str | None = None):
        if path is None:
            path = home() / FILE
        self.path = Path(path)
        self.warning: str | None = None
        self.peers = self._read()

    def _lock(self):
        return FileLock(str(self.path) + ".lock", timeout=5)

    def _read(self) -> KnownPeers:
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return KnownPeers()
        except (OSError, UnicodeDecodeError) as e:
            if isinstance(e, UnicodeDecodeError):
                return self._set_aside("not UTF-8 text")
            self.warning = _("Cannot read {path}: {error}; known players are not remembered this time.").format(
                path=self.path, error=e)
            return KnownPeers()
        try:
            return KnownPeers.loads(text)
        except ValueError as e:
            return self._set_aside(str(e))

    def _set_aside(self, why: str) -> KnownPeers:
        aside = self.path.with_name(f"{self.path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}")
        try:
            os.replace(self.path, aside)
            kept = _("kept as {name}").format(name=aside.name)
        except OSError as e:
            kept = _("could not set it aside: {error}").format(error=e)
        self.warning = _("{path} is damaged ({why}): {kept}; starting an empty list of known players.").format(
            path=self.path, why=why, kept=kept)
        return KnownPeers()

    def knows(self, key: bytes) -> bool:
        return self.peers.knows(key)

    def check(self, name: str, key: bytes) -> Check:
        return self.peers.check(name, key)

    def check_code(self, name: str, mine: bytes, code: str) -> Check:
        return self.peers.check_code(name, mine, code)

    def check_fingerprint(self, name: str, fp: str) -> Check:
        return self.peers.check_fingerprint(name, fp)

    def remember(self, name: str, key: bytes, today: str | None = None) -> bool:
        """Record an accepted join: read the file again under the lock (another app may have written it),
        add or refresh the entry, write it whole. False (and :attr:`warning`) if the file cannot be written."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self._lock():
                fresh = self._read()
                fresh.remember(name, key, today)
                tmp = self.path.with_name(self.path.name + ".tmp")
                tmp.write_text(fresh.dumps(), encoding="utf-8")
                os.replace(tmp, self.path)
                self.peers = fresh
        except Exception as e:  # noqa: BLE001  an unwritable folder, a lock that never came: one line
            self.warning = _("Cannot write {path}: {error}").format(path=self.path, error=e)
            self.peers.remember(name, key, today)  # for this session at least
            return False
        return True
