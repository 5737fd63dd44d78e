#!/bin/bash
# swapon/swapoff of two NFSv4.2 swap files, in turns, while the stress
# runs and while pages are out (integration/fault-onoff-churn.inc says how).
# tags: ci fault
. "$(dirname "$0")/lib.sh"
SCENARIO_DESC="swapon/swapoff churn of two NFSv4.2 swap files under the stress"
. "$(dirname "$0")/fault-onoff-churn.inc"
NFS_OPTS=vers=4.2,proto=tcp,hard
run_scenario "$@"
