"""Differential fuzzer of the quicken project (issue 10): `python3 -m tests.fuzz --help`.

Generates random, self-contained Python programs aimed at CPython 3.11's specializing
interpreter (sites that quicken on one kind of operand and then see others), runs each on
several interpreters and compares what they print, how they end and the state they leave.
A mismatch is confirmed, minimized and saved. docs/fuzzing.md is the user's guide.

Data flow: program (a seed's program: prelude + chunks from scenarios, each a driver loop)
-> execute (batches in child interpreters running child.py; failures pinned on one program)
-> compare (outcomes across interpreters) -> campaign (parallel batches; each mismatch
confirmed, minimized with minimize, saved) <- cli (the command line).
"""
