"""Template tags of the match pages.

`{% my_match event %}` shows the signed-in player's match in the event's latest published
round (round, table, opponent, the round clock, a link to report): one query, none for a
visitor who is not signed in. While its clock runs, the page is kept (`matches.own_pages`) no
later than the moment time is called, and not at all after.

`{% games_form_body form %}` renders a result form's fields and help; an unbound player's
form once per process for the same arguments, language and help (`games_form_body`).

`{% round_mail_status round %}` shows the staff how the round's e-mails stand (sent /
pending / failed) with a retry button.
"""

from django import template
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import get_language

from league.models import Event
from matches import own_pages, selectors
from matches.notify import round_mail_key_prefixes
from matches.presenters import cut_stage, match_card
from notifications.services import mail_status

register = template.Library()


#: `my_match_card`'s "the page does not say".
_UNKNOWN = object()


def my_match_card(user, event: Event, registration=_UNKNOWN, round_id=_UNKNOWN) -> dict | None:
    """The card of `user`'s match in the event's latest published round (one query), or
    None: not signed in, nothing published yet, or not paired in that round. A page that
    knows the user's registration in the event (or None) and the latest published round's
    id (or None) passes both (the event page): the query is then on the matches' own
    columns, and none is made when either is None."""
    if not user.is_authenticated:
        return None
    if registration is _UNKNOWN or round_id is _UNKNOWN:
        match = selectors.current_match(user, event)
    elif registration is None or round_id is None:
        return None  # not registered here, or nothing published yet
    else:
        match = selectors.match_in_round(round_id, registration.pk)
    if match is None:
        return None
    match.round.event = event
    mine = match.player_a if match.player_a.player.user_id == user.pk else match.player_b
    return match_card(match, mine.pk)


@register.filter
def top_cut_stage(value) -> str:
    """`{{ row.reached|top_cut_stage }}`: "Winner", "Final", "Top 4" in the reader's language
    (compare the raw value, `row.reached == "Winner"`, for styling)."""
    return cut_stage(str(value or ""))


@register.inclusion_tag("matches/_my_match.html", takes_context=True)
def my_match(context, event, registration=_UNKNOWN, round_id=_UNKNOWN):
    request = context.get("request")
    user = request.user if request is not None else context.get("user")
    card = my_match_card(user, event, registration, round_id) if user is not None else None
    if request is not None and card and card["remaining"] is not None:
        if card["remaining"] > 0:
            # The clock counts down to a moment (`data-ends-at`); what the card says
            # changes when time is called.
            own_pages.keep_until(request, card["ends_at"])
        else:  # time called: the overtime clock's text is of this second only
            own_pages.not_kept(request)
    return {"card": card}


#: What `_games_form_body.html` reads from the page besides the form.
_BODY_CONTEXT = ("continues", "sd_prizes", "both_ways", "both_ways_help", "end_of_round_summary")


@register.simple_tag(takes_context=True)
def games_form_body(context, form):
    """The fields and help of a result form (`matches/_games_form_body.html`).

    A player's unbound form renders the same bytes for every match with the same
    arguments: the page asks it on every player's first view of their match, and its
    widgets (a dozen selects through Django's widget templates) were about half of that
    view's CPU. So it is rendered once per process for each key: the form's class, its
    fields with their choices, initial values and attributes as text in the active
    language, and the page's values above. A bound form (errors, the posted values) and
    the staff's form (with the players' names and the current result) are rendered each
    time: a form class says it is the same for every match (`same_for_every_match`)."""
    values = {name: context.get(name) for name in _BODY_CONTEXT}
    if form.is_bound or not getattr(form, "same_for_every_match", False):
        return render_to_string("matches/_games_form_body.html", {"form": form, **values})
    return _memo_body(_body_key(form, values), form, values)


def _body_key(form, values: dict) -> tuple:
    fields = tuple(
        (
            name,
            type(field).__name__,
            tuple((str(v), str(label)) for v, label in getattr(field, "choices", ())),
            str(field.label),
            str(field.help_text),
            field.required,
            type(field.widget).__name__,
            repr(field.widget.attrs),
            repr(form.initial.get(name, field.initial)),
        )
        for name, field in form.fields.items()
    )
    page = tuple((name, str(value)) for name, value in values.items())
    return (get_language(), form.prefix, form.auto_id, form.row_count, fields, page)


#: The rendered bodies of this process, by key (a handful per event format and language).
_BODIES: dict[tuple, str] = {}
_MAX_BODIES = 256


def _memo_body(key: tuple, form, values: dict) -> str:
    body = _BODIES.get(key)
    if body is None:
        if len(_BODIES) >= _MAX_BODIES:
            _BODIES.clear()
        body = render_to_string("matches/_games_form_body.html", {"form": form, **values})
        _BODIES[key] = body
    return body


@register.inclusion_tag("notifications/_mail_status.html")
def round_mail_status(round_):
    if round_ is None:
        return {"status": None}
    return {
        "status": mail_status(key_prefixes=round_mail_key_prefixes(round_)),
        "retry_url": reverse("round-mail-retry", args=[round_.event_id, round_.number]),
    }
