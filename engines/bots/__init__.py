"""Computer players that work on any Game through the engine contract."""

from engines.bots.simple import GreedyBot, RandomBot, make_bot

__all__ = ["GreedyBot", "RandomBot", "make_bot"]
