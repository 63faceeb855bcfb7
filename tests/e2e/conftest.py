"""End-to-end fixtures: throw-away network namespaces (bench/netns.py builds them)."""

from __future__ import annotations

import pytest

from bench.netns import NetnsUnavailable, TestNetwork, unavailable_reason


@pytest.fixture
def netns_network(tmp_path):
    """``make(count)`` builds a test network; every network is torn down after the test."""
    reason = unavailable_reason()
    if reason:
        pytest.skip(reason)
    networks: list[TestNetwork] = []

    def make(count: int = 2) -> TestNetwork:
        net = TestNetwork(count, tmp_path)
        try:
            net.__enter__()
        except NetnsUnavailable as e:
            pytest.skip(f"cannot create network namespaces here: {e}")
        networks.append(net)
        return net

    try:
        yield make
    finally:
        for net in networks:
            net.cleanup()
