from django import forms

from accounts.models import User


class ProfileForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ["display_name", "time_zone", "notify_turn", "notify_reminder"]

    def clean_display_name(self):
        name = self.cleaned_data["display_name"].strip()
        if self.instance.is_suspended and name != self.instance.display_name:
            raise forms.ValidationError(
                "Your account is suspended: you cannot change your display name."
            )
        if name and any(ord(ch) < 32 for ch in name):
            raise forms.ValidationError("A display name cannot contain control characters.")
        return name
