# SPDX-License-Identifier: GPL-2.0
# Client guest: diskless, runs the scenario's client_main and reports.
net_up "$CLIENT_IP" || fail "no network"
SWAPNFS_STRESS_MIB=$(cmdline_arg swapnfs.stress_mib)
SWAPNFS_STRESS_PASSES=$(cmdline_arg swapnfs.stress_passes)
echo "SWAPNFS-CLIENT-START"
if command -v client_main >/dev/null; then
	(set -e; client_main)
	rc=$?
	[ "$rc" -eq 0 ] || [ -f /tmp/failed ] || fail "client_main exited $rc"
else
	fail "the scenario has no client_main"
fi
# A responsive client is part of every claim: the shell still forks and
# the kernel still answers after the scenario.
echo "SWAPNFS-ALIVE $(cat /proc/uptime)"
if [ -f /tmp/failed ]; then
	echo "SWAPNFS-RESULT fail $(head -n1 /tmp/failed)"
elif [ -f /tmp/skipped ]; then
	echo "SWAPNFS-RESULT skip $(head -n1 /tmp/skipped)"
else
	echo "SWAPNFS-RESULT pass"
fi
