"""The names of the rules that the engines' words hold as parts (``Words(COLOURS[c])``).

An engine's sentence is a template with parts (``lanterne.engines.core.Words``); a part that is a
name of the rules (a colour, an ability, a resource, a people, a reason for points) is ``Words``
made from the engine's data, not from a literal, so Babel cannot find it there. Each is marked
here for the catalog; :func:`lanterne.client.i18n.say` translates it where it is shown. A name
missing here shows in English (``tests/client/test_i18n.py`` checks the engines' data against it).
"""

from __future__ import annotations

from typing import Callable

from lanterne.client.i18n import C_, N_, _, pgettext
from lanterne.engines.pueblo.view import SPACE_NAMES

SEPARATORS = (N_(" and "),)

SCORES = (N_("score"), N_("penalties"))     # a game's score_name (the score chart, the replay)

TABLE = (   # why the table rolls, the piles it shuffles (client/controller.py, describe_table_op)
    N_("first player"), N_("die"), N_("bonus"), N_("start tiles"), N_("re-deal of a hand"),
    N_("draw"), N_("discard"), N_("deck"), N_("tiles"), N_("singles"), N_("peoples"), N_("arrows"),
)

PAGODE = (
    C_("pagode colour", "red"), C_("pagode colour", "blue"), C_("pagode colour", "green"),   # a card's, a
    C_("pagode colour", "violet"), C_("pagode colour", "yellow"),                           # column's colour
    N_("lantern"), N_("buddha"), N_("rice bowl"), N_("fan"), N_("dragon"),         # capacités spéciales
    N_("reserve"), N_("hand"),                                                      # where cards are drawn to
    N_("column"), N_("tile"), N_("summit"),                                         # what scores
)

PUEBLO = (N_("red"), N_("blue"), N_("green"), N_("purple"))

PACAL = (
    N_("river"), N_("lake"), N_("energy pieces"), N_("last pyramid"),
    N_("second-to-last pyramid after the end was triggered"),
)

PANDORIA = (
    N_("forest"), N_("hill"), N_("mountain"), N_("city"),                             # terrains
    N_("wood"), N_("gold"), N_("crystal"),                                            # resources
    N_("Humans"), N_("Dwarves"), N_("Elves"), N_("Mages"), N_("Halflings"),           # peoples
    N_("monument"), N_("cards in hand"),
)


VARIANTS = (
    C_("variant", "standard"), C_("variant", "quick"), C_("variant", "beginner"), C_("variant", "advanced"),
    C_("variant", "dismantling"), C_("variant", "advanced+dismantling"), C_("variant", "expert"),
    C_("variant", "classic"), C_("variant", "team"),
)
"""The games' variants (``Game.variants``), said by :func:`variant_name`."""


def variant_name(variant: str) -> str:
    """A variant's name in the language in force (the engine's id where the catalog lacks it)."""
    return pgettext("variant", variant)


PUEBLO_CORNERS = {0: N_("NW corner"), 9: N_("NE corner"), 18: N_("SE corner"), 27: N_("SW corner")}


def pueblo_space(s: int) -> str:
    """A space of Pueblo's chieftain track in the language in force (the engine's ``SPACE_NAMES``, said)."""
    if s in PUEBLO_CORNERS:
        return _(PUEBLO_CORNERS[s])
    if s < 9:
        return _("north of {column}").format(column="abcdefgh"[s - 1])
    if s < 18:
        return _("east of row {row}").format(row=8 - (s - 10))
    if s < 27:
        return _("south of {column}").format(column="abcdefgh"[7 - (s - 19)])
    return _("west of row {row}").format(row=s - 28 + 1)


PACAL_MOVES = (C_("pacal move", "straight"), C_("pacal move", "turn"), C_("pacal move", "arrow"))
"""How a Pacal ship moves (the engine's word in "{seat} moves {steps} ..."): said with this context."""


def _plain_parts() -> dict[str, Callable[[], str]]:
    parts: dict[str, Callable[[], str]] = {name: (lambda s=s: pueblo_space(s)) for s, name in enumerate(SPACE_NAMES)}
    parts.update({word: (lambda word=word: pgettext("pacal move", word)) for word in PACAL_MOVES})
    return parts


PLAIN_PARTS = _plain_parts()
"""The names of the rules an engine gives in its words as plain text, not ``Words`` (Pueblo's track
spaces, the way a Pacal ship moves), each with how to say it (:func:`lanterne.client.i18n.say`)."""

QUIET_MOVES = {"stones none": N_("puts no divine stone"), "pass": N_("passes")}
"""Moves whose engine tells no event (the notation alone), in words: the move log says them."""
