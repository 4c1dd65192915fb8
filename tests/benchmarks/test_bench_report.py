"""Markdown reports and charts built from synthetic results."""

from benchmarks import charts, report
from test_bench_results import counts, make_results


def sample_results():
    return make_results(
        ["stock", "new"],
        wall={
            "calls": {"stock": [100_000_000, 110_000_000, 90_000_000],
                      "new": [50_000_000, 55_000_000, 45_000_000]},
            "nbody": {"stock": [200_000_000, 200_000_000, 200_000_000]},
        },
        instructions={"calls": {"stock": counts(800_000_000), "new": counts(400_000_000)},
                      "nbody": {"stock": counts(300_000_000), "new": counts(600_000_000)}},
        failures=[("wall", "nbody", "new", "check-failed", "Traceback...\nAssertionError: energy drifted")],
    )


def test_wall_table_shows_medians_spread_and_speedups():
    text = report.table(sample_results(), "wall")
    lines = text.splitlines()
    assert lines[0] == "| Benchmark | stock | new | new vs stock |"
    assert lines[1] == "|---|---:|---:|---:|"
    # medians 100 ms and 50 ms; relative stdev 10% for both; speedup 2.
    assert lines[2].startswith("| calls | 100 ms ±10.0% | 50.0 ms ±10.0% | 2.000x (")
    assert lines[3] == "| nbody | 200 ms ±0.0% | FAILED (check-failed) | — |"
    assert lines[4] == "| **geometric mean** |  |  | **2.000x** (1 of 2) |"


def test_instruction_table_and_geometric_mean():
    text = report.table(sample_results(), "instructions")
    assert "| calls | 800.0 M | 400.0 M | 2.000x |" in text
    assert "| nbody | 300.0 M | 600.0 M | 0.500x |" in text
    assert text.splitlines()[-1] == "| **geometric mean** |  |  | **1.000x** |"  # sqrt(2 * 0.5)


def test_full_report_lists_interpreters_settings_and_failures():
    results = sample_results()
    results.complete = False
    text = report.render(results)
    assert text.startswith("# Benchmark results\n")
    assert "**Incomplete results**" in text
    assert "- **stock** (baseline): `/bin/stock`" in text
    assert "3 timed runs per interpreter" in text
    assert "## Wall-clock time per call of run(scale)" in text
    assert "## Instructions per call of run(scale) (callgrind)" in text
    assert "- wall / nbody / new: **check-failed** — AssertionError: energy drifted" in text


def test_single_interpreter_table_has_no_ratio_columns():
    results = make_results(["only"], wall={"calls": {"only": [1_000_000, 3_000_000]}})
    lines = report.table(results, "wall").splitlines()
    assert lines[0] == "| Benchmark | only |"
    assert lines[2] == "| calls | 2.00 ms ±70.7% |"
    assert len(lines) == 3


def test_chart_series_and_png(tmp_path):
    results = sample_results()
    series = charts.speedup_series(results, "instructions")
    assert [point[0] for point in series["new"]] == ["calls", "nbody", "geometric mean"]
    assert series["new"][-1][2] == 1.0
    path = tmp_path / "speedup.png"
    assert charts.draw(results, "wall", path)
    assert path.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
