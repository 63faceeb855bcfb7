"""What the host's ``table`` entry signs for everyone: the game, its variant and options, the on-gone policy,
whether spectators may watch, whether a seat may take back its moves. Before the table they are the host's proposal (or a guest's defaults); the claim
time and move clock the table signs are the clocks' (:mod:`.clocks`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from lanterne.engines.core import Game

from lanterne.engines.core import RulesError

from .kinds import (ON_GONE, ON_GONE_END, UNDO_MODES, UNDO_OFF, WATCH_ASK, WATCH_EVERYONE, WATCH_KNOWN, WATCH_MODES,
                    WATCH_OFF, default_watch)


@dataclass(frozen=True)
class Terms:
    game: Game | None = None
    variant: str = "standard"
    options: dict = field(default_factory=dict)
    on_gone: str = ON_GONE_END
    """What the table does with a seat gone past the claim time: end the game, or give it to a computer."""
    spectators: bool = False
    """Whether the table lets spectators watch at all (signed as ``watch``)."""
    watch_by: str = ""
    """How a spectator gets in where they may (signed as ``watch_by``): ``ask`` its player, a peer it ``known``s,
    or "" anyone."""
    undo: str = UNDO_OFF
    """Whether a seat may take back its own last moves: ``off``, or ``ask`` every other seat (signed as ``undo``)."""

    @property
    def watch_mode(self) -> str:
        """Who may watch: one of :data:`.kinds.WATCH_MODES`."""
        return (self.watch_by or WATCH_EVERYONE) if self.spectators else WATCH_OFF

    @classmethod
    def proposed(cls, variant: str, on_gone: str, watch: str, undo: str = UNDO_OFF) -> "Terms":
        """A host's terms before the table (``watch``: one of :data:`.kinds.WATCH_MODES`)."""
        return cls(None, variant, {}, on_gone, watch != WATCH_OFF, watch if watch in (WATCH_ASK, WATCH_KNOWN) else "",
                   undo)

    @classmethod
    def asked(cls, game: Game | None, variant: str, on_gone: str, spectators: bool | str | None,
              undo: str) -> "Terms":
        """A session's terms as its caller asks for them (RulesError, one line, for a word that is none of them):
        ``spectators`` None is the game's default, True everyone, False nobody, or one of the watch modes."""
        if on_gone not in ON_GONE:
            raise RulesError(f"on-gone policy {on_gone!r} is not one of {', '.join(ON_GONE)}")
        watch = (default_watch(game) if spectators is None else spectators if isinstance(spectators, str)
                 else WATCH_EVERYONE if spectators else WATCH_OFF)
        if watch not in WATCH_MODES:
            raise RulesError(f"spectators {watch!r} is not one of {', '.join(WATCH_MODES)}")
        if undo not in UNDO_MODES:
            raise RulesError(f"undo {undo!r} is not one of {', '.join(UNDO_MODES)}")
        return cls.proposed(variant, on_gone, watch, undo)

    @classmethod
    def signed(cls, body: dict, game: Game) -> "Terms":
        """The terms of a table entry's (checked) body."""
        return cls(game, body["variant"], dict(body["options"]), body.get("on_gone", ON_GONE_END),
                   bool(body.get("watch", False)), str(body.get("watch_by", "")), str(body.get("undo", UNDO_OFF)))
