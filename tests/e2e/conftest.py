"""End-to-end fixtures: throw-away network namespaces (see netns.py)."""

from tests.e2e.netns import netns_network  # noqa: F401  (a fixture)
