#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The harness fails loudly and cleanly: missing inputs give one line and a
# non-zero exit; a guest that panics, hangs or never boots fails its
# scenario with the log tail; no QEMU is left behind.
. "$(dirname "$0")/lib.sh"

fx=tests/fixtures/scenarios
res=$(mktemp -d) && when_finished "rm -rf '$res'"
export SWAPNFS_RESULTS=$res

expect_success 'kernel-tree: missing linux-source is one clear line' '
	! out=$(SWAPNFS_KTREE=$res/k LINUX_SOURCE_TARBALL=/nonexistent.tar.xz scripts/kernel-tree 2>&1) &&
	[ $(echo "$out" | wc -l) = 1 ] &&
	grep -q "^swapnfs: ERROR: /nonexistent.tar.xz missing: apt-get install" <<<"$out"
'

expect_success 'kernel-build: a tree that fails to build is one clear line' '
	mkdir -p $res/badtree &&
	printf "tinyconfig:\n\t@echo broken tree >&2; false\n" >$res/badtree/Makefile &&
	! out=$(scripts/kernel-build $res/badtree 2>&1) &&
	[ $(echo "$out" | wc -l) = 1 ] &&
	grep -q "^swapnfs: ERROR: kernel-build: config failed, see" <<<"$out"
'

# The plain base kernel: SWAPNFS_KERNEL if given (a CI job that built it
# already), else built here.
KERNEL=${SWAPNFS_KERNEL:-}
[ -n "$KERNEL" ] || KERNEL=$(scripts/kernel-build --quiet "$(scripts/worktree base)") ||
	{ echo "Bail out! cannot build the base kernel"; exit 1; }
[ -f "$KERNEL" ] || { echo "Bail out! no kernel image $KERNEL"; exit 1; }
export SWAPNFS_KERNEL=$KERNEL

expect_success 'scenario: missing QEMU is one clear line' '
	! out=$(SWAPNFS_QEMU=qemu-not-installed $fx/x-guest-hangs.sh 2>&1) &&
	grep -q "^swapnfs: ERROR: .qemu-not-installed. not found" <<<"$out"
'

expect_success 'scenario: a guest that never boots fails, naming the cause' '
	! out=$(integration/t0110-swap-nfs42-stress.sh --kernel /etc/hostname 2>&1) &&
	grep -q "^not ok 1 t0110" <<<"$out" &&
	grep -q "server guest never became ready (QEMU exited)" <<<"$out"
'

expect_success 'scenario: a client kernel panic fails with the log lines' '
	! out=$($fx/x-guest-panics.sh 2>&1) &&
	grep -q "^not ok 1 x-guest-panics" <<<"$out" &&
	grep -q "FAIL x-guest-panics \[run\]: client kernel panicked" <<<"$out" &&
	grep -q "#   client: .*Kernel panic" <<<"$out"
'

expect_success 'scenario: a hung client is timed out, torn down and reported as a TIMEOUT' '
	! out=$(FIXTURE_TIMEOUT=15 integration/run $fx/x-guest-hangs.sh 2>&1) &&
	grep -q "client did not finish within 15s" <<<"$out" &&
	grep -qx "  not ok 1 x-guest-hangs # TIMEOUT 15 seconds" <<<"$out" &&
	grep -qx "not ok 1 x-guest-hangs # TIMEOUT 15 seconds" <<<"$out" &&
	grep -qx "# Totals: pass:0 fail:1 xfail:0 xpass:0 skip:0 error:0" <<<"$out" &&
	grep -qx "timeout=15" $res/run/x-guest-hangs/result &&
	{ pgrep -f "swapnfs-client.*$res" >/dev/null; [ $? = 1 ]; }
'

expect_success 'scenario: SWAPNFS_SCENARIO_TIMEOUT replaces the timeout the scenario sets' '
	! out=$(FIXTURE_TIMEOUT=600 SWAPNFS_SCENARIO_TIMEOUT=12 $fx/x-guest-hangs.sh --label short 2>&1) &&
	grep -qx "not ok 1 x-guest-hangs # TIMEOUT 12 seconds" <<<"$out" &&
	grep -qx "timeout=12" $res/short/x-guest-hangs/result
'

expect_success 'scenario: a hung client ends the scenario at its timeout, host_during or not' '
	! out=$(timeout 150 $fx/x-during-outlives.sh 2>&1) &&
	grep -qx "not ok 1 x-during-outlives # TIMEOUT 10 seconds" <<<"$out" &&
	{ pgrep -fx "sleep 100017" >/dev/null; [ $? = 1 ]; }
'

