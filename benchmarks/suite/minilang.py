"""A small language interpreter written in Python: a hand-written tokenizer, a
recursive-descent parser producing node objects, and a tree-walking evaluator with
functions, recursion, while loops, arrays and short-circuit logic.

The interpreted program computes Fibonacci numbers, counts primes with a sieve,
sums gcds and bubble-sorts an array; the check computes the same figures
directly in Python.
"""

import math
import operator

WALL_SCALE = 10
INSTRUCTIONS_SCALE = 1

ROUNDS_PER_SCALE = 9

PROGRAM = """
# Figures that the check recomputes in Python.
fn fib(n) {
    if n < 2 { return n; }
    return fib(n - 1) + fib(n - 2);
}

fn count_primes(limit) {
    let flags = array(limit + 1, 1);
    let count = 0;
    let i = 2;
    while i <= limit {
        if flags[i] {
            count = count + 1;
            let j = i * i;
            while j <= limit { flags[j] = 0; j = j + i; }
        }
        i = i + 1;
    }
    return count;
}

fn gcd(a, b) {
    while b != 0 { let t = b; b = a % b; a = t; }
    return a;
}

fn gcd_sum(n) {
    let total = 0;
    let a = 1;
    while a <= n {
        let b = 1;
        while b <= n { total = total + gcd(a, b); b = b + 1; }
        a = a + 1;
    }
    return total;
}

fn bubble_sort(xs) {
    let n = len(xs);
    let swapped = 1;
    while swapped {
        swapped = 0;
        let i = 1;
        while i < n {
            if xs[i - 1] > xs[i] and not (xs[i - 1] == xs[i]) {
                let t = xs[i]; xs[i] = xs[i - 1]; xs[i - 1] = t;
                swapped = 1;
            }
            i = i + 1;
        }
        n = n - 1;
    }
    return xs;
}

let round = 0;
while round < ROUNDS {
    print(fib(13));
    print(count_primes(600 + round));
    print(gcd_sum(12));
    let data = array(40, 0);
    let k = 0;
    while k < 40 { data[k] = (k * 37 + round) % 41 - 20; k = k + 1; }
    let sorted = bubble_sort(data);
    print(sorted[0] * 1000 + sorted[39]);
    round = round + 1;
}
"""


class ParseError(Exception):
    pass


# ---------------------------------------------------------------- tokenizer

KEYWORDS = {"fn", "let", "if", "else", "while", "return", "and", "or", "not"}
TWO_CHARACTER = {"==", "!=", "<=", ">="}
ONE_CHARACTER = set("+-*/%<>=(){}[],;")


def tokenize(source):
    tokens = []
    i = 0
    line = 1
    length = len(source)
    while i < length:
        ch = source[i]
        if ch == "\n":
            line += 1
            i += 1
        elif ch in " \t\r":
            i += 1
        elif ch == "#":
            while i < length and source[i] != "\n":
                i += 1
        elif ch.isdigit():
            start = i
            while i < length and source[i].isdigit():
                i += 1
            tokens.append(("number", int(source[start:i]), line))
        elif ch.isalpha() or ch == "_":
            start = i
            while i < length and (source[i].isalnum() or source[i] == "_"):
                i += 1
            word = source[start:i]
            tokens.append(("keyword" if word in KEYWORDS else "name", word, line))
        elif source[i:i + 2] in TWO_CHARACTER:
            tokens.append(("op", source[i:i + 2], line))
            i += 2
        elif ch in ONE_CHARACTER:
            tokens.append(("op", ch, line))
            i += 1
        else:
            raise ParseError("line %d: unexpected character %r" % (line, ch))
    tokens.append(("end", None, line))
    return tokens


# ---------------------------------------------------------------- syntax tree and evaluation

class Number:
    def __init__(self, value):
        self.value = value

    def evaluate(self, frame):
        return self.value


class Name:
    def __init__(self, name):
        self.name = name

    def evaluate(self, frame):
        return frame[self.name]


