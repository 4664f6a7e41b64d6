from allauth.account.forms import SignupForm as AllauthSignupForm
from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from accounts import tokens
from accounts.models import TIME_ZONES, ApiToken, User

# The time zone lists of sign-up and the profile (issue 27.7): the zones most players live in
# first, then the others by region; the legacy aliases (US/Eastern, Etc/GMT+5, EST5EDT, ...)
# stay valid for a player who has one but are not offered.
COMMON_ZONES = [
    "UTC",
    "Europe/London",
    "Europe/Paris",
    "Europe/Berlin",
    "Europe/Madrid",
    "Europe/Rome",
    "Europe/Warsaw",
    "Europe/Athens",
    "Europe/Moscow",
    "America/New_York",
    "America/Chicago",
    "America/Denver",
    "America/Los_Angeles",
    "America/Toronto",
    "America/Mexico_City",
    "America/Sao_Paulo",
    "Africa/Lagos",
    "Africa/Johannesburg",
    "Asia/Dubai",
    "Asia/Kolkata",
    "Asia/Singapore",
    "Asia/Shanghai",
    "Asia/Tokyo",
    "Australia/Sydney",
    "Pacific/Auckland",
]
REGIONS = [
    "Africa",
    "America",
    "Antarctica",
    "Arctic",
    "Asia",
    "Atlantic",
    "Australia",
    "Europe",
    "Indian",
    "Pacific",
]
# The regions' names as the lists show them (the zones' own names are the tz database's).
REGION_NAMES = {
    "Africa": _("Africa"),
    "America": _("America"),
    "Antarctica": _("Antarctica"),
    "Arctic": _("Arctic"),
    "Asia": _("Asia"),
    "Atlantic": _("Atlantic"),
    "Australia": _("Australia"),
    "Europe": _("Europe"),
    "Indian": _("Indian"),
    "Pacific": _("Pacific"),
}


def _label(zone: str) -> str:
    return zone.replace("_", " ").replace("/", " / ")


def time_zone_choices(current: str = "") -> list:
    """The grouped list of time zones; `current` (a player's zone, maybe a legacy alias) is
    kept in it, so that saving a profile never changes a zone nobody touched."""
    allowed = set(TIME_ZONES)
    common = [z for z in COMMON_ZONES if z in allowed]
    groups: list = [(pgettext_lazy("time zones", "Common"), [(z, _label(z)) for z in common])]
    offered = set(common)
    for region in REGIONS:
        zones = [z for z in TIME_ZONES if z.startswith(region + "/") and z not in offered]
        offered.update(zones)
        # "America / Argentina / Buenos Aires" reads "Argentina / Buenos Aires" under America
        named = REGION_NAMES.get(region, region)
        groups.append((named, [(z, _label(z.split("/", 1)[1])) for z in zones]))
    if current and current in allowed and current not in offered:
        groups.append((pgettext_lazy("time zones", "Other"), [(current, _label(current))]))
    return groups


def time_zone_field(current: str = "", *, guess: bool = False) -> forms.ChoiceField:
    attrs = {"data-guess-time-zone": ""} if guess else {}
    return forms.ChoiceField(
        label=_("Time zone"),
        choices=time_zone_choices(current),
        initial=current or "UTC",
        help_text=_("Deadlines and times are shown in it."),
        widget=forms.Select(attrs=attrs),
    )


class SignupForm(AllauthSignupForm):
    """allauth's sign-up with the player's time zone: guessed by the browser (geartable.js
    fills it in from Intl), checked against the list like any choice; the adapter's save_user
    stores it (issue 27.7)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Guessed only on a fresh form: after an error the player's own choice stays.
        self.fields["time_zone"] = time_zone_field("UTC", guess=not self.is_bound)
        self.fields["time_zone"].required = False  # left out (a script-less client): UTC


class TokenForm(forms.Form):
    """The profile's "new API token" form; accounts/tokens.py checks the rest. `bot` is offered
    to a bot account only (and `play` only to a person's)."""

    name = forms.CharField(
        label=_("Name"), max_length=60, help_text=_("What it is for, e.g. “my bot”.")
    )
    scopes = forms.MultipleChoiceField(
        label=_("It may"),
        choices=[(s.value, s.label) for s in tokens.OFFERED_SCOPES],
        widget=forms.CheckboxSelectMultiple,
        initial=[ApiToken.Scope.READ],
    )
    days = forms.TypedChoiceField(
        label=_("Expires after"),
        choices=list(tokens.EXPIRY_DAYS.items()),
        coerce=int,
        initial=90,
    )

    def __init__(self, *args, user: User, **kwargs):
        super().__init__(*args, **kwargs)
        if user.is_bot:
            self.fields["scopes"].choices = [
                (s, ApiToken.Scope(s).label) for s in tokens.offered_scopes(user)
            ]
            self.fields["scopes"].initial = [ApiToken.Scope.BOT]


class BotForm(forms.Form):
    """The profile's "make this account a bot" form (accounts/bots.py checks the rest)."""

    owner = forms.CharField(
        label=_("Your own account's username"),
        max_length=150,
        help_text=_("The person who runs this bot: shown as “a bot by …” wherever it plays."),
    )
    password = forms.CharField(
        label=_("That account's password"),
        max_length=128,
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "off"}),
        help_text=_("To prove the bot is yours."),
    )
    confirm = forms.BooleanField(
        label=_(
            "I understand: this account becomes a bot for good, and cannot play by hand again."
        ),
        error_messages={"required": _("Tick the box to say you understand it is for good.")},
    )
