#!/bin/bash
# The swapon/swapoff churn (t0121) on the debug kernel: no lockdep or
# fs_reclaim report while swap files go off and on under load.
# tags: fault
. "$(dirname "$0")/lib.sh"
SCENARIO_DESC="lockdep kernel: swapon/swapoff churn on NFSv3, no lockdep report"
KERNEL_VARIANT=debug
. "$(dirname "$0")/fault-onoff-churn.inc"
NFS_OPTS=vers=3,proto=tcp,hard
run_scenario "$@"
