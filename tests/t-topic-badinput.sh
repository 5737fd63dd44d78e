#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Bad input to scripts/topic: each case is one clear line naming the topic
# and the file, and a non-zero exit.
. "$(dirname "$0")/lib.sh"
. "$SWAPNFS_TOP/tests/fixtures/topic-env.sh"
echo "TAP version 13"
if ! topic_env_setup; then
	skip_test 'topic bad input' 'no kernel tree (scripts/kernel-tree)'
	done_testing; exit $?
fi
when_finished topic_env_reset
tmp=$(mktemp -d) && when_finished "rm -rf '$tmp'"

# fails_with CMD... : the command must fail with exactly one error line.
one_error() {
	local out
	! out=$("$@" 2>&1) || return 1
	printf '%s\n' "$out"
	[ "$(grep -c 'ERROR' <<<"$out")" = 1 ]
}
expect_success 'a patch that does not apply names the topic and the patch file' '
	out=$(one_error scripts/topic branch "$FIX/fx-noapply") &&
	grep -q "topic fx-noapply: .*/0001-SUNRPC-a-patch-whose-context-is-not-in-6.1.patch does not apply" <<<"$out"
'
expect_success 'a cover letter left unfilled is refused by check and send' '
	out=$(one_error scripts/topic check --no-build "$FIX/fx-editme") &&
	grep -q "topic fx-editme: .*fx-editme/cover-letter is not filled in" <<<"$out" &&
	out=$(one_error scripts/topic send -o "$tmp/o" "$FIX/fx-editme") &&
	grep -q "topic fx-editme: .*fx-editme/cover-letter is not filled in" <<<"$out"
'
expect_success 'a topic with no patches is refused' '
	out=$(one_error scripts/topic check --no-build "$FIX/fx-empty") &&
	grep -q "topic fx-empty: no patches (no .*fx-empty/NNNN-\*.patch files)" <<<"$out" &&
	out=$(one_error scripts/topic send "$FIX/fx-empty") && grep -q "topic fx-empty: no patches" <<<"$out"
'
expect_success 'a dirty work tree stops export' '
	scripts/topic branch "$FIX/fx-sunrpc" &&
	wt=$SWAPNFS_CACHE/wt/topic &&
	git -C "$wt" checkout -q -f topic/fx-sunrpc &&
	echo "/* dirt */" >>"$wt/net/sunrpc/xprt.c" &&
	out=$(one_error scripts/topic export "$FIX/fx-sunrpc") ;
	rc=$?; git -C "$wt" checkout -q -f --detach; [ $rc = 0 ] &&
	grep -q "topic fx-sunrpc: work tree .* has uncommitted changes: net/sunrpc/xprt.c" <<<"$out"
'
expect_success 'an unknown dependency names topic.conf' '
	cp -r "$FIX/fx-mm" "$tmp/fx-mm" && echo "depends=\"fx-nowhere\"" >>"$tmp/fx-mm/topic.conf" &&
	out=$(one_error scripts/topic branch "$tmp/fx-mm") &&
	grep -q "topic fx-mm: depends on .fx-nowhere., but there is no .* (in .*fx-mm/topic.conf)" <<<"$out"
'
expect_success 'b4 missing is one line' '
	out=$(SWAPNFS_B4=$tmp/no/b4 one_error scripts/topic send "$FIX/fx-sunrpc") &&
	grep -q "topic fx-sunrpc: b4 not found" <<<"$out"
'
expect_success 'a missing kernel tree is one line' '
	out=$(SWAPNFS_KTREE=$tmp/nolinux LINUX_SOURCE_TARBALL=$tmp/none.tar.xz \
		one_error scripts/topic branch "$FIX/fx-sunrpc") &&
	grep -q "topic fx-sunrpc: no kernel tree at $tmp/nolinux" <<<"$out"
'
expect_success 'a real send is refused under test unless it goes to 127.0.0.1' '
	out=$(one_error scripts/topic send --send "$FIX/fx-sunrpc") &&
	grep -q "topic fx-sunrpc: refusing a real send while SWAPNFS_TESTING is set" <<<"$out"
'
done_testing
