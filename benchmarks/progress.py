"""Progress messages on standard error: what runs now, how far along, how long is left."""

import sys
import time


def format_duration(seconds):
    seconds = int(seconds)
    if seconds >= 3600:
        return "%d:%02d:%02d" % (seconds // 3600, seconds // 60 % 60, seconds % 60)
    return "%d:%02d" % (seconds // 60, seconds % 60)


class Progress:
    """Counts steps of known total; on a terminal the status line is rewritten in place."""

    def __init__(self, total, stream=None):
        self.total = max(1, total)
        self.done = 0
        self.stream = stream if stream is not None else sys.stderr
        self.interactive = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.started = time.monotonic()
        self.open_line = False

    def status(self, text):
        """Announce the step about to run."""
        elapsed = time.monotonic() - self.started
        remaining = ""
        if self.done:
            remaining = ", ~%s left" % format_duration(elapsed / self.done * (self.total - self.done))
        line = "[%d/%d %3d%% %s%s] %s" % (self.done + 1, self.total, 100 * self.done // self.total,
                                          format_duration(elapsed), remaining, text)
        if self.interactive:
            self.stream.write("\r\033[K" + line)
            self.open_line = True
        else:
            self.stream.write(line + "\n")
        self.stream.flush()

    def advance(self):
        self.done += 1

    def note(self, text):
        """A message that must stay visible (failures, results of a benchmark)."""
        if self.open_line:
            self.stream.write("\r\033[K")
            self.open_line = False
        self.stream.write(text + "\n")
        self.stream.flush()

    def finish(self):
        if self.open_line:
            self.stream.write("\n")
            self.open_line = False
        self.stream.flush()
