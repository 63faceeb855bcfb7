"""What the tests share; a test module never imports from another test module.

- ``waiting``: ``until``/``until_sync``, waiting for an event (never for a time), and ``Hopeless``;
- ``apps``: the client app with fixed settings, a game set up mid-way, a settled screen;
- ``lobby``: apps in a LAN lobby over 127.0.0.1 and the clicks that seat them;
- ``terminal``: a command in a pseudo-terminal of its own, the screen's bytes out;
- ``commands``: the ``lanterne`` command as a user runs it;
- ``logs``: real signed logs to read;
- ``netns`` and ``lan_tables``: networks of namespaces, and ``lanterne host``/``join`` across them;
- ``toy_game``, ``pagode``, ``pueblo``, ``build``: a tiny game, a person at two game screens, what a
  build here can compile.
"""
