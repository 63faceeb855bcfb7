"""Pagode's side of the app: its board screen, its replay drawing (see lanterne.client.games)."""

from lanterne.client.games import ClientGame

from .replay import draw
from .screen import PagodeScreen

CLIENT = ClientGame(screen=PagodeScreen, drawing=draw, roll_words=None)
