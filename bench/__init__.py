"""The speed figures of docs/benchmarks.md and what measures them: a checkout's folder, not the product.

``rows`` lists every figure with its target and runs them (``lanterne bench``); the other modules measure:
``search`` (the search player's move), ``pueblo``, ``session`` (a move and a log through the signed session),
``fair`` (a deal), ``net`` and ``tables`` (links and tables on 127.0.0.1, and the flooding strangers),
``online`` (a code's link on a mailbox and a relay of our own), ``tui`` (the app's screen), ``netns_lan`` and
``netns_online`` (between network namespaces, which ``netns`` and ``homes`` build); ``machine`` says what a run
measured on (processor, load, a reference loop). Each runs alone from the checkout's root:
``python -m bench.MODULE``.

The wheel does not ship this folder. ``lanterne bench`` imports it by its path in the checkout the command
runs from (``client/commands/bench.py``), and the tests import it as the checkout's top-level ``bench``;
the tests use its flooding strangers, servers and namespaces too, and nothing here imports ``tests``.
"""
