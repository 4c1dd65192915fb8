"""The lexer and the parser: tokens and their locations, the syntax tree, syntax errors."""

from __future__ import annotations

import pytest

from genutil import dedent, parse
from generator import ast
from generator.diagnostics import DiagnosticSink
from generator.lexer import CHAR, COMMENT, DOC, EOF_, IDENT, NUMBER, PREPROC, PUNCT, STRING, \
    SourceFile, tokenize

FILE = "instructions/test.inst"


def tokens_of(text: str):
    sink = DiagnosticSink()
    tokens = tokenize(SourceFile(FILE, text), sink)
    return tokens, sink.diagnostics


def only(text: str):
    """The single declaration of `text`, which must parse without errors."""
    decls, diags = parse(dedent(text))
    assert [d.format() for d in diags] == []
    assert len(decls) == 1
    return decls[0]


# -- lexer ------------------------------------------------------------------------------------

LEXER_SAMPLE = (
    "/// doc line\n"
    "inst X = 0x10 [arg] (a, b[oparg*2] -- c if (oparg & 1)) {\n"
    "    #ifdef Py_STATS\n"
    "    x->y >>= 2; // c\n"
    "    #endif\n"
    "    s = \"a\\\"b\"; c = '\\n'; /* multi\n"
    "    line */ 1.5e3f;\n"
    "}\n"
)


def test_token_kinds_texts_and_locations():
    tokens, diags = tokens_of(LEXER_SAMPLE)
    assert diags == []
    got = [(t.kind, t.text, t.location.line, t.location.col) for t in tokens[:-1]]
    assert got == [
        (DOC, "/// doc line", 1, 1),
        (IDENT, "inst", 2, 1), (IDENT, "X", 2, 6), (PUNCT, "=", 2, 8), (NUMBER, "0x10", 2, 10),
        (PUNCT, "[", 2, 15), (IDENT, "arg", 2, 16), (PUNCT, "]", 2, 19),
        (PUNCT, "(", 2, 21), (IDENT, "a", 2, 22), (PUNCT, ",", 2, 23), (IDENT, "b", 2, 25),
        (PUNCT, "[", 2, 26), (IDENT, "oparg", 2, 27), (PUNCT, "*", 2, 32), (NUMBER, "2", 2, 33),
        (PUNCT, "]", 2, 34), (PUNCT, "--", 2, 36), (IDENT, "c", 2, 39), (IDENT, "if", 2, 41),
        (PUNCT, "(", 2, 44), (IDENT, "oparg", 2, 45), (PUNCT, "&", 2, 51), (NUMBER, "1", 2, 53),
        (PUNCT, ")", 2, 54), (PUNCT, ")", 2, 55), (PUNCT, "{", 2, 57),
        (PREPROC, "#ifdef Py_STATS", 3, 5),
        (IDENT, "x", 4, 5), (PUNCT, "->", 4, 6), (IDENT, "y", 4, 8), (PUNCT, ">>=", 4, 10),
        (NUMBER, "2", 4, 14), (PUNCT, ";", 4, 15), (COMMENT, "// c", 4, 17),
        (PREPROC, "#endif", 5, 5),
        (IDENT, "s", 6, 5), (PUNCT, "=", 6, 7), (STRING, '"a\\"b"', 6, 9), (PUNCT, ";", 6, 15),
        (IDENT, "c", 6, 17), (PUNCT, "=", 6, 19), (CHAR, "'\\n'", 6, 21), (PUNCT, ";", 6, 25),
        (COMMENT, "/* multi\n    line */", 6, 27),
        (NUMBER, "1.5e3f", 7, 13), (PUNCT, ";", 7, 19),
        (PUNCT, "}", 8, 1),
    ]
    assert tokens[-1].kind == EOF_ and tokens[-1].text == ""


def test_token_offsets_slice_the_source():
    tokens, _ = tokens_of(LEXER_SAMPLE)
    for t in tokens:
        assert LEXER_SAMPLE[t.start:t.end] == t.text
    assert tokens[-1].start == len(LEXER_SAMPLE)


