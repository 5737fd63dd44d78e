#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Bad input to the tools and the harness: every option that takes a value
# refuses a missing or empty one, names and labels that would leave their
# directory are refused, and a results directory outside (/, $HOME) is
# refused; each case is exactly one "swapnfs: ERROR: ..." line and exit 1,
# and nothing is written at the file system root or in $HOME.
. "$(dirname "$0")/lib.sh"
echo "TAP version 13"
tmp=$(mktemp -d) && when_finished "rm -rf '$tmp'"
export SWAPNFS_RESULTS=$tmp/results
root_before=$(ls -A /) home_before=$(ls -A "$HOME")
fx=tests/fixtures/scenarios

# refused REASON CMD...: CMD exits 1 with one line, the error REASON
# (an extended regex after "swapnfs: ERROR: ").
refused() {
	local why=$1 out rc
	shift
	out=$(timeout 120 "$@" 2>&1 </dev/null)
	rc=$?
	[ "$rc" = 1 ] && [ "$(wc -l <<<"$out")" = 1 ] &&
		grep -qE "^swapnfs: ERROR: $why" <<<"$out" && return 0
	echo "# $* -> exit $rc: $out"
	return 1
}
# each_missing WHO OPT CMD...: OPT with no value, and with an empty one.
each_missing() {
	local who=$1 opt=$2
	shift 2
	refused "$who: $opt needs a value\$" "$@" "$opt" &&
	refused "$who: $opt needs a value, got an empty one\$" "$@" "$opt" "" &&
	refused "$who: $opt needs a value, got the option '--nope'\$" "$@" "$opt" --nope
}

expect_success 'scripts/integrate: --results, --topics, --tag, -j, --kernels need values' '
	for o in --results --topics --tag -j --kernels; do each_missing integrate $o scripts/integrate || exit 1; done &&
	refused "integrate: --kernels needs two images, BASE and SERIES\$" scripts/integrate --kernels /etc/hostname &&
	refused "integrate: --kernels needs two images, BASE and SERIES\$" scripts/integrate --kernels /etc/hostname -j 2 &&
	refused "integrate: --kernels /etc/hostname $tmp/none: no such file\$" scripts/integrate --kernels /etc/hostname "$tmp/none" &&
	refused "integrate: --kernels and --merge-only exclude each other\$" scripts/integrate --merge-only --kernels /etc/hostname /etc/hostname
'
expect_success 'scripts/integrate: --results outside (/, $HOME) is refused before any work' '
	refused "integrate: / is not a results directory" scripts/integrate --merge-only --results / &&
	refused "integrate: $HOME is not a results directory" scripts/integrate --merge-only --results "$HOME" &&
	refused "integrate: --tag .\.\./x. is not a plain name" scripts/integrate --tag ../x &&
	refused "integrate: -j wants a positive integer, got .0." scripts/integrate -j 0 &&
	refused "integrate: no list of topics $tmp/none" scripts/integrate --topics "$tmp/none"
'
expect_success 'integration/run: --kernel, --debug-kernel, --label, --results, --tag, -j need values' '
	for o in --kernel --debug-kernel --label --results --tag -j; do each_missing run $o integration/run || exit 1; done
'
expect_success 'a scenario: SWAPNFS_SCENARIO_TIMEOUT that is not seconds is refused' '
	refused "t0110-swap-nfs42-stress: SWAPNFS_SCENARIO_TIMEOUT wants seconds, got .x.\$" \
		env SWAPNFS_SCENARIO_TIMEOUT=x integration/t0110-swap-nfs42-stress.sh --kernel /etc/hostname &&
	refused "t0110-swap-nfs42-stress: SWAPNFS_SCENARIO_TIMEOUT wants seconds, got .0.\$" \
		env SWAPNFS_SCENARIO_TIMEOUT=0 integration/t0110-swap-nfs42-stress.sh --kernel /etc/hostname
'
expect_success 'integration/run: bad kernels, labels, results dirs and -j are refused' '
	refused "run: --kernel $tmp/none: no such file" integration/run --kernel "$tmp/none" &&
	refused "run: --debug-kernel $tmp/none: no such file" integration/run --debug-kernel "$tmp/none" &&
	refused "run: --label .\.\./\.\.. is not a plain name" integration/run --label ../.. &&
	refused "run: --label .a/b. is not a plain name" integration/run --label a/b &&
	refused "run: / is not a results directory" integration/run --results / &&
	refused "run: -j wants a positive integer, got .x." integration/run -j x
'
expect_success 'integration/sweep: every option that takes a value needs one; bad ones refused' '
	for o in --kernel --label --sizes --nconnect -n -j --results; do each_missing sweep $o integration/sweep || exit 1; done &&
	refused "sweep: --label .\.\.. is not a plain name" integration/sweep --label .. &&
	refused "sweep: / is not a results directory" integration/sweep --kernel /etc/hostname --label base --results / &&
	refused "sweep: --sizes wants KiB" integration/sweep --sizes 1k
