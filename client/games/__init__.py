"""Each game's screen, widgets and stylesheet, one folder per game (docs/client.md, "Layout of the code").

``<game>/screen.py`` holds the board screen (a :class:`lanterne.client.screens.game.GameScreen`),
``<game>/widgets.py`` (and a second module where a board has many parts) the widgets it
draws with, and ``<game>/<game>.tcss`` every style rule of that game; the colours come
from :mod:`lanterne.client.theme`.
"""
