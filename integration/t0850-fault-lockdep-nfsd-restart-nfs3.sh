#!/bin/bash
# The nfsd-restart fault (t0800) on the debug kernel: lockdep, which also
# tracks fs_reclaim, must not report anything while swap over NFSv3 stalls
# and resumes.
# tags: fault
. "$(dirname "$0")/lib.sh"
SCENARIO_DESC="lockdep kernel: nfsd restarted during swap over NFSv3, no lockdep report"
KERNEL_VARIANT=debug
. "$(dirname "$0")/fault-nfsd-restart.inc"
NFS_OPTS=vers=3,proto=tcp,hard
run_scenario "$@"
