"""The specialization statistics report: Markdown tables and PNG charts, and two reports side by
side (before and after an edit to instructions/).

Input is what `python3 -m workbench stats` saves (workbench/specstats.py): the counts of each
workload and the names of the build that made them.
"""

from workbench import specstats

TOP_MIX, TOP_KINDS, TOP_PAIRS = 25, 20, 25


def percent(value):
    return "-" if value is None else "%.1f%%" % (100 * value)


def number(value):
    return "{:,}".format(value)


def table(header, rows, align=None):
    align = align or ["---"] + ["---:"] * (len(header) - 1)
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(align) + "|"]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def family_table(rows):
    body = []
    for row in rows:
        attempts = row["success"] + row["failure"]
        executions = row["generic"] + row["adaptive"] + row["specialized"]
        if not executions:
            continue
        body.append([
            "`%s`" % row["family"], number(executions), percent(specstats.ratio(row["specialized"], executions)),
            number(attempts), percent(specstats.ratio(row["success"], attempts)),
            number(row["deferred"]), number(row["hit"]), number(row["miss"]),
            percent(specstats.ratio(row["miss"], row["hit"] + row["miss"])),
            number(row["deopt"]), percent(specstats.ratio(row["deopt"], row["hit"])),
        ])
    return table(["family", "executions", "specialized", "attempts", "success", "deferred",
                  "hits", "misses", "miss rate", "deopts", "deopts per hit"], body)


def failure_table(rows, limit=TOP_KINDS):
    kinds = [(n, row["family"], kind) for row in rows for kind, n in row["failure_kinds"].items()]
    kinds.sort(key=lambda item: (-item[0], item[1], item[2]))
    failures = {row["family"]: row["failure"] for row in rows}
    body = [["`%s`" % family, kind, number(n), percent(specstats.ratio(n, failures[family]))]
            for n, family, kind in kinds[:limit]]
    return table(["family", "failure kind", "failures", "of the family's failures"], body,
                 ["---", "---", "---:", "---:"])


def member_lines(rows):
    """The members that ran, and those that never did."""
    body, never = [], []
    for row in rows:
        for member, counts in row["members"].items():
            if counts["executions"]:
                body.append(["`%s`" % member, number(counts["executions"]), number(counts["misses"]),
                             percent(specstats.ratio(counts["misses"], counts["executions"]))])
            else:
                never.append("`%s`" % member)
    return body, never


def workload_table(data, names):
    body = []
    for workload, counts in sorted(data["workloads"].items()):
        mix = specstats.instruction_mix(counts, names)
        executed = sum(n for _, n in mix)
        specialized = sum(n for name, n in mix if names.is_specialized(name))
        rows = specstats.family_rows(counts, names)
        attempts = sum(r["success"] + r["failure"] for r in rows)
        body.append([workload, number(executed), percent(specstats.ratio(specialized, executed)),
                     percent(specstats.ratio(sum(r["success"] for r in rows), attempts)),
                     number(sum(r["miss"] for r in rows)), number(sum(r["deopt"] for r in rows))])
    return table(["workload", "instructions executed", "in specialized forms",
                  "specialization success", "misses", "deopts"], body)


