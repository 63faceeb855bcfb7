"""`lanterne bench`: targets, verdicts, rows that cannot run here, and the table it writes into docs/benchmarks.md."""

import json
import math

import pytest

from bench import rows as bench_rows
from bench.machine import Machine, reference_ms, this_machine
from bench.rows import BEGIN, BENCHMARKS, END, Benchmark, BenchUnavailable, Result, markdown_table, measure_row, update_doc
from lanterne.client.local_play import HARD_MOVE_SECONDS
from lanterne.engines.core import OpenTable, RulesError
from tests.support.commands import REPO, lanterne



def bench(better="lower", limit=30.0, measure=lambda: 1.0, key="x.y", repeat=3):
    return Benchmark(key, "A figure", "ms", better, limit, measure, repeat)


def test_targets_and_verdicts_follow_the_direction():
    assert bench().target == "<= 30" and bench("higher", 200).target == ">= 200"
    assert Result(bench(), 29.0, [29.0]).meets is True
    assert Result(bench(), 30.0, [30.0]).meets is True  # the target itself is met
    assert Result(bench(), 31.0, [31.0]).meets is False
    assert Result(bench("higher", 200), 199.0, [199.0]).meets is False
    assert Result(bench("higher", 200), 201.0, [201.0]).meets is True
    assert Result(bench(), None, [], "cannot run here").meets is None


def test_every_figure_has_a_target_and_a_unique_key():
    keys = [b.key for b in BENCHMARKS]
    assert len(keys) == len(set(keys))
    for b in BENCHMARKS:
        assert isinstance(b.limit, (int, float)) and b.limit > 0, b.key
        assert b.better in ("higher", "lower") and b.repeat >= 1, b.key


def test_every_figure_the_issue_names_is_a_row():
    keys = {b.key for b in BENCHMARKS}
    for key in ("pagode.games", "pueblo.games4", "pueblo.placements", "pacal.games5", "pandoria.games2",
                "pandoria.games4", "fair.deal55", "session.move", "session.verify", "tui.start",
                "search.move.pagode", "search.move.pueblo", "search.move.pacal", "search.move.pandoria",
                "search.move.pandoria4",
                "table.deal4", "table.move5", "netns.listed_joiner", "netns.listed_host", "netns.join_command",
                "netns.move_rtt"):
        assert key in keys


def test_the_search_move_rows_promise_one_second_at_the_default_level():
    rows = [b for b in BENCHMARKS if b.key.startswith("search.move.")]
    assert len(rows) == 5
    assert all(b.better == "lower" and b.unit == "s" and "CPU" in b.what for b in rows)
    assert [b.limit for b in rows] == [1.0] * 4 + [0.9]     # 4-player Pandoria: within the app's 0.9 s cap


def test_the_hard_level_rows_check_the_time_the_app_gives_hard_in_every_game():
    rows = [b for b in BENCHMARKS if b.key.startswith("search.hard.")]
    assert sorted(b.key for b in rows) == [f"search.hard.{g}" for g in ("pacal", "pagode", "pandoria", "pueblo")]
    assert all(b.limit == HARD_MOVE_SECONDS == 3.0 and b.better == "lower" and "`hard`" in b.what for b in rows)


def test_the_median_of_the_repetitions_is_reported():
    values = iter([3.0, 1.0, 2.0])
    r = measure_row(bench(measure=lambda: next(values)))
    assert r.samples == [3.0, 1.0, 2.0] and r.median == 2.0 and not r.note and not r.failed


def test_an_unavailable_figure_is_a_note_and_the_run_goes_on(monkeypatch):
    def no_root():
        raise BenchUnavailable("needs root to create network namespaces")

    rows = [bench(measure=no_root, key="a.b"), bench(measure=lambda: 4.0, key="c.d"),
            bench(measure=lambda: (_ for _ in ()).throw(RulesError("pacal: not here")), key="e.f")]
    monkeypatch.setattr(bench_rows, "BENCHMARKS", rows)
    results = bench_rows.run()
    assert [r.median for r in results] == [None, 4.0, None]
    assert results[0].note == "needs root to create network namespaces" and not results[0].failed
    assert results[2].note == "pacal: not here" and not results[2].failed
    table = markdown_table(results).splitlines()
    assert table[2] == ("| A figure | — | <= 30 ms | needs root to create network namespaces | — | "
                        "`lanterne bench --only a.b` |")
    assert json.loads(json.dumps([r.to_json() for r in results]))[0]["meets_target"] is None


