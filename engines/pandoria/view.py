"""What the app reads of Pandoria beyond the contract: the house data, the map's geometry, a region's yield.

The only module of this package the client imports besides the package
itself (``tests/test_layers.py``), so the engine's other modules can change
shape without the screens knowing.
"""

from . import data
from .board import CASTLE, COLUMN_LETTERS, DIRECTIONS, KIND, LAKE, NEIGHBOURS, OFF, PATH_HEXES, STEP, hex_name, hex_of
from .notation import face_text
from .rules import MONUMENT, region_yield

__all__ = ["data", "CASTLE", "COLUMN_LETTERS", "DIRECTIONS", "KIND", "LAKE", "NEIGHBOURS", "OFF", "PATH_HEXES", "STEP",
           "hex_name", "hex_of", "face_text", "MONUMENT", "region_yield"]