class Binary:
    FUNCTIONS = {
        "+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.floordiv,
        "%": operator.mod, "<": operator.lt, "<=": operator.le, ">": operator.gt,
        ">=": operator.ge, "==": operator.eq, "!=": operator.ne,
    }

    def __init__(self, op, left, right):
        self.function = self.FUNCTIONS[op]
        self.left = left
        self.right = right

    def evaluate(self, frame):
        return self.function(self.left.evaluate(frame), self.right.evaluate(frame))


class And:
    def __init__(self, left, right):
        self.left = left
        self.right = right

    def evaluate(self, frame):
        return self.left.evaluate(frame) and self.right.evaluate(frame)


class Or(And):
    def evaluate(self, frame):
        return self.left.evaluate(frame) or self.right.evaluate(frame)


class Not:
    def __init__(self, operand):
        self.operand = operand

    def evaluate(self, frame):
        return not self.operand.evaluate(frame)


class Negate(Not):
    def evaluate(self, frame):
        return -self.operand.evaluate(frame)


class Index:
    def __init__(self, target, index):
        self.target = target
        self.index = index

    def evaluate(self, frame):
        return self.target.evaluate(frame)[self.index.evaluate(frame)]


class Call:
    def __init__(self, name, arguments, program):
        self.name = name
        self.arguments = arguments
        self.program = program

    def evaluate(self, frame):
        values = [argument.evaluate(frame) for argument in self.arguments]
        return self.program.call(self.name, values)


class Assign:
    def __init__(self, name, value):
        self.name = name
        self.value = value

    def execute(self, frame):
        frame[self.name] = self.value.evaluate(frame)


class IndexAssign:
    def __init__(self, target, index, value):
        self.target = target
        self.index = index
        self.value = value

    def execute(self, frame):
        frame[self.target][self.index.evaluate(frame)] = self.value.evaluate(frame)


class ExpressionStatement:
    def __init__(self, expression):
        self.expression = expression

    def execute(self, frame):
        self.expression.evaluate(frame)


class Return:
    def __init__(self, value):
        self.value = value

    def execute(self, frame):
        return (self.value.evaluate(frame),)


class Block:
    def __init__(self, statements):
        self.statements = statements

    def execute(self, frame):
        for statement in self.statements:
            outcome = statement.execute(frame)
            if outcome is not None:
                return outcome
        return None


class If:
    def __init__(self, condition, then, otherwise):
        self.condition = condition
        self.then = then
        self.otherwise = otherwise

    def execute(self, frame):
        if self.condition.evaluate(frame):
            return self.then.execute(frame)
        if self.otherwise is not None:
            return self.otherwise.execute(frame)
        return None


class While:
    def __init__(self, condition, body):
        self.condition = condition
        self.body = body

    def execute(self, frame):
        while self.condition.evaluate(frame):
            outcome = self.body.execute(frame)
            if outcome is not None:
                return outcome
        return None


class Function:
    def __init__(self, name, parameters, body):
        self.name = name
        self.parameters = parameters
        self.body = body


# ---------------------------------------------------------------- parser

