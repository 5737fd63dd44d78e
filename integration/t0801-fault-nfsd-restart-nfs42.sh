#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# nfsd restarted while swapping over NFSv4.2.
# The fault and its claim are defined once, for every protocol, in
# integration/fault-nfsd-restart.inc.
# tags: fault
. "$(dirname "$0")/lib.sh"
fault_scenario nfsd-restart 4.2 "$@"
