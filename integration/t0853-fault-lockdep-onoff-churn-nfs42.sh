#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# t0120 on the lockdep kernel: no lockdep or fs_reclaim report.
# The fault and its claim are defined once, for every protocol, in
# integration/fault-onoff-churn.inc.
# tags: fault
. "$(dirname "$0")/lib.sh"
KERNEL_VARIANT=debug
fault_scenario onoff-churn 4.2 "$@"