class Parser:
    PRECEDENCE = {"or": 1, "and": 2, "==": 3, "!=": 3, "<": 4, "<=": 4, ">": 4, ">=": 4,
                  "+": 5, "-": 5, "*": 6, "/": 6, "%": 6}

    def __init__(self, tokens, program):
        self.tokens = tokens
        self.position = 0
        self.program = program

    def peek(self):
        return self.tokens[self.position]

    def advance(self):
        token = self.tokens[self.position]
        self.position += 1
        return token

    def expect(self, value):
        kind, text, line = self.advance()
        if text != value:
            raise ParseError("line %d: expected %r, found %r" % (line, value, text))

    def at(self, value):
        return self.tokens[self.position][1] == value

    def parse_program(self):
        statements = []
        while self.peek()[0] != "end":
            if self.at("fn"):
                self.parse_function()
            else:
                statements.append(self.parse_statement())
        return Block(statements)

    def parse_function(self):
        self.expect("fn")
        name = self.advance()[1]
        self.expect("(")
        parameters = []
        while not self.at(")"):
            parameters.append(self.advance()[1])
            if self.at(","):
                self.advance()
        self.expect(")")
        self.program.functions[name] = Function(name, parameters, self.parse_block())

    def parse_block(self):
        self.expect("{")
        statements = []
        while not self.at("}"):
            statements.append(self.parse_statement())
        self.expect("}")
        return Block(statements)

    def parse_statement(self):
        kind, text, line = self.peek()
        if text == "let":
            self.advance()
            name = self.advance()[1]
            self.expect("=")
            value = self.parse_expression()
            self.expect(";")
            return Assign(name, value)
        if text == "if":
            self.advance()
            condition = self.parse_expression()
            then = self.parse_block()
            otherwise = None
            if self.at("else"):
                self.advance()
                otherwise = self.parse_statement() if self.at("if") else self.parse_block()
            return If(condition, then, otherwise)
        if text == "while":
            self.advance()
            condition = self.parse_expression()
            return While(condition, self.parse_block())
        if text == "return":
            self.advance()
            value = self.parse_expression()
            self.expect(";")
            return Return(value)
        if kind == "name" and self.tokens[self.position + 1][1] in ("=", "["):
            name = self.advance()[1]
            if self.at("="):
                self.advance()
                value = self.parse_expression()
                self.expect(";")
                return Assign(name, value)
            start = self.position
            self.expect("[")
            index = self.parse_expression()
            self.expect("]")
            if self.at("="):
                self.advance()
                value = self.parse_expression()
                self.expect(";")
                return IndexAssign(name, index, value)
            self.position = start - 1  # an indexing expression used as a statement
        expression = self.parse_expression()
        self.expect(";")
        return ExpressionStatement(expression)

    def parse_expression(self, minimum=1):
        left = self.parse_unary()
        while True:
            op = self.peek()[1]
            precedence = self.PRECEDENCE.get(op) if isinstance(op, str) else None
            if precedence is None or precedence < minimum:
                return left
            self.advance()
            right = self.parse_expression(precedence + 1)
            if op == "and":
                left = And(left, right)
            elif op == "or":
                left = Or(left, right)
            else:
                left = Binary(op, left, right)

    def parse_unary(self):
        if self.at("-"):
            self.advance()
            return Negate(self.parse_unary())
        if self.at("not"):
            self.advance()
            return Not(self.parse_unary())
        return self.parse_postfix()

    def parse_postfix(self):
        kind, text, line = self.advance()
        if kind == "number":
            node = Number(text)
        elif kind == "name" and self.at("("):
            self.advance()
            arguments = []
            while not self.at(")"):
                arguments.append(self.parse_expression())
                if self.at(","):
                    self.advance()
            self.expect(")")
            node = Call(text, arguments, self.program)
        elif kind == "name":
            node = Name(text)
        elif text == "(":
            node = self.parse_expression()
            self.expect(")")
        else:
            raise ParseError("line %d: unexpected %r" % (line, text))
        while self.at("["):
            self.advance()
            node = Index(node, self.parse_expression())
            self.expect("]")
        return node


class Program:
    def __init__(self, source):
        self.functions = {}
        self.output = []
        self.builtins = {"array": lambda n, fill: [fill] * n, "len": len, "print": self.output.append}
        self.main = Parser(tokenize(source), self).parse_program()

    def call(self, name, values):
        function = self.functions.get(name)
        if function is None:
            return self.builtins[name](*values)
        frame = dict(zip(function.parameters, values))
        outcome = function.body.execute(frame)
        return outcome[0] if outcome is not None else None

    def run(self):
        self.main.execute({})
        return self.output


def run(scale):
    return Program(PROGRAM.replace("ROUNDS", str(ROUNDS_PER_SCALE * scale))).run()


def check(result, scale):
    a, b = 0, 1
    for _ in range(13):
        a, b = b, a + b
    expected = []
    for round_number in range(ROUNDS_PER_SCALE * scale):
        limit = 600 + round_number
        flags = [True] * (limit + 1)
        flags[0] = flags[1] = False
        for i in range(2, math.isqrt(limit) + 1):
            if flags[i]:
                flags[i * i::i] = [False] * len(range(i * i, limit + 1, i))
        data = sorted((k * 37 + round_number) % 41 - 20 for k in range(40))
        expected += [a, sum(flags), sum(math.gcd(x, y) for x in range(1, 13) for y in range(1, 13)),
                     data[0] * 1000 + data[39]]
    assert result == expected, (result[:8], expected[:8])
