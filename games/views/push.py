"""The profile's devices for Web Push: subscribe and unsubscribe (JSON, from the page's script),
and the profile's remove buttons (a form). Every one: POST, CSRF-checked, logged in."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.http.request import RawPostDataException
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.notifications import devices

BODY_MAX = 4096  # a subscription is a few hundred bytes


def _refuse(message: str, status: int = 400) -> JsonResponse:
    return JsonResponse({"error": message}, status=status)


def _json(request: HttpRequest) -> object:
    # A form's body has been read as a form already (the CSRF check reads it): only JSON here.
    if request.content_type != "application/json":
        raise devices.PushError("Send the subscription as JSON (application/json).")
    try:
        body = request.body
    except RawPostDataException:
        raise devices.PushError("Send the subscription as JSON (application/json).") from None
    if len(body) > BODY_MAX:
        raise devices.PushError("The subscription is too long.")
    try:
        return json.loads(body or b"null")
    except (UnicodeDecodeError, ValueError):
        raise devices.PushError("Send the subscription as JSON.") from None


@login_required
@require_POST
def subscribe(request: HttpRequest) -> JsonResponse:
    """Store this device's subscription: 201 with its id, or 400 with why (nothing stored)."""
    if not devices.enabled():
        return _refuse(_("Notifications on devices are not set up on this site."), 404)
    try:
        keys = devices.parse(_json(request))
        row = devices.subscribe(request.user, keys, request.headers.get("User-Agent", ""))
    except devices.PushError as exc:
        return _refuse(exc.message, exc.status)
    return JsonResponse({"id": row.pk, "device": row.device}, status=201)


@login_required
@require_POST
def unsubscribe(request: HttpRequest) -> JsonResponse:
    """Forget this device (the switch turned off): {"endpoint": ...}, one of the player's own
    (another's endpoint: nothing removed)."""
    try:
        data = _json(request)
        endpoint = devices.push_url(data.get("endpoint") if isinstance(data, dict) else None).url
    except devices.PushError as exc:
        return _refuse(exc.message, exc.status)
    return JsonResponse({"removed": devices.unsubscribe(request.user, endpoint=endpoint)})


@login_required
@require_POST
def remove_device(request: HttpRequest, device_id: int) -> HttpResponse:
    """The profile's remove button: one of the player's own devices (another's: nothing)."""
    if devices.unsubscribe(request.user, pk=device_id):
        messages.success(request, _("That device gets no more notifications."))
    return redirect("profile")
