#!/bin/bash
# Swap to a file on a flexfiles pNFS mount (knfsd, "pnfs" export) while
# the server keeps recalling the client's layout: the stress finishes,
# every page verifies, and the client gets its layout back a few times
# per recall, not in a storm.
#
# Why it matters: while a layout is being fetched for the first time or
# returned, every swap read and write waits in pnfs_update_layout().  The
# LAYOUTGET or LAYOUTRETURN being waited for allocates first; on 6.1 it
# may do so with direct reclaim, and reclaim's swap writes then wait for
# it: a deadlock.  Both forms were caught here (sysrq-w): the nfsiod
# worker sending a LAYOUTRETURN in try_to_free_pages() below
# ff_layout_prepare_layoutreturn(), and a swap-in in try_to_free_pages()
# below ff_layout_alloc_lseg() under its own LAYOUTGET, every other
# writer asleep in pnfs_update_layout().  nfs/0005 runs a swap file's
# layout work with PF_MEMALLOC.
# Here the server forces returns: knfsd recalls a file's layouts from
# every other client when one client asks for a layout (RECALLCONFLICT),
# so a loopback NFSv4.2 mount in the server guest that reads the swap
# file makes the swapping client return its layout, again and again.
# Without nfs/0005 (nfs 1-4), 3 runs in 4 went wrong: two storms (717
# and 1994 LAYOUTGETs, over 500000 failed swap writes, for 40 recalls)
# and one deadlock; one was clean.  As the outcome on 6.1 is a matter of
# timing, this is a regression test for the series, not a gap test.
# Figures: LAYOUTGET and LAYOUTRETURN counts, swap writes that failed
# ("Write error ... on dio swapfile", with the rate-limited ones).
# tags: nfs
. "$(dirname "$0")/lib.sh"
SCENARIO_DESC="pNFS flexfiles swap while the server recalls the layout: no deadlock, every page verified"
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
	nfs_mount vers=4.2,proto=tcp,hard
	swap_on "$NFS_MNT/swapfile"
	stress
	# mountstats: "OPNAME: ops trans timeouts ...": the ops count.
	_lg=$(awk '$1 == "LAYOUTGET:" { print $2 }' /proc/self/mountstats | head -n1)
	_lr=$(awk '$1 == "LAYOUTRETURN:" { print $2 }' /proc/self/mountstats | head -n1)
	report layoutgets "${_lg:-0}"
	report layoutreturns "${_lr:-0}"
	_we=$(dmesg | awk '/Write error .* on dio swapfile/ { n++ }
		/sio_write_complete: [0-9]+ callbacks suppressed/ { n += $(NF - 2) }
		END { print n + 0 }')
	report swap_write_errors "$_we"
	[ "${_lg:-0}" -gt 1 ] || fail "${_lg:-0} LAYOUTGETs: the layout was never recalled and fetched again"
	# A recall costs a LAYOUTGET or a few (the RECALLCONFLICT retries);
	# hundreds more mean the client keeps losing the layout it just got.
	[ "${_lg:-0}" -le $((4 * RECALLS + 20)) ] ||
		fail "layout storm: ${_lg} LAYOUTGETs and $_we failed swap writes for $RECALLS recalls"
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
