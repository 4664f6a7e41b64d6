"""The one write path: every change to a game, one module per subject, under the game's lock."""