def test_location_carries_the_source_line():
    tokens, _ = tokens_of(LEXER_SAMPLE)
    arrow = next(t for t in tokens if t.text == "->")
    assert arrow.location.source_line == "    x->y >>= 2; // c\n"
    assert str(arrow.location) == f"{FILE}:4:6"


def test_preprocessor_line_with_continuation_is_one_token():
    text = "#define Z \\\n   1\nX\n"
    tokens, diags = tokens_of(text)
    assert diags == []
    assert [(t.kind, t.text, t.location.line) for t in tokens] == [
        (PREPROC, "#define Z \\\n   1", 1), (IDENT, "X", 3), (EOF_, "", 4)]


def test_hash_inside_a_line_is_punctuation():
    tokens, _ = tokens_of("a # b ## c\n")
    assert [(t.kind, t.text) for t in tokens[:-1]] == [
        (IDENT, "a"), (PUNCT, "#"), (IDENT, "b"), (PUNCT, "##"), (IDENT, "c")]


def test_longest_punctuator_wins():
    tokens, _ = tokens_of("a<<=b->c...d--e")
    assert [t.text for t in tokens if t.kind == PUNCT] == ["<<=", "->", "...", "--"]


def test_comment_markers_inside_strings_are_string_text():
    tokens, _ = tokens_of('s = "/* not a comment // either";')
    assert [t.kind for t in tokens[:-1]] == [IDENT, PUNCT, STRING, PUNCT]


# -- declarations -----------------------------------------------------------------------------

def test_instruction_declaration():
    d = only("""
        inst LOAD_FAST = 124 [local] (-- value) {
            value = GETLOCAL(oparg);
        }
    """)
    assert isinstance(d, ast.InstDecl)
    assert (d.kind, d.name, d.number) == ("inst", "LOAD_FAST", 124)
    assert (d.location.line, d.location.col) == (1, 6)
    assert (d.number_location.line, d.number_location.col) == (1, 18)
    assert [(f.name, f.location.col) for f in d.flags] == [("local", 23)]
    assert d.effect.spelling() == "(-- value)"
    assert d.jump_effect is None and not d.fuses
    assert d.body.text == "\n    value = GETLOCAL(oparg);\n"
    assert [t.text for t in d.body.tokens] == ["value", "=", "GETLOCAL", "(", "oparg", ")", ";"]
    assert (d.body.location.line, d.body.location.col) == (1, 41)


def test_hexadecimal_opcode_number():
    d = only("inst X = 0x7B (--) {\n}\n")
    assert d.number == 123


def test_all_flags():
    d = only("inst X = 100 [arg, const, name, local, free, compare, jump_forward, jump_backward, "
             "eval_breaker] (--) {\n}\n")
    assert [f.name for f in d.flags] == ["arg", "const", "name", "local", "free", "compare",
                                         "jump_forward", "jump_backward", "eval_breaker"]


def test_empty_effect_with_spaces():
    d = only("inst X = 1 ( -- ) {\n}\n")
    assert d.effect.inputs == [] and d.effect.outputs == []
    assert d.effect.spelling() == "(--)"


def test_stack_items_plain_array_and_conditional():
    d = only("""
        inst X = 100 (a, args[oparg], kw if (oparg & 1) -- res, values[(oparg & 0xFF) + (oparg >> 8) + 1]) {
        }
    """)
    ins = [(i.name, i.size, i.condition, i.is_array) for i in d.effect.inputs]
    assert ins == [("a", None, None, False), ("args", "oparg", None, True),
                   ("kw", None, "oparg & 1", False)]
    outs = [(o.name, o.size, o.condition) for o in d.effect.outputs]
    assert outs == [("res", None, None), ("values", "(oparg & 0xFF) + (oparg >> 8) + 1", None)]
    assert [i.location.col for i in d.effect.inputs] == [15, 18, 31]
    assert d.effect.spelling() == \
        "(a, args[oparg], kw if (oparg & 1) -- res, values[(oparg & 0xFF) + (oparg >> 8) + 1])"


