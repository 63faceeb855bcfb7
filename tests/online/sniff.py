"""Capture every frame of one interface until SIGTERM: ``sniff.py INTERFACE FILE`` (root, in a namespace).

Each frame goes to FILE as a 4-byte big-endian length and its bytes, both
directions, the format ``tests.support.capture.streams_of`` reads.
It prints ``ready`` once it listens.
"""

import signal
import socket
import struct
import sys

sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x0003))
try:
    sock.setsockopt(socket.SOL_SOCKET, 33, 16 << 20)      # SO_RCVBUFFORCE: no frame dropped under load
except OSError:
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 16 << 20)
sock.bind((sys.argv[1], 0))
sock.settimeout(0.1)
stopping = []
signal.signal(signal.SIGTERM, lambda *_: stopping.append(True))
with open(sys.argv[2], "wb") as out:
    print("ready", flush=True)
    while not stopping:
        try:
            frame = sock.recv(1 << 18)
        except socket.timeout:
            continue
        out.write(struct.pack(">I", len(frame)) + frame)
