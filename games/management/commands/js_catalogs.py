"""The JavaScript catalogs (docs/i18n.md): for each language of settings.LANGUAGES, Django's
JavaScriptCatalog (the djangojs domain: `gettext()`, `ngettext()`, `interpolate()`) written as a
static file, static/js/i18n/<language>.js (not in git: built by `make catalogs`, and by the
tests' conftest when stale). A static file, not the view: the Content-Security-Policy allows
scripts from the site's own files only, and the file is cached as the other static files are.
The frame loads the one of the page's language (templates/_js_catalog.html)."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand
from django.http import HttpRequest
from django.utils import translation
from django.views.i18n import JavaScriptCatalog

FOLDER = Path(settings.BASE_DIR, "static", "js", "i18n")


def catalog(language: str) -> bytes:
    """JavaScriptCatalog's answer for `language`, as /jsi18n/ would serve it: the site's own
    catalog (settings.LOCALE_PATHS) only, not the admin's (its pages load their own)."""
    request = HttpRequest()
    request.method = "GET"
    with translation.override(language):
        return JavaScriptCatalog.as_view(domain="djangojs", packages=["games"])(request).content


def write_catalogs(folder: Path = FOLDER) -> list[Path]:
    """One file per offered language, rewritten only when its content changed (its modification
    time, and so the static file's cache, move only then). Returns the files written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for language, _ in settings.LANGUAGES:
        path = folder / f"{language}.js"
        content = catalog(language)
        if not path.exists() or path.read_bytes() != content:
            partial = path.with_suffix(".js.partial")
            partial.write_bytes(content)
            partial.replace(path)
            written.append(path)
    return written


class Command(BaseCommand):
    help = "Write the JavaScript catalog of each offered language to static/js/i18n/."
    requires_system_checks = []

    def handle(self, *args, **options):
        for path in write_catalogs():
            self.stdout.write(f"Wrote {path.relative_to(settings.BASE_DIR)}")