def test_stack_item_expressions_are_normalised_and_may_span_lines():
    d = only("""
        inst X = 100 (defaults    if (oparg & 0x01),
                      spec if ((oparg & FVS_MASK)   ==
                               FVS_HAVE_SPEC),
                      rest[oparg ? oparg - 1 : 0] -- f) {
            f = NULL;
        }
    """)
    assert [(i.name, i.condition or i.size) for i in d.effect.inputs] == [
        ("defaults", "oparg & 0x01"),
        ("spec", "(oparg & FVS_MASK) == FVS_HAVE_SPEC"),
        ("rest", "oparg ? oparg - 1 : 0"),
    ]
    assert [i.location.line for i in d.effect.inputs] == [1, 2, 4]


def test_jump_effect():
    d = only("""
        inst FOR_ITER = 93 [jump_forward] (iter -- iter, next) jump (iter --) {
            DISPATCH_JUMPED();
        }
    """)
    assert d.effect.spelling() == "(iter -- iter, next)"
    assert d.jump_effect.spelling() == "(iter --)"
    assert (d.jump_effect.location.line, d.jump_effect.location.col) == (1, 61)


def test_fuses():
    d = only("""
        inst COMPARE_OP_INT_JUMP = 28 (left, right --) fuses POP_JUMP_FORWARD_IF_FALSE {
        }
    """)
    assert [(f.name, f.location.line, f.location.col) for f in d.fuses] == [
        ("POP_JUMP_FORWARD_IF_FALSE", 1, 54)]


def test_fuses_several_instructions():
    d = only("""
        inst PRECALL_NO_KW_LIST_APPEND = 79 (method, callable, args[oparg] --) fuses CALL + POP_TOP {
        }
    """)
    assert [(f.name, f.location.col) for f in d.fuses] == [("CALL", 78), ("POP_TOP", 85)]


def test_compiler_effect():
    d = only("""
        inst PRECALL = 166 (method, callable, args[oparg] -- method, callable, args[oparg])
            compiler (unused[oparg] --) {
        }
    """)
    assert d.compiler_effect.spelling() == "(unused[oparg] --)"
    assert (d.compiler_effect.location.line, d.compiler_effect.location.col) == (2, 14)


def test_operation():
    d = only("""
        op _LOAD_MODULE_ATTR (owner -- res) {
            res = owner;
        }
    """)
    assert isinstance(d, ast.InstDecl)
    assert (d.kind, d.name, d.number, d.flags) == ("op", "_LOAD_MODULE_ATTR", None, [])
    assert d.effect.spelling() == "(owner -- res)"


def test_superinstruction():
    d = only("super LOAD_FAST__LOAD_FAST = 46 : LOAD_FAST + LOAD_FAST;\n")
    assert isinstance(d, ast.CompositionDecl)
    assert (d.kind, d.name, d.number) == ("super", "LOAD_FAST__LOAD_FAST", 46)
    assert [(p.name, p.location.col) for p in d.parts] == [("LOAD_FAST", 35), ("LOAD_FAST", 47)]


def test_composed_instruction_with_flags_and_three_parts():
    d = only("inst X = 100 [name] : _A + _B + _C;\n")
    assert isinstance(d, ast.CompositionDecl)
    assert d.kind == "inst"
    assert [f.name for f in d.flags] == ["name"]
    assert [p.name for p in d.parts] == ["_A", "_B", "_C"]


def test_composition_that_fuses_the_instructions_after_it():
    d = only("inst X : _A + _B fuses CALL + POP_TOP when { REJECT_IF(1); }\n")
    assert isinstance(d, ast.CompositionDecl)
    assert [p.name for p in d.parts] == ["_A", "_B"]
    assert [f.name for f in d.fuses] == ["CALL", "POP_TOP"]
    assert d.when is not None


def test_values_in_a_stack_effect():
    d = only("op _A (a, t: PyTypeObject * -- b, n: unsigned int, f: _PyInterpreterFrame **) {}\n")
    assert d.effect.spelling() == ("(a, t: PyTypeObject * -- b, n: unsigned int, "
                                   "f: _PyInterpreterFrame **)")
    assert [i.ctype for i in d.effect.inputs + d.effect.outputs] == [
        None, "PyTypeObject *", None, "unsigned int", "_PyInterpreterFrame **"]


