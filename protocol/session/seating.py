"""The first two phases: everyone says hello, the host sets the table, each seat sends its genesis nonce.

* ``hello``: the host (entry 0), then each guest: versions and display
  name. The host's hello lists its guests' keys; only they, in that order,
  may follow, at every table size.
* ``table``: the host names the game, variant, options and the seats (keys
  in hello order), the on-gone policy and its claim time, which is
  everyone's, and whether a seat may take back its moves (``undo``); the
  safety code of all keys is shown.
* ``genesis``: each seat in order sends a fresh nonce; the game id is
  SHA-256("lanterne/game-id/v1" || hash of the last genesis entry).

Logs written before every host listed its guests (two seats, the guest
whoever said hello first, each peer on its own claim time) are still read,
in a replay only (:meth:`Seating.listed_guests`).
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
                    TABLE_KIND, UNDO_MODES, UNDO_OFF, WATCH_ASK, WATCH_KNOWN, Drbg)
from .phases import Phase, Trigger
from .terms import Terms
from .state import SessionState, Steps


class Seating:
    """The hello, table and genesis phases."""

    def __init__(self, s: SessionState, steps: Steps):
        self.s = s
        self.steps = steps

    def join(self) -> list:
        """A guest writes its hello (automatic with ``auto_join`` once the host's is in)."""
        if not self.s.host and self.s.phase == Phase.HELLO and self.s.chain and self.s.public not in self.s.roster.keys():
            self.s.writer.write(self.s, HELLO, {"versions": [VERSION], "name": self.s.name})
            self.after_hello_entry(self.s.chain[-1])
            self.after_hello()
        return self.s.flush()

    def on_hello(self, entry: Entry, blame: int | None) -> None:
        if entry.kind == TABLE_KIND:
            if not self.s.peers or entry.author != self.s.peers[0].key:
                raise ProtocolError(f"entry {entry.seq}: only the host sets the table", blame)
            game = self._check_table(entry.body, blame)
            self.s.append(entry)
            self._set_table(entry.body, game)
            return
        if entry.author in self.s.roster.keys():
            raise ProtocolError(f"entry {entry.seq}: {ids.fingerprint(entry.author)} said hello twice", blame)
        if len(self.s.peers) >= MAX_SEATS:
            raise ProtocolError(f"entry {entry.seq}: the table is full", blame)
        if VERSION not in entry.body["versions"]:
            raise ProtocolError(f"peer {ids.fingerprint(entry.author)} speaks protocol versions "
                                f"{entry.body['versions']}, not {VERSION}", blame)
        if self.s.peers and "guests" in entry.body:
            raise ProtocolError(f"entry {entry.seq}: only the host lists the guests", blame)
        if not self.s.peers and "guests" not in entry.body and self.s.writer.live:
            raise ProtocolError(f"entry {entry.seq}: the host's hello lists no guests", blame)
        listed = self.listed_guests()
        if listed is not None and self.s.peers:
            k = len(self.s.peers) - 1
            if k >= len(listed) or entry.author != listed[k]:
                raise ProtocolError(f"entry {entry.seq}: {ids.fingerprint(entry.author)} is not the guest the "
                                    f"host expects next", blame)
        self.s.append(entry)
        self.after_hello_entry(entry)
        self.maybe_join()
        self.after_hello()

    def listed_guests(self) -> list[bytes] | None:
        """The guests named in the host's hello, in join order.

        None before the hello, or in the replay of a log from before every host listed its guests: there
        the first key that said hello after the host's holds the second (and last) seat.
        """
        if not self.s.chain:
            return None
        return self.s.chain[0].body.get("guests")

    def maybe_join(self) -> None:
        """A guest writes its hello once the host's is in (and, with a guest list, its turn has come)."""
        if self.s.host or not self.s.auto_join or self.s.public in self.s.roster.keys():
            return
        listed = self.listed_guests()
        if listed is None or self.s.public not in listed or listed.index(self.s.public) != len(self.s.peers) - 1:
            return
        if self.s.writer.choose(self.s, HELLO, {"versions": [VERSION], "name": self.s.name}) is not None:
            self.after_hello_entry(self.s.chain[-1])

    def after_hello_entry(self, entry: Entry) -> None:
        index = self.s.roster.join(entry.author, entry.body["name"])
        self.s.events.append(Joined(index, entry.body["name"], entry.author))

    def after_hello(self) -> None:
        """The host sets the table once every seat said hello."""
        game, players, variant, options = self.s.proposal
        if not (self.s.host and game is not None and len(self.s.peers) == players and self.s.phase == Phase.HELLO):
            return
        keys = self.s.roster.keys()
        body: dict[str, Any] = {"game": game.id, "variant": variant, "players": players, "options": options,
                                "seats": keys, "names": [p.name for p in self.s.peers]}
        if self.s.on_gone != ON_GONE_END:     # the default is left out: older tables keep their bytes
            body["on_gone"] = self.s.on_gone
        if self.s.timeout is not None:      # one claim time for all
            body["claim_ms"] = round(self.s.timeout * 1000)
        if self.s.move_clock is not None:
            body["move_ms"] = round(self.s.move_clock * 1000)
        if self.s.spectators:
            body["watch"] = True
        if self.s.terms.watch_by:       # "everyone" is left out: such tables keep their bytes
            body["watch_by"] = self.s.terms.watch_by
        if self.s.terms.undo != UNDO_OFF:       # and so is "off"
            body["undo"] = self.s.terms.undo
        checked = self._check_table(unpack(pack(body)), None)
        if self.s.writer.choose(self.s, TABLE_KIND, body) is not None:
            self._set_table(self.s.chain[-1].body, checked)

    def _check_table(self, body: dict, blame: int | None) -> Game:
        """The table's game, if the table can be played by exactly the peers that said hello."""
        try:
            game = self._resolve(body["game"])
            game.check_options(body["players"], body["variant"])
            game.setup(players=body["players"], variant=body["variant"], **body["options"])
        except (RulesError, TypeError, ValueError, KeyError) as e:
            raise ProtocolError(f"the table cannot be played: {str(e)[:200]}", blame) from None
        if body["seats"] != self.s.roster.keys() or len(body["names"]) != len(body["seats"]) \
                or body["players"] != len(body["seats"]):
            raise ProtocolError("the table's seats are not the peers that said hello, in order", blame)
        if [p.name for p in self.s.peers] != body["names"]:
            raise ProtocolError("the table's names are not the names the peers gave", blame)
        if body.get("watch_by", WATCH_ASK) not in (WATCH_ASK, WATCH_KNOWN) or ("watch_by" in body
                                                                              and not body.get("watch")):
            raise ProtocolError(f"the table's spectators {str(body['watch_by'])[:40]!r} are not {WATCH_ASK} or "
                                f"{WATCH_KNOWN} of a table that lets them watch", blame)
        if body.get("undo", UNDO_OFF) not in UNDO_MODES:
            raise ProtocolError(f"the table's undo {str(body['undo'])[:40]!r} is not one of {', '.join(UNDO_MODES)}",
                                blame)
        if body.get("on_gone", ON_GONE_END) not in ON_GONE:
            raise ProtocolError(f"the table's on-gone policy {str(body['on_gone'])[:40]!r} is not one of "
                                f"{', '.join(ON_GONE)}", blame)
        return game

    def _set_table(self, body: dict, game: Game) -> None:
        self.s.terms = Terms.signed(body, game)
        self.s.roster.seat(body["seats"], body["names"])
        # the host's claim time, signed in the table, is everybody's
        self.s.clocks.sign(body["claim_ms"] / 1000 if "claim_ms" in body else None,
                         body["move_ms"] / 1000 if "move_ms" in body else None)
        self.s.phases.fire(Trigger.TABLE_SET)
        self.s.chain.genesis_start = len(self.s.chain)
        self.s.events.append(TableSet(game.id, self.s.variant, len(self.s.seats), tuple(self.s.names),
                                     self.s.my_seat if self.s.my_seat is not None else -1, ids.safety_code(*self.s.seats)))
        self.step_genesis()

    def _resolve(self, game_id: str) -> Game:
        if self.s.games is not None:
            return self.s.games(game_id)
        game = self.s.proposal[0]
        if game is not None and game.id == game_id:
            return game
        return get_game(game_id)

    def step_genesis(self) -> bool:
        """Our genesis nonce, when it is our turn (a guest that asked for another on-gone policy leaves)."""
        if self.s.phase == Phase.GENESIS and self.steps.expected_seat() == self.s.my_seat and self.s.writer.may_write(self.s):
            assert self.s.my_seat is not None
            if self.s.require_on_gone and self.s.require_on_gone != self.s.on_gone:
                self.steps.abort(f"seat {self.s.my_seat + 1} plays only with on-gone policy {self.s.require_on_gone}, "
                                 f"not {self.s.on_gone}", self.s.my_seat, [], False)
                return False
            too_short = self._too_short()
            if too_short:       # we leave before any move: nobody is at fault
                self.steps.abort(too_short, None, [], False)
                return False
            self.s.writer.write(self.s, GENESIS, {"nonce": self._nonce()})
            self._after_genesis_entry()
        return False

    def _nonce(self) -> bytes:
        """Our genesis nonce: it commits to our seed, revealed at the end."""
        return hashlib.sha256(NONCE_DOMAIN + self.s.seed).digest()

    def _check_genesis(self, entry: Entry) -> None:
        """A hook for a replay that knows every seat's seed (:mod:`protocol.verify`): a live peer cannot check
        another seat's nonce before its seed is revealed."""

    def _too_short(self) -> str:
        """Why we leave this table at once (our minimum claim time is longer than its claim time or move clock),
        or ''. A host that signs a 1 ms claim time cannot claim a seat that thinks for 2 ms."""
        short = None if self.s.host else self.s.clocks.too_short()
        if short is not None:
            what, value = short
            assert self.s.my_seat is not None
            return (f"seat {self.s.my_seat + 1} plays only with a {what} of at least {self.s.min_claim:g} s; this "
                    f"table's is {value:g} s")
        return ""

    def _after_genesis_entry(self) -> None:
        if len(self.s.chain) - self.s.chain.genesis_start == len(self.s.seats):
            self.s.chain.game_id = hashlib.sha256(GAME_ID_DOMAIN + self.s.chain[-1].hash).digest()
            self._start_play()
        else:
            self.step_genesis()

    def on_genesis(self, entry: Entry, blame: int | None) -> None:
        self._check_genesis(entry)
        self.s.append(entry)
        self._after_genesis_entry()

    def _start_play(self) -> None:
        assert self.s.game is not None
        game = self.s.game
        state = game.setup(players=len(self.s.seats), variant=self.s.variant, **self.s.options)
        self.s.view = game.view(state, self.s.my_seat)
        if self.s.my_seat is None:     # a watcher (replay): checks every fair message, authors none
            self.s.fair = self.s.fairmod.FairTable(self.s.game_id, None, len(self.s.seats), None)
        else:
            self.s.fair = self.s.fairmod.FairTable(self.s.game_id, self.s.my_seat, len(self.s.seats), Drbg(self.s.seed, FAIR_DOMAIN))
        self.s.phases.fire(Trigger.NONCES_IN)
        self.s.events.append(GameStarted(self.s.game_id))
