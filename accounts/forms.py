from django import forms

from accounts import push
from accounts.models import User
from accounts.names import check_name


class ProfileForm(forms.ModelForm):
    class Meta:
        model = User
        fields = [
            "display_name",
            "time_zone",
            "notify_turn",
            "email_digest",
            "email_with_push",
            "notify_reminder",
            "notify_invitation",
            "only_known_inviters",
            "turn_sound",
        ]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if not push.enabled():  # no notifications on devices: nothing to choose
            del self.fields["email_with_push"]

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