def test_family():
    d = only("""
        family LOAD_ATTR {
            cache: _PyAttrCache;
            adaptive: LOAD_ATTR_ADAPTIVE;
            quick: LOAD_ATTR_QUICK;
            members: LOAD_ATTR_INSTANCE_VALUE, LOAD_ATTR_MODULE,
                     LOAD_ATTR_SLOT;
        }
    """)
    assert isinstance(d, ast.FamilyDecl)
    assert d.name == "LOAD_ATTR" and (d.location.line, d.location.col) == (1, 8)
    assert d.cache.name == "_PyAttrCache"
    assert d.adaptive.name == "LOAD_ATTR_ADAPTIVE"
    assert d.quick.name == "LOAD_ATTR_QUICK"
    assert [(m.name, m.location.line, m.location.col) for m in d.members] == [
        ("LOAD_ATTR_INSTANCE_VALUE", 5, 14), ("LOAD_ATTR_MODULE", 5, 40),
        ("LOAD_ATTR_SLOT", 6, 14)]


def test_empty_family():
    d = only("family RESUME {\n}\n")
    assert (d.cache, d.adaptive, d.quick, d.members) == (None, None, None, [])


def test_cache():
    d = only("""
        cache _PyAttrCache {
            counter: 1;
            version: 2;
            index: 0x1;
        }
    """)
    assert isinstance(d, ast.CacheDecl)
    assert d.name == "_PyAttrCache"
    assert [(e.name, e.size, e.location.line) for e in d.entries] == [
        ("counter", 1, 2), ("version", 2, 3), ("index", 1, 4)]


def test_oparg_declaration():
    d = only("""
        oparg BINARY_OP {
            NB_ADD: "+";
            NB_INPLACE_FLOOR_DIVIDE: "//=";
        }
    """)
    assert isinstance(d, ast.OpargDecl)
    assert d.name == "BINARY_OP"
    assert [(v.name, v.text, v.location.line) for v in d.values] == [
        ("NB_ADD", "+", 2), ("NB_INPLACE_FLOOR_DIVIDE", "//=", 3)]


# -- documentation comments -------------------------------------------------------------------

def test_doc_comments_attach_to_every_kind_of_declaration():
    decls, diags = parse(dedent("""
        /// The instruction.
        /// Second line.
        inst X = 100 (--) {
            /// inside a body: an ordinary comment
        }
        /// The operation.
        op _Y (--) {
        }
        /// The composition.
        inst Z = 101 : _Y + _Y;
        /// The superinstruction.
        super S = 1 : X + X;
        /// The family.
        family X {
        }
        /// The cache.
        cache C {
            counter: 1;
        }
        /// The oparg values.
        oparg X {
            A: "a";
        }
        inst UNDOCUMENTED = 102 (--) {
        }
    """))
    assert diags == []
    assert [(type(d).__name__, d.name, d.doc) for d in decls] == [
        ("InstDecl", "X", "The instruction.\nSecond line."),
        ("InstDecl", "_Y", "The operation."),
        ("CompositionDecl", "Z", "The composition."),
        ("CompositionDecl", "S", "The superinstruction."),
        ("FamilyDecl", "X", "The family."),
        ("CacheDecl", "C", "The cache."),
        ("OpargDecl", "X", "The oparg values."),
        ("InstDecl", "UNDOCUMENTED", ""),
    ]


def test_doc_comment_text_keeps_markdown_indentation_and_blank_lines():
    d = only("///   indented\n///\n///no space\ninst X = 1 (--) {\n}\n")
    assert d.doc == "  indented\n\nno space"


def test_ordinary_comments_are_not_documentation():
    d = only("// plain\n/* block */\ninst X = 1 (--) {\n}\n")
    assert d.doc == ""


def test_preprocessor_lines_and_comments_stay_in_the_body_text():
    d = only("""
        inst X = 1 (--) {
            #ifdef Py_STATS
            stats++;  // counted
            #endif
        }
    """)
    assert d.body.text == "\n    #ifdef Py_STATS\n    stats++;  // counted\n    #endif\n"
    kinds = [t.kind for t in d.body.tokens]
    assert kinds.count(PREPROC) == 2
    assert COMMENT not in kinds  # the parser drops comments from the token list


