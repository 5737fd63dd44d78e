#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Swap to a file on a flexfiles pNFS mount (knfsd, "pnfs" export) while
# the server keeps recalling layouts of the file: the stress finishes,
# every page verifies, and swap I/O never asks for a layout (no LAYOUTGET
# on the mount while swap is on), so a recall has nothing to wait for.
#
# Why it matters: swap I/O that goes through a layout waits in
# pnfs_update_layout() while a layout is fetched or returned, and the
# LAYOUTGET or LAYOUTRETURN allocates with direct reclaim, which waits
# for those swap writes.  Both forms were caught here on 6.1 (sysrq-w):
# the nfsiod worker sending a LAYOUTRETURN in try_to_free_pages() below
# ff_layout_prepare_layoutreturn(), and a swap-in in try_to_free_pages()
# below ff_layout_alloc_lseg() under its own LAYOUTGET; other runs went
# into a storm of up to 2000 LAYOUTGETs and half a million failed swap
# writes for 40 recalls.  As the outcome on 6.1 is a matter of timing,
# this is a regression test for the series, not a gap test.
# Here the server forces returns: knfsd recalls a file's layouts from
# every other client when one client asks for a layout (RECALLCONFLICT),
# so a loopback NFSv4.2 mount in the server guest that reads the swap
# file makes the swapping client return any layout it holds.
# Figures: LAYOUTGET and LAYOUTRETURN counts while swap is on, swap
# writes that failed ("Write error ... on dio swapfile").
# tags: nfs
. "$(dirname "$0")/lib.sh"
SCENARIO_DESC="pNFS flexfiles swap while the server recalls layouts: swap I/O takes no layout, no deadlock, every page verified"
SCENARIO_TIMEOUT=600
EXPORT_EXTRA=pnfs
GUEST_VARS="EXPORT_EXTRA RECALLS"
RECALLS=${SWAPNFS_RECALLS:-40}
RECALL_GAP_S=${SWAPNFS_RECALL_GAP_S:-0.5}

# See t0530: knfsd's read layouts name uid+1 as the data-server credential.
server_main() {
	chmod 644 /export/swapfile
	mkdir -p /mnt/lb
	: >/etc/exports
}

client_main() {
	# op_count OP: the ops count of OP on this mount (mountstats).
	op_count() {
		awk -v op="$1:" '$1 == op { print $2; exit }' /proc/self/mountstats
	}
	nfs_mount vers=4.2,proto=tcp,hard
	swap_on "$NFS_MNT/swapfile" || return 1
	_lg0=$(op_count LAYOUTGET) _lr0=$(op_count LAYOUTRETURN)
	stress || return 1
	_lg=$(($(op_count LAYOUTGET) - _lg0))
	_lr=$(($(op_count LAYOUTRETURN) - _lr0))
	report layoutgets "$_lg"
	report layoutreturns "$_lr"
	_we=$(dmesg | awk '/Write error .* on dio swapfile/ { n++ }
		/sio_write_complete: [0-9]+ callbacks suppressed/ { n += $(NF - 2) }
		END { print n + 0 }')
	report swap_write_errors "$_we"
	[ "$_lg" -eq 0 ] || fail "$_lg LAYOUTGETs while swap was on: swap I/O went through a layout"
	[ "$_we" -eq 0 ] || fail "$_we swap writes failed"
	swap_off "$NFS_MNT/swapfile"
}

# A loopback mount in the server reads the start of the swap file (the
# swap header, which the client never writes again) with a cold cache,
# so each read asks for a layout and knfsd recalls the client's.
host_during() {
	server_ctl 'exportfs -o rw,sync,no_root_squash,no_subtree_check,insecure,pnfs 192.0.2.1:/export' 60 ||
		{ echo "exporting to the server itself failed"; exit 1; }
	server_ctl 'mount -t nfs -o vers=4.2,proto=tcp,hard,addr=192.0.2.1,clientaddr=192.0.2.1 192.0.2.1:/export /mnt/lb' 60 ||
		{ echo "loopback mount in the server failed"; exit 1; }
	# Memory is shortest as the stress starts: recall from then on.
	wait_client 'swapstress: [0-9]+ procs' 300 || { echo "the stress never started"; exit 1; }
	for _i in $(seq "$RECALLS"); do
		server_ctl 'echo 3 >/proc/sys/vm/drop_caches; dd if=/mnt/lb/swapfile of=/dev/null bs=4k count=1' 60 ||
			{ echo "read $_i through the loopback mount failed"; exit 1; }
		sleep "$RECALL_GAP_S"
	done
	echo "forced $RECALLS layout recalls"
}

run_scenario "$@"
