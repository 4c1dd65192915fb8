"""Uses extension modules that Debian compiled for its python3.11, in whichever interpreter runs
this file: PyYAML's libyaml binding (yaml._yaml, Cython), MarkupSafe's speedups (hand-written C)
and lxml.etree (Cython over libxml2 and libxslt). Each result is compared with what it must be,
or with the package's pure-Python path where it has one.

usage: python -I -S -B debian_extensions.py SITE_DIR
SITE_DIR holds links to just those packages in /usr/lib/python3/dist-packages (so nothing else
there can shadow the standard library). Prints, as its last line, the real paths of the compiled
modules it used, for tests/check_abi.py to match against the Debian packages that ship them.
"""
import io
import json
import os
import random
import sys

LOOPS = 300
checks = 0


def check(condition, what):
    global checks
    if not condition:
        raise AssertionError(what)
    checks += 1


def equal(actual, expected, what):
    check(actual == expected, f"{what}: got {actual!r}, expected {expected!r}")


def raises(exc_type, f, *args, **kwargs):
    try:
        f(*args, **kwargs)
    except exc_type as e:
        return e
    raise AssertionError(f"{f!r}{args!r} did not raise {exc_type.__name__}")


def compiled(module):
    path = os.path.realpath(module.__file__)
    check(path.startswith("/usr/lib/python3/dist-packages/") and path.endswith(".so"),
          f"{module.__name__} is not a compiled module from dist-packages: {path}")
    return path


def check_yaml():
    import yaml
    import yaml._yaml
    check(yaml.__with_libyaml__, "yaml.__with_libyaml__")
    check(issubclass(yaml.CSafeLoader, yaml._yaml.CParser), "CSafeLoader is the C parser")
    document = ("a: 1\n"
                "b: [x, 2.5, {z: null}]\n"
                "c: &shared {k: v, n: [1, 2]}\n"
                "d: *shared\n"
                "e: !!binary aGVsbG8=\n"
                "f: 'quoted: text'\n"
                "g: 2001-12-14\n"
                "h: caf\u00e9 \u65e5\u672c\n")
    data = yaml.load(document, Loader=yaml.CSafeLoader)
    equal(data, yaml.load(document, Loader=yaml.SafeLoader), "C and Python loaders agree")
    check(data["c"] is data["d"], "an alias is the anchored object")
    equal(yaml.load("[\U0001d518, \"\\U0001D518\"]", Loader=yaml.CSafeLoader), ["\U0001d518"] * 2,
          "characters outside the BMP")
    equal(data["e"], b"hello", "!!binary")
    for dumper, pure in ((yaml.CSafeDumper, yaml.SafeDumper), (yaml.CDumper, yaml.Dumper)):
        text = yaml.dump(data, Dumper=dumper, allow_unicode=True)
        equal(text, yaml.dump(data, Dumper=pure, allow_unicode=True), f"{dumper.__name__} output")
        equal(yaml.load(text, Loader=yaml.CLoader), data, f"{dumper.__name__} round trip")

    class PointLoader(yaml.CSafeLoader):
        pass

    def construct_point(loader, node):
        x, y = loader.construct_sequence(node)
        if x < 0:
            raise ValueError("negative point")
        return (x, y)
    PointLoader.add_constructor("!point", construct_point)
    equal(yaml.load("[!point [1, 2], !point [3, 4]]", Loader=PointLoader), [(1, 2), (3, 4)],
          "a Python constructor called by the C loader")
    raises(ValueError, yaml.load, "!point [-1, 2]", Loader=PointLoader)
    equal(list(yaml.load_all("--- 1\n--- [2]\n...\n", Loader=yaml.CSafeLoader)), [1, [2]],
          "several documents")
    events = [type(e).__name__ for e in yaml.parse("a: [1]", Loader=yaml.CSafeLoader)]
    equal(events, ["StreamStartEvent", "DocumentStartEvent", "MappingStartEvent", "ScalarEvent",
                   "SequenceStartEvent", "ScalarEvent", "SequenceEndEvent", "MappingEndEvent",
                   "DocumentEndEvent", "StreamEndEvent"], "events from the C parser")
    e = raises(yaml.MarkedYAMLError, yaml.load, "a: [1, 2\nb: 3", Loader=yaml.CSafeLoader)
    equal(e.problem_mark.line, 1, "error position from libyaml")

    def hot():
        return [yaml.load(f"n: {i}\nl: [a, b]", Loader=yaml.CSafeLoader)["n"] for i in range(LOOPS)]
    equal(hot(), list(range(LOOPS)), "repeated loads")
    return compiled(yaml._yaml)


