"""Computer players that work on any Game through the engine contract."""

from engines.bots.ismcts import IsmctsBot, determinize
from engines.bots.simple import GreedyBot, RandomBot, make_bot

__all__ = ["GreedyBot", "IsmctsBot", "RandomBot", "determinize", "make_bot"]
