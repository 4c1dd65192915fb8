"""The build tools' one way to write a file: all of it or nothing."""
import os


def write_text_atomically(path: str, text: str) -> None:
    """Write TEXT to PATH through a temporary file and a rename, so that a reader (or a failed
    build) never sees a partial file."""
    tmp = path + ".tmp"
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)
