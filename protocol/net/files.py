"""The files of one network game, so that a crash loses nothing.

The files of a game in the log folder, named after the table id (the SHA-256 of the
first entry, the host's hello; its first 16 hex digits):

* ``<table>.log``: the hash chain, every entry written and fsynced before a
  byte that depends on it is sent (``protocol.log.LogWriter``);
* ``<table>.seed``: the session's 32-byte secret seed, owner-only (0600),
  written once and never again;
* ``<table>.signed``: how many places of the chain we may have signed (8
  bytes, big-endian), raised after the log has one of our entries and
  before any link sends it, so a log that lost entries (a restored backup,
  a copied folder, a cut write) is seen to stop short of what we signed
  (``Session.from_log``'s ``signed``); no file: no mark (an older game);
  a damaged one (not 8 bytes, unreadable, or past any game's length) says
  nothing of how far we signed, so we may have signed past the log: it
  holds as a lost entry does (nothing new signed until the others sent
  back what they hold), and the next mark written repairs it;
* ``<table>.json``: what a restart needs besides the chain: our role, the
  game, the seats (key, name, last address), our port, ``over`` once done.

A peer restarted after a crash rebuilds its session from the log and the
seed (``Session.from_log``) and finds the others from the seats.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from lanterne.protocol.log import LogFormatError, LogWriter, read_log

Say = Callable[[str], None]


class ResumeError(RuntimeError):
    """An unfinished game's files cannot be resumed; one line."""


@dataclass
class SeatedPeer:
    """One member of the table as this peer knows it: its key, its name, where it was last reached."""

    key: bytes
    name: str = ""
    address: tuple[str, int] | None = None

    def to_data(self) -> dict:
        return {"key": self.key.hex(), "name": self.name, "address": list(self.address) if self.address else None}

    @classmethod
    def from_data(cls, data: dict) -> "SeatedPeer":
        address = data.get("address")
        return cls(bytes.fromhex(data["key"]), str(data.get("name", "")),
                   (str(address[0]), int(address[1])) if address else None)


MARK_SIZE = 8
MARK_MAX = 1 << 32
"""A mark past this many places is garbage: no game comes near it."""


@dataclass(frozen=True)
class Store:
    """Where a session's accepted entries go: ``store(raw)`` appends one; ``store.retract(raw)`` takes back the
    last one (a claim that lost its race, :mod:`protocol.session.claims`); ``store.signed(count)``, if any,
    records that we signed an entry at place ``count - 1``."""

    append: Callable[[bytes], None]
    retract: Callable[[bytes], None]
    signed: Callable[[int], None] | None = None

    def __call__(self, raw: bytes) -> None:
        self.append(raw)


class GameFiles:
    """The three files of one game in ``folder``, named after the table id."""

    def __init__(self, folder: Path | str):
        self.folder = Path(folder)
        self.table_id: bytes = b""
        self._writer: LogWriter | None = None
        self.meta: dict = {}
        self._mark: int | None = None
        """The ``.signed`` mark as last written or read (None: not read yet; a damaged one reads as 0)."""
        self._damaged = False
        """The file holds a damaged mark: the next write makes it 8 bytes again."""

    @property
    def stem(self) -> Path:
        return self.folder / self.table_id.hex()[:16]

    @property
    def log_path(self) -> Path:
        return self.stem.with_suffix(".log")

    @property
    def chat_path(self) -> Path:
        """The game's chat (:mod:`.chat`), one JSON object a line; kept with the game, never verified."""
        return self.stem.with_suffix(".chat")

    def append_chat(self, line: dict) -> None:
        """Keep one chat line (a file that cannot be written loses the line, never the game)."""
        if not self.table_id:
            return
        try:
            with open(self.chat_path, "a", encoding="utf-8") as f:
                f.write(json.dumps(line, ensure_ascii=False, sort_keys=True) + "\n")
        except OSError:
            pass

    def store(self, seed: bytes, meta: dict) -> "Store":
        """The session's ``store``: the first entry fixes the table id and creates the files."""

        def append(raw: bytes) -> None:
            if self._writer is None:
                self.table_id = hashlib.sha256(raw).digest()
                self.folder.mkdir(parents=True, exist_ok=True)
                write_private(self.stem.with_suffix(".seed"), seed)
                self.meta = dict(meta, **self.meta, table=self.table_id.hex())
                self.save_meta()
                self._writer = LogWriter(self.log_path)
            self._writer.append(raw)

        return Store(append, self._retract, self._signed)

    def attach(self, table_id: bytes, meta: dict) -> "Store":
        """Go on writing an existing game's files (after a restart)."""
        self.table_id, self.meta = table_id, meta
        self._writer = LogWriter(self.log_path)
        return Store(self._writer.append, self._retract, self._signed)

    def _signed(self, count: int) -> None:
        """Raise the mark to ``count`` (never lower: a retracted claim was signed all the same), on disk before
        we go on; one 8-byte write in place, so a cut write leaves the old mark or the new one."""
        path = self.stem.with_suffix(".signed")
        if self._mark is None:
            mark = read_signed(path)
            self._mark, self._damaged = mark or 0, mark is None
        if count <= self._mark:
            return
        created = self._mark == 0 and not path.exists()
        fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
        try:
            os.pwrite(fd, count.to_bytes(MARK_SIZE, "big"), 0)
            if self._damaged:   # (cut short before this truncation: still damaged, so still holding)
                os.ftruncate(fd, MARK_SIZE)
                self._damaged = False
            os.fsync(fd)
        finally:
            os.close(fd)
        if created:
            fsync_folder(self.folder)
        self._mark = count

    def _retract(self, raw: bytes) -> None:
        if self._writer is not None:
            self._writer.retract(raw)

    def update(self, **fields) -> None:
        """Change the meta file (kept in memory until the first entry creates the files)."""
        self.meta.update(fields)
        if self.table_id:
            self.save_meta()

    def save_meta(self) -> None:
        tmp = self.stem.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(self.meta, sort_keys=True, indent=1))
        os.replace(tmp, self.stem.with_suffix(".json"))

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
            self._writer = None

    @staticmethod
    def unfinished(folder: Path | str) -> list[Path]:
        """Meta files of games in ``folder`` that did not end (newest first)."""
        out = []
        for meta in Path(folder).glob("*.json"):
            try:
                data = json.loads(meta.read_text())
            except (OSError, ValueError):
                continue
            if isinstance(data, dict) and not data.get("over"):
                out.append(meta)
        return sorted(out, key=lambda p: p.stat().st_mtime, reverse=True)


