"""The first two phases: everyone says hello, the host sets the table, each seat sends its genesis nonce.

* ``hello``: the host (entry 0), then each guest: versions and display
  name. A host that knows its guests from the lobby lists them in its hello
  (then only they, in that order, may follow).
* ``table``: the host names the game, variant, options and the seats (keys
  in hello order), the on-gone policy and, with a guest list, the claim
  time for everyone; the safety code of all keys is shown.
* ``genesis``: each seat in order sends a fresh nonce; the game id is
  SHA-256("lanterne/game-id/v1" || hash of the last genesis entry).
"""

from __future__ import annotations

import hashlib
from typing import Any

from lanterne.engines.core import Game, RulesError
from lanterne.engines.registry import get_game
from lanterne.protocol import identity as ids
from lanterne.protocol.log import VERSION, Entry
from lanterne.protocol.wire import ProtocolError, pack, unpack

from .events import GameStarted, Joined, TableSet
from .kinds import (FAIR_DOMAIN, GAME_ID_DOMAIN, GENESIS, HELLO, MAX_SEATS, NONCE_DOMAIN, ON_GONE, ON_GONE_END,
                    TABLE_KIND, Drbg)
from .phases import Phase, Trigger
from .terms import Terms
from .state import SessionState


class Seating(SessionState):
    """The hello, table and genesis phases of :class:`~protocol.session.Session`."""

    def join(self) -> list:
        """A guest writes its hello (automatic with ``auto_join`` once the host's is in)."""
        if not self.host and self.phase == Phase.HELLO and self.chain and self.public not in self.roster.keys():
            self.writer.write(self, HELLO, {"versions": [VERSION], "name": self.name})
            self._after_hello_entry(self.chain[-1])
            self._after_hello()
        return self._flush()

    def _on_hello(self, entry: Entry, blame: int | None) -> None:
        if entry.kind == TABLE_KIND:
            if not self.peers or entry.author != self.peers[0].key:
                raise ProtocolError(f"entry {entry.seq}: only the host sets the table", blame)
            game = self._check_table(entry.body, blame)
            self._append(entry)
            self._set_table(entry.body, game)
            return
        if entry.author in self.roster.keys():
            raise ProtocolError(f"entry {entry.seq}: {ids.fingerprint(entry.author)} said hello twice", blame)
        if len(self.peers) >= MAX_SEATS:
            raise ProtocolError(f"entry {entry.seq}: the table is full", blame)
        if VERSION not in entry.body["versions"]:
            raise ProtocolError(f"peer {ids.fingerprint(entry.author)} speaks protocol versions "
                                f"{entry.body['versions']}, not {VERSION}", blame)
        if self.peers and "guests" in entry.body:
            raise ProtocolError(f"entry {entry.seq}: only the host lists the guests", blame)
        listed = self._listed_guests()
        if listed is not None and self.peers:
            k = len(self.peers) - 1
            if k >= len(listed) or entry.author != listed[k]:
                raise ProtocolError(f"entry {entry.seq}: {ids.fingerprint(entry.author)} is not the guest the "
                                    f"host expects next", blame)
        self._append(entry)
        self._after_hello_entry(entry)
        self._maybe_join()
        self._after_hello()

    def _listed_guests(self) -> list[bytes] | None:
        """The guests named in the host's hello, in join order (None: first come, first seated)."""
        if not self.chain:
            return None
        return self.chain[0].body.get("guests")

    def _maybe_join(self) -> None:
        """A guest writes its hello once the host's is in (and, with a guest list, its turn has come)."""
        if self.host or not self.auto_join or self.public in self.roster.keys():
            return
        listed = self._listed_guests()
        if listed is not None and (self.public not in listed or listed.index(self.public) != len(self.peers) - 1):
            return
        if self.writer.choose(self, HELLO, {"versions": [VERSION], "name": self.name}) is not None:
            self._after_hello_entry(self.chain[-1])

    def _after_hello_entry(self, entry: Entry) -> None:
        index = self.roster.join(entry.author, entry.body["name"])
        self._events.append(Joined(index, entry.body["name"], entry.author))

    def _after_hello(self) -> None:
        """The host sets the table once every seat said hello."""
        game, players, variant, options = self._proposal
        if self.guests:
            players = len(self.guests) + 1
        if not (self.host and game is not None and len(self.peers) == players and self.phase == Phase.HELLO):
            return
        keys = self.roster.keys()
        body: dict[str, Any] = {"game": game.id, "variant": variant, "players": players, "options": options,
                                "seats": keys, "names": [p.name for p in self.peers]}
        if self.on_gone != ON_GONE_END:     # the default is left out: older tables keep their bytes
            body["on_gone"] = self.on_gone
        if self.guests and self.timeout is not None:  # a table seated from a lobby: one claim time for all
            body["claim_ms"] = round(self.timeout * 1000)
        if self.move_clock is not None:
            body["move_ms"] = round(self.move_clock * 1000)
        if self.spectators:
            body["watch"] = True
        checked = self._check_table(unpack(pack(body)), None)
        if self.writer.choose(self, TABLE_KIND, body) is not None:
            self._set_table(self.chain[-1].body, checked)

    def _check_table(self, body: dict, blame: int | None) -> Game:
        """The table's game, if the table can be played by exactly the peers that said hello."""
        try:
            game = self._resolve(body["game"])
            game.check_options(body["players"], body["variant"])
            game.setup(players=body["players"], variant=body["variant"], **body["options"])
        except (RulesError, TypeError, ValueError, KeyError) as e:
            raise ProtocolError(f"the table cannot be played: {str(e)[:200]}", blame) from None
        if body["seats"] != self.roster.keys() or len(body["names"]) != len(body["seats"]) \
                or body["players"] != len(body["seats"]):
            raise ProtocolError("the table's seats are not the peers that said hello, in order", blame)
        if [p.name for p in self.peers] != body["names"]:
            raise ProtocolError("the table's names are not the names the peers gave", blame)
        if body.get("on_gone", ON_GONE_END) not in ON_GONE:
            raise ProtocolError(f"the table's on-gone policy {str(body['on_gone'])[:40]!r} is not one of "
                                f"{', '.join(ON_GONE)}", blame)
        return game

    def _set_table(self, body: dict, game: Game) -> None:
        self.terms = Terms.signed(body, game)
        self.roster.seat(body["seats"], body["names"])
        # the host's claim time, signed in the table, is everybody's
        self.clocks.sign(body["claim_ms"] / 1000 if "claim_ms" in body else None,
                         body["move_ms"] / 1000 if "move_ms" in body else None)
        self._phases.fire(Trigger.TABLE_SET)
        self._genesis_start = len(self.chain)
        self._events.append(TableSet(game.id, self.variant, len(self.seats), tuple(self.names),
                                     self.my_seat if self.my_seat is not None else -1, ids.safety_code(*self.seats)))
        self._step_genesis()

    def _resolve(self, game_id: str) -> Game:
        if self.games is not None:
            return self.games(game_id)
        game = self._proposal[0]
        if game is not None and game.id == game_id:
            return game
        return get_game(game_id)

    def _step_genesis(self) -> bool:
        """Our genesis nonce, when it is our turn (a guest that asked for another on-gone policy leaves)."""
        if self.phase == Phase.GENESIS and self._expected_seat() == self.my_seat and self.writer.may_write(self):
            assert self.my_seat is not None
            if self.require_on_gone and self.require_on_gone != self.on_gone:
                self._abort(f"seat {self.my_seat + 1} plays only with on-gone policy {self.require_on_gone}, "
                            f"not {self.on_gone}", self.my_seat, [])
                return False
            too_short = self._too_short()
            if too_short:       # we leave before any move: nobody is at fault
                self._abort(too_short, None, [])
                return False
            self.writer.write(self, GENESIS, {"nonce": self._nonce()})
            self._after_genesis_entry()
        return False

    def _nonce(self) -> bytes:
        """Our genesis nonce: it commits to our seed, revealed at the end."""
        return hashlib.sha256(NONCE_DOMAIN + self.seed).digest()

    def _check_genesis(self, entry: Entry) -> None:
        """A hook for a replay that knows every seat's seed (:mod:`protocol.verify`): a live peer cannot check
        another seat's nonce before its seed is revealed."""

    def _too_short(self) -> str:
        """Why we leave this table at once (our minimum claim time is longer than its claim time or move clock),
        or ''. A host that signs a 1 ms claim time cannot claim a seat that thinks for 2 ms."""
        short = None if self.host else self.clocks.too_short()
        if short is not None:
            what, value = short
            assert self.my_seat is not None
            return (f"seat {self.my_seat + 1} plays only with a {what} of at least {self.min_claim:g} s; this "
                    f"table's is {value:g} s")
        return ""

    def _after_genesis_entry(self) -> None:
        if len(self.chain) - self._genesis_start == len(self.seats):
            self.chain.game_id = hashlib.sha256(GAME_ID_DOMAIN + self.chain[-1].hash).digest()
            self._start_play()
        else:
            self._step_genesis()

    def _on_genesis(self, entry: Entry, blame: int | None) -> None:
        self._check_genesis(entry)
        self._append(entry)
        self._after_genesis_entry()

    def _start_play(self) -> None:
        assert self.game is not None
        game = self.game
        state = game.setup(players=len(self.seats), variant=self.variant, **self.options)
        self.view = game.view(state, self.my_seat)
        if self.my_seat is None:     # a watcher (replay): checks every fair message, authors none
            self.fair = self._fairmod.FairTable(self.game_id, None, len(self.seats), None)
        else:
            self.fair = self._fairmod.FairTable(self.game_id, self.my_seat, len(self.seats), Drbg(self.seed, FAIR_DOMAIN))
        self._phases.fire(Trigger.NONCES_IN)
        self._events.append(GameStarted(self.game_id))
