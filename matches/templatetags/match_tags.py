"""Template tags of the match pages.

`{% my_match event %}` shows the signed-in player's match in the event's latest published
round (round, table, opponent, the round clock, a link to report): one query, none for a
visitor who is not signed in. While its clock runs, the page is kept (`matches.own_pages`) no
later than the moment time is called, and not at all after.

`{% round_mail_status round %}` shows the staff how the round's e-mails stand (sent /
pending / failed) with a retry button.
"""

from django import template
from django.urls import reverse

from league.models import Event
from matches import own_pages, selectors
from matches.notify import round_mail_key_prefixes
from matches.presenters import cut_stage, match_card
from notifications.services import mail_status

register = template.Library()


def my_match_card(user, event: Event) -> dict | None:
    """The card of `user`'s match in the event's latest published round (one query), or
    None: not signed in, nothing published yet, or not paired in that round."""
    if not user.is_authenticated:
        return None
    match = selectors.current_match(user, event)
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
def my_match(context, event):
    request = context.get("request")
    user = request.user if request is not None else context.get("user")
    card = my_match_card(user, event) if user is not None else None
    if request is not None and card and card["remaining"] is not None:
        if card["remaining"] > 0:
            # The clock counts down to a moment (`data-ends-at`); what the card says
            # changes when time is called.
            own_pages.keep_until(request, card["ends_at"])
        else:  # time called: the overtime clock's text is of this second only
            own_pages.not_kept(request)
    return {"card": card}


@register.inclusion_tag("notifications/_mail_status.html")
def round_mail_status(round_):
    if round_ is None:
        return {"status": None}
    return {
        "status": mail_status(key_prefixes=round_mail_key_prefixes(round_)),
        "retry_url": reverse("round-mail-retry", args=[round_.event_id, round_.number]),
    }
