"""Who is here, who is gone since when, who writes a claim and what our clock answers to one: sans-IO.

A peer tells this part when a seat's link comes up or goes down (and what
its clock said then), when a seat left for good, and when a link brought
bytes an honest peer never sends; it asks it with the numbers of the
moment (``now``, the seats, who is linked, the chain's length), the way
:meth:`protocol.session.Session.tick` takes ``now``. Nothing here reads a
clock or touches a socket, so every rule is tested with plain numbers
(``tests/protocol/net/test_presence.py``).

The rules (docs/network.md, "Claim"):

* a seat is *here* while it is linked to us, unless its link brought bad
  bytes since the chain last moved (a seat that keeps linking again with
  bad bytes still meets the claim clock);
* the claim against an absent seat is written by the lowest present seat
  linked to us, and only while we are linked with some other seat (a peer
  cut off from all cannot tell that it is not the one who is gone);
* our answer to a claim: yes once the chain waited for that seat past the
  move clock, or once it has been unlinked from us for the claim time (a
  seat never linked since play began counts from then), or at once if it
  left for good; no while it is linked to us; else not yet;
* while our listener refuses connections for lack of room (a flood of
  strangers), and for :data:`REFUSAL_HOLD` seconds after the last refusal,
  we write no claim against a seat that is not linked to us and answer
  "not yet" to one: the seat may be among those we turn away, and its
  absence counts only from our last refusal. The same for a seat whose
  listener turned *us* away for lack of room: it is there, flooded.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Collection, Sequence

from lanterne.engines.core import TABLE
from lanterne.protocol.session import Session
from lanterne.protocol.session.phases import Phase

REFUSAL_HOLD = 10.0
"""Seconds after our listener last refused a connection during which an unlinked seat is not claimed
against (many times a seat's reconnect interval: it had the open door to come back)."""


@dataclass
class Presence:
    me: bytes
    """Our own key (always present to ourselves)."""
    _started: float = 0.0
    """When play began here: a seat never linked since counts as gone from then."""
    _gone_since: dict[bytes, float] = field(default_factory=dict)
    """Per key: when its link to us last went down (while it stays down)."""
    _for_good: set[bytes] = field(default_factory=set)
    """Keys whose link closed saying they left for good: claimed without the claim time."""
    _suspect: dict[bytes, int] = field(default_factory=dict)
    """Per key: the chain's length when its link last brought bytes an honest peer never sends."""
    _refused_at: float | None = None
    """When our listener last refused a connection for lack of room."""
    _turned_away: dict[bytes, float] = field(default_factory=dict)
    """Per key: when its listener last turned us away for lack of room."""
    hold: float = REFUSAL_HOLD

    # -- what the peer tells us
    def start(self, now: float) -> None:
        """Play begins now."""
        self._started = now

    def up(self, key: bytes) -> None:
        """``key``'s link to us is up."""
        self._gone_since.pop(key, None)

    def down(self, key: bytes, now: float, for_good: bool = False) -> None:
        """``key``'s link to us went down at ``now`` (``for_good``: it said it left for good)."""
        self._gone_since[key] = now
        if for_good:
            self._for_good.add(key)

    def left_for_good(self, key: bytes) -> None:
        """``key`` said, as its link closed, that it left for good."""
        self._for_good.add(key)

    def refused(self, now: float) -> None:
        """Our listener refused a connection for lack of room at ``now`` (it may have been a seat)."""
        self._refused_at = now

    def turned_away(self, key: bytes, now: float) -> None:
        """``key``'s listener answered us "busy" at ``now``: it is there, but flooded."""
        self._turned_away[key] = now

    def suspect(self, key: bytes, chain: int) -> None:
        """``key``'s link brought bytes no honest peer sends while the chain held ``chain`` entries."""
        self._suspect[key] = chain

    # -- what the peer asks
    def refusing(self, now: float) -> bool:
        """Whether we refused connections within the last :attr:`hold` seconds."""
        return self._refused_at is not None and now - self._refused_at < self.hold

    def _held_from(self, key: bytes) -> float | None:
        """The last refusal that may have kept ``key`` from us, either way (None: none)."""
        times = [t for t in (self._refused_at, self._turned_away.get(key)) if t is not None]
        return max(times) if times else None

    def holding(self, key: bytes, now: float) -> bool:
        """Whether an unlinked ``key`` may be kept from us by a flood: we refused connections, or it refused
        ours, within the last :attr:`hold` seconds (and it did not leave for good)."""
        since = self._held_from(key)
        return since is not None and now - since < self.hold and key not in self._for_good

    def gone_for_good(self, key: bytes) -> bool:
        return key in self._for_good

    def here(self, key: bytes, linked: bool, chain: int) -> bool:
        """Whether ``key`` counts as here: linked to us, and no bad bytes from it since the chain moved."""
        return linked and self._suspect.get(key) != chain

    def gone_for(self, key: bytes, now: float) -> float:
        """Seconds ``key`` has been unlinked from us (since play began, if it never linked) while our listener
        let everyone in (a seat we may have turned away was not gone)."""
        since = self._gone_since.get(key, self._started)
        held = self._held_from(key)
        return now - (since if held is None else max(since, held))

    def claimer(self, seats: Sequence[bytes], absent: int, linked: Collection[bytes]) -> int:
        """The seat that writes the claim against ``absent``: the lowest present seat (us or linked to us)."""
        return min(i for i, key in enumerate(seats) if i != absent and (key == self.me or key in linked))

    def cut_off(self, seats: Sequence[bytes], absent: int, linked: Collection[bytes]) -> bool:
        """Whether we are linked with none of the seats but ``absent`` and ourselves (when the table has any)."""
        others = [key for i, key in enumerate(seats) if i != absent and key != self.me]
        return bool(others) and not any(key in linked for key in others)

    def may_claim(self, seats: Sequence[bytes], absent: int, linked: Collection[bytes]) -> bool:
        """We write the claim against ``absent`` only as its claimer, and never cut off from the rest."""
        return (not self.cut_off(seats, absent, linked)
                and seats[self.claimer(seats, absent, linked)] == self.me)

    def consent(self, key: bytes, now: float, *, linked: bool, claim_time: float | None,
                move_clock: float | None, awaited_since: float | None) -> bool | None:
        """Our answer to a claim against ``key``: True (agree), False (refuse: it is here), None (not yet)."""
        if not linked and self.holding(key, now):
            return None     # it may be knocking at our door while we turn it away, or flooded
        if move_clock is not None and awaited_since is not None and now - awaited_since >= move_clock:
            return True
        if linked:
            return False
        if key in self._for_good:
            return True
        return True if claim_time is not None and self.gone_for(key, now) >= claim_time else None


def claim_step(session: Session, presence: Presence, now: float, seats: Sequence[bytes],
               linked: Collection[bytes], runs_here: Callable[[bytes], bool]) -> list:
    """Let time pass for the claim at ``now``: the session's events (what our clock made it do).

    The clock runs while the awaited seat is not here for us, or while it is
    linked but withholds a step without a choice (stalling: the move clock).
    When it runs out, ONE peer writes the claim: the lowest seat among us and
    the peers linked to us, the absent seat left out. Every present peer
    applies the same rule, so the rest agree on one signed ``abort`` (no two
    claims race for one place in the chain). ``runs_here``: the awaited key
    is a computer this process runs (slow, not gone).
    """
    seat = session.waiting_for()
    if seat is not None and seat == session.my_seat and session.phase in (Phase.CLAIM, Phase.TAKEBACK):
        return session.step()      # our answer to a claim may have waited for our own clock (a takeback: our consent)
    if seat is None or seat == session.my_seat:
        if seat is not None and session.move_clock is not None:
            session.watch(now)      # our own move clock, for our screen
        return []
    key = session.seats[seat]
    is_linked = key in linked
    if not is_linked and presence.holding(key, now):
        session.watch(now, True)     # a flood may keep it from us: its absence counts once it is over
        return []
    here = presence.here(key, is_linked, len(session.chain)) and (
        session.phase in (Phase.CLAIM, Phase.TAKEBACK)      # an answer (its clock's, or its person's): here
        or (session.phase == Phase.PLAY and session.game is not None and session.view is not None
            and not session.game.is_over(session.view)
            and session.next_actor() != TABLE))   # here and thinking (the move clock runs)
    session.watch(now, here)
    if here and session.move_clock is None:
        return []
    if not presence.may_claim(seats, seat, linked) or runs_here(key):
        return []
    if presence.gone_for_good(key) and not is_linked and session.phase != Phase.CLAIM:
        return session.claim(seat, f"seat {seat + 1} left the table for good")
    return session.tick(now, here)


__all__ = ["Presence", "claim_step"]
