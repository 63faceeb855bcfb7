"""The namespace builder is tests/support/netns.py; this module only lends it to the callers that still
import it by this name (client/bench.py, tests/protocol/net/test_capture.py and test_discovery.py)."""

from tests.support.netns import *  # noqa: F401,F403
from tests.support.netns import NetnsUnavailable, unavailable_reason  # noqa: F401  (named by client/bench.py)
