#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The NFSv4.2 server restarts (all its state lost, short lease and grace)
# while the client is deep in swap: the client registers again, no swap
# I/O fails, no process is killed, every page of the stress verifies and
# swapoff reads every page back.
#
# Why it matters: after the restart no swap write completes until the
# state manager has a new client ID and session and has reclaimed the
# OPEN of the swap file.  On 6.1 the manager allocates with GFP_NOFS,
# which may not write to an NFS swap file, so its reclaim can only wait
# for the swap writes that wait for it.  In one of two runs on base the
# client hung (manager runnable in shrink_folio_list() below
# unx_lookup_cred() under CREATE_SESSION, hung-task panic); in the other
# it recovered.  The outcome on base is a matter of timing, so this is a
# regression test for the series, not a gap test; runs on base are
# counted as k/n evidence.
# tags: nfs
. "$(dirname "$0")/lib.sh"
SCENARIO_DESC="NFSv4.2 server restart during swap: recovery completes, no swap I/O error, every page verifies, swapoff reads all back"

# One pass over twice the client's RAM: the restart comes when about 40
# MiB have gone out, the rest of the writes and every read-back after it.
STRESS_MIB=256
SCENARIO_TIMEOUT=2400

# The server guest already starts nfsd with --grace-time 15 --lease-time
# 15 (integration/guest/server.sh); the restart below keeps them.
NFSD_RESTART='rpc.nfsd 0 && sleep 2 && rpc.nfsd --grace-time 15 --lease-time 15 8'

client_main() {
	nfs_mount vers=4.2,proto=tcp,hard
	swap_on "$NFS_MNT/swapfile"

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
	_we=$(dmesg | grep -c 'Write error' || :)
	report write_errors "$_we"
	dmesg | grep -E 'NFS: state manager|nfs4_reclaim_open_state|nfs: server .* not responding|nfs: server .* OK' |
		tail -n 5 | while read -r _l; do info "kernel: $_l"; done
	[ "$_rc" -eq 0 ] || return 1
	# A swap write that failed was kept dirty and retried; one that
	# failed because the swap file's open state was marked failed would
	# fail for ever, and the stress or swapoff shows that.
	swap_off "$NFS_MNT/swapfile" || return 1
	info "swapoff read every page back"
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
