"""The fair table's message kinds and their body schemas (protocol/wire.py's schema language).

Kinds on the wire, each authored by one known seat at its step:

* ``fair_commit`` / ``fair_open``: a die secret's commitment, then the secret.
* ``fair_relock``: only when the pile holds hidden cards (still locked in an
  older deck): the pile after one seat took its old keys off those cards and
  put one new lock on every card, positions unchanged.
* ``fair_shuffle``: a deck after one seat locked and permuted it. The last
  seat locks each position with its own key at once and sends the key
  commitments. The first message of a deck (seat 1's) names the public cards
  (identities, in pile order), the slots and the indexes of the hidden ones.
* ``fair_rekey``: a deck after one seat swapped its shuffle lock for one key
  per position, with the commitments to those keys.
* ``fair_keys``: keys opening deck positions (a deal or a reveal).
* ``fair_final``: at the end of the game, every secret of one seat.

Two bodies travel inside other messages: ``proof`` (a seat's keys for cards
it plays from a hidden hand, attached to its move) and ``fair_claim`` (a step
for :func:`audit_transcript`: the claimed slots and identities with the proof).
"""

from __future__ import annotations

from typing import Any

from lanterne.protocol import wire

MAX_CARDS = 1024
"""Largest pile a shuffle may hold."""
MAX_DECKS = 1024
"""Most shuffles a game may have."""

POINTS = ["list", "bytes32", MAX_CARDS]
INDEXES = ["list", "uint", MAX_CARDS]

PROOF = {"decks": INDEXES, "pos": INDEXES, "keys": POINTS}

SCHEMAS: dict[str, dict] = {
    "fair_commit": {"roll": "uint", "commit": "bytes32"},
    "fair_open": {"roll": "uint", "nonce": "bytes32"},
    "fair_relock": {"deck": "uint", "points": POINTS, "cards?": ["list", "int", MAX_CARDS],
                    "slots?": INDEXES, "hidden?": INDEXES},
    "fair_shuffle": {"deck": "uint", "points": POINTS, "cards?": ["list", "int", MAX_CARDS],
                     "slots?": INDEXES, "commits?": POINTS},
    "fair_rekey": {"deck": "uint", "points": POINTS, "commits": POINTS},
    "fair_keys": PROOF,
    "proof": PROOF,
    "fair_claim": {"slots": INDEXES, "ids": ["list", "int", MAX_CARDS], "proof": PROOF},
    "fair_final": {"decks": ["list", {"deck": "uint", "lock?": "bytes32", "swap?": "bytes32",
                                      "perm": INDEXES, "keys": POINTS}, MAX_DECKS]},
}


class BodyError(ValueError):
    """A body that does not fit its schema; the message names the field."""


def check_body(kind: str, body: Any) -> None:
    """Raise BodyError unless ``body`` fits the schema of ``kind``.

    The session checks schemas before we see a message; this second check
    keeps the table and the audit safe on their own (a log read from disk).
    It is :func:`protocol.wire.check`, the one schema checker, naming the
    field from ``kind`` (``fair_open.roll must be uint, not int``).
    """
    schema = SCHEMAS.get(kind)
    if schema is None:
        raise BodyError(f"unknown fair message kind {kind!r}")
    try:
        wire.check(schema, body, kind)
    except wire.SchemaError as e:
        raise BodyError(str(e)) from None
