#!/bin/bash
# Swap to a file on an NFSv4.2 mount whose server hands out flexfiles
# layouts (knfsd with the "pnfs" export option): swap I/O then goes to the
# data server over a second nfs_client (NFSv3), not over the mount's own
# transport.  While swap is on, that data-server transport must be marked
# as a swapper (sysfs xprt_info: swapper=1) like the mount's; the stress
# verifies every page.
#
# Why it matters: the swapper mark gives a transport its memalloc socket.
# A data server reached over an unmarked socket drops the replies to swap
# writes when only the reserves are left: the deadlock swap over NFS is
# meant to prevent.  On the plain 6.1 base nothing marks data servers
# (and xprt_info has no swapper line at all).  The nfs/ series marks a
# data server the first time swap I/O goes to it; reading the mark needs
# the sunrpc/ series (swapper= in xprt_info).
# tags: ci nfs
. "$(dirname "$0")/lib.sh"
SCENARIO_DESC="pNFS flexfiles: the data-server transport is a swapper while swap is on"
SCENARIO_GAP="6.1 marks only the metadata server's transport; swap I/O through a layout goes to unmarked data servers"
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
	# ds_swapper: print "N M": how many transports there are, and how
	# many of them say swapper=1.
	ds_swapper() {
		_n=0 _m=0
		for _f in /sys/kernel/sunrpc/xprt-switches/switch-*/xprt-*/xprt_info; do
			[ -f "$_f" ] || continue
			_n=$((_n + 1))
			[ "$(sed -n 's/^swapper=//p' "$_f")" = 1 ] && _m=$((_m + 1))
		done
		echo "$_n $_m"
	}
	nfs_mount vers=4.2,proto=tcp,hard
	grep -a 'LAYOUTGET\|pnfs' /proc/self/mountstats | head -5 | while read -r l; do info "$l"; done
	swap_on "$NFS_MNT/swapfile"
	# The verdict on the mark must not wait for the stress: on base
	# swap-out through the layout can stall for good.  So the stress runs
	# in the background, and the mark is checked once the first 8 MiB
	# went out through the layout.
	pswpout() { awk '$1 == "pswpout" { print $2 }' /proc/vmstat; }
	_out0=$(pswpout)
	stress &
	_sp=$!
	_t=0
	while [ "$_t" -lt 180 ] && [ $(($(pswpout) - _out0)) -lt 2048 ] &&
		kill -0 "$_sp" 2>/dev/null; do
		sleep 1
		_t=$((_t + 1))
	done
	# nfsiod sets the mark just after the I/O that asked for it.
	sleep 2
	set -- $(ds_swapper)
	report swapper_transports_early "$2"
	if [ "$2" -lt 2 ]; then
		fail "$2 of $1 transports say swapper=1 after $(($(pswpout) - _out0)) pages swapped out; the data server's is not marked"
		killall -9 swapstress 2>/dev/null
		return 1
	fi
	wait "$_sp" || return 1
	# Layout statistics: without LAYOUTGETs the I/O went to the MDS and
	# the scenario tested nothing.
	_lg=$(awk '$1 == "LAYOUTGET:" { print $2 }' /proc/self/mountstats | head -n1)
	report layoutgets "${_lg:-0}"
	[ "${_lg:-0}" -gt 0 ] || fail "no LAYOUTGET: swap I/O did not use pNFS"
	cat /proc/fs/nfsfs/servers | while read -r l; do info "nfsfs: $l"; done
	sysfs_xprt_dump
	set -- $(ds_swapper)
	_n=$1 _m=$2
	report transports "$_n"
	report swapper_transports "$_m"
	# The MDS transport is one; a marked data server makes two.
	[ "$_m" -ge 2 ] || fail "$_m of $_n transports say swapper=1 while swap is on; the data server's is not marked"
	swap_off "$NFS_MNT/swapfile"
}

run_scenario "$@"
