#!/bin/bash
# Fault: the client's link is cut for longer than the RPC timeout (QEMU
# monitor set_link) while it swaps over NFSv4.2, then restored.  A hard
# mount retries; every page verifies once the link is back.
# tags: fault
. "$(dirname "$0")/lib.sh"
SCENARIO_DESC="link cut for 75 s during swap over NFSv4.2: no page lost"
SCENARIO_TIMEOUT=1200

client_main() {
	nfs_mount vers=4.2,proto=tcp,hard,timeo=100,retrans=2
	swap_on "$NFS_MNT/swapfile"
	stress
	swap_off "$NFS_MNT/swapfile"
}

host_during() {
	wait_client 'random verify\+rewrite' 900 || { echo "stress never reached the random pass"; exit 1; }
	client_monitor 'set_link n0 off'
	echo "link down at $(date +%T)"
	sleep 75
	client_monitor 'set_link n0 on'
	echo "link up at $(date +%T)"
}

run_scenario "$@"
