#!/bin/bash
# Fault: the server guest is powered off without warning while the client
# is deep in swap over NFSv4.2, and boots again 10 s later with a 15 s
# grace period.  The client must notice the reboot, reclaim its state and
# go on: every page verifies, no hung task.
# tags: ci fault
. "$(dirname "$0")/lib.sh"
SCENARIO_DESC="server guest crashed and rebooted during swap over NFSv4.2: no page lost"
. "$(dirname "$0")/fault-server-reboot.inc"
NFS_OPTS=vers=4.2,proto=tcp,hard
run_scenario "$@"
