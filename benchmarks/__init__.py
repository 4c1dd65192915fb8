"""Benchmark harness of the quicken project.

Measures the suite in `benchmarks/suite/` on several Python 3.11 interpreters, by wall-clock
time and by callgrind instruction counts, and writes JSON, Markdown and PNG reports.
Start with `python3 -m benchmarks --help` and docs/benchmarks.md.

Data flow: catalog (which benchmarks) -> interpreters (which Pythons) -> session/measure
(child processes running runner.py) -> results (raw data, JSON) -> report / charts.
"""
