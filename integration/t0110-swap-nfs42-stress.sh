#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Swap on a file over NFSv4.2/TCP: the stress pushes several times the
# client's RAM through swap and every page reads back intact.
# tags: ci
. "$(dirname "$0")/lib.sh"
SCENARIO_DESC="swap on a file over NFSv4.2/TCP, every page verified"

client_main() {
	nfs_mount vers=4.2,proto=tcp,hard
	swap_on "$NFS_MNT/swapfile"
	stress
	swap_off "$NFS_MNT/swapfile"
}

run_scenario "$@"
