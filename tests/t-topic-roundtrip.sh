#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Topic dir <-> branch round trip without churn, and the checks of a topic
# (fixture series; no kernel build).
. "$(dirname "$0")/lib.sh"
. "$SWAPNFS_TOP/tests/fixtures/topic-env.sh"
echo "TAP version 13"
if ! topic_env_setup; then
	skip_test 'topic round trip' 'no kernel tree (scripts/kernel-tree)'
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
# A cache outlives checkouts (CI machines keep theirs; a developer pulls):
# topic/NAME made from the patches of an earlier commit is replaced, a
# branch with commits of its own is not.
hist_commit() { git -C "$tmp/hist" add . && git -C "$tmp/hist" -c user.name=T -c user.email=t@t.test commit -q -m "$1"; }
reword() { sed -i "0,/^---\$/s/^---\$/$1\n---/" "$tmp/hist/fx-sunrpc/0002-"*.patch; }
expect_success 'branch replaces a branch made from an earlier commit of the checkout (a kept cache)' '
	mkdir "$tmp/hist" && cp -r "$FIX/fx-sunrpc" "$tmp/hist/" && git -C "$tmp/hist" init -q &&
	hist_commit one && scripts/topic branch --force "$tmp/hist/fx-sunrpc" &&
	old=$(git -C "$KTREE" rev-parse topic/fx-sunrpc) &&
	git -C "$KTREE" update-ref -d refs/swapnfs/branched/topic/fx-sunrpc &&
	reword "Reworded in two." && hist_commit two &&
	out=$(scripts/topic branch "$tmp/hist/fx-sunrpc") &&
	grep -q "^topic/fx-sunrpc: 2 patches on v6.1.192 (was ${old:0:12}, made from earlier patch files)" <<<"$out" &&
	git -C "$KTREE" log -1 --format=%B topic/fx-sunrpc | grep -qx "Reworded in two."
'
expect_success 'branch replaces its own last branch after a patch file changed, not yet committed' '
	reword "Reworded in three." &&
	out=$(scripts/topic branch "$tmp/hist/fx-sunrpc") && grep -q "made from earlier patch files" <<<"$out" &&
	git -C "$KTREE" log -1 --format=%B topic/fx-sunrpc | grep -qx "Reworded in three."
'
expect_success 'branch keeps a branch with a commit of its own, whatever the history holds' '
	hand=$(git -C "$KTREE" commit-tree -p topic/fx-sunrpc -m "made by hand" "topic/fx-sunrpc^{tree}") &&
	git -C "$KTREE" update-ref refs/heads/topic/fx-sunrpc "$hand" &&
	hist_commit three && reword "Reworded in four." && hist_commit four &&
	! out=$(scripts/topic branch "$tmp/hist/fx-sunrpc" 2>&1) &&
	grep -q "topic fx-sunrpc: branch topic/fx-sunrpc differs from" <<<"$out" &&
	[ "$(git -C "$KTREE" rev-parse topic/fx-sunrpc)" = "$hand" ]
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
# series, not 6.12 itself.  Its worktrees are those of base 6.12
# ($SWAPNFS_CACHE/wt-6.12/), kept between runs like wt/.
as612() { SWAPNFS_BASE=6.12 LINUX_SOURCE_TARBALL=/usr/src/linux-source-6.1.tar.xz LINUX_SOURCE_PKG=linux-source-6.1 "$@"; }
wt61=$SWAPNFS_CACHE/wt/topic wt612=$SWAPNFS_CACHE/wt-6.12/topic
expect_success '--base 6.12 takes the series in TOPIC/6.12/, 6.1 the top-level one' '
	out=$(scripts/topic list "$FIX") && grep -qE "^fx-base +1 " <<<"$out" &&
	grep -qx "# base 6.1: v6.1.192 in $KTREE" <<<"$out" &&
	out=$(as612 scripts/topic --base 6.12 list "$FIX") && grep -qE "^fx-base +2 \(6.12/\) " <<<"$out" &&
	grep -q "^# base 6.12: " <<<"$out" &&
	as612 scripts/topic --base 6.12 branch "$FIX/fx-base" | grep -q "^topic/fx-base: 2 patches" &&
	as612 scripts/topic branch --base=6.12 "$FIX/fx-base" | grep -q "up to date (2 patches" &&
	! out=$(scripts/topic --base 2>&1) && grep -qx "swapnfs: ERROR: topic: --base needs a value (6.1 or 6.12)" <<<"$out"
