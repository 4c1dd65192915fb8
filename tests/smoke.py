"""Run BY THE BUILT INTERPRETER: it starts as an uninstalled build, finds its standard library,
reports the build's facts, and imports every extension module the build made.

usage: python smoke.py EXT_SUFFIX MODULE... [--disabled NAME...]

The modules the build left out for a missing library (runtime/modules/meson.build's
disabled_modules) fail the test: scripts/bootstrap installs every library they need, so on the
platform this project targets a missing module is a defect, not a choice.

Every check is a call of require(), not an `assert`: the test must fail the same under
`python -O` or PYTHONOPTIMIZE, which remove assert statements.
"""
import importlib
import os
import sys
import sysconfig


class SmokeFailure(Exception):
    pass


def require(condition, message) -> None:
    if not condition:
        raise SmokeFailure(message)


def main(ext_suffix: str, modules: list[str], disabled: list[str]) -> None:
    require(not disabled, f"extension modules not built: {', '.join(disabled)} "
                          "(see the 'extension modules' part of meson's summary for why)")
    require(sys.version_info[:3] == (3, 11, 2), sys.version)
    # An uninstalled build: pybuilddir.txt and Modules/Setup.local next to the executable.
    require(sysconfig.is_python_build(), "sysconfig does not see an uninstalled build")
    build_dir = os.path.dirname(os.path.abspath(sys.executable))
    with open(os.path.join(build_dir, "pybuilddir.txt")) as f:
        pybuilddir = os.path.join(build_dir, f.read().strip())
    require(os.path.realpath(pybuilddir) in map(os.path.realpath, sys.path), sys.path)
    srcdir = sysconfig.get_config_var("srcdir")
    require(os.path.isfile(os.path.join(srcdir, "Lib", "os.py")), f"no Lib/os.py in srcdir {srcdir}")
    require(os.path.dirname(os.__file__).endswith("Lib"), os.__file__)
    # sysconfig's facts match the files the build wrote.
    require(sysconfig.get_config_var("EXT_SUFFIX") == ext_suffix,
            f"EXT_SUFFIX is {sysconfig.get_config_var('EXT_SUFFIX')}, the build wrote {ext_suffix}")
    require(sysconfig.get_config_var("Py_DEBUG") == (1 if hasattr(sys, "gettotalrefcount") else 0),
            "sysconfig's Py_DEBUG disagrees with sys.gettotalrefcount")
    require(sysconfig.get_config_var("SIZEOF_VOID_P") == 8, "SIZEOF_VOID_P is not 8")
    # Every extension module loads from the build folder (not from some other Python).
    require(modules, "no extension modules named")
    for name in modules:
        module = importlib.import_module(name)
        require(module.__file__.startswith(pybuilddir), (name, module.__file__))
        require(module.__file__.endswith(ext_suffix), (name, module.__file__))
    # The frozen startup modules are compiled in (an uninstalled build imports Lib/*.py by
    # default, so ask the frozen table directly) and importlib itself runs deep-frozen.
    import _imp
    _imp._override_frozen_modules_for_tests(1)
    for name in ("os", "site", "codecs", "_frozen_importlib_external", "zipimport", "__hello__"):
        require(_imp.find_frozen(name) is not None, f"{name} is not frozen in")
    _imp._override_frozen_modules_for_tests(0)
    require(sys.modules["_frozen_importlib"].__spec__.origin == "frozen",
            "importlib does not run frozen")
    # The interpreter computes.
    require(sum(i * i for i in range(1000)) == 332833500, "sum of squares below 1000 is wrong")
    print(f"smoke: ok, {len(modules)} extension modules imported")


if __name__ == "__main__":
    args = sys.argv[2:]
    cut = args.index("--disabled") if "--disabled" in args else len(args)
    main(sys.argv[1], args[:cut], args[cut + 1:])
