"""What the tests share; a test module never imports from another test module.

What the benchmarks use too (flooding strangers, a local mailbox and relay, networks of namespaces) is in the
checkout's ``bench/``, which the tests import as ``bench``: one copy, and ``bench/`` never imports ``tests``.

- ``waiting``: ``until``/``until_sync``, waiting for an event (never for a time), and ``Hopeless``;
- ``apps``: the client app with fixed settings, a game set up mid-way, a settled screen;
- ``lobby``: apps in a LAN lobby over 127.0.0.1 and the clicks that seat them;
- ``terminal``: a command in a pseudo-terminal of its own, the screen's bytes out;
- ``commands``: the ``lanterne`` command as a user runs it;
- ``logs``: real signed logs to read;
- ``lan_tables``: ``lanterne host``/``join`` across the networks of namespaces that ``bench/netns.py`` builds;
- ``toy_game``, ``pagode``, ``pueblo``, ``build``: a tiny game, a person at two game screens, what a
  build here can compile.
"""