def test_a_broken_measurement_is_a_one_line_failure_not_a_crash():
    def broken():
        raise ZeroDivisionError("division by zero\nsecond line")

    r = measure_row(bench(measure=broken))
    assert r.failed and r.median is None and r.note == "failed: ZeroDivisionError: division by zero"


def test_the_namespace_rows_share_one_run_and_one_refusal_per_bench_run(monkeypatch):
    runs = []

    def refused():
        runs.append(1)
        raise BenchUnavailable("the 'ip' command (iproute2) is missing")

    monkeypatch.setattr(bench_rows, "_run_netns_bench", refused)
    results = bench_rows.run(["netns."])
    assert [r.bench.key for r in results] == ["netns.listed_joiner", "netns.listed_host", "netns.join_command",
                                              "netns.move_rtt"]
    assert len(runs) == 1
    assert all(r.note == "the 'ip' command (iproute2) is missing" and not r.failed for r in results)
    bench_rows.run(["netns.move_rtt"])
    assert len(runs) == 2  # a new run asks again: root or `ip` may have come meanwhile


def test_a_namespace_run_that_breaks_is_a_failure_of_its_rows_not_of_the_run(monkeypatch):
    def broken():
        raise AssertionError("no line matching '^found' within 30 s (exit 1): boom")

    monkeypatch.setattr(bench_rows, "_run_netns_bench", broken)
    results = bench_rows.run(["netns.", "pagode.games"])
    assert [r.failed for r in results] == [False, True, True, True, True]
    assert results[0].median > 0 and results[1].note.startswith("failed: AssertionError: no line matching")


def test_the_command_says_json_and_exits_1_when_a_measurement_broke(monkeypatch, capsys):
    from argparse import Namespace

    from lanterne.client.commands import bench as command

    def broken():
        raise KeyError("oops")

    monkeypatch.setattr(bench_rows, "BENCHMARKS", [bench(measure=broken, key="a.b"), bench(key="c.d")])
    code = command.run(Namespace(json=True, only=None, list=False, write_docs=False))
    out, err = capsys.readouterr()
    rows = json.loads(out)
    assert code == 1 and [r["failed"] for r in rows] == [True, False] and "a.b" in err


def test_the_namespace_rows_read_their_figure_from_the_one_run(monkeypatch):
    figures = {"listed_after_joiner_start_s_median": 0.11, "listed_after_host_start_s_median": 1.2,
               "join_command_lists_host_s_median": 0.32, "move_rtt_median_ms": 0.95}
    monkeypatch.setattr(bench_rows, "_netns_run", {"figures": figures})
    got = {b.key: measure_row(b).median for b in BENCHMARKS if b.key.startswith("netns.")}
    assert got == {"netns.listed_joiner": 0.11, "netns.listed_host": 1.2, "netns.join_command": 0.32,
                   "netns.move_rtt": 0.95}


def test_the_table_names_each_figure_its_target_and_its_command():
    table = markdown_table([Result(bench(), 31.0, [31.0]), Result(bench(), None, [], "cannot run here")])
    lines = table.splitlines()
    assert lines[2] == "| A figure | 31 ms | <= 30 ms | **no** | **0.97x** | `lanterne bench --only x.y` |"
    assert "cannot run here" in lines[3]


def test_the_doc_table_is_replaced_between_its_markers_only(tmp_path):
    doc = tmp_path / "benchmarks.md"
    doc.write_text(f"# Head\n\n{BEGIN}\nold table\n{END}\n\n## Notes\nkept\n")
    update_doc(doc, [Result(bench(), 12.0, [12.0])], Machine("A CPU @ 1.0GHz", 2, 250.0, 0.25, 1.5, 310.0))
    text = doc.read_text()
    assert "on A CPU @ 1.0GHz, 2 cores, load 0.2 - 1.5; reference loop 250 - 310 ms of CPU" in text
    assert text.startswith("# Head\n\n" + BEGIN) and text.endswith(f"{END}\n\n## Notes\nkept\n")
    assert "old table" not in text and "| A figure | 12 ms | <= 30 ms | yes | 2.50x |" in text


def test_a_run_says_its_machine_and_its_reference_is_cpu_time_of_a_fixed_loop():
    machine = this_machine().finished()
    assert machine.cores >= 1 and machine.processor and machine.reference_ms > 0
    assert machine.reference_after_ms is not None and machine.reference_after_ms > 0   # taken again at the end
    assert machine.describe().count(";") == 1 and "\n" not in machine.describe()
    assert reference_ms(runs=1) > 0


