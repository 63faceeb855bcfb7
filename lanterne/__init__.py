"""Lanterne: a terminal board-game table for the LAN.

One import package with three layers, each in its own folder of the repository
and mapped here by pyproject.toml's ``package-dir``: ``lanterne.engines`` (the
rules, pure and deterministic), ``lanterne.protocol`` (signed logs, fair
dealing, the network) and ``lanterne.client`` (the Textual app and the CLI).
Dependencies point one way: client -> protocol -> engines.
"""
