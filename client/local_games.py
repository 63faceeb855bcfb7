"""The local games left unfinished, as the home screen lists them: found and described from their files.

Apart from :mod:`client.local_record`, which plays and resumes them through signed sessions: the home screen
lists a game before anyone resumes it, and reading its meta file and counting the moves of its log needs none
of that machinery, so the app starts without loading it.
"""

from __future__ import annotations

from pathlib import Path

from lanterne.client.i18n import _, ngettext
from lanterne.client.levels import level_words
from lanterne.engines.registry import get_game
from lanterne.protocol.identity import home
from lanterne.protocol.log import LogFormatError, read_log
from lanterne.protocol.net.files import GameFiles, read_meta
from lanterne.protocol.wire import ProtocolError, unpack

LOCAL_FOLDER = "local"
"""Local games' files live in ``games/local/`` of the data folder."""


def local_folder() -> Path:
    """``games/local`` in the data folder (``LANTERNE_HOME`` or the platform's)."""
    return home() / "games" / LOCAL_FOLDER


def unfinished_local(folder: Path | str | None = None) -> list[Path]:
    """Meta files of local games that did not end, newest first."""
    folder = Path(folder) if folder is not None else local_folder()
    try:
        return [m for m in GameFiles.unfinished(folder) if read_meta(m).get("local")]
    except OSError:
        return []


def describe_unfinished(meta_path: Path) -> str:
    """``Pagode against Computer (normal), move 12`` (hot-seat: against Player 2)."""
    meta = read_meta(meta_path)
    try:
        name = get_game(str(meta.get("game"))).name
    except Exception:  # noqa: BLE001 - a listing never fails
        name = str(meta.get("game", "?"))
    seats = meta.get("seats") or []
    others = [str(s.get("name", "?")) + (f" ({level_words(str(s['bot']))})" if s.get("bot") else "")
              for s in seats[1:] if isinstance(s, dict)]

    if len(others) <= 2:
        who = _(" and ").join(others)
    else:
        who = ngettext("{name} and {n} other", "{name} and {n} others", len(others) - 1).format(
            name=others[0], n=len(others) - 1)
    who = who or _("nobody")
    move = moves_in_log(meta_path.with_suffix(".log"))
    if meta.get("mode") == "watch":
        return _("{game}: {player} against {others}, move {n}").format(
            game=name, player=seats[0].get('name', '?') if seats else '?', others=who, n=move)
    return _("{game} against {others}, move {n}").format(game=name, others=who, n=move)


def moves_in_log(log: Path) -> int:
    """How many moves a log holds (its entries' kinds read, nothing checked: for a listing)."""
    try:
        raws, _cut = read_log(log)
    except (OSError, LogFormatError):
        return 0
    count = 0
    for raw in raws:
        try:
            value = unpack(raw)
        except ProtocolError:
            continue
        count += isinstance(value, dict) and value.get("kind") == "move"
    return count
