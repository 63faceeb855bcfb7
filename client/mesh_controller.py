"""A table of 3 or more peers behind the ordinary game screens: :class:`MeshGame` adapts a :class:`MeshPeer`.

It is :class:`~client.net_controller.NetworkGame` (same status texts, same
failure lines, same move log) on a full mesh instead of one link: the link
state is per peer (:meth:`MeshGame.peer_links`), the last move of *every*
other seat is kept (:attr:`MeshGame.last_moves`), and until the table is
full the lobby reads who sits where from :meth:`MeshGame.table_lines`.

Computer seats are peers of their own that the host runs
(:meth:`MeshPeer.add_computer`); their names start with ``[computer] `` so
every app shows what they are.

A seat gone for good (issue 9): the table's policy (``on_gone``: end the
game with the scores so far, or give the seat to a computer the claimer
hosts) and the claim time are shown everywhere (:meth:`MeshGame.policy_text`);
while the awaited peer is gone the status counts up to the claim
(:meth:`MeshGame.gone_text`); a replaced seat takes the computer's name
(``[computer] Bob``) and leaves a one-line :attr:`MeshGame.notice`. Everything here uses the mesh peer's public
API and its ``say`` lines: the seats taken before the table is full come
from the host's ``accepted NAME (k/N seats)`` lines.
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path
from typing import Callable, Sequence

from client.local_play import MOVE_SECONDS
from client.controller import HUMAN, REMOTE, Change, LogEntry, Seat, Waiting
from client.net_controller import NetworkGame
from engines.core import Game
from protocol.identity import Identity
from protocol.net.mesh import COMPUTER_MARK, MeshPeer
from protocol.net.peer import PeerOptions
from protocol.session import CLAIM_REASON, ON_GONE_COMPUTER, ON_GONE_END, Aborted, Replaced, ReplaceAsked, SeatReplaced

_ACCEPTED = re.compile(r"^accepted (.*) \((\d+)/(\d+) seats\)$")
_LEFT = re.compile(r"^left (.*) \((\d+)/(\d+) seats\)$")
_JOINED = re.compile(r"^joined (.*) \(([^()]*)\); safety code ([^;]*);")
_SEATED = re.compile(r"^seated (\d+) of (\d+): ")
_CLAIM_TIME = re.compile(r" for ([0-9.]+) s$")


def is_computer(name: str) -> bool:
    """A seat a host's computer plays (every peer sees the mark in its name)."""
    return name.startswith(COMPUTER_MARK)


def clock(seconds: float) -> str:
    """``m:ss`` for a duration (the gone clock and the claim time)."""
    seconds = max(int(seconds), 0)
    return f"{seconds // 60}:{seconds % 60:02d}"


def claim_time(seconds: float) -> str:
    """The claim time in words: ``5 min``, ``90 s``."""
    return f"{seconds / 60:g} min" if seconds >= 60 and seconds % 60 == 0 else f"{seconds:g} s"


ON_GONE_WORDS = {ON_GONE_END: "the game ends with the scores so far",
                 ON_GONE_COMPUTER: "a computer takes the seat"}
"""What the table does with a seat gone past the claim time, in a player's words."""


def describe_policy(on_gone: str, claim_after: float) -> str:
    """'if a player is gone 5 min: a computer takes the seat'."""
    return f"if a player is gone {claim_time(claim_after)}: {ON_GONE_WORDS.get(on_gone, on_gone)}"


def replacement_players(bot: str) -> Callable[[int], object]:
    """The player of a computer this app hosts for a seat it replaced (the lobby's computer level)."""
    from engines.bots import make_bot

    salt = os.urandom(4).hex()
    return lambda seat: make_bot(bot, f"{salt}-replace-{seat + 1}", max_seconds=MOVE_SECONDS)


