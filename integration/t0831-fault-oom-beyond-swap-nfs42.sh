#!/bin/bash
# Memory pressure beyond swap on NFSv4.2: the OOM killer ends the stress,
# nothing else dies, the client stays responsive.
# tags: fault
. "$(dirname "$0")/lib.sh"
SCENARIO_DESC="stress beyond RAM+swap on NFSv4.2: only the stress is OOM-killed, client answers"
. "$(dirname "$0")/fault-oom.inc"
NFS_OPTS=vers=4.2,proto=tcp,hard
run_scenario "$@"
