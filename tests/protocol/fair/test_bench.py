"""The benchmark runs (its figure is reported, never asserted)."""

from bench import fair as bench


def test_the_benchmark_deals_and_reports(capsys):
    assert bench.main(["--runs", "1"]) == 0
    out = capsys.readouterr().out
    assert "both peers" in out and "seat 2 only" in out
    assert bench.deal_pagode_ms(runs=1) > 0