'
expect_success 'integration/bench: every option that takes a value needs one' '
	for o in --kernel --label --reps --mib --ratio --results; do each_missing bench $o integration/bench || exit 1; done &&
	refused "bench: --label .\.\.. is not a plain name" integration/bench --label .. &&
	refused "bench: / is not a results directory" integration/bench --kernel /etc/hostname --results /
'
expect_success 'integration/repeat: every option that takes a value needs one; bad ones refused' '
	for o in -n -j --kernel --debug-kernel --label --results; do each_missing repeat $o integration/repeat || exit 1; done &&
	refused "repeat: --label .\.\.. is not a plain name" integration/repeat --label .. &&
	refused "repeat: / is not a results directory" integration/repeat --kernel /etc/hostname --results / &&
	refused "repeat: -n wants a positive integer, got .0." integration/repeat -n 0
'
expect_success 'a scenario: --kernel, --debug-kernel, --label, --results need values' '
	for o in --kernel --debug-kernel --label --results; do
		each_missing x-gap-claimed $o $fx/x-gap-claimed.sh || exit 1
		each_missing t0110-swap-nfs42-stress $o integration/t0110-swap-nfs42-stress.sh || exit 1
	done
'
expect_success 'a scenario: bad label, results dir and kernel are refused before a guest boots' '
	s=integration/t0110-swap-nfs42-stress.sh n=t0110-swap-nfs42-stress &&
	refused "$n: --label .\.\./x. is not a plain name" $s --label ../x &&
	refused "$n: / is not a results directory" $s --results / &&
	refused "$n: kernel image $tmp/none not found" $s --kernel "$tmp/none" &&
	refused "$n: debug kernel image $tmp/none not found" $s --debug-kernel "$tmp/none" &&
	refused "$n: unknown argument .--nope." $s --nope
'
expect_success 'scripts/kernel-build and scripts/worktree: missing, empty and escaping names' '
	refused "kernel-build: usage: kernel-build" scripts/kernel-build &&
	refused "kernel-build: usage: kernel-build" scripts/kernel-build "" &&
	refused "kernel-build: usage: kernel-build" scripts/kernel-build --debug &&
	refused "kernel-build: unknown option --nope" scripts/kernel-build --nope x &&
	each_missing kernel-build --only scripts/kernel-build &&
	refused "kernel-build: --only wants an object \\(path ending in .o\\), got .net/core/sock.c." scripts/kernel-build --only net/core/sock.c "$tmp" &&
	refused "kernel-build: $tmp is not a kernel tree" scripts/kernel-build "$tmp" &&
	refused "worktree: usage: worktree NAME" scripts/worktree &&
	refused "worktree: NAME .. is not a plain name" scripts/worktree "" &&
	refused "worktree: NAME .\.\./x. is not a plain name" scripts/worktree ../x &&
	refused "worktree: NAME .a/b. is not a plain name" scripts/worktree a/b &&
	refused "worktree: empty COMMIT" scripts/worktree base "" &&
	refused "worktree: usage: worktree NAME" scripts/worktree a b c
'
expect_success 'scripts/test, scripts/images, scripts/setup, scripts/topic check: bad arguments' '
	refused "test: unknown argument .--nope." scripts/test --nope &&
	refused "images: takes no arguments" scripts/images --nope &&
	refused "setup: unknown argument .--nope." scripts/setup --nope &&
	refused "setup: --base needs a value" scripts/setup --base &&
	refused "setup: --base needs a value" scripts/setup --base "" &&
	refused "setup: --base .7.0. is not a base" scripts/setup --base 7.0 &&
	refused "topic check: usage: topic check" scripts/topic check &&
	refused "topic check: usage: topic check" scripts/topic check "" &&
	refused "topic check: usage: topic check" scripts/topic check --no-build &&
	refused "topic check: usage: topic check" scripts/topic check --full-build &&
	refused "topic check: unknown option --nope" scripts/topic check --nope netvm
'
expect_success 'scripts/setup --base 6.12 adds linux-source-6.12 to what 6.1 needs' '
	scripts/setup --list >"$tmp/pk61" && scripts/setup --list --base 6.12 >"$tmp/pk612" &&
	grep -qx linux-source-6.1 "$tmp/pk61" && ! grep -qx linux-source-6.12 "$tmp/pk61" &&
	grep -qx linux-source-6.1 "$tmp/pk612" && grep -qx linux-source-6.12 "$tmp/pk612" &&
	[ "$(grep -vc "^linux-source" "$tmp/pk61")" = "$(grep -vc "^linux-source" "$tmp/pk612")" ]
'
expect_success 'nothing was written at the file system root or in $HOME' '
	diff <(echo "$root_before") <(ls -A /) | sed "s|^|# /: |" &&
	diff <(echo "$home_before") <(ls -A "$HOME") | sed "s|^|# \$HOME: |" &&
	[ "$(ls -A /)" = "$root_before" ] && [ "$(ls -A "$HOME")" = "$home_before" ] &&
	[ ! -e /integrate ] && [ ! -e /.swapnfs-results ] && [ ! -e "$HOME/.swapnfs-results" ]
'
done_testing
