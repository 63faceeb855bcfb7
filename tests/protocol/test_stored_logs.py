"""Stored logs: the engines and the protocol still play the same game, byte for byte.

``tests/protocol/logs/`` holds, per game, one signed log written by
``lanterne selfplay GAME --net memory --seed 1`` (seat 1's file, random
bots, 2 players), its moves in notation and the open-table record of the same
seed (``<game>-seed1.txt``). They must never change: every log must replay
and verify, so a refactor that changes one legal-action order, one notation,
one digest or one table draw fails here.

The logs of the first four games were written before every host listed its
guests (the guest was whoever said hello first, and the table signed no
claim time): they are the proof that such logs still replay and verify, so
they are never rewritten. A log in today's form (a game added since) must
also be what the same seed writes today, byte for byte.

``.venv/bin/python -m tests.protocol.test_stored_logs GAME`` writes the
files of a game that has none yet.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from lanterne.engines.bots import make_bot
from lanterne.engines.core import OpenTable, play_out
from lanterne.engines.registry import GAMES, get_game
from lanterne.protocol.log import MAGIC, open_entry, parse_log, read_log
from lanterne.protocol.memory import make_sessions, play
from lanterne.protocol.session import Moved, Session
from lanterne.protocol.verify import verify_entries, verify_file

LOGS = Path(__file__).parent / "logs"
SEED = "1/0"    # what `selfplay --seed 1` gives its first game


def signed_log(game_id: str) -> bytes:
    """The host's log file of the seed's game over signed sessions in memory."""
    game = get_game(game_id)
    entries: list[bytes] = []
    sessions = make_sessions(game, 2, SEED, stores=[entries.append, None])
    play(sessions, [make_bot("random", f"{SEED}/bot{i}") for i in range(2)])
    return MAGIC + b"".join(len(raw).to_bytes(4, "big") + raw for raw in entries)


def transcript(game_id: str, raws: list[bytes]) -> str:
    """Every move of the log replayed as seat 1, then the open-table record of the same seed."""
    game = get_game(game_id)
    host = Session.replay(raws, _first_seat(raws), _seed_of_first_seat(raws), keep_events=True)
    lines = [f"signed {game_id}: {len(raws)} entries, digest {game.digest(host.view).hex()}"]
    for ev in host.replayed_events:
        if isinstance(ev, Moved):
            lines.append(f"{ev.entry} seat{ev.seat + 1} {ev.text} {list(ev.action)!r}")
    state = game.setup(players=2, variant="standard")
    final, record = play_out(game, state, OpenTable(SEED), [make_bot("random", f"{SEED}/bot{i}") for i in range(2)])
    lines.append(f"open {game_id}: {len(record)} steps, scores {game.scores(final)}, "
                 f"digest {game.digest(final).hex()}")
    lines += [f"{actor} {list(action)!r}" for actor, action in record]
    return "\n".join(lines) + "\n"


def _first_seat(raws: list[bytes]) -> bytes:
    table = next(e for e in map(open_entry, raws) if e.kind == "table")
    return table.body["seats"][0]


def _seed_of_first_seat(raws: list[bytes]) -> bytes:
    key = _first_seat(raws)
    return next(e.body["seed"] for e in map(open_entry, raws) if e.kind == "end" and e.author == key)


def lists_its_guests(raws: list[bytes]) -> bool:
    """Whether the log's host hello lists its guests (today's form)."""
    return "guests" in open_entry(raws[0]).body


@pytest.mark.parametrize("game_id", list(GAMES))
def test_the_same_seed_writes_a_log_in_todays_form_that_verifies(game_id):
    written = signed_log(game_id)
    raws, tail = parse_log(written)
    assert lists_its_guests(raws) and tail == 0
    report = verify_entries(raws)
    assert report.ok and report.result == "over", report
    stored = (LOGS / f"{game_id}-seed1.log").read_bytes()
    if lists_its_guests(parse_log(stored)[0]):
        assert written == stored


def test_the_first_stored_logs_keep_the_seating_from_before_guest_lists():
    """They are what proves such logs still replay (the test below): none may be rewritten in today's form."""
    for game_id in ("pacal", "pagode", "pandoria", "pueblo"):
        raws, _ = read_log(LOGS / f"{game_id}-seed1.log")
        assert not lists_its_guests(raws)


@pytest.mark.parametrize("game_id", list(GAMES))
def test_the_stored_log_verifies_and_replays_to_the_stored_moves(game_id):
    path = LOGS / f"{game_id}-seed1.log"
    report = verify_file(str(path))
    assert report.ok and report.result == "over", report
    raws, tail = read_log(path)
    assert tail == 0
    assert transcript(game_id, raws) == (LOGS / f"{game_id}-seed1.txt").read_text()


if __name__ == "__main__":      # the stored files of a game that has none yet
    for gid in sys.argv[1:]:
        if (LOGS / f"{gid}-seed1.log").exists():
            sys.exit(f"{gid} has its stored log already; stored logs are never rewritten")
        data = signed_log(gid)
        (LOGS / f"{gid}-seed1.log").write_bytes(data)
        raws, _ = read_log(LOGS / f"{gid}-seed1.log")
        (LOGS / f"{gid}-seed1.txt").write_text(transcript(gid, raws))
