import json

from django import forms

from games.actions.tables import NewGame
from games.engines.outofgears.common import COLOURS
from games.kinds import KINDS, game_kind
from games.kinds.geared import TARGETS
from games.models import TURN_TIMES, BotKind, Kind

# Players per kind of game (and mode), for the page's script: it offers only these.
SEAT_RANGES = {key: seats for k in KINDS.values() for key, seats in k.seat_ranges().items()}


class NewGameForm(forms.Form):
    kind = forms.ChoiceField(choices=Kind.choices, initial=Kind.GEARED, label="Game")
    seat_count = forms.TypedChoiceField(
        choices=[(n, f"{n} players") for n in range(2, 9)],
        coerce=int,
        initial=2,
        label="Players",
        widget=forms.Select(attrs={"data-ranges": json.dumps(SEAT_RANGES)}),
    )
    advanced = forms.BooleanField(
        required=False, label="Advanced mode (2–4 players, two robots each)", label_suffix=""
    )
    target = forms.TypedChoiceField(
        choices=[(t, f"{t} points") for t in TARGETS],
        coerce=int,
        initial=1000,
        # Not sent for Out of Gears (the page disables Geared's settings): the default then.
        required=False,
        empty_value=1000,
        label="Target score",
    )
    turn_seconds = forms.TypedChoiceField(
        choices=TURN_TIMES, coerce=int, initial=86400, label="Time per turn"
    )
    bots = forms.TypedChoiceField(
        choices=[(n, "None" if n == 0 else f"{n}") for n in range(0, 8)],
        coerce=int,
        initial=0,
        label="Seats for bots",
        help_text="Bots fill seats at once; the rest are for people you invite.",
    )
    bot_kind = forms.ChoiceField(choices=BotKind.choices, initial=BotKind.GREEDY, label="Bot")
    robots = forms.TypedMultipleChoiceField(
        # The colour alone: the lobby draws each with its number and swatch (robot-<colour>).
        choices=list(COLOURS.items()),
        coerce=int,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label="Your robot",
        help_text="One robot, or two in advanced mode; leave empty for a random one.",
    )
    public = forms.BooleanField(
        required=False, label="List in the lobby so anyone can join (and watch)", label_suffix=""
    )
    watchable_by_link = forms.BooleanField(
        required=False,
        initial=True,
        label="Anyone with the link may watch once the game starts",
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
            self.add_error("bots", "Leave at least one seat for a person: yours.")
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
