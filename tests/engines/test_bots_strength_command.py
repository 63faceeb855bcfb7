"""`lanterne strength`: resumable results file, docs section rewrite, one-line errors."""

import json
import threading

import pytest

from lanterne.client.cli import main
from lanterne.client.commands.strength import load, results_lock
from lanterne.engines.bots.ismcts import IsmctsBot


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
    assert [(r["index"], r["search_seat"], r["seeds"]) for r in first] == [(0, 0, "measure"), (1, 1, "measure")]
    assert "| pueblo | 2 | random | easy | measure | 2 |" in capsys.readouterr().out
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


@pytest.mark.parametrize("line", ['{"game": "pueblo"}',
                                  '{"game": "pueblo", "against": "greedy", "level": "normal", "index": 0, '
                                  '"score": 1.0, "players": "four"}',
                                  '{"game": "pueblo", "against": "greedy", "level": "normal", "index": 0, '
                                  '"score": 1.0, "players": 1}',
                                  '{"game": "pueblo", "against": "greedy", "level": "normal", "index": 0, '
                                  '"score": "1"}',
                                  '{"game": "pueblo", "against": "greedy", "level": "normal", "index": 0, '
                                  '"score": 2.0}',
                                  '{"game": "pueblo", "against": "greedy", "level": "ceiling", "seeds": "measure", '
                                  '"index": "0", "score": 1.0}',
                                  '{"game": "pueblo", "against": "greedy", "level": "normal", "seeds": 7, '
                                  '"index": 0, "score": 1.0}',
                                  '{"game": "pueblo", "against": "greedy", "level": "normal", "index": 0, '
                                  '"score": 1.0, "move_ms": "slow"}',
                                  '{"game": "pueblo", "against": "greedy", "level": "normal", "index": 0, '
                                  '"score": 1.0, "move_ms": [1.0], "move_clock": "sundial"}',
                                  '[1, 2]'])
def test_a_line_that_is_no_record_is_a_one_line_error(line, tmp_path, capsys):
    out = tmp_path / "s.jsonl"
    out.write_text(line + "\n")
    assert strength("--out", str(out), "--games-of", "pueblo") == 2
    assert capsys.readouterr().err.strip() == f"lanterne: {out}:1: not a strength record"
    doc = tmp_path / "b.md"
    doc.write_text(DOC)
    assert strength("--write-docs", "--out", str(out), "--docs", str(doc)) == 2      # no traceback there either
    assert capsys.readouterr().err.strip() == f"lanterne: {out}:1: not a strength record"
    assert doc.read_text() == DOC


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
    # no seed set: the old seeds
    assert "| pueblo | 2 | greedy | normal | tune | 4 of 200 | 2 / 1 / 1 | 62.5 % (" in body
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
    rows = [line.split(" | ")[:3:2] for line in doc.read_text().splitlines() if line.startswith("| pa")]
    assert rows == [["| pagode", "greedy"], ["| pacal", "greedy"], ["| pandoria", "random"]]


def test_write_docs_needs_the_markers(tmp_path, capsys):
    doc, out = tmp_path / "b.md", tmp_path / "empty.jsonl"
    doc.write_text("# no section\n")
    out.write_text("")
    assert strength("--write-docs", "--out", str(out), "--docs", str(doc)) == 2
    assert "has no <!-- strength:begin --> ... <!-- strength:end --> section" in capsys.readouterr().err


@pytest.mark.parametrize("argv, message", [
    (["--games", "0"], "--games must be at least 1"),
    (["--jobs", "0"], "--jobs must be at least 1"),
    (["--level", "genius"], "no level 'genius' (levels: easy, normal, hard, ceiling or a number of iterations)"),
    (["--against", "greedy,chess"], "no opponent 'chess' (opponents: greedy, random, openspiel, ismcts:LEVEL)"),
    (["--against", "ismcts:genius"], "no opponent 'ismcts:genius' (opponents: greedy, random, openspiel, "
                                     "ismcts:LEVEL)"),
    (["--against", ","], "--against names nothing"),
    (["--games-of", "pueblo,pueblo"], "--games-of names a player or game twice: pueblo,pueblo"),
    (["--games-of", "chess"], "no game 'chess' (games: pagode, pueblo, pacal, pandoria)"),
    (["--players", "1"], "--players must be at least 2"),
    (["--players", "3", "--games-of", "pueblo,pagode"], "Pagode seats 2 to 2 players, not 3"),
    (["--players", "6"], "no game seats 6 players"),
    (["--players", "3", "--against", "openspiel", "--games-of", "pueblo"],
     "--against openspiel plays 2-player games only"),
])
def test_bad_arguments_are_one_line_errors(argv, message, tmp_path, capsys):
    assert strength(*argv, "--out", str(tmp_path / "s.jsonl")) == 2
    err = capsys.readouterr().err
    assert err == f"lanterne: {message}\n"
    assert not (tmp_path / "s.jsonl").exists()


def test_the_openspiel_opponent_without_the_extra_is_a_one_line_error(tmp_path, capsys, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "lanterne.engines.bots.openspiel", None)   # as if open-spiel were not installed
    assert strength("--against", "openspiel", "--games-of", "pueblo", "--out", str(tmp_path / "s.jsonl")) == 2
    err = capsys.readouterr().err
    assert err.startswith("lanterne: --against openspiel needs OpenSpiel, the optional extra 'bench'") and err.count("\n") == 1


