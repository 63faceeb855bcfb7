"""Benchmarks of the signed session (`lanterne bench --only session`).

* ``move_overhead_ms``: CPU per move of what the two sessions do for it, through
  :class:`~lanterne.protocol.session.Session` itself: the author's ``act``
  (apply, digest, seal, chain) and the receiver's ``receive_frame`` (open,
  signature, schema, apply, digest compared, chain). Measured over the moves of
  a seeded two-player Pagode game; a move that leads to dealing is left out, on
  either side (the author writes more than the move, or the receiver writes fair
  messages of its own as it reads it): the deal is ``fair.deal55``'s figure.
* ``move_floor_ms``: what no protocol can do a move for less, the same moves in
  the same run: Ed25519 sign and verify of an entry of that size, a stock msgpack
  pack and unpack of its body, and the engine's apply and digest on both peers,
  each move's floor timed right after the move (a busy machine weighs on both
  alike). ``move_over_floor`` is the first over the second.
* ``verify_log_ms``: CPU to verify a whole Pagode log (what ``lanterne
  verify`` does: signatures, chain, every seat's moves, digests and fair
  messages against its revealed seed, the audit), median of 5 runs.

Run ``python -m bench.session`` for both figures.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass

import msgpack

from lanterne.engines.bots import RandomBot
from lanterne.engines.core import RulesError, as_action
from lanterne.engines.registry import get_game
from lanterne.protocol.identity import Identity, verify
from lanterne.protocol.memory import Pipe, make_sessions, play
from lanterne.protocol.session import receive_frame

_cache: dict[str, object] = {}


def _pagode_game(seed: str = "bench"):
    if seed not in _cache:
        game = get_game("pagode")
        sessions = make_sessions(game, 2, seed)
        moves = []
        orig = [s.act for s in sessions]

        def recorder(s, act):
            def wrapped(action):
                moves.append((s, s.view, as_action(action)))
                return act(action)
            return wrapped
        for s, act in zip(sessions, orig):
            s.act = recorder(s, act)     # type: ignore[method-assign]  # a recording wrapper, this bench's own
        play(sessions, [RandomBot(f"{seed}/0"), RandomBot(f"{seed}/1")])
        _cache[seed] = (game, sessions, moves)
    return _cache[seed]


@dataclass(frozen=True)
class MoveCosts:
    """CPU milliseconds per move, through the sessions and at the floor, measured over the same moves."""

    session: float
    floor: float


def move_costs(seed: str = "bench") -> MoveCosts:
    """One seeded game played through two sessions, each plain move timed where it is made and where it is
    received; then the floor of those moves."""
    game = get_game("pagode")
    sessions = make_sessions(game, 2, seed)
    players = [RandomBot(f"{seed}/0"), RandomBot(f"{seed}/1")]
    pipe = Pipe(sessions)
    pipe.collect(0, sessions[0].start())
    pipe.deliver()
    if not sessions[1].auto_join:
        pipe.collect(1, sessions[1].join())
    spent, floor, timed = 0.0, 0.0, 0
    key = Identity.from_seed(b"floor")
    while pipe.deliver() >= 0 and not all(s.over for s in sessions):
        i = next((i for i, s in enumerate(sessions) if s.my_turn), None)
        if i is None:
            raise RulesError("the sessions are stuck: nobody can write the next entry")
        author, other = sessions[i], sessions[1 - i]
        view, seat = author.view, author.my_seat
        assert view is not None and seat is not None      # (a session whose turn it is has both)
        action = as_action(players[i].choose(game, view, seat))
        had, other_had = len(author.chain), len(other.chain)
        start = time.process_time()
        events = author.act(action)
        made = author.chain[had:]
        plain = len(made) == 1 and made[0].kind == "move"
        if plain:
            received = receive_frame(other, made[0].raw, author.public)
            took = time.process_time() - start
            if len(other.chain) == other_had + 1:      # the receiver wrote nothing of its own: no deal began
                spent += took
                floor += _floor_s(game, key, view, action, made[0])
                timed += 1
            pipe.sent[i].append(made[0].hash)
            pipe.collect(1 - i, received)
        pipe.collect(i, events)
    return MoveCosts(spent * 1000 / timed, floor * 1000 / timed)


def _floor_s(game, key: Identity, view, action, entry) -> float:
    """CPU seconds of the floor of one move, timed right after the move itself: both see the same machine."""
    start = time.process_time()
    signed = entry.raw[:-64]
    for _ in range(2):                                        # the author, then the receiver
        after, _ = game.apply(view, action)
        game.digest(after)
    verify(key.public, key.sign(b"lanterne-floor", signed), b"lanterne-floor", signed)
    msgpack.unpackb(msgpack.packb(entry.body))
    return time.process_time() - start


def move_overhead_ms() -> float:
    return move_costs().session


def move_floor_ms() -> float:
    return move_costs().floor


def move_over_floor() -> float:
    costs = move_costs()
    return costs.session / costs.floor


def verify_log_ms(runs: int = 5) -> float:
    """The median CPU time of ``runs`` verifications of the same finished Pagode log."""
    from lanterne.protocol.verify import verify_entries

    game, sessions, moves = _pagode_game()
    raws = [e.raw for e in sessions[0].chain]
    times = []
    for _ in range(runs):
        start = time.process_time()
        report = verify_entries(raws)
        times.append((time.process_time() - start) * 1000)
        assert report.ok, report
    return statistics.median(times)


def main() -> None:
    game, sessions, moves = _pagode_game()
    print(f"Pagode game: {len(sessions[0].chain)} entries, {len(moves)} moves, "
          f"{sum(len(e.raw) for e in sessions[0].chain)} bytes")
    costs = move_costs()
    print(f"per-move overhead (both sessions): {costs.session:.3f} ms CPU; floor {costs.floor:.3f} ms "
          f"(sign + verify + msgpack + apply and digest twice): {costs.session / costs.floor:.2f}x")
    print(f"verify a whole Pagode log: {verify_log_ms():.1f} ms CPU")


if __name__ == "__main__":
    main()
