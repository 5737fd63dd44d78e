#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Baseline: the same stress with swap on NBD from the same server guest and
# the same ext4 disk.  NBD marks its socket SOCK_MEMALLOC too, so it is the
# fair network comparison for swap over NFS.
# tags: ci
. "$(dirname "$0")/lib.sh"
SCENARIO_DESC="baseline: swap on NBD from the same server, every page verified"

client_main() {
	wait_for 60 nbd-client "$SERVER_IP" -N swap /dev/nbd0 -swap ||
		{ fail "nbd-client could not connect"; return 1; }
	swap_on /dev/nbd0
	stress
	swap_off /dev/nbd0
	nbd-client -d /dev/nbd0 >/dev/null 2>&1
	return 0
}

run_scenario "$@"