def read_meta(meta_path: Path | str) -> dict:
    """A game's meta file as a dict; empty if unreadable (for listings; a resume says why)."""
    try:
        data = json.loads(Path(meta_path).read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def write_private(path: Path, data: bytes) -> None:
    """Write ``data`` readable by the owner only, and on disk before we go on."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)


def read_signed(path: Path | str) -> int | None:
    """How many places of the chain we may have signed, as the game's ``.signed`` file says (``path``: any of
    the game's files; 0: no mark, a game from before there was one; None: a damaged mark, which says nothing
    of how far we signed)."""
    try:
        data = Path(path).with_suffix(".signed").read_bytes()
    except FileNotFoundError:
        return 0
    except OSError:
        return None
    count = int.from_bytes(data, "big")
    return count if len(data) == MARK_SIZE and count <= MARK_MAX else None


def fsync_folder(folder: Path) -> None:
    """A file just created in ``folder`` is there after a crash too."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def read_game_files(meta_path: Path, say: Say) -> tuple[dict, bytes, bytes, list[bytes]]:
    """A game's meta, seed, table id and log entries, for a restart (ResumeError: one line).

    A log cut mid-entry (a crash while writing) is trimmed to its last complete entry; a log that stops short
    of the ``.signed`` mark is said so in one line (the others send back what it lost).
    """
    try:
        meta = json.loads(meta_path.read_text())
        if not isinstance(meta, dict):
            raise ValueError("the meta file is not a JSON object")
        seed = meta_path.with_suffix(".seed").read_bytes()
        table = bytes.fromhex(meta["table"])
        raws, cut = read_log(meta_path.with_suffix(".log"))
    except (OSError, ValueError, KeyError, TypeError, LogFormatError) as e:
        raise ResumeError(f"cannot resume {meta_path.stem}: {type(e).__name__}: {e}") from None
    if not raws or hashlib.sha256(raws[0]).digest() != table:
        raise ResumeError(f"cannot resume {meta_path.stem}: its log does not start with table {table.hex()[:16]}")
    if cut:
        say(f"log: {cut} bytes after the last complete entry were dropped")
        size = meta_path.with_suffix(".log").stat().st_size
        with open(meta_path.with_suffix(".log"), "r+b") as f:
            f.truncate(size - cut)
    lost = (read_signed(meta_path) or 0) - len(raws)    # (a damaged mark: the session says so, :class:`MarkDamaged`)
    if lost > 0:
        say(f"log: {lost} of our signed entr{'y' if lost == 1 else 'ies'} missing from this disk; nothing more is "
            f"signed until the other seats send {'it' if lost == 1 else 'them'} back")
    return meta, seed, table, raws


def seats_of(meta: dict, me: bytes, meta_path: Path) -> list[SeatedPeer]:
    """The seats a meta file records, in seat order (ResumeError: one line).

    Games started before Lanterne had one peer for every table size (two
    seats, ``"peer"`` and ``"address"`` instead of ``"seats"``) are read
    through this shim: the host sits first, the guest second.
    """
    try:
        if "seats" in meta:
            if not isinstance(meta["seats"], list) or not all(isinstance(s, dict) for s in meta["seats"]):
                raise TypeError("the seats are not a list of seats")
            seats = [SeatedPeer.from_data(s) for s in meta["seats"]]
        elif "peer" in meta:
            other = SeatedPeer(bytes.fromhex(meta["peer"]), "",
                         (str(meta["address"][0]), int(meta["address"][1])) if meta.get("address") else None)
            mine = SeatedPeer(me, str(meta.get("name", "")))
            seats = [mine, other] if meta.get("role") == "host" else [other, mine]
        else:
            raise KeyError("seats")
    except (ValueError, KeyError, TypeError, IndexError) as e:
        raise ResumeError(f"cannot resume {meta_path.stem}: {type(e).__name__}: {e}") from None
    if me not in [s.key for s in seats]:
        raise ResumeError(f"cannot resume {meta_path.stem}: this identity holds no seat in it")
    return seats
