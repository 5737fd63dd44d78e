#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# server guest crashed and rebooted while swapping over NFSv4.2.
# The fault and its claim are defined once, for every protocol, in
# integration/fault-server-reboot.inc.
# tags: ci fault
. "$(dirname "$0")/lib.sh"
fault_scenario server-reboot 4.2 "$@"
