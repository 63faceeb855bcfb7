"""End-to-end fixtures: throw-away network namespaces (see tests/support/netns.py)."""

from tests.support.netns import netns_network  # noqa: F401  (a fixture)
