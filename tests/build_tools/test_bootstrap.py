import hashlib
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
BOOTSTRAP = ROOT / "scripts" / "bootstrap"
TARBALL = ROOT / "subprojects" / "packagecache" / "Python-3.11.2.tgz"
UPSTREAM_SHA256 = "2411c74bda5bbcfcddaf4531f66d1adc73f247f529aee981b029513aefdbf849"


def check_tarball(path):
    return subprocess.run(["bash", str(BOOTSTRAP), "--check-tarball", str(path)],
                          capture_output=True, text=True)


def test_wrong_tarball_names_the_problem_and_the_fix(tmp_path):
    fake = tmp_path / "Python-3.11.2.tgz"
    fake.write_bytes(b"not the release")
    result = check_tarball(fake)
    assert result.returncode == 1
    actual = hashlib.sha256(b"not the release").hexdigest()
    assert f"its sha256 is {actual}, expected {UPSTREAM_SHA256}" in result.stderr
    assert "python3.11_3.11.2.orig.tar.gz" in result.stderr  # the fix


def test_missing_tarball(tmp_path):
    result = check_tarball(tmp_path / "nothing.tgz")
    assert result.returncode == 1
    assert "does not exist" in result.stderr


def test_wrap_and_bootstrap_agree_on_the_hash():
    wrap = (ROOT / "subprojects" / "cpython.wrap").read_text()
    assert f"source_hash = {UPSTREAM_SHA256}" in wrap
    assert f"tarball_sha256={UPSTREAM_SHA256}" in BOOTSTRAP.read_text()


@pytest.mark.skipif(not TARBALL.exists(), reason="no seeded tarball (run scripts/bootstrap)")
def test_seeded_tarball_is_upstreams():
    result = check_tarball(TARBALL)
    assert result.returncode == 0, result.stderr


def test_meson_setup_with_a_wrong_tarball_names_the_fix(tmp_path):
    # Only what `meson setup` reads before it needs the upstream tree.
    import shutil
    for name in ("meson.build", "meson_options.txt"):
        shutil.copy(ROOT / name, tmp_path / name)
    (tmp_path / "subprojects" / "packagecache").mkdir(parents=True)
    shutil.copy(ROOT / "subprojects" / "cpython.wrap", tmp_path / "subprojects")
    shutil.copytree(ROOT / "subprojects" / "packagefiles", tmp_path / "subprojects" / "packagefiles")
    (tmp_path / "subprojects" / "packagecache" / "Python-3.11.2.tgz").write_bytes(b"junk")
    result = subprocess.run(["meson", "setup", str(tmp_path / "b"), str(tmp_path)],
                            capture_output=True, text=True)
    assert result.returncode != 0
    assert "Incorrect hash for source" in result.stdout
    assert "sha256 mismatch" in result.stdout
    assert "run scripts/bootstrap --seed-only" in result.stdout
    assert not (tmp_path / "subprojects" / "Python-3.11.2").exists()
