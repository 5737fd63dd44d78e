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
# path does; the plain 6.1 base runs it with GFP_NOFS only (the flag check
# below fails there; what the stress does on base is the other figure).
# tags: nfs
. "$(dirname "$0")/lib.sh"
SCENARIO_DESC="NFSv4.2 server restart during swap: recovery completes, every page verifies, state manager has PF_MEMALLOC"
SCENARIO_GAP="6.1 runs the NFSv4 state manager without memalloc reserves while swapping"

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
	# OPEN operations the mount has sent: recovery after the restart
	# reopens the swap file, so the count must grow.
	open_ops() {
		sed -n 's/^[[:space:]]*OPEN: \([0-9]*\) .*/\1/p' /proc/self/mountstats | head -n1
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

	_open0=$(open_ops)
	# Tell the host how deep in swap we are: it restarts the server once
	# pswpout has five digits.
	(while :; do
		echo "SWAPNFS-INFO pswpout=$(sed -n 's/^pswpout //p' /proc/vmstat)"
		sleep 2
	done) &
	_mon=$!
	_rc=0
	stress || _rc=$?
	kill "$_mon"
	_open1=$(open_ops)
	report open_ops_before "$_open0"
	report open_ops_after "$_open1"
	report write_errors "$(dmesg | grep -c 'Write error')"
	dmesg | grep -E 'NFS: state manager|nfs: server .* not responding|nfs: server .* OK' |
		tail -n 5 | while read -r _l; do info "kernel: $_l"; done
	[ "$_rc" -eq 0 ] || return 1
	[ "${_open1:-0}" -gt "${_open0:-0}" ] ||
		fail "no OPEN was sent after the server restart ($_open0 before, $_open1 after): did the client recover at all?"
	swap_off "$NFS_MNT/swapfile"
}

host_during() {
	wait_client 'SWAPNFS-INFO pswpout=[0-9]{5}' 600 || {
		echo "the client never got 10000 pages into swap"
		return 1
	}
	echo "restarting nfsd: $(tr -d '\r' <"$OUT/client.log" | grep -o 'pswpout=[0-9]*' | tail -n1)"
	server_ctl "$NFSD_RESTART" || {
		echo "nfsd restart in the server guest failed"
		return 1
	}
	echo "nfsd restarted"
}

run_scenario "$@"
