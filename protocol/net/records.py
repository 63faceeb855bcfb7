"""A link's encryption: plaintext frames until its handshake is done, then sealed records both ways.

Once :meth:`Records.secure` took the two Noise cipher states, every frame a
link writes goes out sealed (:class:`.framing.Sealer`) and every frame it
takes must come in a record (:class:`.framing.Opener`). A record that came
before the switch waits for it (:meth:`Records.wait`), and once a record came
(:attr:`Records.seen`) a plaintext frame is an injection.
"""

from __future__ import annotations

import asyncio

from .framing import Cipher, Frame, Opener, Sealer, encode_frame


class Records:
    """The sealer and the opener of one link (none until secured), and whether a record came yet."""

    def __init__(self, max_frame: int):
        self.max_frame = max_frame
        self.sealer: Sealer | None = None
        self.opener: Opener | None = None
        self.seen = False
        """A record came: from then on a plaintext frame is an injection."""
        self._ready = asyncio.Event()

    @property
    def secured(self) -> bool:
        return self.sealer is not None

    @property
    def buffered(self) -> int:
        """Bytes of a record's frame being received in parts."""
        return self.opener.buffered if self.opener is not None else 0

    def frame(self, kind: int, payload: bytes = b"") -> bytes:
        """The wire bytes of one frame: a record once secured (encrypted now, so written now, in order)."""
        if self.sealer is not None:
            return self.sealer.seal(kind, payload)
        return encode_frame(kind, payload, self.max_frame)

    def secure(self, send_cipher: Cipher, recv_cipher: Cipher) -> None:
        if self.sealer is not None:
            raise RuntimeError("the link is already secured")
        self.sealer = Sealer(send_cipher, self.max_frame)
        self.opener = Opener(recv_cipher, self.max_frame)
        self._ready.set()

    def release(self) -> None:
        """The link closed: a reader waiting for the handshake's end stops waiting."""
        self._ready.set()

    async def wait(self) -> bool:
        """Until :meth:`secure` (or :meth:`release`): whether records can be opened now."""
        await self._ready.wait()
        return self.opener is not None

    def open(self, record: bytes) -> Frame | None:
        """The frame a record carries (None: a frame still coming in parts); FrameError if it does not open."""
        assert self.opener is not None      # (the reader waits for the handshake's end first)
        self.seen = True
        return self.opener.open(record)


__all__ = ["Records"]
