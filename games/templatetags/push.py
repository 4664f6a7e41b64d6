"""`{% push_devices user as push %}`: the profile's box of devices for notifications."""

from django import template
from django.conf import settings

from games import devices as push

register = template.Library()


@register.simple_tag
def push_devices(user) -> dict:
    """Whether push is on, the key the page subscribes with, and the player's devices."""
    if not push.enabled() or not user.is_authenticated:
        return {"enabled": False}
    devices = list(user.push_subscriptions.all())
    return {"enabled": True, "key": settings.VAPID_PUBLIC_KEY, "devices": devices}


@register.simple_tag
def push_key(user) -> str:
    """The key a page subscribes this device with (base.html's `data-push-key`), or "" when
    push is off or nobody is logged in: then no page offers notifications."""
    return settings.VAPID_PUBLIC_KEY if push.enabled() and user.is_authenticated else ""