def render(data, charts=()):
    names = specstats.Names(data["tables"])
    counts = specstats.total(data["workloads"])
    rows = specstats.family_rows(counts, names)
    mix = specstats.instruction_mix(counts, names)
    executed = sum(n for _, n in mix)
    out = ["# Specialization statistics", ""]
    out.append("Interpreter: `%s` (cache tag `%s`), %s. Workloads: %s. Made by `%s`." % (
        data["python"], data["tables"]["cache_tag"], data["tables"]["version"].split()[0],
        ", ".join(sorted(data["workloads"])), " ".join(data["command"])))
    out.append("")
    out.append("Each benchmark counts one call of its `run(scale)` (a process with the call minus "
               "one without); a script counts whole, minus an interpreter that runs nothing. "
               "Families count specialization attempts, hits, misses and deopts on their generic "
               "opcode; a member's misses are its own. Names and failure kinds are the build's "
               "(its `opcode` module, generated from `instructions/`).")
    out.append("")
    for title, path in charts:
        out.append("![%s](%s)" % (title, path))
    if charts:
        out.append("")
    specializing = [r for r in rows if r["specializing"]]
    out += ["## Families", "", family_table(specializing), ""]
    quick = [["`%s`" % r["family"], number(r["generic"] + r["specialized"]),
              percent(specstats.ratio(r["specialized"], r["generic"] + r["specialized"])),
              ", ".join("`%s` %s" % (m, number(c["executions"])) for m, c in r["members"].items())]
             for r in rows if not r["specializing"] and r["generic"] + r["specialized"]]
    out += ["## Quick forms and superinstructions", "",
            "Installed by quickening without a guard: the share of each instruction's executions "
            "in those forms.", "",
            table(["instruction", "executions", "in quick forms", "forms"], quick,
                  ["---", "---:", "---:", "---"]), ""]
    out += ["## Top failure kinds", "", failure_table(rows), ""]
    body, never = member_lines(specializing)
    out += ["## Members", "", table(["member", "executions", "misses", "miss rate"], body), ""]
    out.append("Members that never ran: %s." % (", ".join(never) if never else "none"))
    out.append("")
    out += ["## Instruction mix", "", "%s instructions executed; the %d most executed:" % (
        number(executed), min(TOP_MIX, len(mix))), ""]
    out.append(table(["instruction", "executions", "share"],
                     [["`%s`" % name, number(n), percent(specstats.ratio(n, executed))]
                      for name, n in mix[:TOP_MIX]]))
    out.append("")
    top_pairs = specstats.pairs(counts, names)[:TOP_PAIRS]
    out += ["## Consecutive pairs", "", table(["first", "second", "count", "share of instructions"],
            [["`%s`" % a, "`%s`" % b, number(n), percent(specstats.ratio(n, executed))]
             for a, b, n in top_pairs], ["---", "---", "---:", "---:"]), ""]
    out += ["## Per workload", "", workload_table(data, names), ""]
    return "\n".join(out)


def family_summary(data):
    names = specstats.Names(data["tables"])
    counts = specstats.total(data["workloads"])
    return {row["family"]: row for row in specstats.family_rows(counts, names)}, names, counts


def render_comparison(before, after, before_label, after_label):
    """Two reports side by side: per family, per member, and the instruction mix."""
    b_rows, b_names, b_counts = family_summary(before)
    a_rows, a_names, a_counts = family_summary(after)
    out = ["# Specialization statistics: %s against %s" % (after_label, before_label), ""]
    common = sorted(set(before["workloads"]) & set(after["workloads"]))
    only = sorted(set(before["workloads"]) ^ set(after["workloads"]))
    out.append("Workloads in both: %s.%s" % (", ".join(common) or "none",
               " Left out (in one only): %s." % ", ".join(only) if only else ""))
    out.append("")
    if only:
        before = dict(before, workloads={k: before["workloads"][k] for k in common})
        after = dict(after, workloads={k: after["workloads"][k] for k in common})
        b_rows, b_names, b_counts = family_summary(before)
        a_rows, a_names, a_counts = family_summary(after)
    body = []
    for family in sorted(set(b_rows) | set(a_rows)):
        b, a = b_rows.get(family), a_rows.get(family)

        def cell(row, key):
            return "-" if row is None else row[key]

        def rate(row):
            if row is None:
                return None
            total = row["generic"] + row["adaptive"] + row["specialized"]
            return specstats.ratio(row["specialized"], total)
        body.append(["`%s`" % family, percent(rate(b)), percent(rate(a)),
                     number(cell(b, "hit")) if b else "-", number(cell(a, "hit")) if a else "-",
                     number(cell(b, "miss")) if b else "-", number(cell(a, "miss")) if a else "-",
                     number(cell(b, "deopt")) if b else "-", number(cell(a, "deopt")) if a else "-"])
    out += ["## Families", "", table(["family", "specialized before", "after", "hits before", "after",
                                      "misses before", "after", "deopts before", "after"], body), ""]
    b_mix, a_mix = dict(specstats.instruction_mix(b_counts, b_names)), dict(specstats.instruction_mix(a_counts, a_names))
    b_total, a_total = sum(b_mix.values()), sum(a_mix.values())
    out.append("Instructions executed: %s before, %s after (%s)." % (
        number(b_total), number(a_total),
        "%+.2f%%" % (100 * (a_total - b_total) / b_total) if b_total else "-"))
    out.append("")
    changes = sorted(set(b_mix) | set(a_mix), key=lambda n: (-abs(a_mix.get(n, 0) - b_mix.get(n, 0)), n))
    out += ["## Largest changes in the instruction mix", "",
            table(["instruction", "before", "after", "change"],
                  [["`%s`" % n, number(b_mix.get(n, 0)), number(a_mix.get(n, 0)),
                    "%+d" % (a_mix.get(n, 0) - b_mix.get(n, 0))]
                   for n in changes[:TOP_MIX] if a_mix.get(n, 0) != b_mix.get(n, 0)]), ""]
    return "\n".join(out)


