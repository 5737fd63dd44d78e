#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Verdicts and the table of integration/multiclient.

  multiclient-stats.py run DIR
      DIR is one run (RESULTS/LABEL/multiclient/PROTO-nN): reads host.txt,
      server-stat.log, clientK.log and ROLE.problems, writes DIR/result and
      DIR/clientK.result, prints one line; exit 0 if the run passed, 1 if
      not.
  multiclient-stats.py table BASE
      BASE is RESULTS/LABEL/multiclient: the table of every run's result
      (per client: stress time, slowdown against the one-client run of the
      same protocol, pages ok and bad, stall; per run: server CPU, nfsd;
      NFS/NBD ratio per N); exit 0, or 1 if a run failed.

A client passed when it printed SWAPNFS-RESULT pass, read every page back
(mismatches=0, pages_verified > 0) and its console shows no kernel
problem.  It stalled when its stress progress (the "swapstress: ... N%
(T s)" lines) stood still for stall_s seconds or more, or it hung (no
result by the timeout).  Errors: one line "swapnfs: ERROR: ..." and exit 1.
"""

import glob
import os
import re
import sys

PROTOS = ["nfs42", "nbd"]
GOAL_SLOWDOWN = 1.5


def die(msg):
    sys.stderr.write("swapnfs: ERROR: multiclient-stats: %s\n" % msg)
    sys.exit(1)


def keyvals(path):
    d = {}
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                k, sep, v = line.rstrip("\n").partition("=")
                if sep:
                    d[k] = v  # the last one wins (host.txt appends)
    except OSError:
        pass
    return d


def lines(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return [l.rstrip("\n").replace("\r", "") for l in f]
    except OSError:
        return []


def num(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


PROGRESS = re.compile(r"swapstress: (.*?)(?:: (\d+)%)? \((\d+) s\)\s*$")


def stall_of(log, elapsed_s):
    """Longest stretch (guest seconds) in which the progress stood still,
    from the stress's start (its time 0) to its end."""
    last_key, since, worst, t = None, 0.0, 0.0, 0.0
    for l in log:
        m = PROGRESS.search(l)
        if not m:
            continue
        key, t = (m.group(1), m.group(2)), float(m.group(3))
        if key != last_key:
            worst = max(worst, t - since)
            last_key, since = key, t
    end = elapsed_s if elapsed_s is not None else t
    return max(worst, end - since)


def client_result(d, host, k):
    log = lines(os.path.join(d, "client%d.log" % k))
    fig = {}
    verdict = None
    for l in log:
        m = re.search(r"SWAPNFS-FIGURE ([A-Za-z0-9_]+)=(\S+)", l)
        if m:
            fig[m.group(1)] = m.group(2)
        m = re.search(r"SWAPNFS-RESULT (.*)$", l)
        if m:
            verdict = m.group(1).strip()
    end = host.get("client%d_end" % k, "never started")
    problems = [p for p in lines(os.path.join(d, "client%d.problems" % k))
                if p]
    elapsed = num(fig.get("elapsed_ms"))
    stress_s = elapsed / 1000 if elapsed is not None else None
    verified = num(fig.get("pages_verified"))
    bad = num(fig.get("mismatches"))
    stall = stall_of(log, stress_s)
    stall_s = num(host.get("stall_s")) or 60
    reason = ""
    if host.get("client%d_ready" % k) == "0":
        reason = "never ready (mount, swapon or boot)"
    if end == "timeout":
        reason = "no result within %s s (hang)" % host.get("timeout_s", "?")
    elif end == "panic":
        reason = "kernel panicked"
    elif end == "exited":
        reason = "QEMU ended without a result"
    elif verdict is not None and not verdict.startswith("pass"):
        reason = "client: " + verdict
    elif bad is None or verified is None:
        reason = reason or "no stress figures"
    elif bad > 0:
        reason = "%d pages read back wrong" % bad
    elif verified == 0:
        reason = "no page verified"
    if not reason and problems:
        reason = "kernel: " + problems[0]
    stalled = end == "timeout" or stall >= stall_s
    if not reason and stalled:
        reason = "progress stood still %.0f s" % stall
    done = num(host.get("client%d_done_t" % k))
    go = num(host.get("go_t"))
    return {
        "client": str(k),
        "status": "fail" if reason else "pass",
        "reason": reason,
        "end": end,
        "stress_s": "%.1f" % stress_s if stress_s is not None else "",
        "host_s": "%.0f" % (done - go) if done and go else "",
        "pages_verified": "%d" % verified if verified is not None else "",
        "mismatches": "%d" % bad if bad is not None else "",
        "pages_ok": ("%d" % (verified - bad)
                     if verified is not None and bad is not None else ""),
        "stall_max_s": "%.0f" % stall,
        "stalled": "yes" if stalled else "no",
        "pswpout": fig.get("pswpout", ""),
        "pswpin": fig.get("pswpin", ""),
    }


