"""Real signed logs for the tests that read them (the replay viewer, its model, the score chart)."""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

from lanterne.engines.bots import make_bot
from lanterne.engines.registry import get_game
from lanterne.protocol.log import MAGIC
from lanterne.protocol.memory import make_sessions, play


def write_log(path: Path | str, raws: Iterable[bytes]) -> None:
    """Write a whole log file at once, in the format ``protocol.log`` appends to entry by entry."""
    with open(path, "wb") as f:
        f.write(MAGIC)
        for raw in raws:
            f.write(len(raw).to_bytes(4, "big") + raw)


def make_log(folder: Path, game_id: str = "pueblo", seed: str = "r1", games=None, game=None,
             players: int = 2) -> Path:
    """A finished game's signed log, as `lanterne selfplay --net memory` writes it; also its live sessions."""
    game = game or get_game(game_id)
    sessions = make_sessions(game, players, seed, games=games)
    play(sessions, [make_bot("random", f"{seed}/bot{i}") for i in range(players)])
    path = folder / f"{game.id}-{seed}.lanterne"
    write_log(path, [e.raw for e in sessions[0].chain])
    make_log.sessions = sessions
    return path
