#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# loss and delay on the server while swapping over NFSv4.2.
# The fault and its claim are defined once, for every protocol, in
# integration/fault-netem.inc.
# tags: fault
. "$(dirname "$0")/lib.sh"
fault_scenario netem 4.2 "$@"