'
expect_success 'topic.conf: --base 6.12 reads TOPIC/6.12/topic.conf; a series without one never takes 6.1'"'"'s change_id' '
	conf() { bash -c ". scripts/lib-topic.sh && topic_conf \"\$1\" \"\$2\"" - "$@"; } &&
	[ "$(conf "$FIX/fx-base" change_id)" = 20261201-fx-base-6.1 ] &&
	[ "$(as612 conf "$FIX/fx-base" change_id)" = 20261201-fx-base-6.12 ] &&
	[ "$(as612 conf "$FIX/fx-base" prefix)" = "PATCH net-next" ] &&
	[ "$(conf "$FIX/fx-base" prefix)" = PATCH ] &&
	cp -r "$FIX/fx-base" "$tmp/fx-noconf" && rm "$tmp/fx-noconf/6.12/topic.conf" &&
	[ "$(as612 conf "$tmp/fx-noconf" prefix)" = PATCH ] &&
	[ -z "$(as612 conf "$tmp/fx-noconf" change_id)" ] &&
	as612 scripts/topic --base 6.12 list "$FIX" | grep -qE "^fx-base +2 \(6.12/\) +\"PATCH net-next\""
'
expect_success 'the bases never share a worktree: 6.12 works in wt-6.12/, 6.1'"'"'s wt/ stays where it was' '
	git -C "$wt61" checkout -q -f --detach v6.1.192 && h61=$(git -C "$wt61" rev-parse HEAD) &&
	as612 scripts/topic --base 6.12 branch --force "$FIX/fx-base" >/dev/null &&
	[ -e "$wt612/.git" ] &&
	[ "$(git -C "$wt61" rev-parse HEAD)" = "$h61" ] &&
	[ "$(as612 scripts/worktree topic)" = "$wt612" ] &&
	[ "$(scripts/worktree topic)" = "$wt61" ] &&
	[ "$(git -C "$wt61" rev-parse HEAD)" = "$h61" ]
'
expect_success 'a worktree of another repository is refused, in one line' '
	git init -q "$tmp/other" && git -C "$tmp/other" -c user.name=t -c user.email=t@t.test commit -q --allow-empty -m base &&
	git -C "$tmp/other" tag v6.1.192 && cp "$KTREE/.git/swapnfs-base-tag" "$KTREE/.git/swapnfs-pkgver" "$tmp/other/.git/" &&
	! out=$(SWAPNFS_KTREE=$tmp/other scripts/worktree topic 2>&1) &&
	[ "$out" = "swapnfs: ERROR: worktree: $wt61 is not a worktree of $tmp/other (base 6.1): move it away" ]
'
expect_success 'export --base 6.12 writes TOPIC/6.12/ and never the 6.1 patches' '
	cp -r "$FIX/fx-base" "$tmp/fx-b612" &&
	as612 scripts/topic --base 6.12 branch --force "$tmp/fx-b612" >/dev/null &&
	git -C "$wt612" checkout -q -f topic/fx-b612 &&
	msg=$(git -C "$wt612" log -1 --format=%B) &&
	git -C "$wt612" commit -q --amend -m "${msg/line/line on 6.12}" &&
	git -C "$wt612" checkout -q --detach &&
	out=$(as612 scripts/topic --base 6.12 export "$tmp/fx-b612") &&
	grep -qx "fx-b612: 1 unchanged, 1 written, 1 removed (in 6.12/)" <<<"$out" &&
	ls "$tmp/fx-b612/6.12" | grep -qx "0002-SUNRPC-reword-the-asynchronous-calls-line-on-6.12.patch" &&
	diff -r -x 6.12 "$FIX/fx-base" "$tmp/fx-b612" &&
	cmp "$FIX/fx-base/6.12/0001-"*.patch "$tmp/fx-b612/6.12/0001-"*.patch
'
expect_success 'export --base 6.12 of a topic without a 6.12 series starts one in TOPIC/6.12/' '
	cp -r "$FIX/fx-sunrpc" "$tmp/fx-s612" &&
	as612 scripts/topic --base 6.12 branch --force "$tmp/fx-s612" >/dev/null &&
	out=$(as612 scripts/topic --base 6.12 export "$tmp/fx-s612") &&
	grep -qx "fx-s612: 0 unchanged, 2 written, 0 removed (in 6.12/)" <<<"$out" &&
	diff -r -x 6.12 "$FIX/fx-sunrpc" "$tmp/fx-s612" &&
	for p in "$FIX/fx-sunrpc"/0*.patch; do cmp "$p" "$tmp/fx-s612/6.12/$(basename "$p")" || exit 1; done
'
expect_success 'send refuses a topic without a series for the base (nothing written)' '
	! out=$(as612 scripts/topic --base 6.12 send -o "$tmp/o612" "$FIX/fx-sunrpc" 2>&1) &&
	[ "$out" = "swapnfs: ERROR: topic fx-sunrpc: no 6.12 series to send (no patches in $FIX/fx-sunrpc/6.12/; scripts/topic --base 6.12 export fx-sunrpc writes them)" ] &&
	[ ! -e "$tmp/o612" ]
'
done_testing
