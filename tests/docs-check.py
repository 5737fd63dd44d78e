#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Find what a Markdown document names that the repository does not have.

    tests/docs-check.py [--top DIR] KIND DOC...

KIND is one of:
  paths      files and directories of the repository (`scripts/x`,
             `integration/tNNNN-*.sh`, links), patch references such as
             nfs/0003, and scenario numbers such as t0400
  commands   scripts/*, integration/* and .ci/* used as commands: they
             must exist and be executable
  options    options given to scripts/integrate, integration/run,
             integration/bench, integration/multiclient or scripts/topic
             that its --help does not
             list; an inline `--opt` on its own belongs to the last of
             those commands named before it in the same paragraph
Prints one line per problem ("DOC:LINE: what") and exits 1 if there is
any, 0 if none, 2 on bad usage.  Used by tests/t-docs.sh.
"""

import glob
import os
import re
import subprocess
import sys

TOPIC_DIRS = ("mm", "netvm", "nfs", "sunrpc")
REPO_DIRS = (".ci", "integration", "scripts", "tests", "tools") + TOPIC_DIRS
CHECKED_CMDS = ("scripts/integrate", "integration/run", "integration/bench",
                "integration/multiclient", "scripts/topic")
# A path-like token whose first component is a directory of the repository.
PATH_RE = re.compile(r"(?<![\w./~$-])((?:%s)/[\w.*+/-]*)" %
                     "|".join(re.escape(d) for d in REPO_DIRS))
# t0850-t0853 is a range: a "-tNNNN" tail is the next number, not a name.
SCEN_RE = re.compile(r"(?<![\w/])(t[0-9]{4})((?:-(?!t[0-9])[a-z0-9]+)*)(?![\w])")
OPT_RE = re.compile(r"(?<![\w-])(--?[A-Za-z][\w-]*)")


def spans(path):
    """(line number, text, kind, paragraph) for the document's pieces:
    kind "fence" for a line of fenced code ("$ " prompt and "# comment"
    removed), "inline" for a `code span`, "prose" for the rest of a
    line.  A fenced block and the paragraph right after it share one
    paragraph number (the prose explains the commands above it); a list
    item starts a paragraph."""
    out, fenced, para, after_fence = [], False, 0, False
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if line.startswith("```"):
                fenced = not fenced
                if fenced and not after_fence:
                    para += 1
                after_fence = not fenced
                continue
            if fenced:
                line = re.sub(r"^\$ ", "", line)
                line = re.sub(r"(^|\s)#.*", "", line)
                out.append((n, line, "fence", para))
                continue
            if not line.strip():
                if not after_fence:
                    para += 1
                continue
            # A list item is a paragraph of its own.
            if re.match(r"\s*([-*]|[0-9]+\.) ", line):
                para += 1
            after_fence = False
            for m in re.finditer(r"`([^`]+)`", line):
                out.append((n, m.group(1), "inline", para))
            out.append((n, re.sub(r"`[^`]*`", " ", line), "prose", para))
    return out


def placeholder_glob(tok):
    tok = tok.replace("NNNN", "[0-9][0-9][0-9][0-9]")
    return re.sub(r"(?<![A-Za-z])[A-Z]{3,}(?![a-z])", "*", tok)


def check_paths(top, doc, pieces):
    bad = []
    docdir = os.path.dirname(os.path.abspath(doc))
    seen = set()
    for n, text, kind, _ in pieces:
        cands = [m.group(1) for m in PATH_RE.finditer(text)]
        if kind == "prose":
            cands += [("LINK", m.group(1)) for m in
                      re.finditer(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text)]
        for c in cands:
            if isinstance(c, tuple):
                if re.match(r"[a-z]+:", c[1]):
                    continue  # a URL
                full = os.path.normpath(os.path.join(docdir, c[1]))
                if not os.path.exists(full):
                    bad.append("%s:%d: link to a missing file: %s"
                               % (doc, n, c[1]))
                continue
            tok = c.rstrip(".,;:)")
            first, _, rest = tok.partition("/")
            if first in TOPIC_DIRS:
                pm = re.match(r"([0-9]{4})(?:-([0-9]{4}))?$", rest)
                if pm:
                    for num in filter(None, pm.groups()):
                        if not glob.glob(os.path.join(top, first, num + "-*.patch")):
                            bad.append("%s:%d: no patch %s/%s" % (doc, n, first, num))
                    continue
                # Kernel paths (mm/page_alloc.c) are not the repository's.
                if rest and not re.match(
                        r"([0-9]{4}|\*|cover-letter|topic\.conf|send\.expected)", rest):
                    continue
            if (n, tok) in seen:
                continue
            seen.add((n, tok))
            if not glob.glob(os.path.join(top, placeholder_glob(tok))):
                bad.append("%s:%d: no such file or directory: %s" % (doc, n, tok))
        for m in SCEN_RE.finditer(text):
            num, tail = m.group(1), m.group(2)
            if tail and os.path.exists(os.path.join(top, "integration",
                                                    num + tail + ".sh")):
                continue
            if tail and glob.glob(os.path.join(top, "integration",
                                               num + tail + "*.sh")):
                continue
            if not tail and glob.glob(os.path.join(top, "integration",
                                                   num + "-*.sh")):
                continue
            bad.append("%s:%d: no scenario %s" % (doc, n, num + tail))
    return bad


def segments(text):
    """Split a command line at && ; || and at pipes outside [...]."""
    segs, cur, depth, i = [], "", 0, 0
    while i < len(text):
        ch = text[i]
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth = max(0, depth - 1)
        if depth == 0 and (text.startswith("&&", i) or
                           text.startswith("||", i)):
            segs.append(cur)
            cur, i = "", i + 2
            continue
        if depth == 0 and ch in ";|":
            segs.append(cur)
            cur, i = "", i + 1
            continue
        cur += ch
        i += 1
    segs.append(cur)
    return segs


def command_of(seg):
    words = seg.split()
    while words and re.match(r"[A-Za-z_][A-Za-z0-9_]*=", words[0]):
        words.pop(0)
    if not words:
        return None, []
    return words[0], words[1:]


def check_commands(top, doc, pieces):
    bad = []
    for n, text, kind, _ in pieces:
        if kind == "prose":
            continue
        for seg in segments(text):
            cmd, args = command_of(seg)
            if not cmd or not re.match(r"(scripts|integration|\.ci)/", cmd):
                continue
            # A lone `integration/lib.sh` in prose names a file (the
            # path check covers it); with arguments it is a command.
            if kind == "inline" and not args and len(segments(text)) == 1:
                continue
            hits = glob.glob(os.path.join(top, placeholder_glob(cmd)))
            if not any(os.path.isfile(p) and os.access(p, os.X_OK)
                       for p in hits):
                bad.append("%s:%d: no such command: %s" % (doc, n, cmd))
    return bad


_help = {}


def help_of(top, cmd):
    if cmd not in _help:
        try:
            _help[cmd] = subprocess.run(
                [os.path.join(top, cmd), "--help"], capture_output=True,
                text=True, timeout=60, check=False).stdout
        except (OSError, subprocess.TimeoutExpired):
            _help[cmd] = ""
    return _help[cmd]


def check_options(top, doc, pieces):
    bad, last, last_para = [], None, None
    for n, text, kind, para in pieces:
        if para != last_para:
            last, last_para = None, para
        if kind == "prose":
            for c in CHECKED_CMDS:
                if c in text:
                    last = c
            continue
        for seg in segments(text):
            cmd, args = command_of(seg)
            if cmd in CHECKED_CMDS:
                last = cmd
            elif cmd and cmd.startswith("-") and last:
                cmd, args = last, seg.split()
            else:
                # A command named mid-span ("`integration/run` and ...").
                for c in CHECKED_CMDS:
                    if c in seg:
                        last = c
                continue
            text_help = help_of(top, cmd)
            for a in args:
                for m in OPT_RE.finditer(a):
                    opt = m.group(1)
                    if opt in ("-h", "--help") or not a.lstrip("[").startswith("-"):
                        continue
                    if not re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(opt),
                                     text_help):
                        bad.append("%s:%d: %s --help does not list %s"
                                   % (doc, n, cmd, opt))
    return bad


def main(argv):
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if len(argv) >= 2 and argv[0] == "--top":
        top, argv = os.path.abspath(argv[1]), argv[2:]
    kinds = {"paths": check_paths, "commands": check_commands,
             "options": check_options}
    if len(argv) < 2 or argv[0] not in kinds:
        sys.stderr.write("swapnfs: ERROR: docs-check: usage: docs-check.py "
                         "[--top DIR] paths|commands|options DOC...\n")
        return 2
    bad = []
    for doc in argv[1:]:
        try:
            pieces = spans(doc)
        except OSError as e:
            sys.stderr.write("swapnfs: ERROR: docs-check: cannot read %s: %s\n"
                             % (doc, e.strerror))
            return 2
        bad += kinds[argv[0]](top, doc, pieces)
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
