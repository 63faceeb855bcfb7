"""What the app reads of Pueblo beyond the contract: the board's geometry, the phases, the screen's previews.

The only module of this package the client imports besides the package
itself (``tests/test_layers.py``), so the engine's other modules can change
shape without the screens knowing.
"""

from .data import COLOURS, CORNERS, SIZE, TRACK
from .geometry import LINES, ORIENTATIONS, POSE_COLUMNS, QUARTERS, SPACE_NAMES, TEMPLATE_INDEX, TEMPLATES, cell_name
from .preview import ChiefOption, Square, chief_options, footprint, side_view
from .state import BID, MOVE, OVER, PICK, PLACE, REMOVE, SITE

__all__ = ["COLOURS", "CORNERS", "SIZE", "TRACK", "LINES", "ORIENTATIONS", "POSE_COLUMNS", "QUARTERS", "SPACE_NAMES",
           "TEMPLATE_INDEX", "TEMPLATES", "cell_name", "ChiefOption", "Square", "chief_options", "footprint",
           "side_view", "BID", "MOVE", "OVER", "PICK", "PLACE", "REMOVE", "SITE"]
