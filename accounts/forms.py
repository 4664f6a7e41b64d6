from django import forms

from accounts.models import User


class ProfileForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ["display_name", "time_zone", "notify_turn", "notify_reminder"]

    def clean_display_name(self):
        name = self.cleaned_data["display_name"].strip()
        if name and any(ord(ch) < 32 for ch in name):
            raise forms.ValidationError("A display name cannot contain control characters.")
        return name
