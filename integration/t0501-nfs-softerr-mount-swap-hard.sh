#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# t0500 on a softerr NFSv4.2 mount: nfsd stopped for 30 s during swap (so
# the client also recovers its NFSv4 state), swap I/O retries as on a
# hard mount, no process is killed, every page verifies.
# tags: nfs
. "$(dirname "$0")/lib.sh"
SCENARIO_DESC="softerr NFSv4.2 mount, nfsd down 30 s during swap: swap I/O retries, no SIGBUS, every page verified"
SCENARIO_GAP="6.1 lets swap I/O on a softerr mount time out: the owner of a page that cannot be read back gets SIGBUS"
. "$(dirname "$0")/nfs-soft-swap.inc"
NFS_OPTS=vers=4.2,proto=tcp,softerr,timeo=10,retrans=1
run_scenario "$@"
