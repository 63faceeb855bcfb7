"""`lanterne bench`: targets, verdicts and the table it writes into docs/benchmarks.md."""

from client.bench import BEGIN, END, BENCHMARKS, Benchmark, Result, markdown_table, update_doc


def bench(better="lower", limit=30.0):
    return Benchmark("x.y", "A figure", "ms", better, limit, lambda: 1.0)


def test_targets_and_verdicts_follow_the_direction():
    assert bench().target == "<= 30" and bench("higher", 200).target == ">= 200"
    assert bench(limit=None).target == "(none set)"
    assert Result(bench(), 29.0, [29.0]).meets is True
    assert Result(bench(), 31.0, [31.0]).meets is False
    assert Result(bench("higher", 200), 199.0, [199.0]).meets is False
    assert Result(bench(limit=None), 5.0, [5.0]).meets is None


def test_the_table_names_each_figure_its_target_and_its_command():
    table = markdown_table([Result(bench(), 31.0, [31.0]), Result(bench(limit=None), None, [], "cannot run here")])
    lines = table.splitlines()
    assert lines[2] == "| A figure | 31 ms | <= 30 ms | **no** | `lanterne bench --only x.y` |"
    assert "cannot run here" in lines[3]


def test_the_doc_table_is_replaced_between_its_markers_only(tmp_path):
    doc = tmp_path / "benchmarks.md"
    doc.write_text(f"# Head\n\n{BEGIN}\nold table\n{END}\n\n## Notes\nkept\n")
    update_doc(doc, [Result(bench(), 12.0, [12.0])])
    text = doc.read_text()
    assert text.startswith("# Head\n\n" + BEGIN) and text.endswith(f"{END}\n\n## Notes\nkept\n")
    assert "old table" not in text and "| A figure | 12 ms | <= 30 ms | yes |" in text


def test_every_figure_has_a_unique_key():
    keys = [b.key for b in BENCHMARKS]
    assert len(keys) == len(set(keys))
