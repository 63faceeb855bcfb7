"""A game's chat file read back on resume: the newest lines, ours marked, a damaged line skipped."""

from __future__ import annotations

import json

from lanterne.protocol.net.chat import ChatLine, read_chat

ME, YOU = bytes(32), bytes([1]) * 32


def test_the_newest_lines_come_back_ours_marked_and_a_damaged_line_is_skipped(tmp_path):
    path = tmp_path / "t.chat"
    lines = [ChatLine(ME if i % 2 else YOU, "Ann" if i % 2 else "Bob", 1000 + i, f"line {i}", i % 2).to_data()
             for i in range(5)]
    text = [json.dumps(d) for d in lines]
    text.insert(2, "{not json")
    text.insert(3, json.dumps({"ts": "soon", "key": ME.hex(), "name": "x", "seat": 0, "text": "bad ts"}))
    text.insert(4, json.dumps({"ts": 1, "key": "00", "name": "x", "seat": 0, "text": "short key"}))
    text.append('{"ts": 9, "key": "' + ME.hex() + '", "name": "Ann", "seat": 1, "text": "cut he')  # a crash mid-line
    path.write_text("\n".join(text) + "\n", encoding="utf-8")
    read = read_chat(path, ME, keep=20)
    assert [line.text for line in read] == [f"line {i}" for i in range(5)]
    assert [line.mine for line in read] == [bool(i % 2) for i in range(5)]
    assert [line.text for line in read_chat(path, ME, keep=4)] == ["line 2", "line 3", "line 4"], "of the last 4 lines"


def test_no_file_is_no_chat_and_a_line_is_cleaned_again(tmp_path):
    assert read_chat(tmp_path / "none.chat", ME) == []
    path = tmp_path / "t.chat"
    path.write_text(json.dumps({"ts": 1, "key": YOU.hex(), "name": "B\u3164ob", "seat": None,
                                "text": "hi\x1b[2J\u2800\u2800"}) + "\n", encoding="utf-8")
    [line] = read_chat(path, ME)
    assert (line.name, line.text, line.seat, line.mine) == ("Bob", "hi[2J", None, False)
