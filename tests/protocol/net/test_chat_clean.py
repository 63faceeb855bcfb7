"""What a name or a chat line may hold once cleaned: nothing that draws a blank, hides words or moves the cursor."""

from __future__ import annotations

import unicodedata

import pytest

from lanterne.protocol.net.chat import clean
from lanterne.protocol.wire import INVISIBLE, MAX_MARKS, printable


@pytest.mark.parametrize("blank", ["\u3164", "\u2800", "\u115f", "\u1160", "\uffa0", "\u200b", "\u2060", "\ufeff",
                                   "\u00ad", "\u034f", "\ufe0f", "\U000e0041", "\u202e", "\u061c"])
def test_characters_that_render_blank_or_nothing_are_removed(blank):
    padded = "Bea:" + blank * 40 + "I resign"
    assert clean(padded) == "Bea:I resign"
    assert clean(f"a{blank}b") == "ab"


def test_a_pile_of_combining_marks_keeps_two_and_a_mark_on_nothing_goes():
    zalgo = "e" + "\u0301\u0302\u0303\u0304\u0305\u0306" * 10
    assert clean(zalgo) == "\u00e9\u0302\u0303"      # NFC makes e + U+0301 one letter; two marks stay on it
    assert clean("\u0301\u0302hello") == "hello"
    assert clean("a \u0301b") == "a b"
    assert len(clean("x" + "\u0300" * 100)) <= 1 + MAX_MARKS


def test_ordinary_text_in_many_scripts_is_kept():
    for text in ("Ça va, Zoë ?", "Tiếng Việt", "한국어 채팅", "日本語", "Ελληνικά", "हिन्दी", "عربي", "🙂 gg"):
        assert clean(text) == unicodedata.normalize("NFC", text)


def test_control_characters_and_whitespace_runs_as_before():
    assert clean("a\x1b[31mb\tc\n\nd  e") == "a[31mb c d e"
    assert clean("  x  ") == "x"
    assert clean("abcdef", 3) == "abc"


def test_no_invisible_character_is_a_letter_of_a_script_a_player_writes():
    assert all(unicodedata.category(chr(c)) not in ("Lu", "Ll") for c in INVISIBLE)


def test_names_and_reasons_shown_from_other_peers_lose_the_same_characters():
    assert printable("Bea\u3164\u3164\u2800 (host)") == "Bea (host)"
    assert printable("a\x1bb") == "a b", "a control is still a space there"
    assert printable("o" + "\u0308" * 30) == "o\u0308\u0308"
