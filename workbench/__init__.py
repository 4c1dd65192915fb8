"""The specialization workbench of the quicken project, beside the benchmark harness.

What a specializing interpreter made of a program, rather than how fast it ran: statistics of a
Py_STATS build over the suite or any script (specstats, specreport), superinstruction proposals
from them (advisor), and a program's quickened code with its inline caches decoded (explain,
explain_child). It runs its children the way the harness does (benchmarks.measure) and reads the
suite through benchmarks.catalog. Start with `python3 -m workbench` and docs/workbench.md.
"""
