import json

from django import forms
from django.conf import settings
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from accounts.forms import time_zone_field
from accounts.models import User
from accounts.names import check_name
from games.actions.tables import NewGame
from games.engines.outofgears.common import COLOURS
from games.kinds import KINDS, game_kind
from games.kinds.geared import TARGETS
from games.models import TURN_TIMES, BotKind, Kind
from games.notifications import devices

# "3 players", "1000 points": counted words, translated when the form is drawn.
_players = lazy(lambda n: ngettext("%(count)s player", "%(count)s players", n) % {"count": n}, str)
_points = lazy(lambda n: ngettext("%(count)s point", "%(count)s points", n) % {"count": n}, str)

# Players per kind of game (and mode), for the page's script: it offers only these.
SEAT_RANGES = {key: seats for k in KINDS.values() for key, seats in k.seat_ranges().items()}


class NewGameForm(forms.Form):
    kind = forms.ChoiceField(choices=Kind.choices, initial=Kind.GEARED, label=_("Game"))
    seat_count = forms.TypedChoiceField(
        choices=[(n, _players(n)) for n in range(2, 9)],
        coerce=int,
        initial=2,
        label=_("Players"),
        widget=forms.Select(attrs={"data-ranges": json.dumps(SEAT_RANGES)}),
    )
    advanced = forms.BooleanField(
        required=False, label=_("Advanced mode (2–4 players, two robots each)"), label_suffix=""
    )
    target = forms.TypedChoiceField(
        choices=[(t, _points(t)) for t in TARGETS],
        coerce=int,
        initial=1000,
        # Not sent for Out of Gears (the page disables Geared's settings): the default then.
        required=False,
        empty_value=1000,
        label=_("Target score"),
    )
    turn_seconds = forms.TypedChoiceField(
        choices=TURN_TIMES, coerce=int, initial=86400, label=_("Time per turn")
    )
    bots = forms.TypedChoiceField(
        choices=[(n, _("None") if n == 0 else f"{n}") for n in range(0, 8)],
        coerce=int,
        initial=0,
        label=_("Seats for bots"),
        help_text=_("Bots fill seats at once; the rest are for people you invite."),
    )
    bot_kind = forms.ChoiceField(choices=BotKind.choices, initial=BotKind.GREEDY, label=_("Bot"))
    robots = forms.TypedMultipleChoiceField(
        # The colour alone: the lobby draws each with its number and swatch (robot-<colour>).
        choices=list(COLOURS.items()),
        coerce=int,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label=_("Your robot"),
        help_text=_("One robot, or two in advanced mode; leave empty for a random one."),
    )
    public = forms.BooleanField(
        required=False, label=_("List in the lobby so anyone can join (and watch)"), label_suffix=""
    )
    watchable_by_link = forms.BooleanField(
        required=False,
        initial=True,
        label=_("Anyone with the link may watch once the game starts"),
        label_suffix="",
    )

    field_order = [
        "kind",
        "seat_count",
        "turn_seconds",
        "bots",
        "bot_kind",
        "public",
        "watchable_by_link",
        "target",
        "advanced",
        "robots",
    ]

    def clean(self):
        """Each kind of game with its own settings only, and its own number of players."""
        data = super().clean()
        if data.get("kind") in KINDS:
            for field, error in game_kind(data["kind"]).form_errors(data).items():
                self.add_error(field, error)
        if data.get("bots", 0) >= data.get("seat_count", 2):
            self.add_error("bots", _("Leave at least one seat for a person: yours."))
        return data

    def spec(self) -> NewGame:
        d = self.cleaned_data
        return NewGame(
            kind=d["kind"],
            seat_count=d["seat_count"],
            public=d["public"],
            watchable_by_link=d["watchable_by_link"] or d["public"],
            turn_seconds=d["turn_seconds"],
            bots=tuple([d["bot_kind"]] * d["bots"]),
            **game_kind(d["kind"]).spec_fields(d),
        )


# The profile's grid (docs/notifications.md): one row per kind, its push, e-mail and digest
# cells (None: no such choice for that kind).
GRID = [
    (_("Your turn, a turn resolved"), "push_turn", "notify_turn", "email_digest"),
    (_("Game over"), "push_game_over", "email_game_over", None),
    (_("Invitation, rematch offer"), "push_invitation", "notify_invitation", None),
    (_("Deadline reminder"), "push_reminder", "notify_reminder", None),
]
PUSH_FIELDS = {row[1] for row in GRID}
GRID_FIELDS = {name for row in GRID for name in row[1:] if name}


class ProfileForm(forms.ModelForm):
    """The profile's form: the player's names and time zone (accounts' rules), which news
    reaches them by which way (the grid), and how the pages behave for them."""

    class Meta:
        model = User
        fields = [
            "display_name",
            "language",
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
        if not devices.enabled():  # no notifications on devices: nothing to choose
            for name in PUSH_FIELDS | {"email_with_push"}:
                del self.fields[name]
        self.fields["email_digest"].label = _("Daily digest instead of e-mail for your turn")
        self.fields["time_zone"] = time_zone_field(self.instance.time_zone)
        self.fields["display_name"].label = _("Display name")
        # Left out (an older form, a script): the language stays as it is.
        self.fields["language"] = forms.ChoiceField(
            label=_("Language"), choices=settings.LANGUAGES, required=False
        )

    def grid(self) -> list[tuple]:
        """(kind, its push, e-mail and digest fields: bound, or None) per row of the grid."""
        return [
            (kind, *(self[name] if name in self.fields else None for name in cells))
            for kind, *cells in GRID
        ]

    def other_fields(self) -> list:
        """The fields shown before the grid (email_with_push, about the grid, after it)."""
        return [f for f in self if f.name not in GRID_FIELDS and f.name != "email_with_push"]

    def clean_language(self):
        return self.cleaned_data.get("language") or self.instance.language

    def clean_display_name(self):
        name = self.cleaned_data["display_name"]
        if self.instance.is_suspended and name != self.instance.display_name:
            raise forms.ValidationError(
                _("Your account is suspended: you cannot change your display name.")
            )
        if not name:
            return name  # the username is shown instead
        return check_name(name, user=self.instance)


class VacationForm(forms.Form):
    until = forms.DateField(
        label=_("Away until"),
        help_text=_(
            "The last day you are away (your time zone). Your games' deadlines wait for you."
        ),
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        error_messages={
            "required": _("Choose the last day you are away."),
            "invalid": _("Give the date as YYYY-MM-DD."),
        },
    )
