#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The entry documents stay true: README.md and integration/README.md name
# only files, scenarios, patches, commands and options that exist; README
# stays an entry (at most 8 KiB); cover letters fit a mail (72 columns).
# The checker is tests/docs-check.py; the first tests show it can fail.
. "$(dirname "$0")/lib.sh"

docs="README.md integration/README.md"
check=tests/docs-check.py
tmp=$(mktemp -d) && when_finished "rm -rf '$tmp'"

cat >"$tmp/bad.md" <<'EOF'
# A document with one mistake of each kind

See [the notes](nosuch.md), `scripts/nosuch`, t9999 and nfs/0042.

```
$ scripts/no-such-tool --x
$ scripts/integrate --ci --no-such-option
```

Then `--frobnicate` for the command above.
EOF

expect_success 'docs-check: finds a missing file, link, scenario and patch' '
	! out=$($check paths "$tmp/bad.md") &&
	grep -q "no such file or directory: scripts/nosuch$" <<<"$out" &&
	grep -q "link to a missing file: nosuch.md$" <<<"$out" &&
	grep -q "no scenario t9999$" <<<"$out" &&
	grep -q "no patch nfs/0042$" <<<"$out"
'

expect_success 'docs-check: finds a command that does not exist' '
	! out=$($check commands "$tmp/bad.md") &&
	[ "$out" = "$tmp/bad.md:6: no such command: scripts/no-such-tool" ]
'

expect_success 'docs-check: finds options the command'"'"'s --help does not list' '
	! out=$($check options "$tmp/bad.md") &&
	grep -q ":7: scripts/integrate --help does not list --no-such-option$" <<<"$out" &&
	grep -q ":10: scripts/integrate --help does not list --frobnicate$" <<<"$out" &&
	! grep -q -- "--ci" <<<"$out"
'

expect_success 'docs-check: a document without mistakes passes' '
	printf "%s\n" "Run \`scripts/integrate --ci\` or \`integration/run --tag fault\`;" \
		"scenarios \`integration/tNNNN-*.sh\` such as t0110, patch nfs/0001." >"$tmp/good.md" &&
	$check paths "$tmp/good.md" && $check commands "$tmp/good.md" &&
	$check options "$tmp/good.md"
'

expect_success 'README and integration/README name only files, scenarios and patches that exist' '
	out=$($check paths $docs)
'

expect_success 'README and integration/README name only commands that exist' '
	out=$($check commands $docs)
'

expect_success 'README and integration/README give only options the --help lists' '
	out=$($check options $docs)
'

expect_success 'README.md is at most 8192 bytes' '
	size=$(wc -c <README.md) && out="README.md is $size bytes" &&
	[ "$size" -le 8192 ]
'

expect_success 'README has one topic map row per patch on main' '
	out=$(for p in netvm/0*.patch mm/0*.patch nfs/0*.patch sunrpc/0*.patch; do
		row=$(dirname "$p")/$(basename "$p" | cut -c1-4)
		grep -q "^| $row " README.md || echo "no topic map row for $row"
	done) &&
	[ -z "$out" ]
'

# Every cover letter: each topic's (the 6.1 series) and, where a topic has
# one, its 6.12 series' (TOPIC/6.12/cover-letter).
covers=$(ls netvm/cover-letter mm/cover-letter nfs/cover-letter sunrpc/cover-letter \
	*/6.12/cover-letter 2>/dev/null)

expect_success 'the cover letters checked include the 6.12 series of sunrpc and netvm' '
	out=$covers &&
	grep -qx sunrpc/cover-letter <<<"$out" && grep -qx sunrpc/6.12/cover-letter <<<"$out" &&
	grep -qx netvm/6.12/cover-letter <<<"$out"
'

# The 6.12 series go to mainline: their cover letters name no file of this
# repository or its cache (a reader has neither).
expect_success 'the 6.12 cover letters name no path of this repository' '
	out=$(grep -HnE "(^|[^[:alnum:]_/.-])(integration|scripts|results|tests|tools|sunrpc|netvm|nfs|mm)/|~/\\.cache|swapnfs/" \
		$(grep /6.12/ <<<"$covers")) ;
	[ -z "$out" ]
'

# Cover letters go out as mail: 72 columns (issue 14).
expect_success 'cover letters have no line over 72 columns' '
	out=$(for f in $covers; do
		awk -v f="$f" "length > 72 { print f \":\" NR \": \" length \" columns\" }" "$f"
	done) &&
	[ -z "$out" ]
'

# ... and about 600 words plus the per-patch list (issue 14): the words
# outside the "Patches" section, whose end is the next underlined heading.
expect_success 'cover letters have at most 620 words besides the patch list' '
	out=$(for f in $covers; do
		python3 - "$f" <<-"EOF"
		import re, sys
		lines = open(sys.argv[1]).read().split("\n")
		keep, skip = [], False
		for i, l in enumerate(lines):
		    nxt = lines[i + 1] if i + 1 < len(lines) else ""
		    heading = re.fullmatch(r"-{3,}", nxt) is not None
		    if heading:
		        skip = (l.strip() == "Patches")
		    if not skip and not re.fullmatch(r"-{3,}", l):
		        keep.append(l)
		n = len(" ".join(keep).split())
		if n > 620:
		    print("%s: %d words besides the patch list" % (sys.argv[1], n))
		EOF
	done) &&
	[ -z "$out" ]
'

# scripts/test and README run tests and tools by path, so a file that
# starts with "#!" and lost its mode in git fails only on a fresh clone
# (it did once: tests/t-topic-objects.sh, exit 126 in CI).  Libraries
# that are sourced (lib*.sh, *.inc) and guest files packed into the
# initramfs are not commands.
expect_success 'every command and test in the index is executable' '
	out=$(git ls-files -s scripts integration tests |
		while read -r mode _ _ f; do
			case $f in */lib*.sh|*.inc|integration/guest/*|tests/fixtures/*) continue ;; esac
			[ "$mode" = 100755 ] && continue
			head -c2 "$f" | grep -q "#!" && echo "$f: mode $mode, not executable"
		done) &&
	[ -z "$out" ]
'

# Scenarios are shown to upstream as reproducers, and the kernel wants
# the licence of every file it is shown on its second line.
expect_success 'every scenario says its licence (SPDX) on its second line' '
	out=$(for f in integration/t[0-9]*.sh; do
		sed -n 2p "$f" | grep -qx "# SPDX-License-Identifier: GPL-2.0" || echo "$f"
	done) &&
	[ -z "$out" ]
'

echo "1..$_t_n"
_t_run_cleanup
echo "$((_t_n - _t_fail - _t_skip)) passed, $_t_fail failed, $_t_skip skipped"
[ "$_t_fail" -eq 0 ]
