"""What a build here can do: a C compiler and Python's headers make Pagode's compiled engine."""

from __future__ import annotations

import shutil
import sysconfig
from pathlib import Path


def can_compile() -> str | None:
    """The C compiler a build here would use, if there is one and Python's headers too (else nothing compiles)."""
    compiler = shutil.which((sysconfig.get_config_var("CC") or "cc").split()[0])
    return compiler if (Path(sysconfig.get_paths()["include"]) / "Python.h").is_file() else None
