"""PNG charts of speedups against the baseline, one chart per mode (matplotlib, Agg backend).

Each benchmark gets one horizontal bar per non-baseline interpreter; wall-clock bars carry
the interquartile-pairing range of `stats.speedup_range` as error bars.  The geometric mean
is the last group.  matplotlib is imported lazily: the rest of the harness works without it.
"""

from benchmarks import report, stats


def speedup_series(results, mode):
    """{name: [(benchmark, low, speedup, high), ...]} including a final geometric-mean row."""
    names = results.names
    baseline = names[0]
    series = {name: [] for name in names[1:]}
    for benchmark, _, speedups in report.speedup_rows(results, mode):
        if mode == "wall":
            summaries = report.wall_summaries(results, benchmark)
        for name, value in speedups.items():
            if mode == "wall":
                low, value, high = stats.speedup_range(summaries[baseline], summaries[name])
            else:
                low = high = value
            series[name].append((benchmark, low, value, high))
    for name, points in series.items():
        if points:
            mean = stats.geometric_mean([value for _, _, value, _ in points])
            points.append(("geometric mean", mean, mean, mean))
    return series


def draw(results, mode, path):
    """Write the chart for one mode to `path`; returns False when there is nothing to draw."""
    series = speedup_series(results, mode)
    if not any(series.values()):
        return False
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    labels = []
    for points in series.values():
        for benchmark, *_ in points:
            if benchmark not in labels:
                labels.append(benchmark)
    # Benchmarks sorted by name, geometric mean last, drawn from top to bottom.
    labels = sorted(label for label in labels if label != "geometric mean") + ["geometric mean"]
    position = {label: len(labels) - 1 - index for index, label in enumerate(labels)}
    bar_height = 0.8 / len(series)
    figure, axes = pyplot.subplots(figsize=(9, 1.2 + 0.28 * len(labels) * max(1, len(series) * 0.7)))
    for index, (name, points) in enumerate(series.items()):
        ys = [position[b] + 0.4 - bar_height * (index + 0.5) for b, *_ in points]
        values = [value for _, _, value, _ in points]
        errors = [[value - low for _, low, value, _ in points], [high - value for _, _, value, high in points]]
        # Bars grow from 1.0 (no change) towards the speedup, left for slower, right for faster.
        axes.barh(ys, [value - 1.0 for value in values], left=1.0, height=bar_height * 0.9,
                  xerr=errors if mode == "wall" else None,
                  capsize=2, label="%s vs %s" % (name, results.names[0]))
        mean_y, mean = ys[-1], values[-1]
        axes.annotate("%.3fx" % mean, (mean, mean_y), xytext=(4 if mean >= 1 else -4, 0),
                      textcoords="offset points", ha="left" if mean >= 1 else "right",
                      va="center", fontsize="small")
    axes.axvline(1.0, color="black", linewidth=0.8)
    axes.set_yticks(range(len(labels)))
    axes.set_yticklabels(list(reversed(labels)))
    lowest = min(low for points in series.values() for _, low, _, _ in points)
    highest = max(high for points in series.values() for _, _, _, high in points)
    axes.set_xlim(min(0.9, lowest - 0.06), max(1.1, highest + 0.06))
    axes.set_xlabel("speedup over %s (higher is better)" % results.names[0])
    axes.set_title(report.MODE_TITLES[mode])
    axes.grid(axis="x", linewidth=0.3)
    axes.legend(loc="lower right", fontsize="small")
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    pyplot.close(figure)
    return True
