#!/bin/bash
# swapon/swapoff of an NFSv4.2 swap file, repeated while the stress runs:
# swapoff must pull every page back over NFS, swapon must re-mark the
# transport, and the stress still verifies every page.
# tags: ci
. "$(dirname "$0")/lib.sh"
SCENARIO_DESC="swapon/swapoff churn on NFSv4.2 under the stress"
# With 1.5x RAM in use, swapoff cannot bring every page back: the kernel
# may answer ENOMEM or OOM-kill the swapoff process itself (seen in CI).
# Either is allowed; a lost page or a killed stress is not.
ALLOW_LOG='Out of memory: Killed process [0-9]+ \(swapoff\)'

client_main() {
	nfs_mount vers=4.2,proto=tcp,hard
	swap_on "$NFS_MNT/swapfile"
	/bin/swapstress -q -r 1.5 -n "${SWAPNFS_STRESS_PASSES:-3}" >/tmp/stress.out 2>&1 &
	pid=$!
	cycles=0
	# While pages are out: swapoff brings them back (RAM + 1.5x RAM of
	# stress cannot all come back, so swapoff may fail with ENOMEM; that
	# is allowed, a lost page is not).
	while kill -0 "$pid" 2>/dev/null; do
		sleep 3
		if swapoff "$NFS_MNT/swapfile" 2>/tmp/swapoff.err; then
			swapon "$NFS_MNT/swapfile" || { fail "swapon after swapoff refused"; break; }
			cycles=$((cycles + 1))
		fi
	done
	rc=0
	wait "$pid" || rc=$?
	cat /tmp/stress.out
	report onoff_cycles "$cycles"
	sed -n 's/^swapstress: //p' /tmp/stress.out | tr ' ' '\n' |
		while IFS='=' read -r k v; do [ -n "$v" ] && report "$k" "$v"; done
	[ "$rc" -eq 0 ] || fail "swapstress exited $rc during swapon/swapoff churn"
	[ "$cycles" -gt 0 ] || fail "no swapoff/swapon cycle completed"
	swapoff "$NFS_MNT/swapfile" 2>/dev/null
	return 0
}

run_scenario "$@"
