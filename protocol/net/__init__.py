"""The network edge: the only part of Lanterne that touches sockets (see docs/network.md).

* :mod:`.framing`: sans-IO length-prefixed frames with a maximum size;
* :mod:`.transport`: asyncio TCP links (keep-alive, read timeout, clean close);
* :mod:`.handshake`: the mutual key proof on a link (sans-IO);
* :mod:`.invite`: join / resume requests, the host's accept or decline;
* :mod:`.discovery`: zeroconf advertise and browse on explicit interfaces;
* :mod:`.peer`: :class:`~.peer.NetPeer`, a session carried over links, with
  its files, resume after a dropped link or a crash, and claims;
* :mod:`.selfplay`: ``lanterne selfplay GAME --net tcp``.

Submodules are imported on use, so ``import protocol.net`` stays cheap.
"""
