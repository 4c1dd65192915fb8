"""Run BY THE BUILT INTERPRETER: it starts as an uninstalled build, finds its standard library,
reports the build's facts, and imports every extension module the build made.

usage: python smoke.py EXT_SUFFIX MODULE... [--disabled NAME...]

The modules the build left out for a missing library (runtime/modules/meson.build's
disabled_modules) fail the test: scripts/bootstrap installs every library they need, so on the
platform this project targets a missing module is a defect, not a choice.
"""
import importlib
import os
import sys
import sysconfig


def main(ext_suffix: str, modules: list[str], disabled: list[str]) -> None:
    assert not disabled, (f"extension modules not built: {', '.join(disabled)} "
                          "(see the 'extension modules' part of meson's summary for why)")
    assert sys.version_info[:3] == (3, 11, 2), sys.version
    # An uninstalled build: pybuilddir.txt and Modules/Setup.local next to the executable.
    assert sysconfig.is_python_build(), "sysconfig does not see an uninstalled build"
    build_dir = os.path.dirname(os.path.abspath(sys.executable))
    with open(os.path.join(build_dir, "pybuilddir.txt")) as f:
        pybuilddir = os.path.join(build_dir, f.read().strip())
    assert os.path.realpath(pybuilddir) in map(os.path.realpath, sys.path), sys.path
    assert os.path.isfile(os.path.join(sysconfig.get_config_var("srcdir"), "Lib", "os.py"))
    assert os.path.dirname(os.__file__).endswith("Lib"), os.__file__
    # sysconfig's facts match the files the build wrote.
    assert sysconfig.get_config_var("EXT_SUFFIX") == ext_suffix, sysconfig.get_config_var("EXT_SUFFIX")
    assert sysconfig.get_config_var("Py_DEBUG") == (1 if hasattr(sys, "gettotalrefcount") else 0)
    assert sysconfig.get_config_var("SIZEOF_VOID_P") == 8
    # Every extension module loads from the build folder (not from some other Python).
    assert modules, "no extension modules named"
    for name in modules:
        module = importlib.import_module(name)
        assert module.__file__.startswith(pybuilddir), (name, module.__file__)
        assert module.__file__.endswith(ext_suffix), (name, module.__file__)
    # The frozen startup modules are compiled in (an uninstalled build imports Lib/*.py by
    # default, so ask the frozen table directly) and importlib itself runs deep-frozen.
    import _imp
    _imp._override_frozen_modules_for_tests(1)
    for name in ("os", "site", "codecs", "_frozen_importlib_external", "zipimport", "__hello__"):
        assert _imp.find_frozen(name) is not None, f"{name} is not frozen in"
    _imp._override_frozen_modules_for_tests(0)
    assert sys.modules["_frozen_importlib"].__spec__.origin == "frozen"
    # The interpreter computes.
    assert sum(i * i for i in range(1000)) == 332833500
    print(f"smoke: ok, {len(modules)} extension modules imported")


if __name__ == "__main__":
    args = sys.argv[2:]
    cut = args.index("--disabled") if "--disabled" in args else len(args)
    main(sys.argv[1], args[:cut], args[cut + 1:])
