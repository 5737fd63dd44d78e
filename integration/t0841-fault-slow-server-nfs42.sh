#!/bin/bash
# Several processes swap at once against a slow server (netem delay 50 ms)
# over NFSv4.2, with the hung-task detector at 30 s.
# tags: fault
. "$(dirname "$0")/lib.sh"
SCENARIO_DESC="6 swappers, server 50 ms away, NFSv4.2: no hung task, no page lost"
. "$(dirname "$0")/fault-slow-server.inc"
NFS_OPTS=vers=4.2,proto=tcp,hard
run_scenario "$@"
