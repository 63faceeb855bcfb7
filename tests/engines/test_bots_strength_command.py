"""`lanterne strength`: resumable results file, docs section rewrite, one-line errors."""

import json

import pytest

from client.cli import main
from engines.bots.ismcts import IsmctsBot


@pytest.fixture
def cheap_levels(monkeypatch):
    """The command's real code path, with a level cheap enough for a test."""
    monkeypatch.setitem(IsmctsBot.LEVELS, "easy", 4)


def lines(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def strength(*argv):
    return main(["strength", *argv])


def test_a_run_writes_one_line_per_game_and_a_resumed_run_skips_them(tmp_path, cheap_levels, capsys):
    out = tmp_path / "s.jsonl"
    args = ["--games-of", "pueblo", "--against", "random", "--level", "easy", "--out", str(out)]
    assert strength("--games", "2", *args) == 0
    first = lines(out)
    assert [(r["index"], r["search_seat"]) for r in first] == [(0, 0), (1, 1)]
    assert "| pueblo | random | easy | 2 |" in capsys.readouterr().out
    assert strength("--games", "3", *args) == 0
    err = capsys.readouterr().err
    assert "1 games to play (2 already in" in err
    again = lines(out)
    assert again[:2] == first and [r["index"] for r in again] == [0, 1, 2]


def test_games_played_at_once_are_the_same_games(tmp_path, cheap_levels):
    args = ["--games", "2", "--games-of", "pueblo", "--against", "random", "--level", "easy"]
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    assert strength(*args, "--out", str(one), "--jobs", "1") == 0
    assert strength(*args, "--out", str(two), "--jobs", "2") == 0

    def games(path):
        return [{k: v for k, v in r.items() if k not in ("seconds", "move_ms")} for r in lines(path)]

    assert games(one) == games(two) and len(games(one)) == 2


def test_a_torn_last_line_is_dropped_and_the_game_replayed(tmp_path, cheap_levels, capsys):
    out = tmp_path / "s.jsonl"
    args = ["--games-of", "pueblo", "--against", "random", "--level", "easy", "--out", str(out), "--games", "1"]
    assert strength(*args) == 0
    whole = out.read_text()
    out.write_text(whole[:-20])  # killed in the middle of writing the line
    assert strength(*args) == 0
    assert "dropping an unfinished last line" in capsys.readouterr().err
    (replayed,) = lines(out)
    before = json.loads(whole)
    for timing in ("seconds", "move_ms"):
        del replayed[timing], before[timing]
    assert replayed == before


def test_a_line_that_is_no_record_is_a_one_line_error(tmp_path, capsys):
    out = tmp_path / "s.jsonl"
    out.write_text('{"game": "pueblo"}\n')
    assert strength("--out", str(out), "--games-of", "pueblo") == 2
    assert capsys.readouterr().err.strip() == f"lanterne: {out}:1: not a strength record"


DOC = """# Benchmarks

before, untouched | table
<!-- strength:begin -->
old figures
<!-- strength:end -->

## Notes
after, untouched
"""


def test_write_docs_rewrites_only_its_section(tmp_path, capsys):
    out, doc = tmp_path / "s.jsonl", tmp_path / "b.md"
    doc.write_text(DOC)
    records = [{"game": "pueblo", "against": "greedy", "level": "normal", "index": i, "score": s,
                "move_ms": [120.0, 300.0]} for i, s in enumerate([1.0, 1.0, 0.5, 0.0])]
    out.write_text("".join(json.dumps(r) + "\n" for r in records))
    assert strength("--write-docs", "--out", str(out), "--docs", str(doc), "--games", "200") == 0
    text = doc.read_text()
    head, rest = text.split("<!-- strength:begin -->\n")
    body, tail = rest.split("<!-- strength:end -->")
    assert head == DOC.split("<!-- strength:begin -->\n")[0]
    assert tail == DOC.split("<!-- strength:end -->")[1]
    assert "old figures" not in body
    assert "| pueblo | greedy | normal | 4 of 200 | 2 / 1 / 1 | 62.5 % (" in body
    assert "4 games so far" in body and "half a win" in body
    assert "`lanterne strength --games 200 --games-of pagode,pueblo,pacal,pandoria --against greedy,random" in body
    assert lines(out) == records  # nothing was played


def test_write_docs_puts_the_target_rows_first_in_registry_order(tmp_path):
    out, doc = tmp_path / "s.jsonl", tmp_path / "b.md"
    doc.write_text(DOC)
    records = [{"game": g, "against": a, "level": "normal", "index": 0, "score": 1.0, "move_ms": [1.0]}
               for g, a in [("pandoria", "random"), ("pacal", "greedy"), ("pagode", "greedy")]]
    out.write_text("".join(json.dumps(r) + "\n" for r in records))
    assert strength("--write-docs", "--out", str(out), "--docs", str(doc)) == 0
    rows = [line.split(" | ")[:2] for line in doc.read_text().splitlines() if line.startswith("| pa")]
    assert rows == [["| pagode", "greedy"], ["| pacal", "greedy"], ["| pandoria", "random"]]


def test_write_docs_needs_the_markers(tmp_path, capsys):
    doc = tmp_path / "b.md"
    doc.write_text("# no section\n")
    assert strength("--write-docs", "--out", str(tmp_path / "none.jsonl"), "--docs", str(doc)) == 2
    assert "has no <!-- strength:begin --> ... <!-- strength:end --> section" in capsys.readouterr().err


@pytest.mark.parametrize("argv, message", [
    (["--games", "0"], "--games must be at least 1"),
    (["--jobs", "0"], "--jobs must be at least 1"),
    (["--level", "genius"], "no level 'genius' (levels: easy, normal, hard)"),
    (["--against", "greedy,chess"], "no opponent 'chess' (opponents: greedy, random)"),
    (["--against", ","], "--against names nothing"),
    (["--games-of", "pueblo,pueblo"], "--games-of names a player or game twice: pueblo,pueblo"),
    (["--games-of", "chess"], "no game 'chess' (games: pagode, pueblo, pacal, pandoria)"),
])
def test_bad_arguments_are_one_line_errors(argv, message, tmp_path, capsys):
    assert strength(*argv, "--out", str(tmp_path / "s.jsonl")) == 2
    err = capsys.readouterr().err
    assert err == f"lanterne: {message}\n"
    assert not (tmp_path / "s.jsonl").exists()
