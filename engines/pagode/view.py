"""What the app reads of Pagode beyond the contract: the house data its board screen draws.

The only module of this package the client imports besides the package
itself (``tests/test_layers.py``), so the engine's other modules can change
shape without the screens knowing.
"""

from .data import ABILITY_OF_COLOUR, COLOURS, FLOOR_COLUMNS, HAND_LIMIT, LETTERS, RESERVE_SIZE, SITES, TILES, VARIANTS

__all__ = ["ABILITY_OF_COLOUR", "COLOURS", "FLOOR_COLUMNS", "HAND_LIMIT", "LETTERS", "RESERVE_SIZE", "SITES", "TILES",
           "VARIANTS"]