def test_the_seed_sets_are_played_and_kept_apart(tmp_path, cheap_levels, capsys):
    out = tmp_path / "s.jsonl"
    args = ["--games", "1", "--games-of", "pueblo", "--against", "random", "--level", "easy", "--out", str(out)]
    assert strength(*args, "--seeds", "tune") == 0
    assert "| pueblo | 2 | random | easy | tune | 1 |" in capsys.readouterr().out
    assert strength(*args) == 0      # measure by default: a game of its own, not the tune game again
    assert "1 games to play (1 already in" in capsys.readouterr().err
    tune, measure = lines(out)
    assert (tune["seeds"], tune["seed"]) == ("tune", "strength/pueblo/random/easy/0")
    assert (measure["seeds"], measure["seed"]) == ("measure", "measure/pueblo/random/0")


def test_hard_against_normal_and_a_level_by_iterations(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(IsmctsBot.LEVELS, "normal", 3)
    monkeypatch.setitem(IsmctsBot.LEVELS, "hard", 6)
    out, doc = tmp_path / "s.jsonl", tmp_path / "b.md"
    assert strength("--games", "2", "--games-of", "pueblo", "--against", "ismcts:normal", "--level", "hard",
                    "--out", str(out)) == 0
    assert "| pueblo | 2 | ismcts:normal | hard | measure | 2 |" in capsys.readouterr().out
    assert strength("--games", "1", "--games-of", "pueblo", "--against", "greedy", "--level", "9",
                    "--out", str(out)) == 0
    assert [(r["against"], r["level"]) for r in lines(out)] == [("ismcts:normal", "hard")] * 2 + [("greedy", "9")]
    doc.write_text(DOC)
    assert strength("--write-docs", "--out", str(out), "--docs", str(doc), "--games", "2") == 0
    text = doc.read_text()
    assert "| pueblo | 2 | greedy | 9 | measure | 1 of 2 |" in text      # no target at a level by iterations
    assert "| > 65 %: " in text.split("| pueblo | 2 | ismcts:normal | hard | measure | 2 |")[1].splitlines()[0]


def test_a_table_of_more_plays_the_games_that_seat_it(tmp_path, cheap_levels, capsys):
    out, doc = tmp_path / "s.jsonl", tmp_path / "b.md"
    assert strength("--games", "1", "--players", "5", "--against", "random", "--level", "easy",
                    "--out", str(out)) == 0
    (only,) = lines(out)       # Pacal's Rocket is the only game for 5
    assert (only["game"], only["players"], only["seed"]) == ("pacal", 5, "measure/pacal/random/5p/0")
    assert "| pacal | 5 | random | easy | measure | 1 |" in capsys.readouterr().out
    doc.write_text(DOC)
    assert strength("--write-docs", "--out", str(out), "--docs", str(doc), "--games", "1") == 0
    assert "| pacal | 5 | random | easy | measure | 1 |" in doc.read_text()


RECORD = {"game": "pueblo", "against": "greedy", "level": "normal", "index": 0, "score": 1.0, "move_ms": [1.0]}


def test_write_docs_from_a_missing_results_file_is_refused_and_the_docs_kept(tmp_path, capsys):
    """A mistyped --out once emptied the docs' table."""
    doc = tmp_path / "b.md"
    doc.write_text(DOC)
    assert strength("--write-docs", "--out", str(tmp_path / "typo.jsonl"), "--docs", str(doc)) == 2
    assert capsys.readouterr().err.strip() == f"lanterne: {tmp_path / 'typo.jsonl'}: no results file to write the docs from"
    assert doc.read_text() == DOC


@pytest.mark.parametrize("where", ["a folder", "a name too long", "not UTF-8"])
def test_a_results_file_that_cannot_be_used_is_a_one_line_error(where, tmp_path, capsys):
    out = {"a folder": tmp_path, "a name too long": tmp_path / ("x" * 300), "not UTF-8": tmp_path / "bin.jsonl"}[where]
    if where == "not UTF-8":
        out.write_bytes(b"\xff\xfe\n")
    doc = tmp_path / "b.md"
    doc.write_text(DOC)
    for args in (["--games", "1", "--games-of", "pueblo"], ["--write-docs", "--docs", str(doc)]):
        assert strength(*args, "--out", str(out)) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"lanterne: {out}: ") and len(err.splitlines()) == 1, err
    assert doc.read_text() == DOC


def test_write_docs_leaves_a_torn_last_line_to_the_run_writing_it(tmp_path):
    out, doc = tmp_path / "s.jsonl", tmp_path / "b.md"
    doc.write_text(DOC)
    out.write_text(json.dumps(RECORD) + "\n" + '{"game": "pue')
    before = out.read_bytes()
    assert strength("--write-docs", "--out", str(out), "--docs", str(doc)) == 0
    assert out.read_bytes() == before and "| pueblo | 2 | greedy | normal | tune | 1 of 200 |" in doc.read_text()


def test_a_reader_waits_while_a_record_is_being_written(tmp_path):
    """What a run holds while it appends a record: a second run (or --write-docs) then reads whole lines only."""
    out = tmp_path / "s.jsonl"
    out.write_text(json.dumps(RECORD) + "\n" + json.dumps({**RECORD, "index": 1})[:20])  # half of the 2nd line
    got = []
    with results_lock(out):
        reader = threading.Thread(target=lambda: got.append(load(out)))
        reader.start()
        reader.join(0.5)
        assert reader.is_alive() and not got      # it waits for the writer
        with out.open("a") as f:
            f.write(json.dumps({**RECORD, "index": 1})[20:] + "\n")
    reader.join(10)
    assert [r["index"] for r in got[0]] == [0, 1]
