#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Baseline: the same stress with swap on a local virtio disk, no network.
# tags: ci
. "$(dirname "$0")/lib.sh"
SCENARIO_DESC="baseline: swap on a local virtio disk, every page verified"
NEEDS_SERVER=0
LOCAL_SWAP_DISK=1

client_main() {
	swap_on /dev/vda
	stress
	swap_off /dev/vda
}

run_scenario "$@"
