"""Finding the benchmarks of a suite folder and selecting some of them by name.

Benchmark files are read with `ast`, never imported: the harness may run under a different
Python than the interpreters being measured, and importing would run module-level code.
"""

import ast
import fnmatch
from dataclasses import dataclass
from pathlib import Path

SUITE_DIRECTORY = Path(__file__).resolve().parent / "suite"
REQUIRED_FUNCTIONS = ("run", "check")
REQUIRED_SCALES = ("WALL_SCALE", "INSTRUCTIONS_SCALE")


class CatalogError(Exception):
    """A benchmark file breaks the contract, or a selection matches nothing."""


@dataclass(frozen=True)
class Benchmark:
    name: str
    path: Path
    summary: str              # first paragraph of the module docstring, on one line
    wall_scale: int
    instructions_scale: int

    def scale_for(self, mode):
        return self.wall_scale if mode == "wall" else self.instructions_scale


def read_benchmark(path):
    """Describe one benchmark file, checking the parts of the contract visible statically."""
    path = Path(path).resolve()
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    docstring = ast.get_docstring(tree)
    if not docstring:
        raise CatalogError("%s: the module docstring must say what the benchmark exercises" % path)
    functions = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
    missing = [name for name in REQUIRED_FUNCTIONS if name not in functions]
    if missing:
        raise CatalogError("%s: missing function(s) %s" % (path, ", ".join(missing)))
    scales = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name) and target.id in REQUIRED_SCALES:
                value = node.value
                if not (isinstance(value, ast.Constant) and type(value.value) is int and value.value >= 1):
                    raise CatalogError("%s: %s must be a positive integer literal" % (path, target.id))
                scales[target.id] = value.value
    missing = [name for name in REQUIRED_SCALES if name not in scales]
    if missing:
        raise CatalogError("%s: missing %s" % (path, ", ".join(missing)))
    return Benchmark(
        name=path.stem,
        path=path,
        summary=" ".join(docstring.split("\n\n")[0].split()),
        wall_scale=scales["WALL_SCALE"],
        instructions_scale=scales["INSTRUCTIONS_SCALE"],
    )


def discover(directory=SUITE_DIRECTORY):
    """Every benchmark in a folder: each `*.py` file not starting with an underscore."""
    directory = Path(directory)
    if not directory.is_dir():
        raise CatalogError("benchmark folder %s does not exist" % directory)
    paths = sorted(p for p in directory.glob("*.py") if not p.name.startswith("_"))
    if not paths:
        raise CatalogError("no benchmarks in %s" % directory)
    return [read_benchmark(p) for p in paths]


def select(benchmarks, patterns):
    """Benchmarks whose names match any of the shell-style patterns (all when none given).

    Every pattern has to match something, so that a typo is an error, not a silent no-op.
    """
    if not patterns:
        return list(benchmarks)
    for pattern in patterns:
        if not any(fnmatch.fnmatchcase(b.name, pattern) for b in benchmarks):
            known = ", ".join(b.name for b in benchmarks)
            raise CatalogError("no benchmark matches %r (known: %s)" % (pattern, known))
    return [b for b in benchmarks if any(fnmatch.fnmatchcase(b.name, p) for p in patterns)]
