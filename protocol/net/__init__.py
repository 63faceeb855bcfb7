"""The network edge: the only part of Lanterne that touches sockets (see docs/network.md).

* :mod:`.framing`: sans-IO length-prefixed frames with a maximum size, and encrypted records;
* :mod:`.transport`: asyncio TCP links (keep-alive, read timeout, clean close, encryption once secured);
* :mod:`.handshake`: the Noise XX handshake of a link, bound to the identity keys (sans-IO);
* :mod:`.invite`: join / resume requests, the host's accept or decline;
* :mod:`.discovery`: zeroconf advertise and browse on explicit interfaces;
* :mod:`.files`: a game's log, seed and meta files (what a crash leaves);
* :mod:`.events`: what a peer tells its user about the table and the links;
* :mod:`.peer`: :class:`~.peer.Peer`, one seat of a table of 2 to 16 carried
  over a full mesh of links, with resume after a dropped link or a crash,
  and claims.

Submodules are imported on use, so ``import lanterne.protocol.net`` stays cheap.
"""