def test_the_docs_have_a_row_for_every_figure_and_no_hand_written_namespace_table():
    text = (REPO / "docs" / "benchmarks.md").read_text()
    table = text[text.index(BEGIN):text.index(END)]
    for b in BENCHMARKS:
        assert f"`lanterne bench --only {b.key}`" in table, b.key
    assert "(none set)" not in text


# -- the command (real process)

def test_list_prints_every_key_with_its_target_and_measures_nothing():
    r = lanterne("bench", "--list")
    assert r.returncode == 0 and r.stderr == ""
    lines = r.stdout.splitlines()
    assert [line.split()[0] for line in lines] == [b.key for b in BENCHMARKS]
    assert any(line.split()[1:4] == ["<=", "1", "s"] for line in lines if line.startswith("search.move.pagode"))


def test_json_is_valid_json_on_stdout_and_progress_goes_to_stderr():
    r = lanterne("bench", "--json", "--only", "pagode.games")
    assert r.returncode == 0
    [row] = json.loads(r.stdout)
    assert row["key"] == "pagode.games" and row["median"] > 0 and row["target"] == ">= 200"
    assert row["meets_target"] in (True, False) and len(row["samples"]) == 3
    assert "measuring pagode.games" in r.stderr


@pytest.mark.parametrize("args, says", [
    (["bench", "--only", "chess"], "no benchmark 'chess'"),
    (["bench", "--list", "--write-docs"], "--list measures nothing"),
])
def test_wrong_arguments_are_one_line(args, says):
    r = lanterne(*args)
    assert r.returncode == 2 and says in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr


# -- the measurements themselves, on small inputs

def test_the_search_move_figure_is_a_positive_cpu_time_at_the_default_level():
    from bench.search import median_search_move_s

    seconds = median_search_move_s("pueblo", decisions=2)
    assert seconds > 0 and math.isfinite(seconds)  # a figure; what it should be is docs/benchmarks.md's


def test_the_mesh_figures_are_positive_on_a_few_moves():
    from bench.tables import deal4_s, move5_ms

    figures = move5_ms(moves=10), deal4_s()
    assert all(f > 0 and math.isfinite(f) for f in figures), figures


@pytest.mark.parametrize("key, game_id, players", [
    ("pagode.games", "pagode", 2), ("pueblo.games4", "pueblo", 4), ("pacal.games5", "pacal", 5),
    ("pandoria.games2", "pandoria", 2), ("pandoria.games4", "pandoria", 4)])
def test_each_random_games_target_lets_a_search_move_fit_in_one_second(key, game_id, players):
    """docs/benchmarks.md, Targets: 600 rollouts of 2 turns a seat in 1 s need 1200 P / R random games a second."""
    from bench.search import games_per_second_needed
    from lanterne.engines.registry import search_hints

    [row] = [b for b in BENCHMARKS if b.key == key]
    applies_per_step = search_hints(game_id).tuning.get("rollout_sample", 1)  # Pagode rollouts try 3 actions a step
    needed = games_per_second_needed(game_id, players) * applies_per_step
    assert row.better == "higher" and needed <= row.limit < 1.5 * needed


def test_a_random_games_row_plays_new_games_each_repetition_the_same_on_every_run(monkeypatch):
    """Repetition r plays the seeds bench/{r * games} to bench/{(r + 1) * games - 1}: no game is replayed (a memo
    kept from one repetition to the next cannot flatter the figure), and two runs play the same games."""
    seeds = []
    monkeypatch.setattr(bench_rows, "OpenTable", lambda seed: seeds.append(seed) or OpenTable(seed))
    [row] = [b for b in BENCHMARKS if b.key == "pueblo.games4"]
    assert row.per_repetition and row.repeat == 3
    measure_row(row)
    first = list(seeds)
    assert first == [f"bench/{g}" for g in range(300)]   # 3 repetitions of 100 games
    seeds.clear()
    measure_row(row)
    assert seeds == first
    assert all(b.per_repetition for b in BENCHMARKS if b.key.split(".")[1].startswith("games"))


def test_the_command_loads_the_checkouts_bench_folder_by_its_path_and_none_elsewhere(tmp_path):
    """The rows the tests import are the ones ``lanterne bench`` runs; a folder with no ``bench/`` (an install)
    gives none, and the command says so in one line (tests/test_install.py runs it installed)."""
    from lanterne.client.commands.bench import CHECKOUT, load_rows

    assert CHECKOUT == REPO and load_rows(REPO) is bench_rows
    assert load_rows(tmp_path) is None
