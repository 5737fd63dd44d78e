#!/bin/bash
# The NFSv4.2 server restarts (all its state lost, short lease and grace)
# while the client is deep in swap: the client recovers its state, every
# page of the stress verifies, no task hangs.  While swap is active the
# client's state manager thread runs with PF_MEMALLOC.
#
# Why it matters: after the restart no swap write completes until the state
# manager has a new client ID and session and has reclaimed the OPEN of the
# swap file.  If the manager's allocations wait in direct reclaim, and
# reclaim waits for swap-out, nothing moves.  The nfs/ series lets the
# manager use the memalloc reserves while the client swaps, as the swap-out
# path does; the plain 6.1 base runs it with GFP_NOFS only.  On base the
# flag check below fails; in one of two runs on base the client also hung
# after the restart (state manager in direct reclaim under CREATE_SESSION,
# hung-task panic), in the other it recovered.
# tags: nfs
. "$(dirname "$0")/lib.sh"
SCENARIO_DESC="NFSv4.2 server restart during swap: recovery completes, every page verifies, state manager has PF_MEMALLOC"
SCENARIO_GAP="6.1 runs the NFSv4 state manager without memalloc reserves while swapping"

# One pass over twice the client's RAM: the restart comes when about 40
# MiB have gone out, the rest of the writes and every read-back after it.
STRESS_MIB=256
SCENARIO_TIMEOUT=2400

# The server guest already starts nfsd with --grace-time 15 --lease-time
# 15 (integration/guest/server.sh); the restart below keeps them.
NFSD_RESTART='rpc.nfsd 0 && sleep 2 && rpc.nfsd --grace-time 15 --lease-time 15 8'

client_main() {
	# The state manager kthread is "<server address>-manager", cut to 15
	# characters in comm.  Print its task flags (decimal), or nothing.
	manager_flags() {
		for _d in /proc/[0-9]*; do
			case $(cat "$_d/comm" 2>/dev/null) in
			"$SERVER_IP"-manag*)
				# comm has no spaces, so field 9 is the flags word.
				awk '{ print $9 }' "$_d/stat"
				return 0 ;;
			esac
		done
		return 1
	}
	# PF_MEMALLOC is 0x800 in include/linux/sched.h.
	manager_has_memalloc() {
		_f=$(manager_flags) || return 1
		[ $((_f & 0x800)) -ne 0 ]
	}

	nfs_mount vers=4.2,proto=tcp,hard
	swap_on "$NFS_MNT/swapfile"
	if wait_for 10 manager_has_memalloc; then
		report manager_memalloc 1
		info "state manager flags $(manager_flags) include PF_MEMALLOC"
	else
		report manager_memalloc 0
		_flags=$(manager_flags) || _flags="(no state manager thread)"
		fail "while swap is active the NFSv4 state manager has no PF_MEMALLOC: flags $_flags"
	fi

	# Tell the host how deep in swap we are: it restarts the server once
	# pswpout has five digits.
	(while :; do
		echo "SWAPNFS-INFO pswpout=$(sed -n 's/^pswpout //p' /proc/vmstat)"
		sleep 2
	done) &
	_mon=$!
	_rc=0
	stress -n 1 || _rc=$?
	kill "$_mon"
	info "mountstats: $(grep -m1 ' OPEN:' /proc/self/mountstats)"
	report write_errors "$(dmesg | grep -c 'Write error')"
	dmesg | grep -E 'NFS: state manager|nfs: server .* not responding|nfs: server .* OK' |
		tail -n 5 | while read -r _l; do info "kernel: $_l"; done
	[ "$_rc" -eq 0 ] || return 1
	swap_off "$NFS_MNT/swapfile"
}

host_during() {
	wait_client 'SWAPNFS-INFO pswpout=[0-9]{5}' 1800 || {
		echo "the client never got 10000 pages into swap"
		return 1
	}
	echo "restarting nfsd: $(tr -d '\r' <"$OUT/client.log" | grep -o 'pswpout=[0-9]*' | tail -n1)"
	server_ctl "$NFSD_RESTART" || {
		echo "nfsd restart in the server guest failed"
		return 1
	}
	echo "nfsd restarted"
	# The restart dropped every client record; the client must come back
	# (EXCHANGE_ID after its session and client ID went stale) while it
	# is still swapping.  The stress verifying its pages shows the rest.
	local i n
	for i in $(seq 60); do
		n=$(server_ctl 'cat /proc/fs/nfsd/clients/*/info 2>/dev/null | grep -c "^clientid"' 30)
		if [ "${n:-0}" -ge 1 ] 2>/dev/null; then
			echo "client registered again with the restarted server after ${i} polls"
			return 0
		fi
		# A client that hung and panicked will not come back.
		kill -0 "$PID_CLIENT" 2>/dev/null || break
		sleep 5
	done
	echo "the client did not register again with the restarted server"
	return 1
}

run_scenario "$@"