def test_braces_in_strings_and_nested_blocks_do_not_end_the_body():
    d = only("""
        inst X = 1 (--) {
            if (a) { s = "}"; c = '{'; }
        }
    """)
    assert d.body.text.strip() == "if (a) { s = \"}\"; c = '{'; }"


# -- syntax errors ----------------------------------------------------------------------------

SYNTAX_ERRORS = [
    # (id, source, [formatted diagnostics])
    ("unknown keyword", "foo X = 1 (--) {}\n", [
        "instructions/test.inst:1:1: error: expected 'inst', 'op', 'super', 'family', 'cache', "
        "'oparg' or 'baseline', found 'foo'\nfoo X = 1 (--) {}\n^"]),
    ("missing name", "inst = 1 (--) {}\n", [
        "instructions/test.inst:1:6: error: expected a name after 'inst', found '='\n"
        "inst = 1 (--) {}\n     ^"]),
    ("missing '='", "inst X 1 (--) {}\n", [
        "instructions/test.inst:1:8: error: expected '=' before the opcode number, found '1'\n"
        "inst X 1 (--) {}\n       ^"]),
    ("name instead of number", "inst X = Y (--) {}\n", [
        "instructions/test.inst:1:10: error: expected an opcode number, found 'Y'\n"
        "inst X = Y (--) {}\n         ^"]),
    ("octal number", "inst X = 010 (--) {}\n", [
        "instructions/test.inst:1:10: error: expected an integer, found '010'\n"
        "inst X = 010 (--) {}\n         ^"]),
    ("float number", "inst X = 1.5 (--) {}\n", [
        "instructions/test.inst:1:10: error: expected an integer, found '1.5'\n"
        "inst X = 1.5 (--) {}\n         ^"]),
    ("unknown flag", "inst X = 100 [foo] (--) {}\n", [
        "instructions/test.inst:1:15: error: expected a flag (arg, const, name, local, free, "
        "compare, jump_forward, jump_backward, eval_breaker), found 'foo'\n"
        "inst X = 100 [foo] (--) {}\n              ^"]),
    ("flags without comma", "inst X = 100 [const local] (--) {}\n", [
        "instructions/test.inst:1:21: error: expected ']', found 'local'\n"
        "inst X = 100 [const local] (--) {}\n                    ^"]),
    ("no stack effect", "inst X = 1 {}\n", [
        "instructions/test.inst:1:12: error: expected '(', found '{'\ninst X = 1 {}\n           ^"]),
    ("no '--'", "inst X = 1 (a b) {}\n", [
        "instructions/test.inst:1:15: error: expected ',' or '--', found 'b'\n"
        "inst X = 1 (a b) {}\n              ^"]),
    ("outputs without comma", "inst X = 1 (a -- c d) {}\n", [
        "instructions/test.inst:1:20: error: expected ',' or ')', found 'd'\n"
        "inst X = 1 (a -- c d) {}\n                   ^"]),
    ("empty array size", "inst X = 100 (a[] --) {}\n", [
        "instructions/test.inst:1:19: error: expected the size of the array (a C expression), "
        "found '--'\ninst X = 100 (a[] --) {}\n                  ^"]),
    ("empty condition", "inst X = 100 (a if () --) {}\n", [
        "instructions/test.inst:1:23: error: expected a condition (a C expression), found '--'\n"
        "inst X = 100 (a if () --) {}\n                      ^"]),
    ("condition without parentheses", "inst X = 100 (a if oparg --) {}\n", [
        "instructions/test.inst:1:20: error: expected '(', found 'oparg'\n"
        "inst X = 100 (a if oparg --) {}\n                   ^"]),
    ("array never closed", "inst X = 100 (a[oparg --) {}\n", [
        "instructions/test.inst:1:16: error: '[' is never closed\n"
        "inst X = 100 (a[oparg --) {}\n               ^"]),
    ("body never closed", "inst X = 1 (--) {\n    foo();\n", [
        "instructions/test.inst:1:17: error: '{' of this body is never closed\n"
        "inst X = 1 (--) {\n                ^"]),
    ("no body", "inst X = 1 (--);\n", [
        "instructions/test.inst:1:16: error: expected '{', found ';'\ninst X = 1 (--);\n"
        "               ^"]),
    ("jump without effect", "inst X = 100 (--) jump {}\n", [
        "instructions/test.inst:1:24: error: expected '(', found '{'\n"
        "inst X = 100 (--) jump {}\n                       ^"]),
    ("fuses without name", "inst X = 1 (--) fuses {}\n", [
        "instructions/test.inst:1:23: error: expected the name of an instruction or operation, "
        "found '{'\ninst X = 1 (--) fuses {}\n                      ^"]),
    ("op without effect", "op _X {}\n", [
        "instructions/test.inst:1:7: error: expected '(', found '{'\nop _X {}\n      ^"]),
    ("composition of one part", "super X = 1 : A;\n", [
        "instructions/test.inst:1:16: error: expected '+' and another part (a composition has "
        "two or more parts), found ';'\nsuper X = 1 : A;\n               ^"]),
    ("composition without ';'", "inst X = 1 : A + B\ninst Y = 2 (--) {}\n", [
        "instructions/test.inst:2:1: error: expected ';', found 'inst'\ninst Y = 2 (--) {}\n^"]),
    ("unknown family field", "family X {\n    foo: Y;\n}\n", [
        "instructions/test.inst:2:5: error: expected 'cache:', 'adaptive:', 'quick:', "
        "'members:', 'failures:', 'specialize', 'otherwise' or '}', found 'foo'\n"
        "    foo: Y;\n    ^"]),
    ("family field given twice", "family X {\n    quick: A;\n    quick: B;\n}\n", [
        "instructions/test.inst:3:5: error: 'quick' is given twice in family X\n"
        "    quick: B;\n    ^"]),
    ("family field without ':'", "family X {\n    members A, B;\n}\n", [
        "instructions/test.inst:2:13: error: expected ':', found 'A'\n    members A, B;\n"
        "            ^"]),
    ("cache without entries", "cache C {\n}\n", [
        "instructions/test.inst:1:7: error: cache C has no entries\ncache C {\n      ^"]),
    ("cache entry of size 0", "cache C {\n    counter: 0;\n}\n", [
        "instructions/test.inst:2:14: error: cache entry 'counter' must be at least one code "
        "unit\n    counter: 0;\n             ^"]),
    ("cache entry size not a number", "cache C {\n    counter: x;\n}\n", [
        "instructions/test.inst:2:14: error: expected the entry's size in code units, found "
        "'x'\n    counter: x;\n             ^"]),
    ("oparg value not a string", "oparg X {\n    A: 1;\n}\n", [
        "instructions/test.inst:2:8: error: expected a string (how dis shows the value), "
        "found '1'\n    A: 1;\n       ^"]),
    ("dangling documentation comment", "inst X = 1 (--) {}\n/// dangling\n", [
        "instructions/test.inst:2:1: error: documentation comment is not followed by a "
        "declaration\n/// dangling\n^"]),
    ("end of file inside an effect", "inst X = 1 (--", [
        "instructions/test.inst:1:15: error: expected a stack item name, found end of file\n"
        "inst X = 1 (--\n              ^"]),
    # After a final newline the end of the file is at the start of the (empty) next line: no
    # source line, no caret.
    ("end of file after a final newline", "inst X = 1 (--\n", [
        "instructions/test.inst:2:1: error: expected a stack item name, found end of file"]),
    ("end of file after blank lines", "inst X = 1 (--\n\n", [
        "instructions/test.inst:3:1: error: expected a stack item name, found end of file"]),
    ("preprocessor line at top level", '#include "x.h"\ninst X = 1 (--) {}\n', [
        "instructions/test.inst:1:1: error: expected 'inst', 'op', 'super', 'family', 'cache', "
        "'oparg' or 'baseline', found '#include \"x.h\"'\n#include \"x.h\"\n^"]),
    # lexical errors
    ("unterminated string", 'inst X = 1 (--) {\n    s = "abc;\n}\n', [
        "instructions/test.inst:2:9: error: unterminated string literal\n"
        "    s = \"abc;\n        ^"]),
    ("unterminated character literal", "inst X = 1 (--) {\n    c = 'a;\n}\n", [
        "instructions/test.inst:2:9: error: unterminated character literal\n"
        "    c = 'a;\n        ^"]),
    ("unexpected character", "inst X = 1 (--) {\n    a = b @ c;\n}\n", [
        "instructions/test.inst:2:11: error: unexpected character '@'\n    a = b @ c;\n"
        "          ^"]),
    ("unterminated comment", "inst X = 1 (--) {\n    /* never closed\n}\n", [
        "instructions/test.inst:2:5: error: unterminated comment\n    /* never closed\n    ^",
        "instructions/test.inst:1:17: error: '{' of this body is never closed\n"
        "inst X = 1 (--) {\n                ^"]),
]


