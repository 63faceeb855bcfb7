"""Links that a short code makes: magic-wormhole's code, key exchange and Dilation, for two homes behind NAT.

Three parts, with the I/O at the edge (docs/online.md): :mod:`.servers`
(where the mailbox and the transit relay are), :mod:`.control` (sans-IO: the
messages between the app and its wormhole process), :mod:`.process` (that
process: Twisted, the only code that imports it) and :mod:`.code` (the asyncio
front door: :func:`~.code.invite` and :func:`~.code.accept`).
"""
