"""Fair randomness for network play: commit-reveal dice and the mental-poker deck.

:class:`FairTable` resolves the engines' table operations (shuffle, deal,
reveal, roll) between peers, one signed message at a time, with the same
outcomes the open table gives, so an engine cannot tell which table it runs
on. :func:`audit_transcript` recomputes a finished game from its log and every
seat's final secrets. ``SCHEMAS`` gives the body schema of each message kind.
The steps are described in docs/fair.md.
"""

from .audit import audit_transcript
from .messages import SCHEMAS
from .table import CheatDetected, FairError, FairTable

__all__ = ["FairTable", "CheatDetected", "FairError", "SCHEMAS", "audit_transcript"]
