"""Shrinking a program while its mismatch persists: delta debugging on the syntax tree.

It works on any program text, generated or saved, so a replayed file is minimized the same way.
Passes, repeated until a round changes nothing or the budget of test runs is spent:

1. every statement list (a module, function, class, loop or branch body, except clauses), outer
   ones first: ddmin removes runs of statements, halving the run length down to one statement
   (an emptied body becomes `pass`), so that whole chunks of a generated program go first;
2. each compound statement (`if`, `for`, `while`, `try`, `with`) replaced by its body;
3. each integer constant halved while the mismatch persists (shorter loops, earlier switches).

A candidate that does not compile (a `break` left outside its loop) is rejected without being
run, and no text is run twice. The result is the smallest text found, formatted by ast.unparse
(comments are lost; the saved file gets a header of its own).
"""

import ast

DEFAULT_BUDGET = 2000
COMPOUND = (ast.If, ast.For, ast.While, ast.Try, ast.With)
STATEMENT_LISTS = ("body", "orelse", "finalbody", "handlers")


class Minimizer:
    def __init__(self, still_fails, budget=DEFAULT_BUDGET):
        """still_fails(source) -> bool: whether a candidate keeps the mismatch."""
        self.still_fails = still_fails
        self.budget = budget
        self.tests = 0
        self.verdicts = {}

    def minimize(self, source):
        self.tree = ast.parse(source)
        self.current = ast.unparse(self.tree)
        progress = True
        while progress and self.tests < self.budget:
            progress = self.remove_statements()
            progress = self.unwrap_compounds() or progress
            progress = self.shrink_integers() or progress
        return self.current + "\n"

    def accept(self):
        """Whether the tree as it stands now keeps the mismatch; if so it becomes current."""
        candidate = ast.unparse(self.tree)
        if candidate == self.current:
            return False
        if candidate not in self.verdicts:
            self.verdicts[candidate] = self.compiles(candidate) and self.test(candidate)
        if self.verdicts[candidate]:
            self.current = candidate
        return self.verdicts[candidate]

    def test(self, candidate):
        if self.tests >= self.budget:
            return False
        self.tests += 1
        return self.still_fails(candidate)

    @staticmethod
    def compiles(candidate):
        try:
            compile(candidate, "<candidate>", "exec")
        except (SyntaxError, ValueError):
            return False
        return True

    def statement_lists(self):
        """(node, field) of every statement list, outermost first."""
        found = []
        for node in breadth_first(self.tree):
            found += [(node, field) for field in STATEMENT_LISTS
                      if isinstance(getattr(node, field, None), list) and getattr(node, field)]
        return found

    def remove_statements(self):
        progress = False
        for node, field in self.statement_lists():
            progress = self.reduce_list(node, field) or progress
        return progress

    def reduce_list(self, node, field):
        """ddmin over one list, complements only: drop runs of len/chunks statements."""
        items = getattr(node, field)
        progress = False
        chunks = 2
        while items:
            size = -(-len(items) // chunks)
            for start in range(0, len(items), size):
                candidate = items[:start] + items[start + size:]
                setattr(node, field, filled(field, candidate))
                if self.accept():
                    items, progress = candidate, True
                    chunks = max(chunks - 1, 2)
                    break
                setattr(node, field, items)
            else:
                if size == 1:
                    break
                chunks = min(chunks * 2, len(items))
        setattr(node, field, filled(field, items))
        return progress

    def unwrap_compounds(self):
        progress = False
        for node, field in self.statement_lists():
            position = 0
            while position < len(getattr(node, field)):
                items = getattr(node, field)
                statement = items[position]
                if isinstance(statement, COMPOUND):
                    setattr(node, field, items[:position] + statement.body + items[position + 1:])
                    if self.accept():
                        progress = True
                        continue
                    setattr(node, field, items)
                position += 1
        return progress

    def shrink_integers(self):
        progress = False
        for node in breadth_first(self.tree):
            if not (isinstance(node, ast.Constant) and type(node.value) is int):
                continue
            while abs(node.value) > 1:
                original = node.value
                node.value = original // 2 if original > 0 else -(-original // 2)
                if not self.accept():
                    node.value = original
                    break
                progress = True
        return progress


def filled(field, statements):
    """A statement list as its field allows it: a body is never empty."""
    return statements if statements or field != "body" else [ast.Pass()]


def breadth_first(tree):
    queue = [tree]
    for node in queue:
        queue.extend(ast.iter_child_nodes(node))
        yield node
