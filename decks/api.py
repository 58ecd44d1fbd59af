"""API for cards, formats and checking decklists (stores nothing)."""

from django.utils.functional import lazy
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, viewsets
from rest_framework.decorators import api_view, permission_classes, throttle_classes
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from .findings_text import word
from .models import Card, Format
from .parser import MAX_PASTE_CHARS
from .services import check_decklist
from .throttle import AnonymousDeckCheckThrottle


class CardSerializer(serializers.ModelSerializer):
    class Meta:
        model = Card
        fields = [
            "id",
            "name",
            "norm_name",
            "supertype",
            "subtypes",
            "card_set",
            "set_code",
            "number",
            "regulation_mark",
            "evolves_from",
            "legal",
            "banned",
        ]


class CardViewSet(viewsets.ReadOnlyModelViewSet):
    """Cards; filter with `?name=` (case-insensitive, part of the name) and `?set_code=`."""

    serializer_class = CardSerializer
    permission_classes = [AllowAny]

    def get_queryset(self):
        qs = Card.objects.defer("data")
        if name := self.request.query_params.get("name"):
            qs = qs.filter(name__icontains=name)
        if code := self.request.query_params.get("set_code"):
            qs = qs.filter(set_code__iexact=code)
        return qs


class FormatSerializer(serializers.ModelSerializer):
    class Meta:
        model = Format
        fields = ["key", "name", "base", "allowed_marks", "banned_names", "banned_prints"]


class FormatViewSet(viewsets.ReadOnlyModelViewSet):
    queryset = Format.objects.all()
    serializer_class = FormatSerializer
    permission_classes = [AllowAny]
    lookup_field = "key"


class FindingSerializer(serializers.Serializer):
    code = serializers.CharField()
    lines = serializers.ListField(child=serializers.IntegerField())
    message = serializers.CharField()


class VerdictSerializer(serializers.Serializer):
    legal = serializers.BooleanField()
    card_count = serializers.IntegerField()
    errors = FindingSerializer(many=True)
    warnings = FindingSerializer(many=True)


def _too_long_message() -> str:
    return _(
        "The decklist is too long: a paste may hold at most %(max)s characters. Paste one "
        "decklist, one card per line."
    ) % {"max": f"{MAX_PASTE_CHARS:,}"}


class DecklistInputSerializer(serializers.Serializer):
    decklist_text = serializers.CharField(
        max_length=MAX_PASTE_CHARS,
        trim_whitespace=False,
        error_messages={"max_length": lazy(_too_long_message, str)()},
    )


class FormatKeyField(serializers.SlugRelatedField):
    """A format by its key; a key PostgreSQL cannot even compare (a NUL byte) is not found,
    rather than a server error."""

    def to_internal_value(self, data):
        if isinstance(data, str) and "\x00" in data:
            self.fail("does_not_exist", slug_name=self.slug_field, value=data.replace("\x00", ""))
        return super().to_internal_value(data)


class CheckDecklistSerializer(DecklistInputSerializer):
    format = FormatKeyField(slug_field="key", queryset=Format.objects.all())


def verdict_payload(verdict) -> dict:
    """The verdict as the API answers it: each finding's `code` and `lines`, and its
    `message` in the request's language."""

    def worded(findings) -> list[dict]:
        return [{"code": f.code, "lines": list(f.lines), "message": word(f)} for f in findings]

    return {
        "legal": verdict.legal,
        "errors": worded(verdict.errors),
        "warnings": worded(verdict.warnings),
        "card_count": verdict.card_count,
    }


@extend_schema(request=CheckDecklistSerializer, responses=VerdictSerializer)
@api_view(["POST"])
@permission_classes([AllowAny])
@throttle_classes([AnonymousDeckCheckThrottle])
def check_deck(request):
    """Check a decklist against a format and return the verdict line by line. Stores nothing."""
    data = CheckDecklistSerializer(data=request.data)
    data.is_valid(raise_exception=True)
    verdict = check_decklist(
        text=data.validated_data["decklist_text"], fmt=data.validated_data["format"]
    )
    return Response(verdict_payload(verdict))
