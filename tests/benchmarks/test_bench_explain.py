"""Explain's decoding (workbench/explain.py) on made-up child findings: what a counter means in
each form, how multi-unit fields are read, what names a version or a pointer gets, and why an
instruction stayed adaptive or generic. tests/check_explain.py runs the whole command on a build."""

from workbench import explain


def data(**extra):
    base = {
        "specializations": {"LOAD_ATTR": ["LOAD_ATTR_ADAPTIVE", "LOAD_ATTR_SLOT"],
                            "LOAD_FAST": ["LOAD_FAST__LOAD_FAST"],
                            "RESUME": ["RESUME_QUICK"]},
        "cache_format": {"LOAD_ATTR": {"counter": 1, "version": 2, "index": 1},
                         "LOAD_METHOD": {"counter": 1, "type_version": 2, "keys_version": 2,
                                         "descr": 4}},
        "type_versions": {"70000": "Point"},
        "object_names": {str(0x7F0011223344): "Point.norm"},
        "failure_kinds": {"LOAD_ATTR": ["OTHER", "OUT_OF_RANGE", "PROPERTY"]},
        "site_failures": False,
    }
    base.update(extra)
    return base


def entry(opname, base, caches, **extra):
    return dict({"offset": 4, "line": 2, "opname": opname, "base": base, "arg": 0,
                 "argrepr": "x", "caches": caches}, **extra)


def test_forms_come_from_the_builds_specializations():
    forms = explain.forms(data())
    assert forms["LOAD_ATTR"] == "generic" and forms["LOAD_ATTR_ADAPTIVE"] == "adaptive"
    assert forms["LOAD_ATTR_SLOT"] == "member" and forms["RESUME_QUICK"] == "quick"
    assert forms["LOAD_FAST__LOAD_FAST"] == "superinstruction"
    assert "LOAD_FAST" not in forms  # a family without an adaptive form: plain


def test_a_members_fields_are_read_little_end_first_and_named():
    layout = data()["cache_format"]["LOAD_ATTR"]
    version = 70000
    fields = explain.decode_fields(entry("LOAD_ATTR_SLOT", "LOAD_ATTR",
                                         [53, version & 0xFFFF, version >> 16, 24]),
                                   layout, "member", data())
    assert [(f.name, f.value) for f in fields] == [("counter", 53), ("version", 70000), ("index", 24)]
    assert fields[0].meaning == "53 misses left before it deoptimizes"
    assert fields[1].meaning == "type Point"


def test_a_pointer_is_named_by_the_object_it_is():
    layout = data()["cache_format"]["LOAD_METHOD"]
    pointer = 0x7F0011223344
    units = [53, 1, 0, 9, 0] + [(pointer >> (16 * k)) & 0xFFFF for k in range(4)]
    fields = explain.decode_fields(entry("LOAD_METHOD_X", "LOAD_METHOD", units), layout, "member", data())
    assert fields[-1].value == pointer and fields[-1].meaning == "Point.norm"
    assert fields[2].name == "keys_version" and fields[2].meaning == ""  # not a type version


def test_an_adaptive_counter_is_runs_and_backoff_and_the_rest_is_stale():
    layout = data()["cache_format"]["LOAD_ATTR"]
    fields = explain.decode_fields(entry("LOAD_ATTR_ADAPTIVE", "LOAD_ATTR", [(20 << 4) | 6, 5, 5, 5]),
                                   layout, "adaptive", data())
    assert [(f.name, f.meaning) for f in fields] == [("counter", "next try in 20 runs (backoff 6)")]
    assert explain.decode_fields(entry("LOAD_ATTR", "LOAD_ATTR", [0, 0, 0, 0]), layout,
                                 "generic", data()) == []


def test_why_names_the_recorded_failure_kind():
    failed = entry("LOAD_ATTR_ADAPTIVE", "LOAD_ATTR", [(3 << 4) | 2, 0, 0, 0], failure=["LOAD_ATTR", 2])
    assert explain.why(failed, "adaptive", data(site_failures=True)) == \
        "last specialization attempt failed: PROPERTY"
    unknown = entry("LOAD_ATTR_ADAPTIVE", "LOAD_ATTR", [0, 0, 0, 0], failure=["LOAD_ATTR", 9])
    assert explain.why(unknown, "adaptive", data()).endswith("kind 9")
    fresh = entry("LOAD_ATTR_ADAPTIVE", "LOAD_ATTR", [0, 0, 0, 0])
    assert explain.why(fresh, "adaptive", data()) == "not specialized yet: tries when next run"
    backed = entry("LOAD_ATTR_ADAPTIVE", "LOAD_ATTR", [(7 << 4) | 3, 0, 0, 0])
    assert "backoff 3" in explain.why(backed, "adaptive", data())
    assert "-Dstats=true" in explain.why(backed, "adaptive", data())


def test_instructions_inside_a_superinstruction_are_marked():
    record = {"quickened": True, "instructions": [
        entry("LOAD_FAST__LOAD_FAST", "LOAD_FAST", [], offset=2),
        entry("LOAD_FAST", "LOAD_FAST", [], offset=4),
        entry("LOAD_ATTR_SLOT", "LOAD_ATTR", [53, 1, 0, 0], offset=6),
    ]}
    rows = explain.rows(record, data())
    assert [r.fused_into for r in rows] == [None, 2, None]
    assert rows[2].form == "member" and rows[2].fields[0].value == 53


DEBIAN = "/usr/bin/python3.11"  # the child is standard library only: any 3.11 runs it


def test_the_program_runs_as_python_file_would_in_the_users_environment(tmp_path, monkeypatch):
    # Its own modules beside it and on PYTHONPATH import; its output is kept.
    (tmp_path / "prog").mkdir()
    (tmp_path / "lib").mkdir()
    (tmp_path / "prog" / "helper.py").write_text("def twice(x):\n    return 2 * x\n")
    (tmp_path / "lib" / "elsewhere.py").write_text("VALUE = 21\n")
    program = tmp_path / "prog" / "main.py"
    program.write_text("import helper, elsewhere\n\ndef f():\n    return helper.twice("
                       "elsewhere.VALUE)\n\nfor _ in range(20):\n    f()\nprint(f())\n")
    monkeypatch.setenv("PYTHONPATH", str(tmp_path / "lib"))
    data = explain.run(DEBIAN, program)
    assert data["program_output"] == "42\n"
    assert [c["qualname"] for c in data["codes"]] == ["f"]


def test_a_failing_program_shows_its_own_traceback(tmp_path):
    program = tmp_path / "fails.py"
    program.write_text("import sys\nsys.stderr.write('noise ' * 1000)\n\n"
                       "def f():\n    raise ValueError('the real reason')\n\nf()\n")
    try:
        explain.run(DEBIAN, program)
    except explain.ExplainError as exc:
        message = str(exc)
    else:
        raise AssertionError("explain.run accepted a failing program")
    assert "the program raised:\nTraceback (most recent call last):" in message
    assert message.rstrip().endswith("ValueError: the real reason")
    assert "noise" not in message  # whatever else went to stderr (a stats dump) is not shown
