#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Swap on a file over NFSv4.2/RDMA between the two guests, through
# soft-RoCE (rdma_rxe on the virtio NIC): after swapon the RDMA transport
# is marked as a swapper (sysfs xprt_info says swapper=1), the stress
# verifies every page, and swapoff unmarks it.
#
# Why it matters: in 6.1 xprt_rdma_enable_swap() does nothing, so an
# NFS/RDMA swap transport never gets PF_MEMALLOC on reconnect or transmit
# although swapon succeeds.  The scenario reads the swapper= line of
# xprt_info (sunrpc patch 1), which the plain base lacks: there it fails
# at its first check, which says only that the line is missing, so it is
# not declared a gap scenario; it runs on the series.
#
# Needs the iproute2 "rdma" tool in both guest images (rdma link add);
# 6.1's rdma_rxe has no module parameter to create a link.
# tags: sunrpc rdma
. "$(dirname "$0")/lib.sh"
SCENARIO_DESC="swap over NFSv4.2/RDMA (soft-RoCE): transport marked swapper, every page verified"
SCENARIO_TIMEOUT=1800

server_main() {
	if command -v rdma >/dev/null; then
		rdma link add rxe0 type rxe netdev eth0 ||
			echo "SWAPNFS-INFO rdma link add on the server failed"
	fi
}

# nfsd only listens for RDMA once asked, and asking before rpc.nfsd has
# set up its sockets would make rpc.nfsd skip them; so ask afterwards.
# The client's mount retries until the listener is there.
host_during() {
	server_ctl 'test -d /sys/class/infiniband/rxe0 && echo rdma 20049 >/proc/fs/nfsd/portlist; cat /proc/fs/nfsd/portlist'
}

client_main() {
	command -v rdma >/dev/null ||
		{ skip "no rdma tool in the guest image (iproute2)"; return 0; }
	rdma link add rxe0 type rxe netdev eth0 ||
		{ fail "rdma link add rxe0 type rxe netdev eth0 failed"; return 1; }
	info "$(rdma link show 2>&1 | tr '\n' ' ')"

	# rdma_swapper: the swapper= value of the RDMA transport.
	rdma_swapper() {
		for _f in /sys/kernel/sunrpc/xprt-switches/switch-*/xprt-*-rdma/xprt_info; do
			[ -f "$_f" ] || continue
			grep -q '^last_used=' "$_f" || continue
			_v=$(sed -n 's/^swapper=//p' "$_f")
			echo "${_v:-absent}"
			return 0
		done
		echo none
	}
	expect() {
		_v=$(rdma_swapper)
		report "rdma_swapper_$2" "$_v"
		[ "$_v" = "$1" ] && return 0
		fail "$2: the RDMA transport says swapper=$_v, want $1"
		sysfs_xprt_dump
		return 1
	}

	nfs_mount vers=4.2,proto=rdma,port=20049,hard
	grep " $NFS_MNT " /proc/mounts
	ls -l "$NFS_MNT" >/dev/null
	expect 0 before_swapon
	swap_on "$NFS_MNT/swapfile"
	expect 1 after_swapon
	stress -r 2
	expect 1 after_stress
	swap_off "$NFS_MNT/swapfile"
	ls -l "$NFS_MNT" >/dev/null
	expect 0 after_swapoff
}

run_scenario "$@"
