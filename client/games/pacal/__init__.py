"""Pacal's Rocket's side of the app: its board screen, its replay drawing, its die's faces
(see lanterne.client.games)."""

from lanterne.client.games import ClientGame
from lanterne.client.i18n import _
from lanterne.engines.core import TableOp
from lanterne.engines.pacal.view import DIE_FACES, face_name

from .replay import draw
from .screen import PacalScreen


def roll_words(op: TableOp, value: int) -> str | None:
    """The die's printed face ("arrows", or the number) for the engine's 0-based index into its faces."""
    if op.why == "die" and 0 <= value < len(DIE_FACES):
        return _(face_name(DIE_FACES[value]))
    return None


CLIENT = ClientGame(screen=PacalScreen, drawing=draw, roll_words=roll_words)
