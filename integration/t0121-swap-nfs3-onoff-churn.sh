#!/bin/bash
# swapon/swapoff of two NFSv3 swap files, in turns, while the stress runs
# and while pages are out (integration/fault-onoff-churn.inc says how).
# tags: fault
. "$(dirname "$0")/lib.sh"
SCENARIO_DESC="swapon/swapoff churn of two NFSv3 swap files under the stress"
. "$(dirname "$0")/fault-onoff-churn.inc"
NFS_OPTS=vers=3,proto=tcp,hard
run_scenario "$@"
