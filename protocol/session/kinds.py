"""The session's vocabulary: message kinds, their body schemas, domains, limits, and the seat's randomness.

Every kind a session writes or reads has a schema here; :func:`schemas`
adds the fair table's. A body passes its schema before any field is read.
"""

from __future__ import annotations

import functools
import hashlib

import lanterne.protocol.fair as fair

GAME_ID_DOMAIN = b"lanterne/game-id/v1"
NONCE_DOMAIN = b"lanterne/seed/nonce/v1"
TABLE_NONCE_DOMAIN = b"lanterne/seed/table/v1"
"""The host's hello carries sha256(this || seed): every table gets its own id (its first entry's hash)."""
FAIR_DOMAIN = b"lanterne/seed/fair/v1"
MAX_SEATS = 16
MAX_LOCAL_STEPS = 100_000
"""Steps a peer may take on its own between two entries (table outcomes, its own messages)."""

HELLO = "hello"
TABLE_KIND = "table"
GENESIS = "genesis"
MOVE = "move"
END = "end"
ABORT = "abort"
REPLACE = "replace"
CLAIM = "claim"
AGREE = "agree"
REFUSE = "refuse"
TAKEBACK = "takeback"
TAKEBACK_REPLY = "takeback_reply"
FAIR_FINAL = "fair_final"
"""A seat's reveal of every secret at the end (the fair table's kind the final and dispute phases accept)."""

ON_GONE_END = "end"
ON_GONE_COMPUTER = "computer"
ON_GONE = (ON_GONE_END, ON_GONE_COMPUTER)
"""The table's policy for a seat gone past the claim time: end the game, or replace it by a computer."""
COMPUTER_MARK = "[computer] "
"""Starts the name of a seat played by a computer (the table's, or a replacement's)."""
COMPUTER_DOMAIN = b"lanterne/seed/computer/v1"
"""The claimer derives the replacing computer's identity and session seed from its own seed and the seat."""
EPOCH_DOMAIN = b"lanterne/fair-epoch/v1"
"""A replacement starts a new fair table whose id is SHA-256(this || game id || hash of the last agree)."""

MOVE_CLOCK = "move"
"""A claim's ``clock`` when the seat ran out of the table's move clock (here, but too slow): the claimed seat
cannot refuse it (being here is no answer to it). Absent: the seat was gone for the claim time."""

CLAIM_REASON = "timeout: "
"""How a claim's reason starts (the ``claim`` entry's, and the claimer's ``abort`` that closes it)."""

WATCH_EVERYONE, WATCH_KNOWN, WATCH_ASK, WATCH_OFF = "everyone", "known", "ask", "off"
WATCH_MODES = (WATCH_OFF, WATCH_ASK, WATCH_KNOWN, WATCH_EVERYONE)
"""Who may watch a table: nobody, whom a player lets in when asked, the peers a player knows, anyone. Signed in
the table as ``watch`` (absent: off) and ``watch_by`` (``ask`` or ``known``; absent: everyone)."""


UNDO_OFF, UNDO_ASK = "off", "ask"
UNDO_MODES = (UNDO_OFF, UNDO_ASK)
"""Whether a seat may take back its own last moves of the turn under way: never, or when every other seat says
yes. Signed in the table as ``undo`` (absent: off); :mod:`.takeback`."""


def default_watch(game) -> str:
    """The table's spectators when its host says nothing: a game with hidden hands asks (the players know who
    sees their table and its chat), an open one lets the peers a player knows watch."""
    return WATCH_ASK if game is None or game.hidden else WATCH_KNOWN


CHOICE_KINDS = (HELLO, TABLE_KIND, MOVE, ABORT, REPLACE, CLAIM, AGREE, REFUSE, TAKEBACK, TAKEBACK_REPLY)
"""Kinds whose content is the author's free choice, or its clock's (a replay takes them from the log)."""


@functools.lru_cache(maxsize=None)
def schemas() -> dict[str, dict]:
    """Every message kind -> the schema of its body (the session's and the fair table's).

    One shared, read-only dict: ``wire.check`` compiles each schema once.
    """
    proof = fair.SCHEMAS["proof"]
    own: dict[str, dict] = {
        HELLO: {"versions": ["list", "uint", 8], "name": "str", "guests?": ["list", "bytes32", MAX_SEATS - 1],
                "table?": "bytes32"},
        TABLE_KIND: {"game": "str", "variant": "str", "players": "uint", "options": ["map", "str", "any", 32],
                     "seats": ["list", "bytes32", MAX_SEATS], "names": ["list", "str", MAX_SEATS],
                     "on_gone?": "str", "claim_ms?": "uint", "move_ms?": "uint", "watch?": "bool",
                     "watch_by?": "str", "undo?": "str"},
        GENESIS: {"nonce": "bytes32"},
        MOVE: {"action": ["list", "any", 64], "digest": "bytes32", "proof?": proof},
        END: {"scores": ["list", "int", MAX_SEATS], "winners": ["list", "uint", MAX_SEATS],
              "digest": "bytes32", "seed": "bytes32"},
        REPLACE: {"seat": "uint", "key": "bytes32", "name": "str", "scores": ["list", "int", MAX_SEATS],
                  "clock?": "str"},
        CLAIM: {"seat": "uint", "reason": "str", "scores": ["list", "int", MAX_SEATS], "clock?": "str"},
        AGREE: {"replace": "bytes32"},
        REFUSE: {"claim": "bytes32", "reason": "str"},
        TAKEBACK: {"to": "bytes32"},
        TAKEBACK_REPLY: {"takeback": "bytes32", "yes": "bool"},
        ABORT: {"reason": "str", "culprit?": "uint", "evidence": ["list", "bytes", 4], "seed?": "bytes32",
                "audit?": "bool", "scores?": ["list", "int", MAX_SEATS]},
    }
    for kind, schema in fair.SCHEMAS.items():
        if kind not in ("proof", "fair_claim"):
            own[kind] = schema
    return own


class Drbg:
    """Deterministic bytes from a secret seed: SHA-256(domain || seed || counter) blocks.

    A session draws all its randomness from one 32-byte seed (os.urandom in
    real play); revealing the seed at the end lets a verifier re-run the
    seat's fair table exactly.
    """

    def __init__(self, seed: bytes, domain: bytes):
        self._key = hashlib.sha256(domain + seed).digest()
        self._counter = 0

    def __call__(self, n: int) -> bytes:
        out = bytearray()
        while len(out) < n:
            out += hashlib.sha256(self._key + self._counter.to_bytes(8, "big")).digest()
            self._counter += 1
        return bytes(out[:n])
