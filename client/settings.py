"""The player's settings: a small JSON file in the user's config folder.

``LANTERNE_HOME`` (a folder) overrides the platform folder, so tests and
second instances on one machine never touch the real settings.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

import platformdirs

from lanterne.client.cells import cell_len, cut
from lanterne.client.i18n import _
from lanterne.protocol.identity import KEY_FILE, Identity, home

MAX_NAME = 24
"""Longest display name, in terminal cells (a wide character such as 漢 takes two)."""


def config_dir() -> Path:
    home = os.environ.get("LANTERNE_HOME")
    return Path(home) if home else Path(platformdirs.user_config_dir("lanterne"))


def default_name() -> str:
    return cut(os.environ.get("USER") or os.environ.get("USERNAME") or _("Player"), MAX_NAME)


def check_name(name: str) -> str:
    """The display name as stored; ValueError (one line) if it is not usable."""
    name = name.strip()
    if not name:
        raise ValueError(_("the display name cannot be empty"))
    if cell_len(name) > MAX_NAME:
        raise ValueError(_("the display name is at most {n} columns wide (a wide character such as 漢 "
                           "takes two)").format(n=MAX_NAME))
    if any(not ch.isprintable() for ch in name):
        raise ValueError(_("the display name has a character that cannot be printed"))
    return name


@dataclass
class Settings:
    display_name: str = ""
    theme: str = "lanterne"
    computer_delay: float = 0.4
    computer_level: str = "ismcts:normal"
    """The computer player a new local game gets (the setup screen and ``lanterne play`` without --bot)."""
    interfaces: list = field(default_factory=list)
    """IPv4 addresses of the interfaces the LAN lobby uses; empty: the machine's LAN interfaces."""
    on_gone: str = "end"
    """The last table of 3+ opened: a player gone for good ends the game ("end") or a computer takes the seat."""
    claim_after: float = 300.0
    """The last table of 3+ opened: seconds a gone player has before the claim."""
    move_clock: float = 600.0
    """The last table opened: seconds a linked player may take for one move before the others may claim
    (0: no move clock, and a linked player who never moves holds the table)."""
    turn_bell: bool = True
    """A network game rings the terminal's bell when the turn comes to you after someone else's."""
    language: str = ""
    """The language of the app and the commands ("en", "fr"); empty: the environment's (client/i18n.py)."""
    mailbox: str = ""
    """The wormhole mailbox a code is made at (``ws://HOST:PORT/v1``); empty: the magic-wormhole project's."""
    relay: str = ""
    """The transit relay of a code's link (``tcp:HOST:PORT``); empty: the magic-wormhole project's."""

    @classmethod
    def load(cls, path: Path | None = None) -> "Settings":
        """The saved settings, or the defaults when there are none (or they are unreadable)."""
        path = path or config_dir() / "settings.json"
        settings = cls(display_name=default_name())
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return settings
        if isinstance(data, dict):
            known = {f.name: f.type for f in fields(cls)}
            for key, value in data.items():
                if key in known and isinstance(value, type(getattr(settings, key))):
                    setattr(settings, key, value)
        return settings

    def save(self, path: Path | None = None) -> Path:
        path = path or config_dir() / "settings.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(asdict(self), indent=2, sort_keys=True), encoding="utf-8")
        tmp.replace(path)
        return path


def identity_fingerprint() -> str | None:
    """This player's identity fingerprint, if the identity key exists (never creates one)."""
    if not (home() / KEY_FILE).is_file():
        return None
    try:
        return str(Identity.load_or_create().fingerprint)
    except (OSError, ValueError):  # an unreadable key is shown as missing, never a crash
        return None
