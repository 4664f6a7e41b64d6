"""The game pages, by family (docs/code-map.md): lobby, my games, one game, its table, chat,
invitations, records and replays, players, the site's own pages, vacation and unsubscribe, the
profile's devices for notifications, and the installable app's manifest, service worker and
offline page."""
