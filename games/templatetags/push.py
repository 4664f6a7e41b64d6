"""`{% push_devices user as push %}`: the profile's box of devices for notifications."""

from django import template
from django.conf import settings

from games.notifications import devices

register = template.Library()


@register.simple_tag
def push_devices(user) -> dict:
    """Whether push is on, the key the page subscribes with, and the player's devices."""
    if not devices.enabled() or not user.is_authenticated:
        return {"enabled": False}
    mine = devices.of(user)
    return {"enabled": True, "key": settings.VAPID_PUBLIC_KEY, "devices": mine}


@register.simple_tag
def push_key(user) -> str:
    """The key a page subscribes this device with (base.html's `data-push-key`), or "" when
    push is off or nobody is logged in: then no page offers notifications."""
    return settings.VAPID_PUBLIC_KEY if devices.enabled() and user.is_authenticated else ""
