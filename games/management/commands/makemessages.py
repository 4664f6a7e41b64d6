"""Django's makemessages with the project's settings (docs/i18n.md): every catalog is
extracted the same way whoever runs it, so that a test can check that extracting again changes
nothing (tests/i18n/test_catalogs.py).

- Locations by file only (`#: games/views/site.py`): a line moved is not a change of the
  catalog.
- The tool folders are not the site's: the venv, node_modules, tests, benches, vendored
  scripts, the collected static files.
- The engines mark their sentences with a `gettext_noop` of their own (they import nothing of
  Django: games/engines/interface.py): xgettext knows the name already.
"""

from django.core.management.commands import makemessages

IGNORED = [
    ".venv/*",
    "node_modules/*",
    "tests/*",
    "bench/*",
    "examples/*",
    "staticfiles/*",
    "static/vendor/*",
    "static/js/i18n/*",  # the JavaScript catalogs built from the catalogs (make catalogs)
    "test-artifacts/*",
]


class Command(makemessages.Command):
    def handle(self, *args, **options):
        options["ignore_patterns"] = [*options.get("ignore_patterns", []), *IGNORED]
        options["add_location"] = "file"
        options["no_obsolete"] = True
        return super().handle(*args, **options)
