"""A person at the Pagode screen, by mouse only: turns a chosen action into clicks."""

from __future__ import annotations

from textual.widgets import Button, OptionList

from lanterne.client.screens.dialogs import ChoiceScreen
from lanterne.client.games.pagode.screen import PagodeScreen
from lanterne.client.games.pagode.widgets import CardWidget

BUTTON_OF = {("lantern",): "lantern", ("dragon",): "dragon", ("draw",): "draw", ("modified",): "modified",
             ("end", False): "end", ("end", True): "end-fan"}


def progress(view, site: int) -> int:
    return len(view.site_tiles[site]) * 4 + view.site_cols[site]


def builder_choice(controller, seat: int):
    """Aim for a roof: roof, then tile, then a one-card column on the most advanced site, else end."""
    actions = controller.legal_actions(seat)
    view = controller.view(seat)
    held = [view.cards.ids[s] // 11 for s in view.reserves[seat] + view.hands[seat]]
    for kind in ("roof", "tile"):
        found = [a for a in actions if a[0] == kind]
        if found:  # the most advanced site, next floor in the colour we hold most
            return max(found, key=lambda a: (progress(view, a[1]), held.count(a[2])))
    columns = [a for a in actions if a[0] == "column" and len(a[3]) == 1]
    if columns:
        return max(columns, key=lambda a: (progress(view, a[1]), -a[1]))
    for wanted in (("end", False),):
        if wanted in actions:
            return wanted
    discards = [a for a in actions if a[0] == "discard"]
    return discards[0] if discards else actions[0]


def card_widget(screen: PagodeScreen, slot: int) -> CardWidget:
    return next(w for w in screen.query(CardWidget) if w.slot is not None and w.slot == slot)


async def click_action(pilot, screen: PagodeScreen, action: tuple) -> None:
    """Click what a person clicks to play ``action`` (cards, then a site or a button)."""
    app = pilot.app
    kind = action[0]
    if kind in ("column", "tile", "roof"):
        cards = action[3] + action[4] if kind == "roof" else action[3]
        for slot, _ in cards:
            assert await pilot.click(card_widget(screen, slot)), f"card slot {slot} not clickable"
        wanted = screen.controller.format(screen.viewer, action)
        assert await pilot.click(f"#site-{action[1] + 1}")
        await pilot.pause()
        if isinstance(app.screen, ChoiceScreen):
            choices = app.screen.query_one(OptionList)
            index = next(i for i, label in enumerate(app.screen.options) if label.startswith(wanted + " "))
            assert await pilot.click(choices, offset=(3, 1 + index))
            await pilot.pause()
        return
    if kind == "discard":
        assert await pilot.click(card_widget(screen, action[1]))
        assert await pilot.click("#btn-discard")
        return
    assert await pilot.click(f"#btn-{BUTTON_OF[action]}")


def quick_buttons(screen: PagodeScreen) -> None:
    """Buttons ignore a click during their 0.2 s press effect; a test clicks faster than that."""
    for button in screen.query(Button):
        button.active_effect_duration = 0
