#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# t0801 on the lockdep kernel: no lockdep report.
# The fault and its claim are defined once, for every protocol, in
# integration/fault-nfsd-restart.inc.
# tags: fault
. "$(dirname "$0")/lib.sh"
KERNEL_VARIANT=debug
fault_scenario nfsd-restart 4.2 "$@"