def draw(data, folder):
    """PNG charts: per family the share of executions in specialized forms and the failure
    share; the instruction mix. [(title, file name)], empty without matplotlib."""
    try:
        import matplotlib
    except ImportError:
        return []
    matplotlib.use("Agg")
    from matplotlib import pyplot

    names = specstats.Names(data["tables"])
    counts = specstats.total(data["workloads"])
    rows = [r for r in specstats.family_rows(counts, names)
            if r["specializing"] and r["generic"] + r["adaptive"] + r["specialized"]]
    charts = []
    if rows:
        labels = [r["family"] for r in rows][::-1]
        specialized = [100 * r["specialized"] / (r["generic"] + r["adaptive"] + r["specialized"]) for r in rows][::-1]
        success = [100 * (specstats.ratio(r["success"], r["success"] + r["failure"]) or 0) for r in rows][::-1]
        figure, axes = pyplot.subplots(figsize=(8, 0.45 * len(rows) + 1.5))
        positions = range(len(rows))
        axes.barh([p + 0.2 for p in positions], specialized, height=0.4, label="executions in specialized forms")
        axes.barh([p - 0.2 for p in positions], success, height=0.4, label="specialization attempts that succeeded")
        axes.set_yticks(list(positions), labels)
        axes.set_xlim(0, 100)
        axes.set_xlabel("%")
        axes.legend(loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=2, fontsize="small")
        axes.set_title("Families")
        figure.tight_layout()
        figure.savefig(folder / "families.png", dpi=100)
        pyplot.close(figure)
        charts.append(("Families: specialized share and success rate", "families.png"))
    mix = specstats.instruction_mix(counts, names)[:TOP_MIX]
    if mix:
        executed = sum(n for _, n in specstats.instruction_mix(counts, names))
        figure, axes = pyplot.subplots(figsize=(8, 0.3 * len(mix) + 1.5))
        colors = ["tab:green" if names.is_specialized(name) else
                  "tab:orange" if name.endswith("_ADAPTIVE") else
                  "tab:purple" if names.is_quick(name) else "tab:blue" for name, _ in mix][::-1]
        axes.barh(range(len(mix)), [100 * n / executed for _, n in mix][::-1], color=colors)
        axes.set_yticks(list(range(len(mix))), [name for name, _ in mix][::-1], fontsize="small")
        axes.set_xlabel("% of instructions executed (green: specialized, orange: adaptive, "
                        "purple: quick forms and superinstructions)")
        axes.set_title("Instruction mix")
        figure.tight_layout()
        figure.savefig(folder / "mix.png", dpi=100)
        pyplot.close(figure)
        charts.append(("Instruction mix", "mix.png"))
    return charts
