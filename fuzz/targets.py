"""One input per target: each reader of untrusted bytes fed a hostile input built from a real game."""

from __future__ import annotations

import random
from typing import Any, Callable

from lanterne.protocol.identity import Identity
from lanterne.protocol.log import MAGIC, open_entry, parse_log
from lanterne.protocol.net.framing import DATA, DEFAULT_MAX_FRAME, PREFACE, FrameDecoder, Opener, Sealer, encode_frame
from lanterne.protocol.net.handshake import (NOISE_PROTOCOL, SCHEMAS as HANDSHAKE_SCHEMAS, STATIC_DOMAIN, Handshake,
                                             HandshakeError, decode as decode_handshake, run_locally)
from lanterne.protocol.verify import verify_entries
from lanterne.protocol.wire import ProtocolError, pack

from .inputs import (GAMES, KINDS, Played, fields_of, games, mutate_bytes, mutate_value, play_game, points_of,
                     random_value, sign)

def _sent(message: bytes | None) -> bytes:
    """A handshake message the side in hand sends at this step."""
    if message is None:
        raise HandshakeError("handshake: no message where the step sends one")
    return message


# --------------------------------------------------------------------------- one input per target


class Fuzzer:
    def __init__(self, seed: int, quick: bool = False):
        self.rng = random.Random(seed)
        self.seed = seed
        self.corpus = [play_game(g, seed) for g in GAMES]
        self.points = [p for played in self.corpus for p in points_of(played, self.rng)]
        small = [play_game("highcard", seed)]
        self.logs: list[Played] = small + [
            Played(p.game, p.raws[:min(len(p.raws), 40)], p.identities, p.seeds) for p in self.corpus]
        if not quick:
            self.logs += [p for p in self.corpus if len(p.raws) <= 200]
        hs_a, hs_b = Identity.from_seed(b"fuzz/a"), Identity.from_seed(b"fuzz/b")
        self.hs_ids = (hs_a, hs_b)
        opening = _sent(Handshake(hs_a, "Al").opening())
        self.frames = [PREFACE + encode_frame(0, opening) + encode_frame(1, b"ping") + encode_frame(3, b"bye"),
                       PREFACE + encode_frame(0, self.corpus[0].raws[5]) + encode_frame(2, b"")]

    # each returns (input bytes, the call to run)
    def session(self) -> tuple[bytes, Callable[[], Any]]:
        rng = self.rng
        point = rng.choice(self.points)
        victim = point.fresh()
        entry = open_entry(point.played.raws[point.k])
        r = rng.random()
        if r < 0.35:
            frame = mutate_bytes(rng, entry.raw)
        else:
            fields = fields_of(entry)
            signer = point.played.identities[entry.author]
            choice = rng.random()
            if choice < 0.35:
                fields["body"] = mutate_value(rng, entry.body)
            elif choice < 0.55:
                fields["body"] = random_value(rng)
            elif choice < 0.85:          # an abort or a replace at an old, the current or a later place
                fields["kind"] = rng.choice(["abort", "replace", "claim", "agree", "refuse"])
                fields["seq"] = rng.choice([rng.randrange(max(point.k, 1)), point.k, point.k + 1])
                if fields["seq"] < point.k:
                    fields["prev"] = open_entry(point.played.raws[fields["seq"]]).prev
                fields["body"] = rng.choice([
                    random_value(rng), [random_value(rng)], {"reason": "x", "evidence": random_value(rng)},
                    {"reason": "x", "evidence": [random_value(rng), entry.raw]},
                    {"seat": rng.choice([0, 1, 2, -1, "0"]), "key": rng.randbytes(32), "name": "~ bot",
                     "scores": random_value(rng)}])
            else:
                fields["kind"] = rng.choice(KINDS)
                fields["seq"] = rng.choice([entry.seq, entry.seq + 1, max(entry.seq - 1, 0), rng.randint(0, 2**32)])
                fields["prev"] = rng.choice([entry.prev, bytes(32), rng.randbytes(32)])
                fields["body"] = mutate_value(rng, entry.body)
            if rng.random() < 0.1:        # signed by the other seat, naming itself
                signer = point.played.identities[point.key]
                fields["author"] = signer.public
            try:
                frame = sign(signer, fields)
            except (TypeError, ValueError):
                frame = mutate_bytes(rng, entry.raw)

        def run() -> None:
            try:
                victim.receive(open_entry(frame), sender=entry.author, on_error="raise")
            except ProtocolError:
                raise                        # refused: the session is left as it was
            except BaseException:
                point.session = None
                raise
            point.session = None             # accepted (a legal move, say): the next input starts afresh
        return frame, run

    def handshake(self) -> tuple[bytes, Callable[[], Any]]:
        rng = self.rng
        me, other = self.hs_ids
        r = rng.random()
        if r < 0.15:                      # a join, resume, accept... (they travel in records after the handshake)
            kind = rng.choice(list(HANDSHAKE_SCHEMAS))
            base = {"t": kind, **{name.rstrip("?"): random_value(rng) for name in HANDSHAKE_SCHEMAS[kind]
                                  if name != "t" and rng.random() < 0.8}}
            payload = pack(mutate_value(rng, base) if rng.random() < 0.5 else base) if rng.random() < 0.7 \
                else rng.randbytes(rng.choice([0, 1, 5, 40, 300, 5000]))
            expected = rng.sample(list(HANDSHAKE_SCHEMAS), rng.randint(1, 3))
            return payload, lambda: decode_handshake(payload, *expected)
        step = rng.choice([1, 2, 3])
        if r < 0.45:                      # a real Noise message with its bytes mutated
            return self._noise_bytes(step)
        if r < 0.85 and step != 1:        # a hostile identity, properly encrypted by a real Noise peer
            return self._noise_payload(step)
        return self._records()

    def _noise_bytes(self, step: int) -> tuple[bytes, Callable[[], Any]]:
        rng = self.rng
        me, other = self.hs_ids
        if step == 1:
            message = mutate_bytes(rng, _sent(Handshake(other, "Bea").opening()))
            return message, lambda: Handshake(me, "Al", initiator=False).receive(message)
        if step == 2:
            victim, peer = Handshake(me, "Al"), Handshake(other, "Bea", initiator=False)
            message = mutate_bytes(rng, _sent(peer.receive(_sent(victim.opening()))))
        else:
            peer, victim = Handshake(other, "Bea"), Handshake(me, "Al", initiator=False)
            message = mutate_bytes(rng, _sent(peer.receive(_sent(victim.receive(_sent(peer.opening()))))))

        def run() -> None:
            victim.receive(message)
        return message, run

    def _noise_payload(self, step: int) -> tuple[bytes, Callable[[], Any]]:
        from noise.connection import Keypair, NoiseConnection

        rng = self.rng
        me, other = self.hs_ids
        raw = NoiseConnection.from_name(NOISE_PROTOCOL)
        raw.set_keypair_from_private_bytes(Keypair.STATIC, rng.randbytes(32))
        raw.set_prologue(PREFACE)
        static = raw.noise_protocol.keypairs["s"].public_bytes
        signed_static = static if rng.random() < 0.8 else rng.randbytes(32)     # a relay's signature
        base = {"t": "id", "v": 2, "key": other.public, "name": "Bea",
                "sig": other.sign(STATIC_DOMAIN, signed_static)}
        choice = rng.random()
        if choice < 0.5:
            payload = pack(mutate_value(rng, base))
        elif choice < 0.65:
            payload = pack(random_value(rng))
        elif choice < 0.9:
            payload = mutate_bytes(rng, pack(base))
        else:
            payload = pack(base)
        if step == 2:
            raw.set_as_responder()
            raw.start_handshake()
            victim = Handshake(me, "Al", expect=other.public if rng.random() < 0.3 else None)
            raw.read_message(_sent(victim.opening()))
            message = bytes(raw.write_message(payload))
        else:
            raw.set_as_initiator()
            raw.start_handshake()
            victim = Handshake(me, "Al", initiator=False)
            raw.read_message(_sent(victim.receive(bytes(raw.write_message(b"")))))
            message = bytes(raw.write_message(payload))

        def run() -> None:
            victim.receive(message)
        return payload, run

    def _records(self) -> tuple[bytes, Callable[[], Any]]:
        rng = self.rng
        me, other = self.hs_ids
        initiator, responder = Handshake(me, "Al"), Handshake(other, "Bea", initiator=False)
        run_locally(initiator, responder)
        sealer = Sealer(initiator.send_cipher)
        good = [sealer.seal(DATA, rng.randbytes(rng.choice([0, 5, 300]))) for _ in range(3)]
        records = [FrameDecoder(expect_preface=False).feed(g)[0].payload for g in good]
        i = rng.randrange(3)
        choice = rng.random()
        if choice < 0.5:
            records[i] = mutate_bytes(rng, records[i])
        elif choice < 0.7:
            records.insert(i, records[max(i - 1, 0)])         # a replay
        elif choice < 0.85:
            records[0], records[-1] = records[-1], records[0]  # reordered
        else:
            records[i] = rng.randbytes(rng.choice([0, 1, 16, 17, 100]))
        opener = Opener(responder.recv_cipher, rng.choice([DEFAULT_MAX_FRAME, 64]))
        data = b"".join(records)

        def run() -> None:
            for record in records:
                opener.open(record)
        return data, run

    def frames_input(self) -> tuple[bytes, Callable[[], Any]]:
        rng = self.rng
        r = rng.random()
        if r < 0.6:
            data = mutate_bytes(rng, rng.choice(self.frames))
        elif r < 0.8:
            data = PREFACE + rng.randbytes(rng.choice([1, 4, 5, 9, 64, 600]))
        else:
            data = rng.randbytes(rng.choice([1, 8, 64]))
        limit = rng.choice([4096, DEFAULT_MAX_FRAME, 64])
        cuts = sorted(rng.randrange(len(data) + 1) for _ in range(rng.randint(0, 3)))

        def run() -> None:
            dec = FrameDecoder(limit)
            last = 0
            for cut in cuts + [len(data)]:
                dec.feed(data[last:cut])
                last = cut
        return data, run

    def log(self) -> tuple[bytes, Callable[[], Any]]:
        rng = self.rng
        played = rng.choice(self.logs)
        raws = list(played.raws)
        if rng.random() < 0.5:
            data = MAGIC + b"".join(len(r).to_bytes(4, "big") + r for r in raws)
            for _ in range(rng.randint(1, 3)):
                data = mutate_bytes(rng, data)
        else:                               # one entry's body changed, the chain after it re-signed by real keys
            entries = [open_entry(r) for r in raws]
            telling = [j for j, e in enumerate(entries) if e.kind in ("table", "replace", "claim", "abort", "end")]
            i = rng.choice(telling) if telling and rng.random() < 0.5 else rng.randrange(len(raws))
            fields = fields_of(entries[i])
            if rng.random() < 0.5 and entries[i].kind in ("table", "replace", "claim", "abort", "end"):
                fields["body"] = mutate_value(rng, fields["body"])
            elif rng.random() < 0.3:
                fields["kind"], fields["body"] = rng.choice(["table", "replace", "claim", "refuse", "abort", "end"]), \
                    random_value(rng)
            else:
                fields["body"] = mutate_value(rng, fields["body"])
            try:
                raws[i] = sign(played.identities[fields["author"]], fields)
                prev = open_entry(raws[i]).hash
                for j in range(i + 1, len(raws)):
                    later = fields_of(entries[j])
                    later["prev"] = prev
                    raws[j] = sign(played.identities[later["author"]], later)
                    prev = open_entry(raws[j]).hash
            except (TypeError, ValueError, ProtocolError):
                pass
            raws = raws[:rng.randint(i + 1, len(raws))] if rng.random() < 0.5 else raws
            data = MAGIC + b"".join(len(r).to_bytes(4, "big") + r for r in raws)

        def run() -> None:
            entries, tail = parse_log(data)
            report = verify_entries(entries, tail, games=games)
            if "\n" in report.problem:
                raise AssertionError(f"verify's problem is not one line: {report.problem[:200]!r}")
        return data, run
