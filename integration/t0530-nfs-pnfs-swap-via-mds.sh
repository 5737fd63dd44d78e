#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Swap to a file on an NFSv4.2 mount whose server hands out flexfiles
# layouts (knfsd with the "pnfs" export option): swap I/O must go to the
# metadata server over the mount's own transport, which swapon marked as
# a swapper, never through a layout to a data server whose transport
# nobody marked.  Checked from the mount's statistics: no LAYOUTGET while
# swap is on, and the mount's own WRITE count grows with swap-out; the
# stress verifies every page.
#
# Why it matters: the swapper mark gives a transport its memalloc socket.
# A data server reached over an unmarked socket drops the replies to swap
# writes when only the reserves are left: the deadlock swap over NFS is
# meant to prevent.  On the plain 6.1 base swap I/O takes a layout and
# goes to the data server (and can hang within seconds: a timeout then
# counts as the gap).  The nfs/ series sends swap I/O to the metadata
# server (force_mds).
# tags: ci nfs
. "$(dirname "$0")/lib.sh"
SCENARIO_DESC="pNFS flexfiles: swap I/O never takes a layout, goes over the marked MDS transport, every page verified"
SCENARIO_GAP="6.1 sends swap I/O through a layout to data servers whose transports swapon never marked"
EXPORT_EXTRA=pnfs
GUEST_VARS=EXPORT_EXTRA
# On base the client can hang within a second of the stress's start,
# before the mark can be checked (seen in two CI runs; the timeout then
# counts as the gap, with sysrq-w stacks in client.log).  The series
# needs 60-90 s here, so 300 s bounds what a stuck base costs the CI
# without cutting the series short.
SCENARIO_TIMEOUT=300

# knfsd's flexfiles layouts for reading name uid+1 of the file's owner as
# the data-server credential (write layouts name the owner), so the mode
# 0600 root swap file cannot be read through the data server: every read
# gets NFS3ERR_ACCES, and as knfsd sets FF_FLAGS_NO_IO_THRU_MDS the client
# loops on LAYOUTGET for ever (swapon hung reading the swap header).  The
# test file is made readable by others on the server.
server_main() {
	chmod 644 /export/swapfile
}

client_main() {
	# op_count OP: the ops count of OP on this mount's own rpc_clnt.
	op_count() {
		awk -v op="$1:" '$1 == op { print $2; exit }' /proc/self/mountstats
	}
	nfs_mount vers=4.2,proto=tcp,hard
	swap_on "$NFS_MNT/swapfile" || return 1
	# swapon read the swap header through the page cache, which may
	# have used a layout: count from here.
	_lg0=$(op_count LAYOUTGET) _w0=$(op_count WRITE)
	pswpout() { awk '$1 == "pswpout" { print $2 }' /proc/vmstat; }
	_out0=$(pswpout)
	# On base swap-out through the layout can stall for good, so the
	# verdict on the layout is taken once 8 MiB went out, not at the end.
	stress &
	_sp=$!
	_t=0
	while [ "$_t" -lt 180 ] && [ $(($(pswpout) - _out0)) -lt 2048 ] &&
		kill -0 "$_sp" 2>/dev/null; do
		sleep 1
		_t=$((_t + 1))
	done
	_lg=$(($(op_count LAYOUTGET) - _lg0))
	report layoutgets_early "$_lg"
	if [ "$_lg" -gt 0 ]; then
		fail "$_lg LAYOUTGETs after $(($(pswpout) - _out0)) pages swapped out: swap I/O goes through a layout"
		killall -9 swapstress 2>/dev/null
		return 1
	fi
	wait "$_sp" || return 1
	_lg=$(($(op_count LAYOUTGET) - _lg0))
	_w=$(($(op_count WRITE) - _w0))
	report layoutgets "$_lg"
	report mds_writes "$_w"
	cat /proc/fs/nfsfs/servers | while read -r l; do info "nfsfs: $l"; done
	[ "$_lg" -eq 0 ] || fail "$_lg LAYOUTGETs while swap was on: swap I/O went through a layout"
	[ "$_w" -gt 0 ] || fail "no WRITE on the mount's own transport: swap-out did not go to the metadata server"
	swap_off "$NFS_MNT/swapfile"
}

run_scenario "$@"
