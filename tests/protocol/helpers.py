"""Shared helpers for the protocol tests: a tiny real game and in-memory peers."""

from __future__ import annotations

from engines.bots import RandomBot
from protocol.memory import make_sessions, play
from tests.engines.highcard import GAME as HIGHCARD


def games(game_id: str):
    from engines.registry import get_game

    return HIGHCARD if game_id == "highcard" else get_game(game_id)


def highcard_sessions(players=2, seed="t", **kw):
    return make_sessions(HIGHCARD, players, seed, games=games, **kw)


def play_highcard(players=2, seed="t", **kw):
    sessions = highcard_sessions(players, seed, **kw)
    play(sessions, [RandomBot(f"{seed}/{i}") for i in range(players)])
    return sessions
