"""The profile page (`/accounts/profile/`): the player's names and time zone, the notification
grid, the players they follow, their vacation and devices, their API tokens and bot account.
A page of the game side that draws identity too (docs/code-map.md, "The profile"): the rules of
names, tokens and bots are accounts/'s; the token and bot forms' doors are here because a
refusal answers with this whole page."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from accounts import bots, tokens
from accounts.forms import BotForm, TokenForm
from accounts.middleware import remember_time_zone
from games.forms import ProfileForm
from games.views.players import following_context
from games.views.vacation import vacation_context


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    form = ProfileForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        remember_time_zone(request, user)
        translation.activate(user.language)  # the saved message in the chosen language
        messages.success(request, _("Your profile is saved."))
        return redirect("profile")
    return _profile_page(request, form)


def _profile_page(
    request: HttpRequest,
    form: ProfileForm,
    token_form: TokenForm | None = None,
    status=200,
    bot_form: BotForm | None = None,
) -> HttpResponse:
    context = {
        "form": form,
        "token_form": token_form or TokenForm(user=request.user),
        "bot_form": bot_form or BotForm(),
        "bot_refused": "" if request.user.is_bot else bots.why_not(request.user),
        "my_bots": bots.bots_of(request.user),
        "api_tokens": tokens.tokens_of(request.user),
        "max_tokens": tokens.MAX_TOKENS,
        **vacation_context(request.user),
        **following_context(request.user),
    }
    return render(request, "games/profile.html", context, status=status)


@never_cache  # the answer holds the token: no cache may keep it
@login_required
@require_POST
def create_token(request: HttpRequest) -> HttpResponse:
    """A new API token, shown once on the answer's page (issue 28.3); never kept in the
    session or a message, which would store it."""
    token_form = TokenForm(request.POST, user=request.user)
    if token_form.is_valid():
        data = token_form.cleaned_data
        try:
            made = tokens.create(request.user, data["name"], data["scopes"], data["days"])
        except tokens.TokenError as exc:
            token_form.add_error(None, exc.message)
        else:
            return render(request, "accounts/token_created.html", {"made": made}, status=201)
    return _profile_page(request, ProfileForm(instance=request.user), token_form, status=400)


@login_required
@require_POST
def revoke_token(request: HttpRequest, token_id: int) -> HttpResponse:
    """The profile's revoke button: one of the player's own tokens (another's: nothing)."""
    if tokens.revoke(request.user, token_id):
        messages.success(request, _("That token is revoked: it opens nothing any more."))
    return redirect("profile")


@login_required
@require_POST
def make_bot(request: HttpRequest) -> HttpResponse:
    """The profile's "make this account a bot" form (issue 28.4): the logged-in account, for
    good, run by the owner named (and proven by their password). A refusal: the profile again
    with the sentence, and its status; nothing changed."""
    bot_form = BotForm(request.POST)
    if bot_form.is_valid():
        data = bot_form.cleaned_data
        try:
            bot = bots.mark_as_bot(request.user, data["owner"], data["password"], request)
        except bots.BotError as exc:
            bot_form.add_error(None, exc.message)
            status = exc.status
        else:
            messages.success(
                request,
                _(
                    "This account is now a bot by %(owner)s: make it a token with the scope “bot” "
                    "below, and let your program play through the API."
                )
                % {"owner": bot.bot_owner_id},
            )
            return redirect("profile")
    else:
        status = 400
    form = ProfileForm(instance=request.user)
    return _profile_page(request, form, status=status, bot_form=bot_form)
