"""A ``.signed`` mark that is damaged holds as if we had signed past our log; a missing one holds nothing.

The mark (protocol/net/files.py) is 8 bytes. Cut short, grown with garbage,
or saying more places than any game has, it says nothing of how far we
signed: a resumed session then signs nothing at a new place until the others
sent back what they hold of ours and every other seat was linked for the
claim time with nothing more coming, and says so in one line
(``MarkDamaged``, then ``HoldGivenUp`` with no count). No mark at all is a
game from before there was one: nothing is held, as documented. The next
mark written repairs a damaged file.
"""

from __future__ import annotations

import pytest

from lanterne.engines.bots import RandomBot
from lanterne.engines.core import IllegalAction
from lanterne.engines.registry import get_game
from tests.support.logs import write_log
from lanterne.protocol.memory import make_sessions, play
from lanterne.protocol.net.events import event_line
from lanterne.protocol.net.files import MARK_MAX, MARK_SIZE, GameFiles, read_game_files, read_signed
from lanterne.protocol.session import HoldGivenUp, MarkDamaged, Session

GUEST = 1
CLAIM = 30.0
DAMAGED = {
    "truncated": (5).to_bytes(MARK_SIZE, "big")[:3],
    "garbage": b"\x00\x00\x00\x00\x00\x00\x00\x05 garbage",
    "past any game": (MARK_MAX + 1).to_bytes(MARK_SIZE, "big"),
    "empty": b"",
}


@pytest.fixture(scope="module")
def played() -> list[Session]:
    sessions = make_sessions(get_game("pueblo"), 2, "damaged-mark")
    play(sessions, [RandomBot(f"damaged/{i}") for i in range(2)])
    return sessions


def place_of_own_move(session: Session) -> int:
    places = [e.seq for e in session.chain if e.author == session.public and e.kind == "move" and e.seq > 8]
    return places[len(places) // 2]


@pytest.mark.parametrize("damage", sorted(DAMAGED))
def test_a_damaged_mark_reads_as_damaged_and_a_missing_one_as_none(tmp_path, damage):
    meta = tmp_path / "table.json"
    assert read_signed(meta) == 0                   # no mark: a game from before there was one
    meta.with_suffix(".signed").write_bytes((7).to_bytes(MARK_SIZE, "big"))
    assert read_signed(meta) == 7
    meta.with_suffix(".signed").write_bytes(DAMAGED[damage])
    assert read_signed(meta) is None


def test_a_session_resumed_with_a_damaged_mark_holds_until_its_entries_came_back_and_the_claim_time_passed(played):
    guest, host = played[GUEST], played[0]
    place = place_of_own_move(guest)
    again = Session.from_log([e.raw for e in guest.chain[:place]], guest.identity, guest.seed, timeout=CLAIM,
                             signed=None)
    assert again.writer.holding(again.state) and again.legal_actions() == []
    with pytest.raises(IllegalAction, match="our log lost this move"):
        again.act(guest.game.legal_actions(again.view, GUEST)[0])
    said = again.hold(0.0, linked=True)
    assert said == [MarkDamaged()] and "mark is damaged" in event_line(said[0], again)
    again.receive(guest.chain[place], sender=host.public)     # our own lost move, sent back: taken as it was
    assert [e.raw for e in again.chain] == [e.raw for e in guest.chain[:place + 1]]
    assert again.writer.holding(again.state), "how far we signed is unknown: still held"
    assert again.hold(CLAIM - 1, linked=True) == [] and again.hold(CLAIM + 5, linked=False) == []
    assert again.tick(10 * CLAIM) == [] and len(again.chain) == place + 1    # no claim, no abort: it holds
    assert again.hold(CLAIM + 6, linked=True) == []
    events = again.hold(2 * CLAIM + 6, linked=True)
    assert events == [HoldGivenUp(None, CLAIM)] and "none sent back more of our entries" in str(events[0])
    assert not again.writer.holding(again.state)
    for entry in guest.chain[place + 1:]:           # the rest of the game: the same chain, our entries signed alike
        if entry.author != guest.public:
            again.receive(entry, sender=host.public)
        while again.my_turn and len(again.chain) < len(guest.chain):
            again.act(tuple(guest.chain[len(again.chain)].body["action"]))
    assert [e.raw for e in again.chain] == [e.raw for e in guest.chain]


def test_no_mark_holds_nothing_as_a_game_from_before_the_mark(played):
    guest = played[GUEST]
    place = place_of_own_move(guest)
    again = Session.from_log([e.raw for e in guest.chain[:place]], guest.identity, guest.seed, timeout=CLAIM,
                             signed=0)
    assert again.my_turn and not again.writer.holding(again.state)
    assert again.hold(0.0, linked=True) == []


@pytest.mark.parametrize("damage", ["truncated", "garbage", "missing"])
def test_the_files_of_a_game_with_a_damaged_or_missing_mark(tmp_path, played, damage):
    """read_game_files says nothing of a mark it cannot read (the session does); the next mark written makes
    the file 8 bytes again; a missing mark stays what it was until the first entry we sign."""
    guest = played[GUEST]
    files = GameFiles(tmp_path)
    files.table_id = guest.chain[0].hash
    files.update(table=files.table_id.hex(), role="guest", name="Bob")
    (tmp_path / f"{files.table_id.hex()[:16]}.seed").write_bytes(guest.seed)
    place = place_of_own_move(guest)
    write_log(files.log_path, [e.raw for e in guest.chain[:place]])
    mark = files.stem.with_suffix(".signed")
    if damage != "missing":
        mark.write_bytes(DAMAGED[damage])
    lines: list[str] = []
    meta_path = files.stem.with_suffix(".json")
    meta, seed, table, raws = read_game_files(meta_path, lines.append)
    assert lines == [] and len(raws) == place
    assert read_signed(meta_path) == (0 if damage == "missing" else None)
    store = GameFiles(tmp_path).attach(table, meta)
    assert store.signed is not None
    store.signed(place + 1)
    assert mark.read_bytes() == (place + 1).to_bytes(MARK_SIZE, "big")
