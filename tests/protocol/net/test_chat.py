"""Table chat over TCP on 127.0.0.1: players and spectators talk at a running table.

Real Peers, a real Spectator, real Noise links. A message reaches every
seat and the spectator, and the spectator's reaches every seat; the limits
are refused in one line; a malformed, forged, over-long or over-rate chat
from a peer is dropped and nothing else happens (the link stays up, nobody
is named); the chat is kept next to the log and verify never reads it.
"""

import asyncio
import dataclasses
import json

import pytest

from lanterne.protocol.log import read_log
from lanterne.protocol.net.chat import DOMAIN, MAX_CHARS, RATE, ChatBook, ChatError, clean
from lanterne.protocol.net.framing import CHAT_MAX
from lanterne.protocol.verify import verify_file
from lanterne.protocol.wire import pack
from tests.support.chat import EVE, Table, signed
from tests.support.net import FAST, IDS
from tests.support.waiting import until

async def test_a_message_reaches_every_seat_and_the_spectator_and_the_spectators_reaches_every_seat(tmp_path):
    async with Table(tmp_path) as t:
        t.host.chat("hello [bold]table[/bold]\x1b[31m\r\nred?")
        await until(lambda: all(t.chat_of(i) for i in range(3)) and t.heard)
        line = "chat: Ana: hello [bold]table[/bold][31m red?"
        assert t.chat_of(1) == [line] and t.chat_of(2) == [line] and t.chat_of(0) == [line]
        assert str(t.heard[0]) == line and line in t.said, "the spectator hears it (and prints it headless)"
        assert t.heard[0].seat == 0 and "\x1b" not in line and "\r" not in line

        await t.spectator.chat("nice move, Bob")
        spoken = "chat: Eve (watching): nice move, Bob"
        await until(lambda: all(spoken in t.chat_of(i) for i in range(3)))
        assert [str(x) for x in t.heard] == [line, spoken]

        t.guests[1].chat("thanks Eve")           # the last seat: it reaches the spectator through the host
        await until(lambda: len(t.heard) == 3 and all(len(t.chat_of(i)) == 3 for i in range(3)))
        assert str(t.heard[2]) == "chat: Cy: thanks Eve"
        assert all(not t.dropped(i) for i in range(3)), "nothing dropped: the copies of other paths are quiet"

        files = [json.loads(x) for x in t.guests[0].files.chat_path.read_text().splitlines()]
        assert [(f["name"], f["seat"], f["text"]) for f in files] == [
            ("Ana", 0, "hello [bold]table[/bold][31m red?"), ("Eve", None, "nice move, Bob"),
            ("Cy", 2, "thanks Eve")]
        assert files[1]["key"] == EVE.public.hex()


async def test_the_limits_are_refused_in_one_line(tmp_path):
    async with Table(tmp_path, players=2) as t:
        with pytest.raises(ChatError) as long:
            t.host.chat("x" * (MAX_CHARS + 1))
        assert str(long.value) == f"a chat message is at most {MAX_CHARS} characters; this one has {MAX_CHARS + 1}"
        t.host.chat("é" * MAX_CHARS)         # 200 characters of two bytes each: fine
        t.host.chat("e\u0301" * 10)           # combining accents count once (NFC)
        with pytest.raises(ChatError, match="^nothing to say"):
            t.host.chat(" \x07\x1b ")
        for i in range(RATE - 2):
            t.host.chat(f"message {i}")
        with pytest.raises(ChatError) as rate:
            t.host.chat("one too many")
        assert str(rate.value).startswith(f"at most {RATE} messages every 10 s: wait ") and "\n" not in str(rate.value)
        await until(lambda: len(t.chat_of(1)) == RATE)
        assert "one too many" not in " ".join(t.chat_of(1))
        with pytest.raises(ChatError, match=f"at most {MAX_CHARS} characters"):
            await t.spectator.chat("y" * 500)


