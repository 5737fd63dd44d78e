#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# While a swap file on NFSv4.2 is active, the client's state manager
# thread stays resident, also on a client whose lease rpc_clnt is the
# AUTH_UNIX clone that replaced a krb5i one; swapoff lets it go.
#
# Why it matters: state recovery (a server restart, an expired lease)
# runs in that thread.  If it is not resident, recovery must first
# create it with kthread_run(), which allocates, at the moment swap-out
# waits for that very recovery.  6.1 keeps the thread only when
# clp->cl_rpcclient counts the swap file, but rpc_clnt_swap_activate()
# counts it on the topmost rpc_clnt.  They are the same client unless
# trunking discovery had to give up krb5i for the lease and put an
# AUTH_UNIX clone in cl_rpcclient: then the count sits on the old krb5i
# client, and the manager exits right after swapon (nfs/0001).
#
# How the clone is made: the client kernel has RPCSEC_GSS_KRB5
# (integration/config/base-6.1.config; 6.12 has it anyway), so the lease
# client is created with krb5i when rpc.gssd looks alive.  That is the
# case of a machine where gssd runs but this server does not take its
# Kerberos credentials.  Here a shell holds rpc_pipefs's gssd/clntXX/gssd
# open, which is all gss_create() checks, and nothing answers the
# upcalls: EXCHANGE_ID fails with EACCES after the upcall's 15 s wait,
# again with the machine credential, and trunking discovery then clones
# the client with AUTH_UNIX.  The mount takes that long (mount_s).
#
# First a control on the same kernel with the plain AUTH_UNIX lease,
# where 6.1 keeps the thread as well, so that a base failure is the
# fallback's doing.  The check is deterministic: on the base the thread
# is gone after swapon in every run; the figure manager_threads counts
# it.
# tags: ci nfs
. "$(dirname "$0")/lib.sh"
SCENARIO_DESC="NFSv4.2 swap on a client whose lease fell back from krb5i to AUTH_UNIX: state manager resident while swap is on"
SCENARIO_GAP="6.1 looks for active swap on cl_rpcclient, not on the rpc_clnt that counts it: after the krb5i fallback the manager exits"
SCENARIO_TIMEOUT=600

client_main() {
	# manager_threads: the state manager threads for this server.  Their
	# name is "ADDR-manager", cut to 15 characters.
	manager_threads() {
		_n=0
		for _c in /proc/[0-9]*/comm; do
			case $(cat "$_c" 2>/dev/null) in "$SERVER_IP"-man*) _n=$((_n + 1)) ;; esac
		done
		echo "$_n"
	}
	# Control: the same kernel, the plain AUTH_UNIX lease (no gssd, so
	# no krb5i attempt).  Here 6.1 keeps the thread too; if it does not,
	# the check below proves nothing.
	nfs_mount vers=4.2,proto=tcp,hard
	swap_on "$NFS_MNT/swapfile"
	sleep 5
	_c=$(manager_threads)
	report manager_threads_control "$_c"
	swap_off "$NFS_MNT/swapfile"
	umount "$NFS_MNT" || { fail "umount after the control run failed"; return 1; }
	[ "$_c" -ge 1 ] ||
		{ fail "no state manager thread even on the plain AUTH_UNIX lease: the check is broken"; return 1; }
	sleep 2

	mkdir -p /run/rpc_pipefs
	mount -t rpc_pipefs rpc_pipefs /run/rpc_pipefs ||
		{ fail "cannot mount rpc_pipefs"; return 1; }
	# gssd "running": the dummy pipe held open for the whole scenario.
	exec 3</run/rpc_pipefs/gssd/clntXX/gssd ||
		{ fail "cannot open rpc_pipefs/gssd/clntXX/gssd"; return 1; }
	_t0=$(cut -d. -f1 /proc/uptime)
	nfs_mount vers=4.2,proto=tcp,hard
	report mount_s $(( $(cut -d. -f1 /proc/uptime) - _t0 ))
	# The fallback is what this scenario is about: without it, both
	# kernels keep the thread and the run proves nothing.
	[ "$(cut -d. -f1 /proc/uptime)" -ge $((_t0 + 10)) ] ||
		{ fail "the mount took under 10 s: no krb5i attempt, so no AUTH_UNIX clone (kernel without RPCSEC_GSS_KRB5?)"; return 1; }
	report manager_threads_before "$(manager_threads)"
	swap_on "$NFS_MNT/swapfile"
	# Give a manager that is going to exit ample time to do so.
	sleep 5
	_m=$(manager_threads)
	report manager_threads "$_m"
	swap_off "$NFS_MNT/swapfile"
	sleep 5
	report manager_threads_after_swapoff "$(manager_threads)"
	exec 3<&-
	[ "$_m" -ge 1 ] ||
		fail "no state manager thread while swap is on: recovery would have to create one under memory pressure"
	return 0
}

run_scenario "$@"
