"""The games' management commands (make_app_icons: the installable app's icons)."""
