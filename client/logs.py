"""Standard :mod:`logging` to a file in the platform's log folder, and crash reports beside it.

The folder is ``$LANTERNE_HOME/logs`` when that variable is set (tests, a
second player on one machine), else platformdirs' ``user_log_dir`` (on
Linux ``~/.local/state/lanterne/log``, the XDG state folder: logs are
state, neither settings nor data). ``lanterne.log`` rotates at 1 MiB,
three old files kept. A crash report (the traceback of an unexpected error
in the app or a command) is appended to ``crash.log`` in the same folder
and logged too; the user sees one line naming the file.

Modules log with ``logging.getLogger(__name__)``; nothing here prints.
Lanterne's own loggers (``client``, ``protocol``, ``engines``, ``lanterne``)
record INFO and above, other libraries WARNING and above. The folder and
the file are made with the first record, so a command that has nothing to
say leaves no trace.
"""

from __future__ import annotations

import logging
import logging.handlers
import os
import traceback
from pathlib import Path

import platformdirs

from lanterne.client.i18n import _

LOG_FILE = "lanterne.log"
CRASH_FILE = "crash.log"
MAX_BYTES = 1 << 20
BACKUPS = 3
FORMAT = "%(asctime)s %(process)d %(levelname)s %(name)s: %(message)s"

log = logging.getLogger("lanterne")


def log_dir() -> Path:
    home = os.environ.get("LANTERNE_HOME")
    if home:
        return Path(home) / "logs"

    return Path(platformdirs.user_log_dir("lanterne"))


OURS = ("lanterne",)   # every module logs under its import name, lanterne.*


class _LanterneHandler(logging.handlers.RotatingFileHandler):
    """Our file handler (told apart from anyone else's on the root logger); makes its folder when first used."""

    def _open(self):
        Path(self.baseFilename).parent.mkdir(parents=True, exist_ok=True)
        return super()._open()

    def emit(self, record: logging.LogRecord) -> None:
        try:
            super().emit(record)
        except OSError:       # a folder that cannot be written: logging stays quiet, never an error
            pass


def setup_logging(level: int = logging.INFO) -> Path:
    """Send our records at ``level`` and above (others' from WARNING) to ``lanterne.log``; its path.

    Called again (tests run many commands in one process, each with its
    own ``LANTERNE_HOME``) it moves the handler to the current folder. A
    folder that cannot be written leaves logging quiet: never an error.
    """
    root = logging.getLogger()
    path = log_dir() / LOG_FILE
    for handler in list(root.handlers):
        if isinstance(handler, _LanterneHandler):
            if Path(handler.baseFilename) == path.resolve():
                return path
            root.removeHandler(handler)
            handler.close()
    handler = _LanterneHandler(path, maxBytes=MAX_BYTES, backupCount=BACKUPS, encoding="utf-8", delay=True)
    handler.setFormatter(logging.Formatter(FORMAT))
    handler.setLevel(level)
    root.addHandler(handler)
    for name in OURS:
        ours = logging.getLogger(name)
        if ours.level == logging.NOTSET or ours.level > level:
            ours.setLevel(level)
    return path


def crash_report(error: BaseException, where: str = "") -> Path | None:
    """Append ``error``'s traceback to ``crash.log`` (and the log); the file, or None if it cannot be written."""
    log.error("crash%s: %s: %s", f" in {where}" if where else "", type(error).__name__, error, exc_info=error)
    path = log_dir() / CRASH_FILE
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a", encoding="utf-8") as f:
            f.write("".join(traceback.format_exception(error)) + "\n")
    except OSError:
        return None
    return path


def crash_line(error: BaseException, where: str = "") -> str:
    """The one line a user sees for an unexpected error, naming the report's file."""
    path = crash_report(error, where)
    first = str(error).splitlines()[0] if str(error) else ""

    details = " " + _("(details in {path})").format(path=path) if path is not None else ""
    return "lanterne: " + _("internal error: {error}").format(error=f"{type(error).__name__}: {first}") + details