@pytest.mark.parametrize("source, expected", [c[1:] for c in SYNTAX_ERRORS],
                         ids=[c[0] for c in SYNTAX_ERRORS])
def test_syntax_error(source, expected):
    _, diags = parse(source)
    assert [d.format() for d in diags] == expected


def test_parser_recovers_and_reports_every_syntax_error_of_a_file():
    source = dedent("""
        inst X = (--) {}
        inst Y = 2 (a b) {
            body();
        }
        inst Z = 3 (--) {
        }
        family F {
            members: ;
        }
        inst W = 4 (--) {
        }
    """)
    decls, diags = parse(source)
    assert [(d.location.line, d.location.col, d.message) for d in diags] == [
        (1, 10, "expected an opcode number, found '('"),
        (2, 15, "expected ',' or '--', found 'b'"),
        (8, 14, "expected the name of an instruction or operation, found ';'"),
    ]
    # The declarations after each error are still read.
    assert [d.name for d in decls] == ["Z", "W"]


def test_lexical_errors_do_not_stop_parsing():
    decls, diags = parse("inst X = 1 $ (--) {}\ninst Y = 2 (--) {\n    a = `b`;\n}\n")
    assert [(d.location.line, d.location.col, d.message) for d in diags] == [
        (1, 12, "unexpected character '$'"),
        (3, 9, "unexpected character '`'"),
        (3, 11, "unexpected character '`'"),
    ]
    assert [d.name for d in decls] == ["X", "Y"]


