"""Run a test command with the statistics folder of a Py_STATS build present.

A Py_STATS interpreter (`-Dstats=true`, upstream's --enable-pystats) writes its statistics at
exit into a new file in /tmp/py_stats/, upstream's fixed folder, and where that folder is
missing dumps them on stderr instead, which every test that reads a child's stderr takes for
an error. tests/meson.build makes this the wrapper of every test in a stats build.

    with_stats_dir.py COMMAND [ARGS...]
"""

from __future__ import annotations

import os
import sys

STATS_DIR = "/tmp/py_stats"


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    os.makedirs(STATS_DIR, exist_ok=True)
    os.execvp(argv[0], argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
