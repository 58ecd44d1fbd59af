"""Template tags of the match pages.

`{% my_match event %}` shows the signed-in player's match in the event's latest published
round (round, table, opponent, the round clock, a link to report): one query, none for a
visitor who is not signed in.
"""

from django import template

from matches.views.players import my_match_card

register = template.Library()


@register.inclusion_tag("matches/_my_match.html", takes_context=True)
def my_match(context, event):
    request = context.get("request")
    user = request.user if request is not None else context.get("user")
    return {"card": my_match_card(user, event) if user is not None else None}