async def test_a_forged_oversized_or_malformed_chat_from_a_peer_is_dropped_without_harm(tmp_path):
    async with Table(tmp_path, players=2) as t:
        bob = t.guests[0]
        link = bob.links[IDS[0].public]
        table = t.host.table_id
        chain = len(t.host.session.chain)
        bad = [
            b"\xc1not msgpack",
            pack({"t": "chat"}),
            pack([1, 2, 3]),
            signed(IDS[1], table, "x" * (MAX_CHARS + 50), 10),                      # over-long
            signed(IDS[1], table, "bell\x07", 11),                                   # not clean
            signed(IDS[1], bytes(32), "another table", 12),                          # another table
            signed(IDS[1], table, "forged", 13, sig=IDS[1].sign(DOMAIN, b"other bytes")),  # broken signature
        ]
        body = {"t": "chat", "v": 1, "table": table, "key": IDS[2].public, "name": "Cy", "ts": 15, "text": "me?"}
        bad.append(pack({**body, "sig": IDS[1].sign(DOMAIN, pack(body))}))        # Bob puts words in Cy's mouth
        for raw in bad:
            await link.send_chat(raw)
        for i in range(2 * RATE + 3):                                             # over the rate (twice ours)
            await link.send_chat(signed(IDS[1], table, f"spam {i}", 100 + i))
        await until(lambda: len(t.dropped(0)) >= len(bad) + 3)
        reasons = t.dropped(0)
        assert all("\n" not in r and len(r) <= 200 for r in reasons)
        assert any("longer than 200 characters" in r for r in reasons)
        assert any("another table" in r for r in reasons)
        assert sum("not signed by its author" in r for r in reasons) == 2
        assert sum("chat messages in 10 s" in r for r in reasons) == 3
        said = t.chat_of(0)
        assert said == [f"chat: Bob: spam {i}" for i in range(2 * RATE)], "only the sound ones, within the rate"
        assert not link.closed and t.host.linked(IDS[1].public), "chat never costs a link"
        assert len(t.host.session.chain) == chain and not t.host.session.over, "nor the game anything"
        assert all("abort" != e.kind for e in t.host.session.chain)
        await until(lambda: len(t.heard) == 2 * RATE)      # the spectator got the sound ones through the host

        # a record holding a CHAT frame bigger than CHAT_MAX: a framing error, which closes that link (as any
        # bad record does); Bob links again and nothing else changed
        from lanterne.protocol.net.framing import CHAT, SEALED, _HEADER
        record = link.records.sealer._cipher.encrypt_with_ad(None, bytes([CHAT]) + b"x" * (CHAT_MAX + 1))
        link._writer.write(_HEADER.pack(1 + len(record), SEALED) + record)
        await until(lambda: link.closed)
        assert "exceeds 2048" in link.close_reason
        await until(lambda: bob.linked(IDS[0].public) and bob.links[IDS[0].public] is not link)
        assert len(t.host.session.chain) == chain and not t.host.session.over


async def test_the_chat_is_kept_next_to_the_log_and_verify_never_reads_it(tmp_path):
    async with Table(tmp_path, players=2) as t:
        before = verify_file(str(t.host.files.log_path))
        raws_before = read_log(t.host.files.log_path)[0]
        t.host.chat("good luck")
        t.guests[0].chat("you too")
        await until(lambda: len(t.chat_of(0)) == 2 and len(t.chat_of(1)) == 2)
        after = verify_file(str(t.host.files.log_path))
        assert read_log(t.host.files.log_path)[0] == raws_before, "no chat in the chain"
        assert dataclasses.asdict(after) == dataclasses.asdict(before)
        assert before.unfinished and before.bad_entry is None and before.culprit is None
        chat = t.host.files.chat_path
        assert chat.parent == t.host.files.log_path.parent and chat.stem == t.host.files.log_path.stem
        assert [json.loads(x)["text"] for x in chat.read_text().splitlines()] == ["good luck", "you too"]


def test_clean_leaves_no_escape_and_no_line_break():
    assert clean("a\x1b[2Jb\x9b31m\u202ec\u2028d\te\n") == "a[2Jb31mc d e"
    book = ChatBook(IDS[0], "Ana", bytes(32))
    raw, line = book.write("[red]hi[/red]")
    assert line.text == "[red]hi[/red]" and len(raw) < CHAT_MAX


async def test_a_spectators_chat_is_relayed_only_where_the_players_allow_it(tmp_path):
    quiet = dataclasses.replace(FAST, spectator_chat=False)
    async with Table(tmp_path, players=2, options=quiet) as t:
        await t.spectator.chat("can you hear me?")
        await until(lambda: t.dropped(0))
        assert t.dropped(0) == ["this table does not relay spectators' chat"]
        t.host.chat("players only")
        await until(lambda: t.chat_of(1) == ["chat: Ana: players only"] and len(t.heard) == 2)
        assert not any("can you hear me" in line for i in range(2) for line in t.chat_of(i))
        assert [x.text for x in t.heard] == ["can you hear me?", "players only"], "the spectator still hears"


async def test_every_seat_learns_who_watches_through_another_and_a_forged_list_is_dropped(tmp_path):
    """A spectator links to one player; the others learn it from that player's signed notice (and that it left)."""
    from lanterne.protocol.net.events import WatchersHeard

    def heard(i: int) -> list[tuple]:
        return [(e.seat, e.names) for e in t.events[i] if isinstance(e, WatchersHeard)]

    async with Table(tmp_path) as t:          # Eve watches through the host, seat 1
        await until(lambda: all((0, ("Eve",)) in heard(i) for i in (1, 2)))
        assert not heard(0), "the host knows its own spectators; it is not told its own list"
        # a seat cannot speak for another: Cy's key signing a list "from" the host's link is dropped
        book = ChatBook(IDS[2], "Cy", t.host.table_id)
        t.guests[0].table_chat.heard(book.write_watchers(["Mallory"]), t.guests[0].links[IDS[0].public])
        assert not any("Mallory" in names for _, names in heard(1))
        assert any("did not come from its seat's own link" in r for r in t.dropped(1))
        t.watching.cancel()
        await asyncio.gather(t.watching, return_exceptions=True)
        await until(lambda: all(heard(i)[-1] == (0, ()) for i in (1, 2)))
