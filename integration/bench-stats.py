#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Summarise integration/bench runs: median and spread per kernel and backend.

    bench-stats.py [--order L1,L2] [--header FILE] [--out DIR] RESULT...

Each RESULT is a scenario's result file (key=value lines, as written by
integration/lib.sh).  Runs are grouped by kernel (the result's label with
its "-repN" suffix removed) and backend (the scenario).  For each group the
median, min-max and quartiles of elapsed_ms, swapout_kib_s, swapin_kib_s,
pswpout and pswpin over the runs that passed; then the ratios NFS/NBD and
NFS/local of the median elapsed time.

A run counts as failed when its status is not "pass", when any page read
back wrong (mismatches != 0), or when it has no elapsed_ms figure.  Failed
runs are listed and counted in the table, never dropped silently, and make
the exit status 1.  Exit 2: bad usage or an unreadable result file.

With --out DIR the table also goes to DIR/bench.txt and DIR/bench.tsv, and
DIR/bench-plot.dat + DIR/bench.gp are written for gnuplot (bench.png).
Kept apart from integration/bench so it can be tested without guests.
"""

import argparse
import os
import re
import statistics
import sys

# Scenario -> backend name, in the order the table shows them.
BACKENDS = [
    ("t0110-swap-nfs42-stress", "NFSv4.2"),
    ("t0100-swap-nfs3-stress", "NFSv3"),
    ("t0200-swap-nbd-stress", "NBD"),
    ("t0210-swap-local-stress", "local"),
]
METRICS = ["elapsed_ms", "swapout_kib_s", "swapin_kib_s", "pswpout", "pswpin"]
RATIOS = [("NFSv4.2", "NBD"), ("NFSv3", "NBD"),
          ("NFSv4.2", "local"), ("NFSv3", "local")]


def read_result(path):
    fig = {}
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                k, sep, v = line.rstrip("\n").partition("=")
                if sep:
                    fig[k] = v
    except OSError as e:
        sys.stderr.write("swapnfs: ERROR: bench-stats: cannot read %s: %s\n"
                         % (path, e.strerror))
        sys.exit(2)
    return fig


def number(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return None  # absent or "na" (no /proc/vmstat)


def failure(fig):
    """Why this run does not count, or None if it is a good run."""
    if fig.get("status") != "pass":
        return "status=%s: %s" % (fig.get("status", "?"),
                                  fig.get("reason") or "no reason given")
    mm = number(fig.get("mismatches"))
    if mm is None:
        return "no mismatches figure (stress did not report)"
    if mm != 0:
        return "%d page(s) read back wrong" % mm
    if number(fig.get("elapsed_ms")) is None:
        return "no elapsed_ms figure"
    return None


def summary(vals):
    """(median, min, max, q1, q3) or None for no values."""
    if not vals:
        return None
    vals = sorted(vals)
    if len(vals) >= 2:
        q1, _, q3 = statistics.quantiles(vals, n=4, method="inclusive")
    else:
        q1 = q3 = vals[0]
    return (statistics.median(vals), vals[0], vals[-1], q1, q3)


def fmt(v, scale=1.0, prec=0):
    if v is None:
        return "-"
    return "%.*f" % (prec, v / scale)


def cell(s, scale=1.0, prec=0):
    if s is None:
        return "-"
    med, lo, hi = s[0], s[1], s[2]
    if lo == hi:
        return fmt(med, scale, prec)
    return "%s [%s-%s]" % (fmt(med, scale, prec), fmt(lo, scale, prec),
                           fmt(hi, scale, prec))


def align(rows):
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip()
            for r in rows]


def main():
    ap = argparse.ArgumentParser(add_help=True)
    ap.add_argument("--order", default="",
                    help="kernel labels in table order, comma separated")
    ap.add_argument("--header", help="file whose lines head bench.txt")
    ap.add_argument("--out", help="directory for bench.txt/tsv/gp")
    ap.add_argument("results", nargs="+")
    a = ap.parse_args()

    names = dict(BACKENDS)
    kernels = [k for k in a.order.split(",") if k]
    backends = []
    groups = {}  # (kernel, backend) -> list of (path, fig, why)
    for path in a.results:
        fig = read_result(path)
        label = fig.get("label") or os.path.basename(
            os.path.dirname(os.path.dirname(path)))
        kernel = re.sub(r"-rep[0-9]+$", "", label)
        scen = fig.get("scenario") or os.path.basename(os.path.dirname(path))
        backend = names.get(scen, scen)
        if kernel not in kernels:
            kernels.append(kernel)
        if backend not in backends:
            backends.append(backend)
        groups.setdefault((kernel, backend), []).append(
            (path, fig, failure(fig)))
    known = [b for _, b in BACKENDS]
    backends.sort(key=lambda b: known.index(b) if b in known else len(known))

    stats = {}
    rows = [["kernel", "backend", "runs", "failed", "elapsed s",
             "swap-out KiB/s", "swap-in KiB/s", "pswpout", "pswpin"]]
    tsv = ["\t".join(["kernel", "backend", "runs", "failed"] +
                     ["%s_%s" % (m, s) for m in METRICS
                      for s in ("median", "min", "max", "q1", "q3")])]
    failed = []
    for k in kernels:
        for b in backends:
            runs = groups.get((k, b))
            if not runs:
                continue
            good = [fig for _, fig, why in runs if why is None]
            bad = [(p, fig, why) for p, fig, why in runs if why is not None]
            failed += [(k, b, p, fig, why) for p, fig, why in bad]
            st = {}
            for m in METRICS:
                st[m] = summary([v for v in (number(f.get(m)) for f in good)
                                 if v is not None])
            stats[(k, b)] = (st, len(runs), len(bad))
            rows.append([k, b, str(len(runs)),
                         "FAIL %d" % len(bad) if bad else "0",
                         cell(st["elapsed_ms"], 1000.0, 1),
                         cell(st["swapout_kib_s"]), cell(st["swapin_kib_s"]),
                         cell(st["pswpout"]), cell(st["pswpin"])])
            line = [k, b, str(len(runs)), str(len(bad))]
            for m in METRICS:
                s = st[m]
                line += [fmt(x, 1.0, 1) for x in s] if s else ["-"] * 5
            tsv.append("\t".join(line))

    out = []
    if a.header:
        with open(a.header, encoding="utf-8") as f:
            out += [l.rstrip("\n") for l in f]
    out.append("median [min-max] over the runs that passed; elapsed is "
               "swapstress's own time (write + verify passes)")
    out += align(rows)

    def med_elapsed(k, b):
        s = stats.get((k, b))
        if not s or not s[0]["elapsed_ms"]:
            return None
        return s[0]["elapsed_ms"][0]

    def ratio(x, y):
        return "-" if x is None or y is None or y == 0 else "%.2f" % (x / y)

    out.append("")
    out.append("ratios of median elapsed time (1.00 = as fast as the "
               "baseline; higher = slower)")
    rr = [["kernel"] + ["%s/%s" % p for p in RATIOS]]
    for k in kernels:
        rr.append([k] + [ratio(med_elapsed(k, n), med_elapsed(k, d))
                         for n, d in RATIOS])
    out += align(rr)
    if len(kernels) > 1:
        out.append("")
        out.append("median elapsed relative to %s, per backend" % kernels[0])
        kr = [["kernel"] + backends]
        for k in kernels[1:]:
            kr.append([k] + [ratio(med_elapsed(k, b), med_elapsed(kernels[0], b))
                             for b in backends])
        out += align(kr)
    if failed:
        out.append("")
        out.append("FAILED runs (%d), not in the figures above:" % len(failed))
        for k, b, p, fig, why in failed:
            out.append("  %s %s (%s): %s" % (fig.get("label", k), b, p, why))
    text = "\n".join(out) + "\n"
    sys.stdout.write(text)

    if a.out:
        with open(os.path.join(a.out, "bench.txt"), "w", encoding="utf-8") as f:
            f.write(text)
        with open(os.path.join(a.out, "bench.tsv"), "w", encoding="utf-8") as f:
            f.write("\n".join(tsv) + "\n")
        write_plot(a.out, kernels, backends, stats)
    return 1 if failed else 0


def write_plot(out, kernels, backends, stats):
    """Grouped bars: one group per backend, one bar per kernel."""
    dat = os.path.join(out, "bench-plot.dat")
    # gnuplot refuses a plot with no point at all: when nothing passed,
    # draw zero bars under a note instead of no picture.
    empty = not any(stats[key][0]["elapsed_ms"] for key in stats)
    missing = ["0", "0", "0"] if empty else ["NaN"] * 3
    with open(dat, "w", encoding="utf-8") as f:
        f.write("# backend" + "".join(
            "\t%s_median_s\t%s_min_s\t%s_max_s" % (k, k, k)
            for k in kernels) + "\n")
        for b in backends:
            nfail = sum(stats[(k, b)][2] for k in kernels if (k, b) in stats)
            tic = b if not nfail else "%s\\n(%d failed)" % (b, nfail)
            line = ['"%s"' % tic]
            for k in kernels:
                s = stats.get((k, b))
                e = s[0]["elapsed_ms"] if s else None
                line += ["%.3f" % (x / 1000.0) for x in e[:3]] if e \
                    else missing
            f.write("\t".join(line) + "\n")
    plots = []
    for i, k in enumerate(kernels):
        c = 2 + 3 * i
        src = "'%s'" % dat if i == 0 else "''"
        plots.append("%s using %d:%d:%d%s title '%s'" %
                     (src, c, c + 1, c + 2,
                      ":xtic(1)" if i == 0 else "", k))
    gp = os.path.join(out, "bench.gp")
    with open(gp, "w", encoding="utf-8") as f:
        f.write("""# generated by integration/bench-stats.py; run: gnuplot bench.gp
set terminal pngcairo size 900,560 noenhanced
set output '%s'
set title 'swap stress: median elapsed per backend (bars: min-max)'
set ylabel 'elapsed (s), lower is better'
set style data histograms
set style histogram errorbars gap 2 lw 1.5
set style fill solid 0.6 border -1
set boxwidth 0.9
set yrange [0:*]
set offsets 0, 0, graph 0.08, 0
set bmargin 4
set grid ytics
set key top left
set datafile missing 'NaN'
%splot %s
""" % (os.path.join(out, "bench.png"),
       "set yrange [0:1]\nset label 'no run passed: nothing to plot' "
       "at graph 0.5, 0.5 center\n" if empty else "",
       ", \\\n     ".join(plots)))


if __name__ == "__main__":
    sys.exit(main())
