"""Make the upstream tree as the `generated` interpreter sees it before it is installed.

    make_source_view.py UPSTREAM_ROOT VIEW_DIR LIB_FILE [LIB_FILE ...] [--stamp FILE]

LIB_FILE is a file that replaces upstream's Lib/<its name>, or RELPATH=FILE: a file the build
makes (it need not exist yet) that replaces Lib/RELPATH, which may be in a package
(importlib/_bootstrap_external.py).

An uninstalled interpreter takes its standard library from VPATH/Lib (getpath.py, once it finds
pybuilddir.txt beside the executable). Upstream's tree holds upstream's Lib/opcode.py; the
`generated` interpreter needs the generated one (runtime/generated/Lib/opcode.py), or `dis`
would describe upstream's instruction set instead of instructions/'s. The source tree is shared
with the `stock` build and stays pristine, so this makes a view of it in the build folder:

    VIEW_DIR/<entry>       a symbolic link to UPSTREAM_ROOT/<entry>, for every entry but Lib
    VIEW_DIR/Lib/<entry>   a symbolic link to UPSTREAM_ROOT/Lib/<entry>, except __pycache__
                           (the view's own is made by the interpreter) and the LIB_FILEs
    VIEW_DIR/Lib/<name>    a symbolic link to each LIB_FILE (so a regen is seen without a build)
    VIEW_DIR/Lib/<pkg>/    for a replaced file in a package: a folder of links to upstream's
                           Lib/<pkg>/ entries, but the replaced one

VPATH then names VIEW_DIR. The whole tree is mirrored, not only Lib, so that code finding the
sources relative to a module (test.support.REPO_ROOT, test_tools' Tools/scripts) sees what it
sees in upstream's tree. An up-to-date view is left as it is. Otherwise the view is made in a
temporary folder and swapped in by two renames (the old view to VIEW_DIR.old, the new one into
place); a failure leaves the previous view, never half a view, and a run interrupted between
the two renames is completed by the next one. With --stamp, FILE is written after success (for
a build step that runs this at every build: Meson runs it once when it configures, and
runtime/meson.build at every build, so that a lost view comes back).
"""
import os
import shutil
import sys


def make_view(upstream_root: str, view_dir: str, lib_files: list) -> bool:
    """Make or refresh the view; whether anything had to be done."""
    upstream_root = os.path.abspath(upstream_root)
    replaced = {}
    for spec in lib_files:
        relpath, built, path = spec.partition("=")
        if not built:
            relpath, path = os.path.basename(spec), spec
            if not os.path.isfile(path):
                raise SystemExit("make_source_view: %s: no such file" % path)
        replaced[os.path.normpath(relpath)] = os.path.abspath(path)
    for name, path in replaced.items():
        if not os.path.isfile(os.path.join(upstream_root, "Lib", name)):
            raise SystemExit("make_source_view: %s replaces nothing: upstream's Lib has no %s"
                             % (path, name))
    if not os.path.isfile(os.path.join(upstream_root, "Lib", "os.py")):
        raise SystemExit("make_source_view: %s is not a CPython tree (no Lib/os.py)" % upstream_root)

    old = view_dir + ".old"
    restored = False
    if not os.path.lexists(view_dir) and os.path.isdir(old):
        os.rename(old, view_dir)  # an earlier run stopped between its two renames
        restored = True
    links = wanted_links(upstream_root, replaced)
    if existing_links(view_dir) == links:
        return restored  # up to date: keep it, and the __pycache__ the interpreter made in it

    tmp = view_dir + ".tmp"
    remove(tmp)
    os.makedirs(os.path.join(tmp, "Lib"))
    for name, target in sorted(links.items()):
        os.makedirs(os.path.dirname(os.path.join(tmp, name)), exist_ok=True)
        os.symlink(target, os.path.join(tmp, name))

    # Swap the new view in; the old one (with the __pycache__ it grew) is removed after.
    remove(old)
    if os.path.lexists(view_dir):
        os.rename(view_dir, old)
    os.rename(tmp, view_dir)
    remove(old)
    return True


def remove(path: str) -> None:
    """Remove a folder tree, a file or a link at PATH, if there is one."""
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path)
    elif os.path.lexists(path):
        os.remove(path)


def wanted_links(upstream_root: str, replaced: dict) -> dict:
    """{path in the view: what the link points to}."""
    links = {}
    for entry in os.listdir(upstream_root):
        if entry != "Lib":
            links[entry] = os.path.join(upstream_root, entry)
    upstream_lib = os.path.join(upstream_root, "Lib")
    for entry in os.listdir(upstream_lib):
        if entry != "__pycache__":
            links[os.path.join("Lib", entry)] = os.path.join(upstream_lib, entry)
    for name, path in replaced.items():
        # A file in a package: the package becomes a folder of links, one level at a time.
        parts = name.split(os.sep)
        for depth in range(1, len(parts)):
            package = os.path.join("Lib", *parts[:depth])
            if links.pop(package, None) is not None:
                upstream_package = os.path.join(upstream_root, package)
                for entry in os.listdir(upstream_package):
                    if entry != "__pycache__":
                        links[os.path.join(package, entry)] = os.path.join(upstream_package,
                                                                           entry)
        links[os.path.join("Lib", name)] = path
    return links


def existing_links(view_dir: str) -> dict:
    """The links of an existing view (the same form as wanted_links), or None when anything
    else is there: a missing view, a file that is not a link, a Lib/ that is a link."""
    links = {}
    try:
        for entry in os.listdir(view_dir):
            path = os.path.join(view_dir, entry)
            if entry == "Lib" and not os.path.islink(path):
                if not _folder_links(path, "Lib", links):
                    return None
            elif os.path.islink(path):
                links[entry] = os.readlink(path)
            else:
                return None
    except OSError:
        return None
    return links


def _folder_links(path: str, relpath: str, links: dict) -> bool:
    """Add the links under a folder of the view's Lib (its packages of links too, not the
    __pycache__ folders the interpreter makes); False when anything else is there."""
    for entry in os.listdir(path):
        entry_path = os.path.join(path, entry)
        if os.path.islink(entry_path):
            links[os.path.join(relpath, entry)] = os.readlink(entry_path)
        elif entry == "__pycache__":
            continue
        elif os.path.isdir(entry_path):
            if not _folder_links(entry_path, os.path.join(relpath, entry), links):
                return False
        else:
            return False
    return True


def main(argv: list) -> int:
    stamp = None
    if len(argv) >= 2 and argv[-2] == "--stamp":
        argv, stamp = argv[:-2], argv[-1]
    if len(argv) < 3 or any(a.startswith("--") for a in argv):
        print("usage: " + __doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    changed = make_view(argv[0], argv[1], argv[2:])
    if stamp is not None and (changed or not os.path.exists(stamp)):
        # Touched only when the view changed: what depends on the stamp reruns only then.
        with open(stamp, "w", encoding="utf-8") as f:
            f.write("")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
