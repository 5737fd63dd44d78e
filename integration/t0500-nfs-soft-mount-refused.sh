#!/bin/bash
# swapon of a file on a soft or softerr NFS mount is refused, with a kernel
# message that names the file and the reason; on a hard mount the same file
# still swaps.
#
# Why it matters: a soft mount gives up on an RPC after its retries, so a
# swap-in that times out cannot read the page back and the process owning
# it is killed with SIGBUS.  The plain 6.1 base accepts such a swap file
# without a word; the nfs/ series refuses it (EINVAL) and says why in the
# kernel log ("NFS: swapon of 192.0.2.1:/export/swapfile refused: soft ...").
# tags: ci nfs
. "$(dirname "$0")/lib.sh"
SCENARIO_DESC="swapon refused on soft and softerr NFS mounts (with a kernel message), accepted on hard"
SCENARIO_GAP="6.1 accepts a swap file on a soft NFS mount"
# The hard-mount part only needs to show that swap still works: one pass
# over 1.5x the client's RAM instead of the default two over 3x.
STRESS_MIB=192
SCENARIO_TIMEOUT=1800

client_main() {
	# refused OPTS: mount with OPTS, swapon must fail and the kernel must
	# name the file and "soft" in its message.  On a kernel that accepts
	# the file, undo the swapon so the next step starts clean.
	refused() {
		nfs_mount "$1"
		dmesg -c >/dev/null
		if swapon "$NFS_MNT/swapfile" 2>/tmp/swapon.err; then
			fail "swapon on a $1 mount was accepted"
			report "accepted_$2" 1
			swapoff "$NFS_MNT/swapfile"
		else
			info "swapon on $1 refused: $(cat /tmp/swapon.err)"
			report "accepted_$2" 0
			dmesg >/tmp/dmesg.out
			if grep -q "NFS: swapon of $SERVER_IP:/export/swapfile refused: soft" /tmp/dmesg.out; then
				info "kernel: $(grep 'NFS: swapon of' /tmp/dmesg.out | head -n1)"
			else
				fail "swapon on a $1 mount refused, but the kernel did not say why"
				cat /tmp/dmesg.out
			fi
		fi
		umount "$NFS_MNT"
	}

	refused vers=4.2,proto=tcp,soft,timeo=20,retrans=2 soft_v42
	refused vers=4.2,proto=tcp,softerr,timeo=20,retrans=2 softerr_v42
	refused vers=3,proto=tcp,soft,timeo=20,retrans=2 soft_v3

	# The refusals must leave nothing behind: a hard mount of the same
	# export swaps and verifies every page.
	nfs_mount vers=4.2,proto=tcp,hard
	swap_on "$NFS_MNT/swapfile"
	stress -n 1
	swap_off "$NFS_MNT/swapfile"
}

run_scenario "$@"
