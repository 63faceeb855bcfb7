"""What the host's ``table`` entry signs for everyone: the game, its variant and options, the on-gone policy,
whether spectators may watch. Before the table they are the host's proposal (or a guest's defaults); the claim
time and move clock the table signs are the clocks' (:mod:`.clocks`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from lanterne.engines.core import Game

from .kinds import ON_GONE_END


@dataclass(frozen=True)
class Terms:
    game: Game | None = None
    variant: str = "standard"
    options: dict = field(default_factory=dict)
    on_gone: str = ON_GONE_END
    """What the table does with a seat gone past the claim time: end the game, or give it to a computer."""
    spectators: bool = False
    """Whether the table lets spectators watch (signed as ``watch``)."""

    @classmethod
    def signed(cls, body: dict, game: Game) -> "Terms":
        """The terms of a table entry's (checked) body."""
        return cls(game, body["variant"], dict(body["options"]), body.get("on_gone", ON_GONE_END),
                   bool(body.get("watch", False)))
