"""Pueblo's screen, widgets and stylesheet (see lanterne.client.games)."""
