"""What the app reads of Pacal's Rocket beyond the contract: the city's layout, the die, the ship's moves.

The only module of this package the client imports besides the package
itself (``tests/test_layers.py``), so the engine's other modules can change
shape without the screens knowing.
"""

from . import data
from .board import COLS, LAKE, LAKE_SCORING, RIVER_SCORING, ROWS, board_for, cell_name
from .data import ARROWS, DIE_FACES
from .notation import face_name
from .rules import build_choices, reachable

__all__ = ["data", "COLS", "LAKE", "LAKE_SCORING", "RIVER_SCORING", "ROWS", "board_for", "cell_name", "ARROWS",
           "DIE_FACES", "face_name", "build_choices", "reachable"]
