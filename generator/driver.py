"""Reading the DSL files, running the pipeline, and writing outputs all-or-nothing."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from . import analysis, emitters
from .diagnostics import DiagnosticSink, Location
from .lexer import SourceFile
from .model import Model
from .parser import parse_source


def find_sources(root: Path) -> list[Path]:
    return sorted((root / "instructions").glob("*.inst"))


def load_model(paths: list[Path], root: Path) -> Model:
    """lex -> parse -> analyze; raises GeneratorError with every diagnostic found."""
    sink = DiagnosticSink()
    declarations = []
    for path in paths:
        try:
            display = str(path.resolve().relative_to(root.resolve()))
        except ValueError:
            display = str(path)
        try:
            data = path.read_bytes()
            text = data.decode("utf-8")
        except OSError as exc:
            sink.error(Location(display, 1, 1), f"cannot read the file: {exc.strerror}")
            continue
        except UnicodeDecodeError as exc:
            before = data[:exc.start]
            line = before.count(b"\n") + 1
            line_start = before.rfind(b"\n") + 1
            # columns count characters, like every other location
            col = len(data[line_start:exc.start].decode("utf-8", errors="replace")) + 1
            sink.error(Location(display, line, col),
                       f"the file is not UTF-8 (byte 0x{data[exc.start]:02x})")
            continue
        # Line ends: CR LF and a lone CR (old Mac files) end a line as LF does; read as they
        # are, a lone CR would be blank space and a `//` comment would run to the file's end.
        text = text.replace("\r\n", "\n").replace("\r", "\n")
        declarations.extend(parse_source(SourceFile(display, text), sink))
    sink.raise_if_any()
    if not paths:
        raise SystemExit(f"error: no instructions/*.inst files under {root}")
    return analysis.analyze(declarations)


def generate_files(paths: list[Path], root: Path) -> dict[str, str]:
    return emitters.generate(load_model(paths, root))


def write_files(files: dict[str, str], root: Path) -> list[str]:
    """Write every file that changed (unchanged ones keep their timestamps, so a rebuild
    recompiles only what includes a changed file); return the changed paths. All-or-nothing:
    every text is written to a temporary file beside its target first, then the targets are
    replaced, and a failure on the way puts back the files already replaced."""
    changed = [rel for rel, text in sorted(files.items())
               if not (root / rel).exists() or (root / rel).read_text(encoding="utf-8") != text]
    temporaries: dict[str, str] = {}
    replaced: list[tuple[Path, bytes | None]] = []  # (target, its old content or None)
    try:
        for rel in changed:
            path = root / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
            temporaries[rel] = tmp
            with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
                f.write(files[rel])
            os.chmod(tmp, 0o644)
        for rel in changed:
            path = root / rel
            old = path.read_bytes() if path.exists() else None
            os.replace(temporaries[rel], path)
            del temporaries[rel]
            replaced.append((path, old))
    except BaseException:
        for path, old in reversed(replaced):
            if old is None:
                path.unlink()
            else:
                _restore(path, old)
        for tmp in temporaries.values():
            if os.path.exists(tmp):
                os.unlink(tmp)
        raise
    return changed


def _restore(path: Path, content: bytes) -> None:
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    with os.fdopen(fd, "wb") as f:
        f.write(content)
    os.chmod(tmp, 0o644)
    os.replace(tmp, path)
