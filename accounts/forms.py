from django import forms

from accounts.models import User
from accounts.names import check_name


class ProfileForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ["display_name", "time_zone", "notify_turn", "email_digest", "notify_reminder"]

    def clean_display_name(self):
        name = self.cleaned_data["display_name"]
        if self.instance.is_suspended and name != self.instance.display_name:
            raise forms.ValidationError(
                "Your account is suspended: you cannot change your display name."
            )
        if not name:
            return name  # the username is shown instead
        return check_name(name, user=self.instance)
