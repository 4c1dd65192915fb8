"""Every suite benchmark, once, at the smallest scale: the self-check must pass, and must
fail when handed a result computed for a different scale."""

import importlib.util

import pytest

from benchmarks import catalog
from benchmarks.measure import RunFailure, parse_report, run_child, runner_command

BENCHMARKS = catalog.discover()


@pytest.mark.parametrize("benchmark", BENCHMARKS, ids=[b.name for b in BENCHMARKS])
def test_benchmark_passes_its_check_under_python311(benchmark, python311):
    try:
        report = parse_report(run_child(runner_command(python311, benchmark.path, 1, 0, 1), timeout=120))
    except RunFailure as failure:
        pytest.fail("%s failed: %s" % (benchmark.name, failure))
    assert report["status"] == "ok"
    assert report["benchmark"] == benchmark.name
    assert len(report["times_ns"]) == 1


def load_module(benchmark):
    spec = importlib.util.spec_from_file_location("suite_" + benchmark.name, benchmark.path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("benchmark", BENCHMARKS, ids=[b.name for b in BENCHMARKS])
def test_check_rejects_a_result_for_another_scale(benchmark):
    module = load_module(benchmark)
    result = module.run(1)
    with pytest.raises(Exception):
        module.check(result, 2)
