"""Benchmarks of the signed session (`lanterne bench --only session`).

* ``move_overhead_ms``: CPU per move of what the two peers do for it: the
  author applies the move, digests the public state and signs the envelope;
  the receiver checks the bytes and the signature, applies the move and
  compares the digest. Measured over every move of a seeded Pagode game.
* ``verify_log_ms``: CPU to verify a whole Pagode log (what ``lanterne
  verify`` does: signatures, chain, every seat's moves, digests and fair
  messages against its revealed seed, the audit), median of 5 runs.

Run ``python -m lanterne.protocol.bench`` for both figures.
"""

from __future__ import annotations

import statistics
import time

from lanterne.engines.bots import RandomBot
from lanterne.engines.core import as_action
from lanterne.engines.registry import get_game
from lanterne.protocol.log import open_entry, seal
from lanterne.protocol.memory import make_sessions, play

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


def move_overhead_ms() -> float:
    game, sessions, moves = _pagode_game()
    receiver_view = {}
    start = time.process_time()
    for s, view, action in moves:
        after, _ = game.apply(view, action)                       # author
        digest = game.digest(after)
        entry = seal(s.identity, game=s.game_id, seq=1, prev=bytes(32), kind="move",
                     body={"action": list(action), "digest": digest})
        got = open_entry(entry.raw)                               # receiver
        theirs, _ = game.apply(view, as_action(got.body["action"]))
        assert game.digest(theirs) == got.body["digest"]
        receiver_view[id(s)] = theirs
    return (time.process_time() - start) * 1000 / len(moves)


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
    print(f"per-move overhead (sign + verify + apply, both peers): {move_overhead_ms():.3f} ms CPU")
    print(f"verify a whole Pagode log: {verify_log_ms():.1f} ms CPU")


if __name__ == "__main__":
    main()
