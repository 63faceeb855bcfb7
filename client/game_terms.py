"""The names of the rules that the engines' words hold as parts (``Words(COLOURS[c])``).

An engine's sentence is a template with parts (``lanterne.engines.core.Words``); a part that is a
name of the rules (a colour, an ability, a resource, a people, a reason for points) is ``Words``
made from the engine's data, not from a literal, so Babel cannot find it there. Each is marked
here for the catalog; :func:`lanterne.client.i18n.say` translates it where it is shown. A name
missing here shows in English (``tests/client/test_i18n.py`` checks the engines' data against it).
"""

from __future__ import annotations

from lanterne.client.i18n import C_, N_

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
