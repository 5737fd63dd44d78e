#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Metadata work on the same NFSv4.2 mount as the swap file while the
# stress swaps: a loop creates, stats, lists, renames and removes small
# files and directories (find, ls -lR, tar) beside the stress.  The
# stress must verify every page, the metadata loop must keep going and
# finish its rounds, and no task may hang.
#
# Why it matters: a diskless client does metadata I/O on NFS all the
# time (its root, its home).  Each such synchronous call holds an
# NFSv4.1 session slot while it allocates, and under swap pressure its
# allocation reclaims into ->swap_rw(), where the nfs/ series throttles
# swap writes.  If that wait depended on the slot it holds, the client
# would deadlock; the series bounds the wait, and this scenario is where
# a missed dependency would show.  A stand-in for a real NFS root until
# the harness can boot one.
# tags: nfs
. "$(dirname "$0")/lib.sh"
SCENARIO_DESC="metadata work (create/stat/find/tar/rm) on the NFSv4.2 swap mount beside the stress: every page verified, the metadata loop finishes"
STRESS_MIB=192
SCENARIO_TIMEOUT=1800

client_main() {
	nfs_mount vers=4.2,proto=tcp,hard
	swap_on "$NFS_MNT/swapfile" || return 1
	_w=$NFS_MNT/meta.$$
	mkdir -p "$_w" || { fail "mkdir $_w failed"; return 1; }
	# One round: 10 directories of 20 small files, walk them, pack
	# them, rename, remove.  Rounds go on while the stress runs.
	meta_round() {
		_r=$1
		for _d in 0 1 2 3 4 5 6 7 8 9; do
			mkdir -p "$_w/r$_r/d$_d" || return 1
			for _f in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19; do
				echo "$_r $_d $_f" >"$_w/r$_r/d$_d/f$_f" || return 1
			done
		done
		[ "$(find "$_w/r$_r" -type f | wc -l)" -eq 200 ] || return 1
		ls -lR "$_w/r$_r" >/dev/null || return 1
		tar -cf - -C "$_w" "r$_r" | tar -tf - | grep -c . >/dev/null || return 1
		mv "$_w/r$_r" "$_w/done$_r" || return 1
		rm -rf "$_w/done$_r" || return 1
	}
	_rc=0
	beside_stress meta_round metadata -n 1 || _rc=$?
	rm -rf "$_w"
	[ "$_rc" -eq 0 ] || return 1
	swap_off "$NFS_MNT/swapfile"
}

run_scenario "$@"
