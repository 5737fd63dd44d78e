#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Topic dir <-> branch round trip without churn, and the checks of a topic
# (fixture series; no kernel build).
. "$(dirname "$0")/lib.sh"
. "$SWAPNFS_TOP/tests/fixtures/topic-env.sh"
echo "TAP version 13"
if ! topic_env_setup; then
	skip_test 'topic round trip' 'no kernel tree (scripts/kernel-tree)'
	# A second base: the series in TOPIC/6.12/ is what --base 6.12 uses.  No
# 6.12 tree is needed here: the 6.1 scratch repository stands in for it
# (SWAPNFS_KTREE and the tarball of 6.1), which tests the choice of the
# series, not 6.12 itself.
as612() { SWAPNFS_BASE=6.12 LINUX_SOURCE_TARBALL=/usr/src/linux-source-6.1.tar.xz LINUX_SOURCE_PKG=linux-source-6.1 "$@"; }
expect_success '--base 6.12 takes the series in TOPIC/6.12/, 6.1 the top-level one' '
	out=$(scripts/topic list "$FIX") && grep -qE "^fx-base +1 " <<<"$out" &&
	grep -qx "# base 6.1: v6.1.192 in $KTREE" <<<"$out" &&
	out=$(as612 scripts/topic --base 6.12 list "$FIX") && grep -qE "^fx-base +2 \(6.12/\) " <<<"$out" &&
	grep -q "^# base 6.12: " <<<"$out" &&
	as612 scripts/topic --base 6.12 branch "$FIX/fx-base" | grep -q "^topic/fx-base: 2 patches" &&
	as612 scripts/topic branch --base=6.12 "$FIX/fx-base" | grep -q "up to date (2 patches" &&
	! out=$(scripts/topic --base 2>&1) && grep -qx "swapnfs: ERROR: topic: --base needs a value (6.1 or 6.12)" <<<"$out"
'
done_testing; exit $?
fi
when_finished topic_env_reset
tmp=$(mktemp -d) && when_finished "rm -rf '$tmp'"
cp -r "$FIX/fx-sunrpc" "$FIX/fx-mm" "$tmp/"

expect_success 'branch applies a topic after the topic it depends on' '
	scripts/topic branch "$tmp/fx-mm" &&
	[ "$(git -C "$KTREE" rev-list --count v6.1.192..topic/fx-mm)" = 3 ] &&
	git -C "$KTREE" log --format=%s topic/fx-mm | grep -q "^SUNRPC: reword"
'
expect_success 'a branch written back changes no file (no churn)' '
	scripts/topic branch "$tmp/fx-sunrpc" &&
	out=$(scripts/topic export "$tmp/fx-sunrpc") &&
	grep -qx "fx-sunrpc: 2 unchanged, 0 written, 0 removed" <<<"$out" &&
	out=$(scripts/topic export "$tmp/fx-mm") &&
	grep -qx "fx-mm: 1 unchanged, 0 written, 0 removed" <<<"$out" &&
	diff -r "$FIX/fx-sunrpc" "$tmp/fx-sunrpc"
'
expect_success 'branch is idempotent: the same patches give the same commits' '
	old=$(git -C "$KTREE" rev-parse topic/fx-sunrpc) &&
	out=$(scripts/topic branch "$tmp/fx-sunrpc") && grep -q "up to date" <<<"$out" &&
	[ "$(git -C "$KTREE" rev-parse topic/fx-sunrpc)" = "$old" ]
'
expect_success 'editing one patch on the branch rewrites exactly that file' '
	wt=$SWAPNFS_CACHE/wt/topic &&
	git -C "$wt" checkout -q -f topic/fx-sunrpc &&
	msg=$(git -C "$wt" log -1 --format=%B) &&
	git -C "$wt" commit -q --amend -m "${msg/line/line of xprt.c}" &&
	git -C "$wt" checkout -q --detach &&
	out=$(scripts/topic export "$tmp/fx-sunrpc") &&
	grep -q "fx-sunrpc: 1 unchanged, 1 written, 1 removed" <<<"$out" &&
	ls "$tmp/fx-sunrpc" | grep -qx "0002-SUNRPC-reword-the-asynchronous-calls-line-of-xprt.c.patch" &&
	cmp "$FIX/fx-sunrpc/0001-"*.patch "$tmp/fx-sunrpc/0001-"*.patch