expect_success 'run on base: a gap shown is an xfail, a gap claimed but not shown an xpass' '
	! out=$(integration/run --label base $fx/x-gap-shown.sh $fx/x-gap-claimed.sh 2>&1) &&
	grep -qx "ok 1 x-gap-shown # XFAIL gap on base: expected .true. to fail, it succeeded" <<<"$out" &&
	grep -qx "not ok 2 x-gap-claimed # XPASS" <<<"$out" &&
	grep -q "expected the gap on base" <<<"$out" &&
	grep -qx "# Totals: pass:0 fail:0 xfail:1 xpass:1 skip:0 error:0" <<<"$out" &&
	grep -qx "1 passed, 1 failed, 0 skipped" <<<"$out" &&
	grep -qx "outcome=xpass" $res/base/x-gap-claimed/result &&
	grep -qx "status=fail" $res/base/x-gap-claimed/result &&
	grep -qx "outcome=xfail" $res/base/x-gap-shown/result &&
	$fx/x-gap-claimed.sh --label series >/dev/null 2>&1 &&
	grep -qx "answer=42" $res/series/x-gap-claimed/result
'

expect_success 'scenario: the host drives the server guest while the client runs' '
	out=$($fx/x-server-ctl.sh 2>&1) &&
	grep -qx "ctl=hello" $res/run/x-server-ctl/result
'

expect_success 'scenario: the server guest reboots under the host and serves again' '
	out=$($fx/x-server-reboot.sh 2>&1) &&
	grep -qx "opts=vers=4.2,itsquoted" $res/run/x-server-reboot/result &&
	grep -qx "word=fixture" $res/run/x-server-reboot/result &&
	grep -q "server back" $res/run/x-server-reboot/host_during.log &&
	grep -q SWAPNFS-SERVER-READY $res/run/x-server-reboot/server.boot1.log &&
	grep -q SWAPNFS-SERVER-READY $res/run/x-server-reboot/server.log
'

expect_success 'scenario: an NFSROOT client runs from its root on NFSv4.2' '
	out=$($fx/x-nfsroot.sh 2>&1) &&
	grep -qx "root=nfs4" $res/run/x-nfsroot/result &&
	grep -qx "busybox_on=nfs" $res/run/x-nfsroot/result &&
	grep -qx "git=git_version" $res/run/x-nfsroot/result &&
	grep -qx "swapfile=yes" $res/run/x-nfsroot/result
'

expect_success 'scenario: an NFS root without /init is one clear reason' '
	! out=$(FIXTURE_NO_INIT=1 $fx/x-nfsroot.sh 2>&1) &&
	grep -q "FAIL x-nfsroot \[run\]: the NFS root has no /init" <<<"$out"
'

expect_success 'scenario: host_during failing fails the scenario, with its status and last line' '
	! out=$(FIXTURE_DURING_RC=3 $fx/x-during-status.sh 2>&1) &&
	grep -q "host_during failed (exit 3): host_during ends with 3" <<<"$out"
'

expect_success 'scenario: a clean host_during passes even when wait cannot report its status' '
	out=$(FIXTURE_LOSE_WAIT=1 $fx/x-during-status.sh 2>&1) &&
	grep -q "^ok 1 x-during-status" <<<"$out" &&
	grep -qx "answer=42" $res/run/x-during-status/result
'

expect_success 'scenario: a lockdep scenario without a debug kernel is a skip, not a run' '
	out=$(integration/t0850-fault-lockdep-nfsd-restart-nfs3.sh 2>&1); rc=$? &&
	[ $rc = 4 ] &&
	grep -q "^ok 1 t0850-fault-lockdep-nfsd-restart-nfs3 # SKIP no debug kernel" <<<"$out" &&
	grep -qx "status=skip" $res/run/t0850-fault-lockdep-nfsd-restart-nfs3/result
'

expect_success 'run --tag: a tag no scenario has is one clear line' '
	! out=$(integration/run --tag no-such-tag 2>&1) &&
	grep -q "^swapnfs: ERROR: run: no scenarios selected (none tagged no-such-tag)" <<<"$out"
'

# -j 2: both columns in one pool, then each column collected.  Images
# that are no kernel make every guest fail at once, so the whole path
# (job lists, GNU parallel, --collect, the table) runs in seconds.
expect_success 'integrate --kernels -j 2: base and series in one pool, each column counted, RESULTS.md left alone' '
	sum=$(sha256sum RESULTS.md) &&
	! out=$(scripts/integrate --tag sunrpc --kernels /etc/hostname /etc/hostname -j 2 --results $res/pool 2>&1) &&
	grep -q "^# === scenarios on base (/etc/hostname) and series (/etc/hostname), 2 at a time (10 jobs" <<<"$out" &&
	[ "$(grep -c "^0 passed, 4 failed, 1 skipped$" <<<"$out")" = 2 ] &&
	grep -qx "0 passed, 8 failed, 2 skipped" <<<"$out" &&
	[ "$(grep -c "server guest never became ready (QEMU exited)" <<<"$out")" = 8 ] &&
	grep -qE "^t0420-sunrpc-added-xprt-swapper +\| fail .*\| fail " <<<"$out" &&
	[ "$(grep -c "^[0-9]" $res/pool/integrate/jobs.log)" = 10 ] &&
	[ "$sum" = "$(sha256sum RESULTS.md)" ]
'

expect_success 'no QEMU left behind by any of the above' '
	pgrep -f "qemu-system-x86_64 -name swapnfs-.*$res" >/dev/null; [ $? = 1 ]
'

done_testing