def check_markupsafe():
    import markupsafe
    import markupsafe._native
    import markupsafe._speedups
    from markupsafe import Markup, escape
    check(escape is markupsafe._speedups.escape, "markupsafe.escape is the C one")
    equal(escape("<a href=\"x\">'&</a>"), Markup("&lt;a href=&#34;x&#34;&gt;&#39;&amp;&lt;/a&gt;"),
          "escape")
    check(type(escape("x")) is Markup, "escape returns Markup")

    class Html:
        def __html__(self):
            return "<b>raw</b>"
    equal(escape(Html()), Markup("<b>raw</b>"), "__html__ called by the C escape")
    equal((escape(5), escape(None), markupsafe.escape_silent(None)), ("5", "None", ""),
          "escape of non-strings")
    equal(Markup("<p>%s</p>") % "<i>", Markup("<p>&lt;i&gt;</p>"), "Markup % escapes")

    class Text(str):
        pass
    equal(escape(Text("a<b")), "a&lt;b", "escape of a str subclass")
    # Strings of every kind (1, 2 and 4 bytes a character), which the C code reads directly.
    rng = random.Random(1100)
    alphabet = "ab <>&'\"\u00e9\u00ff\u0100\u65e5\uffff\U0001d518\U0010ffff"
    for _ in range(LOOPS):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 40)))
        equal(escape(text), markupsafe._native.escape(text), f"escape({text!r})")
    return compiled(markupsafe._speedups)


def check_lxml():
    from lxml import etree
    xml = (b'<?xml version="1.0"?>\n'
           b'<root xmlns:n="urn:n"><n:item id="1">one</n:item><n:item id="2">two</n:item>'
           b'<other>3</other></root>')
    root = etree.fromstring(xml)
    ns = {"n": "urn:n"}
    equal(root.xpath("//n:item/@id", namespaces=ns), ["1", "2"], "xpath attributes")
    equal(root.xpath("count(//n:item)", namespaces=ns), 2.0, "xpath count")
    equal([e.text for e in root.iterfind("n:item", ns)], ["one", "two"], "iterfind")
    tree = etree.parse(io.BytesIO(xml))
    equal(tree.getroot().tag, "root", "parse from a file object")
    new = etree.SubElement(tree.getroot(), "new", attrib={"k": "v"})
    new.text = "caf\u00e9"
    equal(etree.tostring(tree.getroot().find("new"), encoding="unicode"),
          '<new xmlns:n="urn:n" k="v">caf\u00e9</new>', "serialize")
    equal(etree.tostring(tree, pretty_print=True),
          b'<root xmlns:n="urn:n">\n  <n:item id="1">one</n:item>\n  <n:item id="2">two</n:item>\n'
          b'  <other>3</other>\n  <new k="v">caf&#233;</new>\n</root>\n', "pretty print")
    equal(etree.tostring(etree.fromstring(etree.tostring(tree))), etree.tostring(tree),
          "round trip")

    double = etree.XPath("f:double(string(other))", namespaces={"f": "urn:f"},
                         extensions={("urn:f", "double"): lambda context, s: float(s) * 2})
    equal(double(root), 6.0, "a Python XPath extension function")
    failing = etree.XPath("f:fail()", namespaces={"f": "urn:f"},
                          extensions={("urn:f", "fail"): lambda context: 1 / 0})
    raises(ZeroDivisionError, failing, root)

    class Target:
        def __init__(self):
            self.events = []

        def start(self, tag, attrib):
            if tag == "bad":
                raise ValueError("bad tag")
            self.events.append(("start", tag, dict(attrib)))

        def end(self, tag):
            self.events.append(("end", tag))

        def data(self, text):
            self.events.append(("data", text))

        def close(self):
            return self.events
    events = etree.fromstring(b'<a x="1">t<b/></a>', etree.XMLParser(target=Target()))
    equal(events, [("start", "a", {"x": "1"}), ("data", "t"), ("start", "b", {}), ("end", "b"),
                   ("end", "a")], "a Python parser target")
    raises(ValueError, etree.fromstring, b"<a><bad/></a>", etree.XMLParser(target=Target()))
    equal([(event, element.tag) for event, element in etree.iterparse(io.BytesIO(b"<a><b/></a>"))],
          [("end", "b"), ("end", "a")], "iterparse")
    e = raises(etree.XMLSyntaxError, etree.fromstring, b"<a>\n<b></a>")
    equal(e.lineno, 2, "syntax error position")

    transform = etree.XSLT(etree.fromstring(
        b'<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">'
        b'<xsl:output method="text"/><xsl:template match="/">'
        b'<xsl:for-each select="//item"><xsl:value-of select="@id"/>;</xsl:for-each>'
        b'</xsl:template></xsl:stylesheet>'))
    equal(str(transform(etree.fromstring(b'<r><item id="p"/><item id="q"/></r>'))), "p;q;", "XSLT")

    def hot():
        find = etree.XPath("string(//n:item[@id=$i])", namespaces=ns)
        return [find(root, i=str(1 + i % 2)) for i in range(LOOPS)]
    equal(hot(), ["one", "two"] * (LOOPS // 2), "repeated xpath")
    return compiled(etree)


def main(site_dir):
    sys.path.insert(0, site_dir)
    used = [check_yaml(), check_markupsafe(), check_lxml()]
    # Nothing but those three packages came from dist-packages.
    for name, module in list(sys.modules.items()):
        path = os.path.realpath(getattr(module, "__file__", None) or "")
        if path.startswith("/usr/lib/python3/dist-packages/"):
            check(name.partition(".")[0] in ("yaml", "markupsafe", "lxml"),
                  f"{name} was imported from {path}")
    print(f"debian_extensions: {checks} checks passed")
    print(json.dumps(used))


if __name__ == "__main__":
    main(sys.argv[1])
