"""What pyproject.toml cannot say: the packages under the three layer folders, found rather than listed.

pyproject's ``package-dir`` installs ``client/``, ``engines/`` and
``protocol/`` as ``lanterne.client``, ``lanterne.engines`` and
``lanterne.protocol``; setuptools' own discovery would name their packages
without the ``lanterne.`` prefix, so it is added here. A new game's folders
are packaged without a line anywhere else.
"""

from setuptools import find_packages, setup

LAYERS = ("client", "engines", "protocol")

setup(packages=["lanterne", *(f"lanterne.{name}" for name in find_packages(include=[f"{layer}*" for layer in LAYERS]))])
