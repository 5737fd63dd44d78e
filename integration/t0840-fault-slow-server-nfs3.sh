#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# 6 swappers against a slow server over NFSv3.
# The fault and its claim are defined once, for every protocol, in
# integration/fault-slow-server.inc.
# tags: fault
. "$(dirname "$0")/lib.sh"
fault_scenario slow-server 3 "$@"