def test_diagnostic_format_without_source_line():
    from generator.diagnostics import Diagnostic, Location
    d = Diagnostic(Location("a.inst", 3, 7), "boom")
    assert d.format() == "a.inst:3:7: error: boom"


def test_diagnostic_caret_follows_tabs_as_columns():
    _, diags = parse("inst X = 1 (--) {\n\ta = b @ c;\n}\n")
    assert diags[0].location.col == 8
    # the caret copies the tab, so that it lines up under the character in a terminal
    assert diags[0].format().splitlines()[1:] == ["\ta = b @ c;", "\t" + " " * 6 + "^"]


def test_end_of_file_without_final_newline_is_just_after_the_last_character():
    tokens, _ = tokens_of("inst X = 1 (--")
    assert (tokens[-1].location.line, tokens[-1].location.col) == (1, 15)


def test_end_of_file_after_final_newline_is_on_the_next_line():
    tokens, _ = tokens_of(LEXER_SAMPLE)
    assert (tokens[-1].location.line, tokens[-1].location.col) == (9, 1)


def test_end_of_file_location_after_final_newline_has_an_empty_source_line():
    tokens, _ = tokens_of("inst X = 1 (--) {\n}\n")
    eof = tokens[-1]
    assert (eof.kind, eof.location.line, eof.location.col, eof.location.source_line) == \
        (EOF_, 3, 1, "")
    assert eof.start == len("inst X = 1 (--) {\n}\n")


def test_location_of_the_last_character_before_the_final_newline():
    source = SourceFile(FILE, "ab\ncd\n")
    assert [(source.location(i).line, source.location(i).col) for i in range(7)] == [
        (1, 1), (1, 2), (1, 3), (2, 1), (2, 2), (2, 3), (3, 1)]
    assert source.location(5).source_line == "cd\n"
    assert source.location(6).source_line == ""
