"""A fork: the hostile seat signs two different entries for one place and shows each to a different honest seat.

Every peer forwards what it accepted to every other (the echo), so the
forwarded copy meets the other version at an honest peer before anything
is built on it: the author's two signatures at one sequence number name it,
at both honest seats, whichever seat the hostile one holds; the honest logs
keep both signed entries (one in the chain, one as the abort's evidence) and
``verify`` names the same seat.
"""

from __future__ import annotations

import pytest

from lanterne.engines.bots import make_bot
from lanterne.engines.core import as_action
from lanterne.protocol.log import open_entry
from lanterne.protocol.session import Aborted
from tests.protocol.helpers import forge

from .harness import Table, assert_no_honest_seat_named, lanterne_verify

AFTER = 20


class Plotter:
    """A random bot that also keeps, for each move it chose, another legal move and its digest (the lie)."""

    def __init__(self, seed: int):
        self.bot = make_bot("random", seed)
        self.other: dict[bytes, dict] = {}
        """The digest after the chosen move -> {action, digest} of another legal move from the same position."""

    def choose(self, game, view, seat):
        action = self.bot.choose(game, view, seat)
        others = [a for a in game.legal_actions(view, seat) if a != action]
        if others:
            chosen, _ = game.apply(view, action)
            after, _ = game.apply(view, others[0])
            self.other[game.digest(chosen)] = {"action": list(others[0]), "digest": game.digest(after)}
        return action


def fork_to(victim: int, kind: str):
    """The victim gets another version of the hostile seat's first own move after AFTER entries."""
    def lie(peer, key, entry):
        if (peer.told or key != peer.seats[victim].key or entry.author != peer.me.public or entry.kind != "move"
                or entry.seq < AFTER):
            return None
        if kind == "legal":
            other = peer.player.other.get(entry.body["digest"])
            if other is None or as_action(other["action"]) == as_action(entry.body["action"]):
                return None
            body = {**entry.body, **other}
        else:
            body = {**entry.body, "digest": b"\x07" * 32}
        return forge(entry, peer.me, body=body)
    return lie


@pytest.mark.parametrize("hostile, victim, kind", [(0, 1, "legal"), (1, 2, "legal"), (2, 0, "legal"),
                                                   (2, 0, "wrong-digest")],
                         ids=["host-forks", "middle-forks", "last-forks", "last-forks-a-wrong-digest"])
async def test_a_fork_shown_to_different_peers_names_its_author_at_every_honest_seat(tmp_path, hostile, victim,
                                                                                     kind):
    table = Table(tmp_path, 3, hostile)
    cheat = table.cheat
    cheat.player = Plotter(hostile + 31)
    cheat.lie = fork_to(victim, kind)
    await table.play()
    assert cheat.told, "the hostile seat never forked"
    shown = open_entry(cheat.told[0][1])
    truth = cheat.session.chain[shown.seq]
    assert truth.author == shown.author == table.key(hostile) and truth.raw != shown.raw
    assert truth.prev == shown.prev and truth.game == shown.game, "two entries for one place"
    for i in table.honest:
        session, seen = table.peers[i].session, table.seen[i]
        result = session.result
        assert isinstance(result, Aborted) and result.culprit == hostile, (i, result, seen.lines[-10:])
        words = "signed two different entries for sequence number" if kind == "legal" else "digest"
        assert words in result.reason or f"seat {hostile + 1} signed two different entries" in result.reason, \
            result.reason
        assert [e.culprit for e in seen.ended()] == [hostile], "the honest user sees the game end naming it"
        abort = session.chain[-1]
        assert abort.kind == "abort" and abort.body["culprit"] == hostile
        if kind == "legal":
            logged = session.chain[shown.seq]
            evidence = open_entry(abort.body["evidence"][0])
            assert {logged.raw, evidence.raw} == {shown.raw, truth.raw}, "both signed versions are in the log"
    reports = assert_no_honest_seat_named(table)
    for report in reports.values():
        assert report.ok and report.result == "aborted" and report.culprit == hostile + 1, report
    if hostile == 1:    # once per file: the command line on the honest logs
        code, out = lanterne_verify(*(table.peers[i].files.log_path for i in table.honest))
        assert code == 0 and out.count(f"game aborted (seat {hostile + 1} at fault)") == 2, out
