#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Summarise ftrace function-profiler output (trace_stat/function*).

  integration/profile-stats.py [--top N] [--label NAME] INPUT...
  integration/profile-stats.py --compare [--top N] NAME=INPUT NAME=INPUT...

INPUT is a client console log with the SWAPNFS-PROF lines that
integration/guest/profile.sh prints (SWAPNFS_PROFILE=1, integration/bench
--profile), or a raw trace_stat/functionN file (then say --pages N for the
per-page columns).  Every CPU's table is summed per function.

The first form prints one profile: the window (swapped pages =
pswpout + pswpin, CPU ticks), then the top N functions by total time and
the top N by hit count, each with time and hits per swapped page.
Times are CPU time including the callees (graph-time on, sleep-time off),
as the profiler measured them on a traced kernel: under TCG, and with every
profiled function hooked, they are inflated; compare ratios, not absolutes.

--compare prints, for several profiles side by side (e.g. nfs42=LOG
nbd=LOG), microseconds per swapped page of the functions that mark the
swap I/O paths (RPC task setup, XDR, nfs_page and header allocation, socket
send and receive, NBD's request path) and of the top N of each, with the
ratio of the first profile to the second.

Errors are one line "swapnfs: ERROR: profile-stats: ..." and exit 1.
"""

import os
import re
import sys

# trace_stat line with FUNCTION_GRAPH_TRACER: name, hits, total, avg, s^2.
LINE = re.compile(r"^\s*(\S+)\s+(\d+)(?:\s+([0-9.]+) us\s+([0-9.]+) us)?")

# Cost points of the swap I/O paths, in the order the README discusses
# them.  Times are inclusive, so the rows nest; they are not to be added.
COST_POINTS = [
    ("swap entry", ["swap_writepage", "swap_readpage", "__swap_writepage",
                    "swap_writepage_fs", "swap_readpage_fs"]),
    ("NFS swap I/O", ["nfs_swap_rw", "nfs_file_direct_write",
                      "nfs_file_direct_read",
                      "nfs_direct_write_schedule_iovec",
                      "nfs_direct_read_schedule_iovec"]),
    ("nfs_page", ["nfs_create_request", "nfs_page_alloc",
                  "nfs_pageio_add_request", "nfs_release_request",
                  "nfs_free_request"]),
    ("pgio header", ["nfs_pgio_header_alloc", "nfs_writehdr_alloc",
                     "nfs_readhdr_alloc", "nfs_generic_pgio",
                     "nfs_pgio_header_free"]),
    ("RPC task", ["nfs_initiate_pgio", "rpc_run_task", "rpc_new_task",
                  "rpc_execute", "rpc_release_calldata", "rpc_put_task",
                  "rpc_free_task"]),
    ("RPC state machine", ["rpc_async_schedule", "__rpc_execute",
                           "rpc_make_runnable", "rpc_wake_up_queued_task"]),
    ("session slot", ["nfs4_setup_sequence", "nfs41_sequence_done",
                      "nfs41_setup_sequence"]),
    ("XDR encode", ["call_encode", "rpc_xdr_encode", "rpcauth_wrap_req",
                    "nfs4_xdr_enc_write", "nfs4_xdr_enc_read",
                    "nfs3_xdr_enc_write3args", "nfs3_xdr_enc_read3args"]),
    ("transmit", ["call_transmit", "xprt_transmit", "xs_tcp_send_request",
                  "xprt_sock_sendmsg", "sock_sendmsg", "tcp_sendmsg"]),
    ("receive", ["xs_stream_data_receive_workfn", "xs_read_stream",
                 "xprt_complete_rqst", "sock_recvmsg", "tcp_recvmsg"]),
    ("XDR decode", ["call_decode", "rpcauth_unwrap_resp",
                    "nfs4_xdr_dec_write", "nfs4_xdr_dec_read",
                    "nfs3_xdr_dec_write3res", "nfs3_xdr_dec_read3res"]),
    ("NFS completion", ["nfs_pgio_result", "nfs_writeback_done",
                        "nfs_readpage_done", "nfs_direct_write_completion",
                        "nfs_direct_read_completion", "nfs_pgio_release"]),
    ("NBD", ["nbd_queue_rq", "nbd_handle_cmd", "nbd_send_cmd", "sock_xmit",
             "recv_work", "nbd_handle_reply"]),
    ("block layer", ["submit_bio", "submit_bio_noacct", "blk_mq_submit_bio",
                     "blk_mq_end_request"]),
    ("reclaim/fault", ["shrink_page_list", "shrink_folio_list",
                       "do_swap_page", "handle_mm_fault"]),
    ("allocator", ["kmem_cache_alloc", "__kmalloc", "kfree",
                   "kmem_cache_free", "mempool_alloc", "__alloc_pages"]),
    ("scheduling", ["process_one_work", "queue_work_on", "try_to_wake_up",
                    "schedule"]),
    ("NIC", ["virtnet_poll", "start_xmit", "napi_gro_receive"]),
]


def die(msg):
    sys.stderr.write("swapnfs: ERROR: profile-stats: %s\n" % msg)
    sys.exit(1)


class Profile:
    def __init__(self, label):
        self.label = label
        self.funcs = {}          # name -> [hits, time_us]
        self.window = {}         # SWAPNFS-PROF-VMSTAT key -> value
        self.meta = {}
        self.cpus = set()
        self.timed = False
        self.ended = False
        self.pages_override = None

    def add(self, table, line, where):
        line = line.rstrip("\r\n")
        if not line.strip() or line.lstrip().startswith(("Function", "--")):
            return
        m = LINE.match(line)
        if not m:
            die("%s: not a trace_stat line: %r" % (where, line[:80]))
        name, hits = m.group(1), int(m.group(2))
        self.cpus.add(table)
        f = self.funcs.setdefault(name, [0, 0.0])
        f[0] += hits
        if m.group(3) is not None:
            self.timed = True
            f[1] += float(m.group(3))

    def read(self, path):
        try:
            fh = open(path, encoding="utf-8", errors="replace")
        except OSError as e:
            die("cannot read %s: %s" % (path, e.strerror))
        with fh:
            text = fh.read().splitlines()
        console = any("SWAPNFS-PROF" in ln for ln in text)
        table = os.path.basename(path)
        for n, ln in enumerate(text, 1):
            where = "%s:%d" % (path, n)
            if not console:
                self.add(table, ln, where)
                continue
            i = ln.find("SWAPNFS-PROF")
            if i < 0:
                continue
            tag, _, rest = ln[i:].rstrip("\r").partition(" ")
            if tag == "SWAPNFS-PROF":
                tab, _, stat = rest.partition(" ")
                self.add(tab, stat, where)
            elif tag in ("SWAPNFS-PROF-VMSTAT", "SWAPNFS-PROF-META"):
                d = self.window if tag.endswith("VMSTAT") else self.meta
                for kv in rest.split():
                    k, sep, v = kv.partition("=")
                    if sep:
                        d[k] = v
            elif tag == "SWAPNFS-PROF-END":
                self.ended = True
        if console and not self.ended:
            die("%s: the profile is incomplete (no SWAPNFS-PROF-END line: "
                "did the client finish?)" % path)

    def pages(self):
        if self.pages_override is not None:
            return self.pages_override
        try:
            return int(self.window["pswpout"]) + int(self.window["pswpin"])
        except (KeyError, ValueError):
            return 0

    def top(self, key, n):
        idx = 1 if key == "time" else 0
        rows = sorted(self.funcs.items(), key=lambda kv: (-kv[1][idx], kv[0]))
        return rows[:n]

    def per_page(self, name):
        """(hits, us) per swapped page of a function, None if absent."""
        p = self.pages()
        f = self.get(name)
        if f is None or not p:
            return None
        return f[0] / p, f[1] / p

    def get(self, name):
        """[hits, us] of a function; a cost point's name also takes the
        compiler's clones (foo.isra.0, foo.constprop.0, foo.cold)."""
        if name in self.funcs:
            return self.funcs[name]
        hits = [v for k, v in self.funcs.items() if k.startswith(name + ".")]
        if not hits:
            return None
        return [sum(v[0] for v in hits), sum(v[1] for v in hits)]


def fmt(x, nd=2):
    return "-" if x is None else "%.*f" % (nd, x)


def report(p, top):
    out = []
    pages = p.pages()
    w = p.window
    out.append("# profile %s: %d functions on %d CPU table(s), mode %s" % (
        p.label, len(p.funcs), len(p.cpus), p.meta.get("mode", "?")))
    if w:
        out.append("# window: pswpout %s pswpin %s (%d pages), %s s, CPU "
                   "ticks user %s sys %s idle %s iowait %s (HZ %s)" % (
                       w.get("pswpout"), w.get("pswpin"), pages,
                       w.get("wall_s", "?"), w.get("user_ticks", "?"),
                       w.get("sys_ticks", "?"), w.get("idle_ticks", "?"),
                       w.get("iowait_ticks", "?"), w.get("hz", "?")))
        try:
            hz = float(w["hz"])
            if pages:
                out.append("# kernel CPU per swapped page: %.1f us (sys "
                           "ticks, profiler overhead included)" % (
                               float(w["sys_ticks"]) / hz * 1e6 / pages))
        except (KeyError, ValueError):
            pass
    elif pages:
        out.append("# %d swapped pages (--pages)" % pages)
    if not p.timed:
        out.append("# no times in this profile (kernel without "
                   "FUNCTION_GRAPH_TRACER): hit counts only")
    out.append("# times: CPU us including callees (nested rows overlap); "
               "under TCG and tracing, inflated: compare ratios")
    for key in ("time", "hits"):
        out.append("")
        out.append("top %d by %s" % (top, "total time" if key == "time"
                                     else "hit count"))
        out.append("%-4s %-36s %12s %14s %10s %10s" % (
            "rank", "function", "hits", "time_us", "hits/page", "us/page"))
        for i, (name, (hits, t)) in enumerate(p.top(key, top), 1):
            pp = p.per_page(name)
            out.append("%-4d %-36s %12d %14.1f %10s %10s" % (
                i, name, hits, t, fmt(pp and pp[0]), fmt(pp and pp[1])))
    return "\n".join(out)


def compare(profs, top):
    a = profs[0]
    b = profs[1] if len(profs) > 1 else None
    out = []
    out.append("# us per swapped page (CPU, callees included; rows nest): "
               + ", ".join("%s %d pages" % (p.label, p.pages())
                           for p in profs))
    hdr = "%-18s %-34s" % ("cost", "function") + "".join(
        " %10s" % p.label for p in profs)
    if b:
        hdr += " %10s" % ("%s/%s" % (a.label, b.label))[:10]
    out.append(hdr)

    def row(group, name):
        vals = [p.per_page(name) for p in profs]
        if all(v is None for v in vals):
            return None
        s = "%-18s %-34s" % (group, name) + "".join(
            " %10s" % fmt(v and v[1]) for v in vals)
        if b:
            va, vb = vals[0], vals[1]
            s += " %10s" % (fmt(va[1] / vb[1]) if va and vb and vb[1] else "-")
        return s

    seen = set()
    for group, names in COST_POINTS:
        for name in names:
            r = row(group, name)
            if r:
                out.append(r)
                seen.add(name)
    for p in profs:
        rows = [row("top:" + p.label, n) for n, _ in p.top("time", top)
                if n not in seen and n.split(".", 1)[0] not in seen]
        seen.update(n for n, _ in p.top("time", top))
        out.extend(r for r in rows if r)
    return "\n".join(out)


def main(argv):
    top, label, pages, cmp_mode, inputs = 25, None, None, False, []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("-h", "--help"):
            sys.stdout.write(__doc__)
            return 0
        if a in ("--top", "--label", "--pages"):
            if i + 1 >= len(argv) or argv[i + 1].startswith("--"):
                die("%s needs a value" % a)
            v = argv[i + 1]
            if a == "--label":
                label = v
            else:
                if not re.fullmatch(r"[1-9][0-9]*", v):
                    die("%s wants a positive integer, got '%s'" % (a, v))
                if a == "--top":
                    top = int(v)
                else:
                    pages = int(v)
            i += 2
            continue
        if a == "--compare":
            cmp_mode = True
        elif a.startswith("-"):
            die("unknown option '%s' (see --help)" % a)
        else:
            inputs.append(a)
        i += 1
    if not inputs:
        die("no input (see --help)")
    if cmp_mode:
        profs = []
        for arg in inputs:
            name, sep, path = arg.partition("=")
            if not sep or not name or not path:
                die("--compare wants NAME=INPUT, got '%s'" % arg)
            p = Profile(name)
            p.read(path)
            p.pages_override = pages
            if not p.funcs:
                die("%s: no profile lines" % path)
            profs.append(p)
        print(compare(profs, top))
        return 0
    p = Profile(label or os.path.basename(inputs[0]))
    for path in inputs:
        p.read(path)
    p.pages_override = pages
    if not p.funcs:
        die("no profile lines in %s" % " ".join(inputs))
    print(report(p, top))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
