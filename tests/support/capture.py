"""Reading what a sniffer caught: the bytes of every TCP stream, as a listener on the wire saw them."""

from __future__ import annotations

import struct


def streams_of(capture: bytes) -> dict[tuple, bytes]:
    """Every TCP stream of the capture (IPv4 on lo), reassembled by sequence number."""
    segments: dict[tuple, list[tuple[int, bytes]]] = {}
    pos = 0
    while pos < len(capture):
        (n,) = struct.unpack_from(">I", capture, pos)
        packet = capture[pos + 4:pos + 4 + n]
        pos += 4 + n
        if len(packet) < 34 or packet[12:14] != b"\x08\x00":
            continue
        ip = packet[14:]
        ihl = (ip[0] & 0x0F) * 4
        if ip[9] != 6:
            continue
        total = struct.unpack_from(">H", ip, 2)[0]
        tcp = ip[ihl:total]
        sport, dport, seq = struct.unpack_from(">HHI", tcp, 0)
        payload = tcp[(tcp[12] >> 4) * 4:]
        if payload:
            segments.setdefault((sport, dport), []).append((seq, payload))
    streams = {}
    for flow, parts in segments.items():
        parts.sort(key=lambda p: p[0])
        out, next_seq = bytearray(), parts[0][0]
        for seq, payload in parts:
            if seq + len(payload) <= next_seq:
                continue                            # a retransmitted copy
            out += payload[max(0, next_seq - seq):]
            next_seq = seq + len(payload)
        streams[flow] = bytes(out)
    return streams
