from allauth.account.forms import SignupForm as AllauthSignupForm
from django import forms

from accounts import tokens
from accounts.models import TIME_ZONES, ApiToken, User
from accounts.names import check_name
from games import devices as push

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


def _label(zone: str) -> str:
    return zone.replace("_", " ").replace("/", " / ")


def time_zone_choices(current: str = "") -> list:
    """The grouped list of time zones; `current` (a player's zone, maybe a legacy alias) is
    kept in it, so that saving a profile never changes a zone nobody touched."""
    allowed = set(TIME_ZONES)
    common = [z for z in COMMON_ZONES if z in allowed]
    groups: list = [("Common", [(z, _label(z)) for z in common])]
    offered = set(common)
    for region in REGIONS:
        zones = [z for z in TIME_ZONES if z.startswith(region + "/") and z not in offered]
        offered.update(zones)
        # "America / Argentina / Buenos Aires" reads "Argentina / Buenos Aires" under America
        groups.append((region, [(z, _label(z.split("/", 1)[1])) for z in zones]))
    if current and current in allowed and current not in offered:
        groups.append(("Other", [(current, _label(current))]))
    return groups


def time_zone_field(current: str = "", *, guess: bool = False) -> forms.ChoiceField:
    attrs = {"data-guess-time-zone": ""} if guess else {}
    return forms.ChoiceField(
        label="Time zone",
        choices=time_zone_choices(current),
        initial=current or "UTC",
        help_text="Deadlines and times are shown in it.",
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


# The profile's grid (docs/notifications.md): one row per kind, its push, e-mail and digest
# cells (None: no such choice for that kind).
GRID = [
    ("Your turn, a turn resolved", "push_turn", "notify_turn", "email_digest"),
    ("Game over", "push_game_over", "email_game_over", None),
    ("Invitation, rematch offer", "push_invitation", "notify_invitation", None),
    ("Deadline reminder", "push_reminder", "notify_reminder", None),
]
PUSH_FIELDS = {row[1] for row in GRID}
GRID_FIELDS = {name for row in GRID for name in row[1:] if name}


class ProfileForm(forms.ModelForm):
    class Meta:
        model = User
        fields = [
            "display_name",
            "time_zone",
            "push_turn",
            "notify_turn",
            "email_digest",
            "push_game_over",
            "email_game_over",
            "push_invitation",
            "notify_invitation",
            "push_reminder",
            "notify_reminder",
            "email_with_push",
            "only_known_inviters",
            "turn_sound",
        ]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if not push.enabled():  # no notifications on devices: nothing to choose
            for name in PUSH_FIELDS | {"email_with_push"}:
                del self.fields[name]
        self.fields["email_digest"].label = "Daily digest instead of e-mail for your turn"
        self.fields["time_zone"] = time_zone_field(self.instance.time_zone)

    def grid(self) -> list[tuple]:
        """(kind, its push, e-mail and digest fields: bound, or None) per row of the grid."""
        return [
            (kind, *(self[name] if name in self.fields else None for name in cells))
            for kind, *cells in GRID
        ]

    def other_fields(self) -> list:
        """The fields shown before the grid (email_with_push, about the grid, after it)."""
        return [f for f in self if f.name not in GRID_FIELDS and f.name != "email_with_push"]

    def clean_display_name(self):
        name = self.cleaned_data["display_name"]
        if self.instance.is_suspended and name != self.instance.display_name:
            raise forms.ValidationError(
                "Your account is suspended: you cannot change your display name."
            )
        if not name:
            return name  # the username is shown instead
        return check_name(name, user=self.instance)


class VacationForm(forms.Form):
    until = forms.DateField(
        label="Away until",
        help_text="The last day you are away (your time zone). Your games' deadlines wait for you.",
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        error_messages={
            "required": "Choose the last day you are away.",
            "invalid": "Give the date as YYYY-MM-DD.",
        },
    )


class TokenForm(forms.Form):
    """The profile's "new API token" form; accounts/tokens.py checks the rest. `bot` is offered
    to a bot account only (and `play` only to a person's)."""

    name = forms.CharField(max_length=60, help_text="What it is for, e.g. “my bot”.")
    scopes = forms.MultipleChoiceField(
        label="It may",
        choices=[(s.value, s.label) for s in tokens.OFFERED_SCOPES],
        widget=forms.CheckboxSelectMultiple,
        initial=[ApiToken.Scope.READ],
    )
    days = forms.TypedChoiceField(
        label="Expires after",
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
        label="Your own account's username",
        max_length=150,
        help_text="The person who runs this bot: shown as “a bot by …” wherever it plays.",
    )
    password = forms.CharField(
        label="That account's password",
        max_length=128,
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "off"}),
        help_text="To prove the bot is yours.",
    )
    confirm = forms.BooleanField(
        label="I understand: this account becomes a bot for good, and cannot play by hand again.",
        error_messages={"required": "Tick the box to say you understand it is for good."},
    )
