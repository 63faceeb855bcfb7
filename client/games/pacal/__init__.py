"""Pacal's screen, widgets and stylesheet (see lanterne.client.games)."""