class MeshGame(NetworkGame):
    """One game of 3+ seats as a controller. Make it with :meth:`open_table`, :meth:`join` or :meth:`resume`."""

    def __init__(self, peer: MeshPeer, runner, game: Game | None = None, *, players: int = 0):
        super().__init__(peer, runner, game)  # type: ignore[arg-type]
        self.players = players
        """Seats at the table (the host knows it at once; a guest from the advert, then the roster)."""
        self.taken: list[str] = [peer.name] if peer.is_host else []
        """Names seated so far, in seat order, until the roster is known (the host's view)."""
        self.host_name = ""
        self.joined = False
        self.host_code = ""
        """A guest: the safety code of the host's key and ours, as the host's join dialog showed it."""
        """A guest: the host took us (we wait for the others, then the roster)."""
        self.last_moves: dict[int, LogEntry] = {}
        """Every other seat's last move (the banner shows them all)."""
        self.notice = ""
        """The last replacement, in one line (the banner shows it)."""
        self._link_state: tuple[bool, ...] = ()
        self._gone_since: dict[bytes, float] = {}
        """Key of a peer whose link with us is down -> when we saw it go (time.monotonic)."""
        self._gone_shown = ""

    # -- making one
    @classmethod
    def open_table(cls, me: Identity, name: str, game: Game, folder: Path | str, *,  # type: ignore[override]
                   variant: str = "standard", players: int = 3, computers: int = 0, bot: str = "greedy",
                   interfaces: Sequence[str], port: int = 0, discover: bool = True, accept: Callable | None = None,
                   options: PeerOptions = PeerOptions(), on_gone: str = ON_GONE_END) -> "MeshGame":
        """Host a table of ``players`` seats, ``computers`` of them played by ``bot`` players this app runs.

        ``on_gone`` (signed in the table): a seat gone past ``options.claim_after``
        ends the game with the scores so far (``end``) or is given to a
        ``bot`` player this app hosts, if this app is the one that claims (``computer``).
        """
        from engines.bots import make_bot
        from engines.core import RulesError

        game.check_options(players, variant)
        if not 0 <= computers < players:
            raise RulesError(f"a table of {players} takes 0 to {players - 1} computer players, not {computers}")
        make_bot(bot)  # an unknown kind fails here, in one line
        if on_gone not in ON_GONE_WORDS:
            raise RulesError(f"on-gone policy {on_gone!r} is not one of {', '.join(ON_GONE_WORDS)}")
        peer = MeshPeer.host(me, name, game, players, folder, variant=variant, options=options, say=lambda _: None,
                             on_gone=on_gone)
        peer.computer_player = replacement_players(bot)
        salt = os.urandom(4).hex()
        for n in range(computers):
            peer.add_computer(make_bot(bot, f"{salt}-computer-{n + 1}", max_seconds=MOVE_SECONDS))
        return cls(peer, lambda: peer.run_host(list(interfaces), port, discover=discover, accept=accept), game,
                   players=players)

    @classmethod
    def join(cls, me: Identity, name: str, folder: Path | str, address: tuple[str, int], *,  # type: ignore[override]
             interfaces: Sequence[str], players: int = 0, expect_fingerprint: str | None = None, game: str = "",
             variant: str = "standard", discover: bool = True, games: Callable[[str], Game] | None = None,
             options: PeerOptions = PeerOptions(), bot: str = "greedy") -> "MeshGame":
        """Ask the host at ``address`` for a seat; listen on ``interfaces`` for the peers seated after us.

        ``bot``: the kind of the computer this app hosts if it gives a gone seat to one.
        """
        peer = MeshPeer.guest(me, name, folder, options=options, say=lambda _: None)
        peer.computer_player = replacement_players(bot)
        if games is not None:
            peer.session._games = games  # a game the registry does not know (tests), as NetworkGame.join

        async def run():
            discovery = None
            if discover:
                from protocol.net.discovery import Discovery

                discovery = Discovery(list(interfaces))
            return await peer.run_guest(address, list(interfaces), expect_fingerprint=expect_fingerprint,
                                        discovery=discovery, game=game, variant=variant or "standard",
                                        players=players)

        return cls(peer, run, players=players)

    @classmethod
    def resume(cls, me: Identity, meta_path: Path | str, *, interfaces: Sequence[str],  # type: ignore[override]
               discover: bool = True, options: PeerOptions = PeerOptions(), bot: str = "greedy") -> "MeshGame":
        """Go on with an unfinished table of 3+ from its files; a host brings its computer seats back too."""
        from engines.bots import make_bot

        peer = MeshPeer.from_files(me, meta_path, options=options, say=lambda _: None)
        peer.computer_player = replacement_players(bot)
        if peer.is_host:
            salt = os.urandom(4).hex()
            peer.resume_computers(lambda n: make_bot(bot, f"{salt}-computer-{n}", max_seconds=MOVE_SECONDS))
            port = int(peer.files.meta.get("port", 0) or 0)
            runner = lambda: peer.run_host(list(interfaces), port, discover=discover)  # noqa: E731
        else:
            async def runner():
                discovery = None
                if discover and interfaces:
                    from protocol.net.discovery import Discovery

                    discovery = Discovery(list(interfaces))
                return await peer.run_guest(None, list(interfaces), discovery=discovery)
        controller = cls(peer, runner, peer.session.game, players=len(peer.seats))
        controller._adopt()
        controller._replay_log()
        controller._was_linked = True  # until the others are back, the banner says which links are down
        controller.notes.append(f"resumed from {len(peer.session.chain)} logged entries")
        return controller

    # -- facts the lobby shows
    @property
    def variant(self) -> str:
        s = self.peer.session
        return s.variant if s is not None and s.game is not None else self.peer.files.meta.get("variant", "standard")

    @property
    def board_ready(self) -> bool:
        s = self.peer.session
        return self.failure is None and self.game is not None and s is not None and s.view is not None

    def table_lines(self) -> list[str]:
        """Seat by seat: who sits there (you, the host, a computer) or that it is free."""
        if self.seats:
            names = [s.name for s in self.seats]
        elif self.peer.seats:
            names = [s.name for s in self.peer.seats]
        else:
            names = list(self.taken)
        if not self.peer.is_host and not names:
            host = self.host_name or "the host"
            if not self.joined:
                return [f"Asking {host} for a seat at a table of {self.players or '3 or more'}..."]
            return [f"Seated at {host}'s table of {self.players or '3 or more'}: waiting for the other players...",
                    f"Safety code with {host}: {self.host_code} (as on {host}'s join dialog)"]
        me = self.peer.name
        lines = []
        for i in range(max(self.players, len(names))):
            if i < len(names):
                name = names[i]
                notes = []
                if i == 0:
                    notes.append("host")
                if name == me and (self.my_seat is None or self.my_seat == i) and (i == 0) == self.peer.is_host:
                    notes.append("you")
                extra = f" ({', '.join(notes)})" if notes else ""
                lines.append(f"{i + 1}. {name}{extra}")
            else:
                lines.append(f"{i + 1}. (free)")
        return lines

    def free_seats(self) -> int:
        return max(self.players - len(self.taken), 0) if not self.peer.seats else 0

    # -- what the peer tells us
    def _say(self, line: str) -> None:
        found = _ACCEPTED.match(line)
        if found:
            self.taken.append(found.group(1))
            self.players = int(found.group(3))
        found = _LEFT.match(line)  # a joiner gone before the table was full: its seat is free again
        if found:
            for i in range(len(self.taken) - 1, 0, -1):  # never seat 1: that is the host
                if self.taken[i] == found.group(1):
                    del self.taken[i]
                    break
        found = _JOINED.match(line)
        if found:
            self.host_name, self.joined, self.host_code = found.group(1), True, found.group(3)
        found = _SEATED.match(line)
        if found:
            self.players = int(found.group(2))
        super()._say(line)
        if line.startswith(("seated", "joined", "advertised")):
            self._notify(Change())

    def _set_table(self, ev) -> None:
        super()._set_table(ev)
        self.players = len(self.seats)

    def _on_events(self, events: list) -> None:
        before = len(self.log)
        for ev in events:
            if isinstance(ev, ReplaceAsked) and ev.seat < len(self.seats):
                self.notes.append(f"{self.seats[ev.by].label} asks to give {self.seats[ev.seat].label}'s seat to "
                                  f"{ev.name}")
            elif isinstance(ev, SeatReplaced):
                self._seat_replaced(ev)
            elif isinstance(ev, Replaced):
                self.last_error = self.replaced_text(ev)
        super()._on_events(events)
        for entry in self.log[before:]:
            if entry.actor >= 0 and entry.actor != self.my_seat:
                self.last_moves[entry.actor] = entry
        if any(isinstance(ev, Replaced) for ev in events):
            self._notify(Change(error=self.last_error))

    def _seat_replaced(self, ev: SeatReplaced) -> None:
        """The computer holds the seat now: its name (``[computer] Bob``) everywhere, and one line of notice."""
        s = self.peer.session
        old = self.seats[ev.seat].label if ev.seat < len(self.seats) else f"P{ev.seat + 1}"
        self.my_seat = s.my_seat
        self.seats = tuple(Seat(i, name, HUMAN if i == s.my_seat else REMOTE) for i, name in enumerate(s.names))
        self.notice = (f"{old} was gone {claim_time(self.claim_after)}: {self.seats[ev.seat].label} "
                       f"plays that seat from now on (every present player signed it; hidden cards re-dealt)")
        self.notes.append(self.notice)

    def early_end(self) -> str:
        s = self.peer.session
        if s is not None and isinstance(s.result, Replaced):
            return self.replaced_text(s.result)
        return super().early_end()

    def replaced_text(self, ev: Replaced) -> str:
        """We are the one who was gone: our seat is a computer's now; the board stays as we left it."""
        by = self.seats[ev.by].label if 0 <= ev.by < len(self.seats) else f"P{ev.by + 1}"
        return (f"Game over for you: while you were gone, {by} gave your seat (P{ev.seat + 1}) to a computer, "
                f"which plays on; the board shows the game as you left it")

    def ended_text(self, ev: Aborted) -> str:
        """A claim against a gone seat says who was gone and the scores so far; any other end as NetworkGame."""
        if ev.culprit is None or not ev.reason.startswith(CLAIM_REASON) or not 0 <= ev.culprit < len(self.seats):
            return super().ended_text(ev)
        who = self.seats[ev.culprit].label + (" (you)" if ev.culprit == self.my_seat else "")
        found = _CLAIM_TIME.search(ev.reason)
        text = f"Game ended: {who} was gone" + (f" {claim_time(float(found.group(1)))}" if found else "")
        scores = list(ev.scores) if ev.scores is not None else self.peer.scores_so_far()
        if scores:
            text += "; scores so far: " + ", ".join(f"{seat.label} {score}" for seat, score in zip(self.seats, scores))
        return text

    # -- a seat gone for good: the table's policy and the clock
    @property
    def on_gone(self) -> str | None:
        """The table's policy for a seat gone past the claim time (None: a guest before the table is known)."""
        s = self.peer.session
        if s is not None and s.game is not None:
            return s.on_gone
        return self.peer.on_gone if self.peer.is_host else None

    @property
    def claim_after(self) -> float:
        """Seconds a gone player has before the claim: the host's, signed in the table, once it is known."""
        session = self.peer.session
        if session is not None and session.timeout is not None and session.game is not None:
            return session.timeout
        return self.peer.options.claim_after

    def policy_text(self) -> str:
        """'if a player is gone 5 min: a computer takes the seat' ('' until the table is known)."""
        on_gone = self.on_gone
        return "" if on_gone is None else describe_policy(on_gone, self.claim_after)

    def gone_text(self, now: float | None = None) -> str:
        """While the awaited peer's link with us is down: who, for how long, and what happens at the claim time."""
        s = self.peer.session
        if s is None or s.over or self.failure is not None or s.game is None:
            return ""
        seat = s.waiting_for()
        if seat is None or seat == s.my_seat or seat >= len(s.seats):
            return ""
        key = s.seats[seat]
        since = self._gone_since.get(key)
        if since is None or self.peer.linked(key):
            return ""
        now = time.monotonic() if now is None else now
        then = ON_GONE_WORDS[ON_GONE_COMPUTER] if s.may_replace(seat) else ON_GONE_WORDS[ON_GONE_END]
        who = self.seats[seat].label if seat < len(self.seats) else f"P{seat + 1}"
        return f"Waiting for {who} (gone {clock(now - since)}; at {clock(self.claim_after)} {then})"

    def _replace_text(self) -> str:
        s = self.peer.session
        r = s.replacing or {}
        seat = r.get("seat", 0)
        who = self.seats[seat].label if seat < len(self.seats) else f"P{seat + 1}"
        expected = s.waiting_for()
        if expected is None or expected == s.my_seat:
            return f"Giving {who}'s seat to a computer: agreeing..."
        return f"Giving {who}'s seat to a computer: waiting for {self.seats[expected].label} to agree"

    # -- the links: one per other peer
    def peer_links(self) -> list[tuple[str, bool]]:
        """(seat label, linked) for every other seat, in seat order (empty until the roster is known)."""
        out = []
        for i, seat in enumerate(self.peer.seats):
            if seat.key == self.peer.me.public:
                continue
            label = self.seats[i].label if i < len(self.seats) else f"P{i + 1} {seat.name}"
            out.append((label, self.peer.linked(seat.key)))
        return out

    @property
    def linked(self) -> bool:
        """Linked with every other peer."""
        links = self.peer_links()
        return bool(links) and all(up for _, up in links)

    @property
    def link_down(self) -> bool:
        s = self.peer.session
        over = s is None or s.over
        return self._was_linked and not self.linked and not over and self.failure is None

    def _check_link(self) -> bool:
        """Note links that came up or went down (and when); True if what the screen shows changed."""
        changed = False
        state = tuple(up for _, up in self.peer_links())
        if state != self._link_state:
            self._link_state = state
            self._last_linked = self.linked
            self._was_linked = self._was_linked or self._last_linked
            changed = True
        now = time.monotonic()
        me = self.peer.me.public
        for seat in self.peer.seats:
            if seat.key == me or self.peer.linked(seat.key):
                self._gone_since.pop(seat.key, None)
            elif self._was_linked:
                self._gone_since.setdefault(seat.key, now)
        gone = self.gone_text(now)
        if gone != self._gone_shown:   # the clock ticks on the screen once a second
            self._gone_shown = gone
            changed = True
        return changed

    # -- GameController, with no session yet on a host whose table is not full
    @property
    def waiting(self) -> Waiting:
        if self.peer.session is None:
            return Waiting("over") if self.failure is not None else Waiting("table")
        return super().waiting

    def is_over(self) -> bool:
        if self.peer.session is None:
            return self.failure is not None
        return super().is_over()

    def scores(self) -> list[int]:
        return super().scores() if self.peer.session is not None else []

    def winners(self) -> list[int]:
        return super().winners() if self.peer.session is not None else []

    def status(self) -> str:
        s = self.peer.session
        if s is None:
            if self.failure is not None:
                return self.failure
            return f"Waiting for players: {len(self.taken)} of {self.players} seats taken"
        if isinstance(s.result, Replaced):
            return self.replaced_text(s.result)
        if self.failure is None and not s.over:
            gone = self.gone_text()
            if gone:
                return gone
            if s.phase == "replace":
                return self._replace_text()
        return super().status()

    def _waiting_text(self) -> str:
        if self.peer.session.waiting_for() is None:
            return "Waiting for the other players to join..."
        return super()._waiting_text()

    async def _send(self) -> None:
        """Nothing to push by hand: every link's sender reads the chain."""

    def forget_if_unjoined(self) -> None:
        """A host closing a table that never filled: not an unfinished game to resume."""
        if self.peer.is_host and self.peer.session is None:
            self.peer.files.update(over=True, closed="the table never filled")


__all__ = ["MeshGame", "claim_time", "clock", "describe_policy", "is_computer"]