def samples(path):
    """[(host time, tag, cpu fields, threads, pool fields)] from the log."""
    out, cur = [], None
    for l in lines(path):
        if l.startswith("@ "):
            parts = l.split(None, 2)
            cur = [num(parts[1]), parts[2] if len(parts) > 2 else "",
                   None, None, None]
            out.append(cur)
        elif cur is None:
            continue
        elif l.startswith("cpu "):
            cur[2] = [int(x) for x in l.split()[1:9]]
        elif re.fullmatch(r"\d+", l.strip()) and cur[3] is None:
            cur[3] = int(l.strip())
        elif re.fullmatch(r"\d+( \d+){4,}", l.strip()):
            cur[4] = [int(x) for x in l.split()[1:5]]
    return out


def busy(a, b):
    if not a or not b:
        return None
    tot = sum(b) - sum(a)
    idle = (b[3] + b[4]) - (a[3] + a[4])
    return 100.0 * (tot - idle) / tot if tot > 0 else None


def run(d):
    host = keyvals(os.path.join(d, "host.txt"))
    if not host:
        die("no host.txt in %s" % d)
    n = int(host.get("clients", "0"))
    res = {k: host.get(k, "") for k in
           ("proto", "clients", "label", "kernel", "accel", "mib", "passes",
            "client_mem", "server_mem", "nfsd_threads_opt",
            "stop_nbd_server", "stall_s", "date", "command", "load_go",
            "load_end")}
    reasons = []
    clients = []
    if host.get("server_ready") != "1":
        srv = lines(os.path.join(d, "server.log"))
        why = [re.sub(r".*SWAPNFS-RESULT fail ", "", l) for l in srv
               if "SWAPNFS-RESULT fail" in l]
        reasons.append("server guest never became ready" +
                       (": " + why[0] if why else ""))
    else:
        for k in range(1, n + 1):
            c = client_result(d, host, k)
            clients.append(c)
            with open(os.path.join(d, "client%d.result" % k), "w",
                      encoding="utf-8") as f:
                for key, v in c.items():
                    f.write("%s=%s\n" % (key, v))
            if c["status"] != "pass":
                reasons.append("client %d: %s" % (k, c["reason"]))
    sp = [p for p in lines(os.path.join(d, "server.problems")) if p]
    if sp:
        reasons.append("server kernel: " + sp[0])
    s = [x for x in samples(os.path.join(d, "server-stat.log"))
         if x[2] is not None]
    if s:
        go, end = s[0], s[-1]
        first = next((x for x in s if x[1].startswith("done")), end)
        b = busy(go[2], end[2])
        res["server_cpu_pct"] = "%.0f" % b if b is not None else ""
        b = busy(go[2], first[2])
        res["server_cpu_all_pct"] = "%.0f" % b if b is not None else ""
        steps = [busy(a[2], c[2]) for a, c in zip(s, s[1:])]
        steps = [x for x in steps if x is not None]
        res["server_cpu_max_pct"] = "%.0f" % max(steps) if steps else ""
        res["nfsd_threads"] = str(go[3]) if go[3] is not None else ""
        if go[4] and end[4]:
            dp = [e - g for g, e in zip(go[4], end[4])]
            res["pool_packets"] = str(dp[0])
            res["pool_enqueued"] = str(dp[1])
            res["pool_woken"] = str(dp[2])
            # 6.1 svc_xprt_do_enqueue(): a transport queued without
            # waking an idle thread found every nfsd thread busy.
            res["pool_no_idle"] = str(dp[1] - dp[2])
    tck = num(host.get("clk_tck")) or 100
    cpus = num(host.get("host_cpus")) or 1
    go_t, end_t = num(host.get("go_t")), num(host.get("end_t"))
    ticks = 0.0
    for role in ["server"] + ["client%d" % k for k in range(1, n + 1)]:
        a = num(host.get("qemu_ticks_go_" + role))
        b = num(host.get("qemu_ticks_end_" + role))
        if a is not None and b is not None:
            ticks += b - a
    if go_t and end_t and end_t > go_t:
        res["window_s"] = "%.0f" % (end_t - go_t)
        res["host_busy_pct"] = "%.0f" % (
            100.0 * ticks / tck / (end_t - go_t) / cpus)
    times = [num(c["stress_s"]) for c in clients
             if num(c["stress_s"]) is not None]
    if times:
        res["mean_stress_s"] = "%.1f" % (sum(times) / len(times))
        res["max_stress_s"] = "%.1f" % max(times)
    res["stalls"] = str(sum(c["stalled"] == "yes" for c in clients))
    res["bad_pages"] = str(sum(int(c["mismatches"] or 0) for c in clients))
    res["status"] = "fail" if reasons else "pass"
    res["reason"] = "; ".join(reasons)
    with open(os.path.join(d, "result"), "w", encoding="utf-8") as f:
        for key, v in res.items():
            f.write("%s=%s\n" % (key, v))
    line = "%s: %s client(s), mean stress %s s, server CPU %s%%" % (
        res["status"], res["clients"], res.get("mean_stress_s", "-"),
        res.get("server_cpu_pct", "-") or "-")
    if reasons:
        line += ": " + res["reason"]
    print(line)
    return 0 if not reasons else 1


