"""`{% my_judge_call match side as call %}`: the latest judge call of the player on `side`
of `match` ("a" or "b"), for the match page's "call a judge" box (None without one)."""

from django import template

from floor.models import JudgeCall

register = template.Library()


@register.simple_tag
def my_judge_call(match, side: str):
    registration_id = (
        match.player_a_id if side == "a" else match.player_b_id if side == "b" else None
    )
    if registration_id is None:
        return None
    return (
        JudgeCall.objects.filter(match=match, registration_id=registration_id)
        .select_related("taken_by", "closed_by")
        .order_by("-created_at", "-pk")
        .first()
    )
