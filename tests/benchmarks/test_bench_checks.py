"""The explain and stats-report checks (tests/check_explain.py, tests/check_stats_report.py) can
fail: each is fed a good input, which passes, and a deliberately corrupted one, which must fail
the check that names the broken feature. Explain's input is its real output on Debian's
python3.11; the statistics are made up from the checks' own known counts."""

import importlib.util
import json
import re

import pytest
from conftest import REPOSITORY

from workbench import specreport, specstats


def load(name):
    spec = importlib.util.spec_from_file_location(name, REPOSITORY / "tests" / (name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


check_explain = load("check_explain")
check_stats = load("check_stats_report")


def failed(results):
    return [message for ok, message in results if not ok]


# ---------------------------------------------------------------- explain

@pytest.fixture(scope="module")
def explained(tmp_path_factory):
    python = "/usr/bin/python3.11"
    page = tmp_path_factory.mktemp("explain") / "explain.html"
    completed = check_explain.explain(python, "--html", str(page))
    if completed.returncode != 0:
        pytest.skip("explain on %s failed: %s" % (python, completed.stderr[-500:]))
    return completed.stdout, page.read_text(encoding="utf-8")


MUTATIONS = {
    # what explain prints for the instructions run inside a superinstruction, gone; the legend
    # still has " in " ("in one dispatch")
    "superinstruction marks stripped": (lambda text: re.sub(r"  in \d+$", "", text, flags=re.M),
                                        ["Point.__init__'s LOAD_FAST__LOAD_FAST at 2",
                                         "every superinstruction marks"]),
    "a mark on the wrong offset": (lambda text: re.sub(r"(LOAD_FAST +0 \(self\) +)in 2$", r"\1in 16",
                                                       text, count=1, flags=re.M),
                                   ["Point.__init__'s LOAD_FAST__LOAD_FAST at 2",
                                    "every superinstruction marks"]),
    "type versions unnamed": (lambda text: text.replace(" (type __main__.Point)", ""),
                              ["their cached type version"]),
    "members labelled adaptive": (lambda text: re.sub(r"(_INSTANCE_VALUE .*)member$", r"\1adaptive",
                                                      text, flags=re.M),
                                  ["norm1's loads of x and y", "each of norm1's 3 members",
                                   "Point.__init__ stores"]),
    "no legend": (lambda text: text.split(check_explain.LEGEND)[0],
                  ["the legend has LOAD_ATTR_INSTANCE_VALUE's", "the legend lists exactly"]),
}


def test_explain_check_passes_on_real_output(explained):
    text, page = explained
    assert failed(check_explain.check_report(text, page, stats=False)) == []


@pytest.mark.parametrize("mutation", sorted(MUTATIONS))
def test_explain_check_fails_on_corrupted_output(explained, mutation):
    text, page = explained
    corrupt, expected = MUTATIONS[mutation]
    changed = corrupt(text)
    assert changed != text
    messages = failed(check_explain.check_report(changed, page, stats=False))
    assert sorted(m for m in messages if not any(m.startswith(e) for e in expected)) == []
    assert all(any(m.startswith(e) for m in messages) for e in expected), messages


# ---------------------------------------------------------------- stats report

def made_up(scale, script=False):
    """The statistics a stats build would save for known_counts at SCALE, per the check."""
    names = ["<0>"] + sorted(set(check_stats.FAMILIES).union(*check_stats.FAMILIES.values()))
    number = {name: n for n, name in enumerate(names)}
    kinds = {"COMPARE_OP": ["OTHER", "OUT_OF_RANGE", "NOT_FOLLOWED_BY_COND_JUMP"]}
    opcodes = {}
    for family, want in check_stats.expected(scale).items():
        entry = {counter: want[counter] for counter in specstats.FAMILY_COUNTERS}
        entry["execution_count"] = want["generic"]
        entry["failure_kinds"] = {kinds[family].index(k): n for k, n in want["failure_kinds"].items()}
        opcodes[number[family]] = entry
        opcodes[number[family + "_ADAPTIVE"]] = {"execution_count": want["adaptive"]}
        for member, (executions, misses) in want["members"].items():
            opcodes[number[member]] = {"execution_count": executions, "miss": misses}
    workloads = {"known_counts": {"opcodes": opcodes, "other": {}}}
    if script:
        workloads["known_counts.py"] = {"opcodes": opcodes, "other": {}}
    tables = {"opnames": names, "failure_kinds": kinds, "cache_tag": "quicken-311-0", "version": "3.11.2",
              "families": {family: sorted(forms) for family, forms in check_stats.FAMILIES.items()}}
    return {"format": specstats.FORMAT, "python": "build-stats/python", "command": ["python3"],
            "created": "now", "tables": tables, "workloads": workloads, "failures": {}}


def saved_and_loaded(tmp_path, data, change=None):
    """DATA through a stats.json file, with CHANGE applied to the parsed JSON first."""
    path = tmp_path / "stats.json"
    specstats.save(path, data)
    if change:
        raw = json.loads(path.read_text(encoding="utf-8"))
        change(raw, {name: str(n) for n, name in enumerate(data["tables"]["opnames"])})
        path.write_text(json.dumps(raw), encoding="utf-8")
    return specstats.load(path)


def stats_failures(data):
    return (failed(check_stats.check_families(data))
            + failed(check_stats.check_counts(data, "known_counts", 1))
            + failed(check_stats.check_report(specreport.render(data))))


def test_stats_checks_pass_on_the_known_counts(tmp_path):
    data = saved_and_loaded(tmp_path, made_up(1))
    assert stats_failures(data) == []
    after = made_up(2, script=True)
    assert failed(check_stats.check_comparison(specreport.render_comparison(data, after, "1", "2"))) == []


def test_stats_checks_fail_on_one_count_changed(tmp_path):
    def one_more_deopt(raw, number):
        raw["workloads"]["known_counts"]["opcodes"][number["BINARY_OP"]]["deopt"] = 2

    messages = stats_failures(saved_and_loaded(tmp_path, made_up(1), one_more_deopt))
    assert [m.split(" (expected")[0].split(" {")[0] for m in messages] == [
        "known_counts: BINARY_OP counts",
        "## Families has the line | `BINARY_OP` | 255 | 63.5% | 2 | 100.0% | 31 | 109 | 53 | 32.7% | 1 | 0.9% |"]


def test_stats_checks_fail_on_a_member_missing_from_the_build(tmp_path):
    data = made_up(1)
    data["tables"]["families"]["FOR_ITER"].remove("FOR_ITER_RANGE")
    assert failed(check_stats.check_families(data)) == [
        "the families and their forms are the stated ones (missing {'FOR_ITER': ['FOR_ITER_RANGE']}, "
        "not stated {})"]
