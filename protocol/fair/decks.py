"""What the live table keeps of each mental-poker deck and each roll while the game runs."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Deck:
    """One mental-poker deck: public points, commitments, keys opened so far."""

    number: int
    slots: list[int]
    cards: list[int]                 # identities of the public slots, in pile order
    hidden: list[int]                # pile indexes of the hidden slots (still locked in older decks)
    card_of: dict[bytes, int]        # card point -> identity
    points: list[bytes]              # the deck as last published
    lock: bytes | None               # our shuffle lock (None: we are the last seat)
    perm: list[int]                  # our permutation: out[j] = in[perm[j]]
    keys: list[bytes]                # our key per position
    swap: bytes | None = None        # our relock, when hidden slots join the deck
    old_keys: dict[int, bytes] = field(default_factory=dict)        # pile index -> our old key
    commits: dict[int, list[bytes]] = field(default_factory=dict)   # seat -> commitments
    opened: list[dict[int, bytes]] = field(default_factory=list)    # per position: seat -> key
    known: list[int | None] = field(default_factory=list)           # identity per position
    found: dict[int, int] = field(default_factory=dict)             # identity -> position
    ready: list[bytes] | None = None  # our next pass, computed as its input arrived


@dataclass
class Roll:
    number: int
    faces: int
    nonce: bytes
    commits: dict[int, bytes] = field(default_factory=dict)
    nonces: dict[int, bytes] = field(default_factory=dict)
