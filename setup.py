"""The build's one step beyond pyproject.toml: Pagode's engine compiled by Cython, where it can be.

Pagode's four busiest modules are compiled from their unchanged Python sources
(Cython's pure-Python mode). The gain is small: a random game takes 6 % fewer
instructions, a search move 5 % fewer; in CPU time 1.02 to 1.15 times the games
a second and the search no faster (docs/benchmarks.md, Notes, 2026-12-01).
Untyped, the compiled code reads and writes the state's slots through Python's
generic attribute calls, which CPython 3.11's specialising interpreter does in a
few instructions of its own. The
extensions are optional: where no C compiler is found the build warns (``pip
install -v`` shows it) and installs the sources alone, which play the same games byte for byte
(tests/engines/pagode/test_compiled.py). Each extension gets a file beside it
recording the digest of the source it was built from; ``engines/pagode/
compiled.py`` uses an extension only while that digest is its source's, so an
edited ``.py`` is never shadowed by an older build.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

# engines/pagode/compiled.py names the same modules (test_compiled.py checks that they agree).
COMPILED = ("state", "views", "payments", "rules")
SOURCES = Path("engines/pagode")


class build_ext_recording_sources(build_ext):
    """Build each extension, then write the digest of its source beside it (``NAME.source-sha256``)."""

    def build_extension(self, ext):
        super().build_extension(ext)
        source = Path(ext.depends[0])
        _digest_file(self.get_ext_fullpath(ext.name)).write_text(
            hashlib.sha256(source.read_bytes()).hexdigest() + "\n")

    def copy_extensions_to_source(self):
        """An editable install builds in a build folder, then copies the extensions beside the sources:
        the digests go with them."""
        super().copy_extensions_to_source()
        build_py = self.get_finalized_command("build_py")
        for ext in self.extensions:
            inplace_file, regular_file = self._get_inplace_equivalent(build_py, ext)
            if _digest_file(regular_file).exists():
                self.copy_file(str(_digest_file(regular_file)), str(_digest_file(inplace_file)), level=self.verbose)


def _digest_file(extension_path) -> Path:
    """``.../rules.cpython-311-x86_64-linux-gnu.so`` -> ``.../rules.source-sha256``."""
    path = Path(extension_path)
    return path.with_name(path.name.split(".")[0] + ".source-sha256")


EXTENSIONS = cythonize(
    [Extension(f"lanterne.engines.pagode.{name}", [str(SOURCES / f"{name}.py")], depends=[str(SOURCES / f"{name}.py")])
     for name in COMPILED],
    # annotation_typing off: the annotations stay hints, as in Python (a `-> str` may return a `Words`)
    compiler_directives={"language_level": 3, "annotation_typing": False},
    quiet=True)
for extension in EXTENSIONS:   # set after cythonize, which does not carry `optional` over
    extension.optional = True  # no C compiler: a warning, and the sources alone

setup(ext_modules=EXTENSIONS, cmdclass={"build_ext": build_ext_recording_sources})
