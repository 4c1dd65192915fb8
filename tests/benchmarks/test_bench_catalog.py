"""Discovering benchmarks, the statically visible contract, and selection by pattern."""

import pytest

from benchmarks import catalog
from conftest import SUITE_INVALID, SUITE_OK


def test_project_suite_is_complete():
    benchmarks = catalog.discover()
    names = [b.name for b in benchmarks]
    assert len(benchmarks) >= 22
    assert names == sorted(names)
    # The whole programs the suite promises.
    for required in ("scheduler", "nbody", "board_game", "minilang", "json_parser", "raytracer"):
        assert required in names
    for benchmark in benchmarks:
        assert benchmark.summary and not benchmark.summary.startswith("Test fixture")
        assert benchmark.wall_scale >= benchmark.instructions_scale >= 1


def test_contract_violations_are_reported():
    with pytest.raises(catalog.CatalogError, match="missing function.*check"):
        catalog.discover(SUITE_INVALID)
    with pytest.raises(catalog.CatalogError, match="does not exist"):
        catalog.discover(SUITE_INVALID / "nowhere")


def test_selection_by_names_and_patterns():
    benchmarks = catalog.discover(SUITE_OK)
    assert [b.name for b in catalog.select(benchmarks, [])] == ["tiny", "tiny_too"]
    assert [b.name for b in catalog.select(benchmarks, ["tiny"])] == ["tiny"]
    assert [b.name for b in catalog.select(benchmarks, ["tiny*"])] == ["tiny", "tiny_too"]
    assert [b.name for b in catalog.select(benchmarks, ["*too", "tiny"])] == ["tiny", "tiny_too"]
    with pytest.raises(catalog.CatalogError, match="no benchmark matches 'tinny'"):
        catalog.select(benchmarks, ["tinny"])


def test_documentation_describes_every_benchmark():
    from conftest import REPOSITORY

    documentation = (REPOSITORY / "docs" / "benchmarks.md").read_text(encoding="utf-8")
    for benchmark in catalog.discover():
        assert "| `%s` |" % benchmark.name in documentation, benchmark.name
