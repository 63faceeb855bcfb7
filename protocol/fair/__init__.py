"""Fair randomness for network play: commit-reveal dice and the mental-poker deck.

:class:`FairTable` resolves the engines' table operations (shuffle, deal,
reveal, roll) between peers, one signed message at a time, with the same
outcomes the open table gives, so an engine cannot tell which table it runs
on. :func:`audit_transcript` recomputes a finished game from its log and every
seat's final secrets. ``SCHEMAS`` gives the body schema of each message kind.
The steps are described in docs/fair.md.

Beyond the interface agreed with the session (additions, nothing removed):
``CheatDetected.seat`` is None when a card opens to no card (a tampered
shuffle whose author only the final audit can name); ``FairTable(seat=None)``
is a watching table that authors nothing; ``FairError`` (a ValueError) is a
local misuse, never a peer's fault; a move playing hidden cards is recorded
for the audit as a ``fair_claim`` step ``{slots, ids, proof}``.
"""

from .audit import audit_transcript
from .messages import SCHEMAS
from .errors import CheatDetected, FairError
from .table import FairTable

__all__ = ["FairTable", "CheatDetected", "FairError", "SCHEMAS", "audit_transcript"]