def fmt(v, spec="%.2f"):
    return spec % v if v is not None else "-"


def table(base):
    runs = []
    for p in sorted(glob.glob(os.path.join(base, "*-n*", "result"))):
        r = keyvals(p)
        if r.get("proto") and r.get("clients"):
            r["_dir"] = os.path.dirname(p)
            runs.append(r)
    if not runs:
        die("no multiclient results in %s" % base)
    runs.sort(key=lambda r: (PROTOS.index(r["proto"])
                             if r["proto"] in PROTOS else 9,
                             int(r["clients"])))
    one = {}
    for r in runs:
        if r["clients"] == "1" and num(r.get("mean_stress_s")):
            one[r["proto"]] = num(r["mean_stress_s"])
    out = []
    heads = sorted({(r.get("label", ""), r.get("kernel", ""),
                     r.get("accel", ""), r.get("mib", ""),
                     r.get("passes", ""), r.get("client_mem", ""),
                     r.get("server_mem", "")) for r in runs})
    for lab, ker, acc, mib, passes, cm, sm in heads:
        out.append("# multiclient [%s]: kernel %s, accel %s, %s MiB x %s "
                   "pass stress per client, clients %s MiB, server %s MiB "
                   "1 CPU" % (lab, ker, acc, mib, passes, cm, sm))
    for c in sorted({r.get("command", "") for r in runs if r.get("command")}):
        out.append("# command: %s" % c)
    out.append("")
    out.append("%-6s %3s %6s %9s %8s %9s %5s %7s  %s" % (
        "proto", "N", "client", "stress_s", "slowdown", "pages_ok", "bad",
        "stall_s", "status"))
    worst = {}
    for r in runs:
        for cf in sorted(glob.glob(os.path.join(r["_dir"], "client*.result")),
                         key=lambda x: int(re.sub(r"\D", "", os.path.basename(x)))):
            c = keyvals(cf)
            t = num(c.get("stress_s"))
            base1 = one.get(r["proto"])
            sd = t / base1 if t is not None and base1 else None
            key = (r["proto"], r["clients"])
            if sd is not None:
                worst[key] = max(worst.get(key, 0), sd)
            st = c.get("status", "?")
            if c.get("stalled") == "yes":
                st += " STALL"
            if c.get("end") == "timeout":
                st += " HANG"
            out.append("%-6s %3s %6s %9s %8s %9s %5s %7s  %s" % (
                r["proto"], r["clients"], c.get("client", "?"),
                c.get("stress_s") or "-", fmt(sd),
                c.get("pages_ok") or "-", c.get("mismatches") or "-",
                c.get("stall_max_s") or "-", st))
    out.append("")
    out.append("%-6s %3s %8s %8s %8s %5s %6s %5s %12s %6s %9s %5s  %s" % (
        "proto", "N", "mean_s", "slowdown", "worst", "srv%", "srvN%",
        "nfsd", "no_idle", "host%", "load", "stall", "status"))
    for r in runs:
        m = num(r.get("mean_stress_s"))
        base1 = one.get(r["proto"])
        enq = "-"
        if r.get("pool_packets"):
            enq = "%s/%s" % (r.get("pool_no_idle"), r.get("pool_packets"))
        load = "-"
        if r.get("load_go") and r.get("load_end"):
            load = "%s/%s" % (r["load_go"], r["load_end"])
        out.append("%-6s %3s %8s %8s %8s %5s %6s %5s %12s %6s %9s %5s  %s" % (
            r["proto"], r["clients"], r.get("mean_stress_s") or "-",
            fmt(m / base1 if m is not None and base1 else None),
            fmt(worst.get((r["proto"], r["clients"]))),
            r.get("server_cpu_pct") or "-", r.get("server_cpu_all_pct") or "-",
            r.get("nfsd_threads") or "-", enq, r.get("host_busy_pct") or "-",
            load, r.get("stalls") or "0", r.get("status", "?")))
    out.append("")
    out.append("slowdown: stress time against the one-client run of the same "
               "protocol; srv%: server CPU busy from start to the last client "
               "done, srvN%: until the first one done (all N running); "
               "no_idle: transports queued while every nfsd thread was busy / "
               "all queued (pool_stats); "
               "host%: the guests' QEMU CPU over all host CPUs; load: the "
               "host's 1-minute load average at the start and the end.")
    ratios = []
    for n in sorted({int(r["clients"]) for r in runs}):
        a = [num(r.get("mean_stress_s")) for r in runs
             if r["proto"] == "nfs42" and r["clients"] == str(n)]
        b = [num(r.get("mean_stress_s")) for r in runs
             if r["proto"] == "nbd" and r["clients"] == str(n)]
        if a and b and a[0] and b[0]:
            ratios.append("N=%d %.2f" % (n, a[0] / b[0]))
    out.append("NFS/NBD (mean per-client stress time): " +
               (", ".join(ratios) if ratios else "-"))
    nfs = [r for r in runs if r["proto"] == "nfs42"]
    if nfs:
        r = max(nfs, key=lambda x: int(x["clients"]))
        w = worst.get(("nfs42", r["clients"]))
        ok = (r.get("status") == "pass" and w is not None and
              w <= GOAL_SLOWDOWN)
        out.append("goal (NFSv4.2, N=%s: every page back, no stall, no hang, "
                   "per-client slowdown <= %.1fx): %s (worst %s, %s)" % (
                       r["clients"], GOAL_SLOWDOWN,
                       "met" if ok else "not met", fmt(w) + "x"
                       if w is not None else "-", r.get("status")))
    print("\n".join(out))
    return 1 if any(r.get("status") != "pass" for r in runs) else 0


def main(argv):
    if len(argv) == 2 and argv[0] == "run":
        if not os.path.isdir(argv[1]):
            die("no run directory %s" % argv[1])
        return run(argv[1])
    if len(argv) == 2 and argv[0] == "table":
        if not os.path.isdir(argv[1]):
            die("no multiclient directory %s" % argv[1])
        return table(argv[1])
    if argv[:1] in (["-h"], ["--help"]):
        sys.stdout.write(__doc__)
        return 0
    die("usage: multiclient-stats.py run DIR | table BASE")
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
