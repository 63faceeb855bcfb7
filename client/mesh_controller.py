"""A table of 3 or more peers behind the ordinary game screens: :class:`MeshGame` adapts a :class:`MeshPeer`.

It is :class:`~client.net_controller.NetworkGame` (same status texts, same
failure lines, same move log) on a full mesh instead of one link: the link
state is per peer (:meth:`MeshGame.peer_links`), the last move of *every*
other seat is kept (:attr:`MeshGame.last_moves`), and until the table is
full the lobby reads who sits where from :meth:`MeshGame.table_lines`.

Computer seats are peers of their own that the host runs
(:meth:`MeshPeer.add_computer`); their names start with ``[computer] `` so
every app shows what they are. Everything here uses the mesh peer's public
API and its ``say`` lines: the seats taken before the table is full come
from the host's ``accepted NAME (k/N seats)`` lines.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Callable, Sequence

from client.controller import Change, LogEntry, Waiting
from client.net_controller import NetworkGame
from engines.core import Action, Game, IllegalAction
from protocol.identity import Identity
from protocol.net.mesh import COMPUTER_MARK, MeshPeer
from protocol.net.peer import PeerOptions

_ACCEPTED = re.compile(r"^accepted (.*) \((\d+)/(\d+) seats\)$")
_JOINED = re.compile(r"^joined (.*) \(([^()]*)\); safety code ([^;]*);")
_SEATED = re.compile(r"^seated (\d+) of (\d+): ")


def is_computer(name: str) -> bool:
    """A seat a host's computer plays (every peer sees the mark in its name)."""
    return name.startswith(COMPUTER_MARK)


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
        self._link_state: tuple[bool, ...] = ()

    # -- making one
    @classmethod
    def open_table(cls, me: Identity, name: str, game: Game, folder: Path | str, *,  # type: ignore[override]
                   variant: str = "standard", players: int = 3, computers: int = 0, bot: str = "greedy",
                   interfaces: Sequence[str], port: int = 0, discover: bool = True, accept: Callable | None = None,
                   options: PeerOptions = PeerOptions()) -> "MeshGame":
        """Host a table of ``players`` seats, ``computers`` of them played by ``bot`` players this app runs."""
        from engines.bots import make_bot
        from engines.core import RulesError

        game.check_options(players, variant)
        if not 0 <= computers < players:
            raise RulesError(f"a table of {players} takes 0 to {players - 1} computer players, not {computers}")
        make_bot(bot)  # an unknown kind fails here, in one line
        peer = MeshPeer.host(me, name, game, players, folder, variant=variant, options=options, say=lambda _: None)
        salt = os.urandom(4).hex()
        for n in range(computers):
            peer.add_computer(make_bot(bot, f"{salt}-computer-{n + 1}"))
        return cls(peer, lambda: peer.run_host(list(interfaces), port, discover=discover, accept=accept), game,
                   players=players)

    @classmethod
    def join(cls, me: Identity, name: str, folder: Path | str, address: tuple[str, int], *,  # type: ignore[override]
             interfaces: Sequence[str], players: int = 0, expect_fingerprint: str | None = None, game: str = "",
             variant: str = "standard", discover: bool = True, games: Callable[[str], Game] | None = None,
             options: PeerOptions = PeerOptions()) -> "MeshGame":
        """Ask the host at ``address`` for a seat; listen on ``interfaces`` for the peers seated after us."""
        peer = MeshPeer.guest(me, name, folder, options=options, say=lambda _: None)
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
        if peer.is_host:
            salt = os.urandom(4).hex()
            peer.resume_computers(lambda n: make_bot(bot, f"{salt}-computer-{n}"))
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
        super()._on_events(events)
        for entry in self.log[before:]:
            if entry.actor >= 0 and entry.actor != self.my_seat:
                self.last_moves[entry.actor] = entry

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
        state = tuple(up for _, up in self.peer_links())
        if state == self._link_state:
            return False
        self._link_state = state
        self._last_linked = self.linked
        self._was_linked = self._was_linked or self._last_linked
        return True

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
        if self.peer.session is None:
            if self.failure is not None:
                return self.failure
            return f"Waiting for players: {len(self.taken)} of {self.players} seats taken"
        return super().status()

    def _waiting_text(self) -> str:
        if self.peer.session.waiting_for() is None:
            return "Waiting for the other players to join..."
        return super()._waiting_text()

    def submit(self, seat: int, action: Action) -> LogEntry:
        if self.is_over():
            raise IllegalAction("the game is over")
        if seat != self.my_seat:
            raise IllegalAction(f"{self.seats[seat].label} is not played from this keyboard")
        if not self.peer.session.my_turn:
            raise IllegalAction(f"it is not your turn ({self._waiting_text()})")
        count = len(self.log)
        # MeshPeer.act is async only by signature: the move is logged and every link's sender woken now.
        self.peer._report(self.peer.session.act(action))
        mine = [e for e in self.log[count:] if e.actor == seat]
        return mine[0] if mine else self.log[-1]

    async def _send(self) -> None:
        """Nothing to push by hand: every link's sender reads the chain."""

    def forget_if_unjoined(self) -> None:
        """A host closing a table that never filled: not an unfinished game to resume."""
        if self.peer.is_host and self.peer.session is None:
            self.peer.files.update(over=True, closed="the table never filled")


__all__ = ["MeshGame", "is_computer"]
