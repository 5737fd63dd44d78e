#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Talk to a QEMU guest through a unix socket (monitor or serial chardev).

  sockctl.py monitor SOCK 'set_link n0 off'
      send one HMP monitor command, print its answer
  sockctl.py serial SOCK ID 'shell command' TIMEOUT
      send "ID command" to the server guest's control port, print the
      command's output, exit with its status (124 on timeout)
  sockctl.py ports N
      print N free UDP ports on 127.0.0.1
"""
import re
import socket
import sys
import time


def monitor(path, cmd):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    s.settimeout(10)
    buf = b""
    while b"(qemu)" not in buf:
        buf += s.recv(4096)
    s.sendall(cmd.encode() + b"\n")
    buf = b""
    deadline = time.time() + 10
    while buf.count(b"(qemu)") < 1 and time.time() < deadline:
        try:
            buf += s.recv(4096)
        except socket.timeout:
            break
    out = re.sub(rb"\x1b\[[0-9;]*[A-Za-z]", b"", buf).decode(errors="replace")
    print(out.replace("(qemu)", "").strip())
    return 0


def serial(path, ident, cmd, timeout):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    s.settimeout(1)
    s.sendall(f"{ident} {cmd}\n".encode())
    buf = b""
    deadline = time.time() + timeout
    done = re.compile(rb"SWAPNFS-CTL-DONE " + re.escape(ident.encode()) + rb" (\d+)")
    while time.time() < deadline:
        try:
            chunk = s.recv(4096)
        except socket.timeout:
            continue
        if not chunk:
            break
        buf += chunk
        m = done.search(buf)
        if m:
            for line in buf.decode(errors="replace").splitlines():
                if line.startswith("SWAPNFS-CTL-OUT "):
                    print(line[len("SWAPNFS-CTL-OUT "):])
            return int(m.group(1))
    return 124


def ports(n):
    socks = []
    for _ in range(n):
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.bind(("127.0.0.1", 0))
        socks.append(s)
    print(" ".join(str(s.getsockname()[1]) for s in socks))
    return 0


def main(argv):
    if len(argv) >= 3 and argv[0] == "monitor":
        return monitor(argv[1], argv[2])
    if len(argv) >= 5 and argv[0] == "serial":
        return serial(argv[1], argv[2], argv[3], float(argv[4]))
    if len(argv) == 2 and argv[0] == "ports":
        return ports(int(argv[1]))
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
