"""What the fuzzer feeds the readers: real games played to the end, places in them, and mutations of
values and bytes."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Sequence

from lanterne.engines.bots import RandomBot
from lanterne.engines.core import Game
from lanterne.protocol.identity import Identity
from lanterne.protocol.log import ENVELOPE_DOMAIN, Entry, open_entry
from lanterne.protocol.memory import make_sessions, play
from lanterne.protocol.session import Session
from lanterne.protocol.wire import pack

GAMES = ("pacal", "pagode", "pandoria", "pueblo")
KINDS = ["hello", "table", "genesis", "move", "abort", "claim", "replace", "agree", "refuse", "end", "fair_final",
         "fair_keys", "fair_shuffle", "fair_lock", "fair_open", "x"]


def games(game_id: str) -> Game:
    """The registry's games, and High card (the tests' tiny game)."""
    from lanterne.engines.example import GAME as HIGHCARD
    from lanterne.engines.registry import get_game

    return HIGHCARD if game_id == HIGHCARD.id else get_game(game_id)


# --------------------------------------------------------------------------- mutations


BODY_KEYS = ("seat", "key", "name", "scores", "evidence", "reason", "culprit", "seed", "seats", "names", "game",
             "variant", "players", "options", "action", "digest", "proof", "nonce", "versions", "replace", "claim",
             "seat", "x")
"""The field names a hostile body is made of (some twice: weighted)."""


def random_value(rng: random.Random, depth: int = 0, keys: Sequence[str] = BODY_KEYS) -> Any:
    """Plain data of every shape, its maps keyed by ``keys``: what a hostile peer may sign as a body."""
    r = rng.random()
    if depth > 3 or r < 0.4:
        return rng.choice([None, True, False, rng.randint(-2**63, 2**64 - 1), rng.randint(-5, 300),
                           "".join(chr(rng.randint(32, 0x2FF)) for _ in range(rng.randint(0, 12))),
                           rng.randbytes(rng.choice([0, 1, 31, 32, 33, 64]))])
    if r < 0.7:
        return [random_value(rng, depth + 1, keys) for _ in range(rng.randint(0, 5))]
    return {rng.choice(keys): random_value(rng, depth + 1, keys) for _ in range(rng.randint(0, 8))}


def mutate_value(rng: random.Random, value: Any) -> Any:
    """``value`` with one field (at any depth) replaced, dropped or added; or a random value."""
    if isinstance(value, dict) and value and rng.random() < 0.85:
        out = dict(value)
        key = rng.choice(list(out))
        r = rng.random()
        if r < 0.5:
            out[key] = mutate_value(rng, out[key]) if rng.random() < 0.5 else random_value(rng)
        elif r < 0.7:
            del out[key]
        else:
            out[rng.choice(["x", key + "?", "evidence", "seat", "seats"])] = random_value(rng)
        return out
    if isinstance(value, list) and value and rng.random() < 0.8:
        items = list(value)
        i = rng.randrange(len(items))
        if rng.random() < 0.7:
            items[i] = mutate_value(rng, items[i]) if rng.random() < 0.5 else random_value(rng)
        else:
            del items[i]
        return items
    return random_value(rng)


def mutate_bytes(rng: random.Random, raw: bytes) -> bytes:
    b = bytearray(raw)
    if not b:
        return rng.randbytes(rng.randint(1, 16))
    op = rng.randrange(5)
    if op == 0:
        for _ in range(rng.randint(1, 4)):
            i = rng.randrange(len(b))
            b[i] ^= 1 << rng.randrange(8)
    elif op == 1:
        b = b[:rng.randrange(len(b))]
    elif op == 2:
        i = rng.randrange(len(b) + 1)
        b[i:i] = rng.randbytes(rng.randint(1, 8))
    elif op == 3:
        i, j = sorted(rng.randrange(len(b)) for _ in range(2))
        del b[i:j + 1]
    else:
        i = rng.randrange(len(b))
        b[i] = rng.choice([0x00, 0x7F, 0x80, 0x90, 0xC0, 0xC1, 0xFF, 0xDD, 0xDF, 0xC4, 0xD9, 0xCF])
    return bytes(b)


def sign(signer: Identity, fields: dict) -> bytes:
    """An envelope of ``fields`` (all but ``sig``) signed by ``signer``: a real signature on hostile content."""
    return pack({**fields, "sig": signer.sign(ENVELOPE_DOMAIN, pack(fields))})


def fields_of(entry: Entry) -> dict:
    return {"v": entry.v, "game": entry.game, "seq": entry.seq, "prev": entry.prev, "author": entry.author,
            "kind": entry.kind, "body": entry.body}


# --------------------------------------------------------------------------- corpus


@dataclass
class Played:
    """One finished game: its log, and every seat's identity and seed."""

    game: str
    raws: list[bytes]
    identities: dict[bytes, Identity]
    seeds: dict[bytes, bytes]


def play_game(game_id: str, seed: int) -> Played:
    sessions = make_sessions(games(game_id), 2, f"fuzz/{game_id}/{seed}", games=games, on_gone="computer")
    play(sessions, [RandomBot(f"{seed}/{i}") for i in range(len(sessions))])
    signers = {s.public: s.identity for s in sessions if s.identity is not None}     # (every memory seat signs)
    return Played(game_id, [e.raw for e in sessions[0].chain], signers, {s.public: s.seed for s in sessions})


@dataclass
class Point:
    """A seat's session rebuilt at ``k`` entries, waiting for entry ``k`` (by another seat)."""

    played: Played
    k: int
    key: bytes
    session: Session | None = None

    def fresh(self) -> Session:
        if self.session is None:
            self.session = Session.from_log(self.played.raws[:self.k], self.played.identities[self.key],
                                            self.played.seeds[self.key], games=games)
        return self.session


def points_of(played: Played, rng: random.Random, count: int = 5) -> list[Point]:
    entries = [open_entry(raw) for raw in played.raws]
    n = len(entries)
    spots = {1, 2, 3, 4, n // 3, n // 2, (2 * n) // 3, n - 3, n - 1}
    spots |= {rng.randrange(2, n) for _ in range(count)}
    out = []
    for k in sorted(x for x in spots if 1 <= x < n):
        author = entries[k].author
        other = next(key for key in played.identities if key != author)
        out.append(Point(played, k, other))
    return out
