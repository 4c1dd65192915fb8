import os

import pytest

from make_source_view import main, make_view


def make_tree(root):
    """A small stand-in for upstream's tree: Lib/ with modules, a package, a __pycache__."""
    (root / "Lib" / "json").mkdir(parents=True)
    (root / "Lib" / "__pycache__").mkdir()
    (root / "Lib" / "os.py").write_text("# os\n")
    (root / "Lib" / "opcode.py").write_text("# upstream opcode\n")
    (root / "Lib" / "json" / "__init__.py").write_text("# json\n")
    (root / "Tools").mkdir()
    (root / "README.rst").write_text("readme\n")
    return root


def test_the_view_mirrors_the_tree_with_the_given_files_replaced(tmp_path):
    upstream = make_tree(tmp_path / "upstream")
    generated = tmp_path / "opcode.py"
    generated.write_text("# generated opcode\n")
    view = tmp_path / "view"
    make_view(str(upstream), str(view), [str(generated)])

    assert sorted(os.listdir(view)) == ["Lib", "README.rst", "Tools"]
    assert not (view / "Lib").is_symlink()
    assert sorted(os.listdir(view / "Lib")) == ["json", "opcode.py", "os.py"]  # no __pycache__
    assert os.readlink(view / "Tools") == str(upstream / "Tools")
    assert os.readlink(view / "Lib" / "json") == str(upstream / "Lib" / "json")
    assert os.readlink(view / "Lib" / "opcode.py") == str(generated)
    assert (view / "Lib" / "opcode.py").read_text() == "# generated opcode\n"
    assert (view / "Lib" / "os.py").read_text() == "# os\n"
    # A later change of the generated file is seen through the view without remaking it.
    generated.write_text("# regenerated\n")
    assert (view / "Lib" / "opcode.py").read_text() == "# regenerated\n"


def test_remaking_replaces_the_old_view_and_what_grew_in_it(tmp_path):
    upstream = make_tree(tmp_path / "upstream")
    generated = tmp_path / "opcode.py"
    generated.write_text("# generated\n")
    view = tmp_path / "view"
    make_view(str(upstream), str(view), [str(generated)])
    (view / "Lib" / "__pycache__").mkdir()
    (upstream / "Lib" / "new.py").write_text("# new\n")
    make_view(str(upstream), str(view), [str(generated)])
    assert sorted(os.listdir(view / "Lib")) == ["json", "new.py", "opcode.py", "os.py"]
    assert sorted(os.listdir(tmp_path)) == ["opcode.py", "upstream", "view"]  # no .tmp/.old


@pytest.mark.parametrize("case, message", [
    ("missing file", "no such file"),
    ("replaces nothing", "replaces nothing: upstream's Lib has no"),
    ("not a tree", "is not a CPython tree"),
])
def test_bad_input_is_refused_and_the_previous_view_kept(tmp_path, case, message):
    upstream = make_tree(tmp_path / "upstream")
    generated = tmp_path / "opcode.py"
    generated.write_text("# generated\n")
    view = tmp_path / "view"
    make_view(str(upstream), str(view), [str(generated)])
    before = sorted(os.listdir(view / "Lib"))
    lib_file = str(generated)
    if case == "missing file":
        lib_file = str(tmp_path / "absent" / "opcode.py")
    elif case == "replaces nothing":
        lib_file = str(tmp_path / "other.py")
        (tmp_path / "other.py").write_text("")
    else:
        (upstream / "Lib" / "os.py").unlink()
    with pytest.raises(SystemExit) as raised:
        make_view(str(upstream), str(view), [lib_file])
    assert message in str(raised.value)
    assert sorted(os.listdir(view / "Lib")) == before


def test_usage(capsys):
    assert main(["only-one"]) == 2
    assert "usage: make_source_view.py UPSTREAM_ROOT VIEW_DIR LIB_FILE" in capsys.readouterr().err


def test_an_up_to_date_view_is_left_alone(tmp_path):
    upstream = make_tree(tmp_path / "upstream")
    generated = tmp_path / "opcode.py"
    generated.write_text("# generated\n")
    view = tmp_path / "view"
    make_view(str(upstream), str(view), [str(generated)])
    (view / "Lib" / "__pycache__").mkdir()
    (view / "Lib" / "__pycache__" / "os.cpython-311.pyc").write_bytes(b"")
    inode = (view / "Lib").stat().st_ino
    make_view(str(upstream), str(view), [str(generated)])
    assert (view / "Lib").stat().st_ino == inode
    assert (view / "Lib" / "__pycache__" / "os.cpython-311.pyc").exists()


def test_a_view_with_a_stray_file_is_remade(tmp_path):
    upstream = make_tree(tmp_path / "upstream")
    generated = tmp_path / "opcode.py"
    generated.write_text("# generated\n")
    view = tmp_path / "view"
    make_view(str(upstream), str(view), [str(generated)])
    (view / "Lib" / "stray.py").write_text("")
    make_view(str(upstream), str(view), [str(generated)])
    assert sorted(os.listdir(view / "Lib")) == ["json", "opcode.py", "os.py"]


def test_a_run_stopped_between_the_two_renames_is_completed(tmp_path):
    upstream = make_tree(tmp_path / "upstream")
    generated = tmp_path / "opcode.py"
    generated.write_text("# generated\n")
    view = tmp_path / "view"
    make_view(str(upstream), str(view), [str(generated)])
    (view / "Lib" / "__pycache__").mkdir()
    os.rename(view, tmp_path / "view.old")  # the first rename done, the second not
    make_view(str(upstream), str(view), [str(generated)])
    assert (view / "Lib" / "__pycache__").is_dir()  # the previous view, kept
    assert sorted(os.listdir(tmp_path)) == ["opcode.py", "upstream", "view"]


def test_a_stray_file_where_the_temporary_folder_goes_is_replaced(tmp_path):
    upstream = make_tree(tmp_path / "upstream")
    generated = tmp_path / "opcode.py"
    generated.write_text("# generated\n")
    (tmp_path / "view.tmp").write_text("left over")
    make_view(str(upstream), str(tmp_path / "view"), [str(generated)])
    assert sorted(os.listdir(tmp_path)) == ["opcode.py", "upstream", "view"]


def test_the_stamp_is_touched_only_when_the_view_changes(tmp_path):
    upstream = make_tree(tmp_path / "upstream")
    generated = tmp_path / "opcode.py"
    generated.write_text("# generated\n")
    view, stamp = tmp_path / "view", tmp_path / "view.stamp"
    arguments = [str(upstream), str(view), str(generated), "--stamp", str(stamp)]
    assert main(arguments) == 0
    assert stamp.exists() and (view / "Lib" / "opcode.py").exists()
    os.utime(stamp, (1000, 1000))
    assert main(arguments) == 0  # up to date: what depends on the stamp need not rerun
    assert stamp.stat().st_mtime == 1000
    (view / "Lib" / "os.py").unlink()
    assert main(arguments) == 0  # remade
    assert (view / "Lib" / "os.py").exists() and stamp.stat().st_mtime != 1000
    assert main([str(upstream), str(view), "--stamp", str(stamp)]) == 2
