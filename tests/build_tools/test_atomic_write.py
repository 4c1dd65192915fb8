import pytest

from atomic_write import write_text_atomically


def test_writes_the_text(tmp_path):
    target = tmp_path / "out.c"
    write_text_atomically(str(target), "int x;\n")
    assert target.read_text() == "int x;\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.c"]


def test_a_failed_write_keeps_the_old_file_and_leaves_no_temporary(tmp_path):
    target = tmp_path / "out.c"
    target.write_text("old\n")
    with pytest.raises(TypeError):
        write_text_atomically(str(target), b"not text")  # f.write() fails midway
    assert target.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.c"]
