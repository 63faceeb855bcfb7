"""The game session: one peer's side of one game, sans-IO (see :mod:`.session`, its transitions in :mod:`.phases`
and what each phase reads and writes in :mod:`.rules`).

Everything a caller needs is importable from here: the :class:`Session`,
its events, the message kinds and constants.
"""

from .claim import Claim
from .clocks import Awaiting
from .events import (CLAIMED, Aborted, Cause, ClaimAsked, ClaimRefused, Dispute, Disputed, Dropped, GameOver, GameStarted, Joined,
                     HoldGivenUp, LogRepaired, MarkDamaged, Moved, OutOfPlace, TakebackAsked, TakebackRefused, TakenBack, Replaced, ReplaceAsked, ReplayEnd, ReplayMismatch, SeatReplaced, TableResolved, TableSet)
from .kinds import (ABORT, AGREE, CHOICE_KINDS, CLAIM, CLAIM_REASON, COMPUTER_DOMAIN, COMPUTER_MARK, END, EPOCH_DOMAIN,
                    FAIR_DOMAIN, GAME_ID_DOMAIN, GENESIS, HELLO, MAX_LOCAL_STEPS, MAX_SEATS, MOVE, NONCE_DOMAIN,
                    ON_GONE, ON_GONE_COMPUTER, ON_GONE_END, REFUSE, REPLACE, TABLE_KIND, TABLE_NONCE_DOMAIN, TAKEBACK,
                    TAKEBACK_REPLY, UNDO_ASK, UNDO_MODES, UNDO_OFF, WATCH_ASK,
                    WATCH_EVERYONE, WATCH_KNOWN, WATCH_MODES, WATCH_OFF, Drbg, default_watch, schemas)
from .phases import TRANSITIONS, Phase, Trigger
from .rules import RULES
from .session import Session, receive_frame

__all__ = [
    "ABORT", "AGREE", "CHOICE_KINDS", "CLAIM", "CLAIM_REASON", "COMPUTER_DOMAIN", "COMPUTER_MARK", "END", "EPOCH_DOMAIN",
    "FAIR_DOMAIN", "GAME_ID_DOMAIN", "GENESIS", "HELLO", "MAX_LOCAL_STEPS", "MAX_SEATS", "MOVE", "NONCE_DOMAIN",
    "ON_GONE", "ON_GONE_COMPUTER", "ON_GONE_END", "REFUSE", "REPLACE", "RULES", "TABLE_KIND", "TAKEBACK", "TAKEBACK_REPLY", "UNDO_ASK", "UNDO_MODES", "UNDO_OFF", "WATCH_ASK", "WATCH_EVERYONE", "WATCH_KNOWN", "WATCH_MODES",
    "WATCH_OFF", "default_watch", "TRANSITIONS", "Trigger", "TABLE_NONCE_DOMAIN",
    "CLAIMED", "Aborted", "Awaiting", "Cause", "Claim", "ClaimAsked", "ClaimRefused", "Dispute", "Disputed", "Drbg", "Dropped", "GameOver", "GameStarted", "HoldGivenUp", "Joined", "LogRepaired", "MarkDamaged", "Moved", "OutOfPlace",
    "Phase", "Replaced", "ReplaceAsked", "ReplayEnd", "ReplayMismatch", "SeatReplaced", "Session", "TakebackAsked", "TakebackRefused", "TakenBack", "TableResolved", "TableSet", "receive_frame", "schemas",
]
