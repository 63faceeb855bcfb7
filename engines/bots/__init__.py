"""Computer players that work on any Game through the engine contract."""

from lanterne.engines.bots.ismcts import IsmctsBot, determinize
from lanterne.engines.bots.by_name import make_bot
from lanterne.engines.bots.simple import GreedyBot, RandomBot

__all__ = ["GreedyBot", "IsmctsBot", "RandomBot", "determinize", "make_bot"]