'
expect_success 'branch refuses to overwrite a branch that differs from the dir' '
	git -C "$KTREE" update-ref refs/heads/topic/fx-sunrpc topic/fx-sunrpc~1 &&
	! out=$(scripts/topic branch "$tmp/fx-sunrpc" 2>&1) &&
	grep -q "topic fx-sunrpc: branch topic/fx-sunrpc differs from" <<<"$out" &&
	scripts/topic branch --force "$tmp/fx-sunrpc"
'
expect_success 'check --no-build passes checkpatch, diff --check and apply (TAP)' '
	out=$(scripts/topic check --no-build "$FIX/fx-mm") &&
	grep -q "^ok 1 - fx-mm: checkpatch --strict 0001-" <<<"$out" &&
	grep -q "^ok [0-9]* - fx-mm: applies to v6.1.192" <<<"$out" &&
	grep -q "^ok [0-9]* - fx-mm: diff --check mm: note" <<<"$out" &&
	grep -q "# SKIP --no-build" <<<"$out" && ! grep -q "^not ok" <<<"$out"
'
expect_success 'check fails on trailing whitespace (checkpatch names it, and diff --check)' '
	mkdir -p "$tmp/fx-ws" && cp "$FIX/fx-sunrpc/cover-letter" "$FIX/fx-sunrpc/topic.conf" "$tmp/fx-ws/" &&
	sed "s/^+ \*  Test fixture: a transport carries the RPC calls of one client\.\$/& /" \
		"$FIX/fx-sunrpc/0001-"*.patch >"$tmp/fx-ws/0001-ws.patch" &&
	! out=$(scripts/topic check --no-build "$tmp/fx-ws") &&
	grep -q "^not ok 1 - fx-ws: checkpatch --strict 0001-ws.patch" <<<"$out" &&
	grep -qE "^#   .*0001-ws.patch:[0-9]+: ERROR: trailing whitespace$" <<<"$out" &&
	grep -q "^not ok [0-9]* - fx-ws: diff --check" <<<"$out"
'
# A second base: the series in TOPIC/6.12/ is what --base 6.12 uses.  No
# 6.12 tree is needed here: the 6.1 scratch repository stands in for it
# (SWAPNFS_KTREE and the tarball of 6.1), which tests the choice of the
# series, not 6.12 itself.
as612() { SWAPNFS_BASE=6.12 LINUX_SOURCE_TARBALL=/usr/src/linux-source-6.1.tar.xz LINUX_SOURCE_PKG=linux-source-6.1 "$@"; }
expect_success '--base 6.12 takes the series in TOPIC/6.12/, 6.1 the top-level one' '
	out=$(scripts/topic list "$FIX") && grep -qE "^fx-base +1 " <<<"$out" &&
	grep -qx "# base 6.1: v6.1.192 in $KTREE" <<<"$out" &&
	out=$(as612 scripts/topic --base 6.12 list "$FIX") && grep -qE "^fx-base +2 \(6.12/\) " <<<"$out" &&
	grep -q "^# base 6.12: " <<<"$out" &&
	as612 scripts/topic --base 6.12 branch "$FIX/fx-base" | grep -q "^topic/fx-base: 2 patches" &&
	as612 scripts/topic branch --base=6.12 "$FIX/fx-base" | grep -q "up to date (2 patches" &&
	! out=$(scripts/topic --base 2>&1) && grep -qx "swapnfs: ERROR: topic: --base needs a value (6.1 or 6.12)" <<<"$out"
'
done_testing
