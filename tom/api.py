"""The live mirror's endpoint: the script on the TOM laptop posts every save.

`POST /api/tom/events/<id>/saves/` with the save as the body (any content type; or a
multipart form with a `save` file), authenticated by the event's upload token
(`Authorization: Bearer <token>`, made on the event's TOM page) or as the event's staff.
The same file posted twice is applied once (the content's SHA-256): 201 when the save
changed the event, 200 when it had been imported before. Errors are `{"code", "detail"}`:
`tdf-invalid` (400), `tdf-contradicts` (409), `not-allowed` (403).
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import authentication, exceptions, serializers, status
from rest_framework.decorators import (
    api_view,
    authentication_classes,
    parser_classes,
    permission_classes,
)
from rest_framework.parsers import BaseParser, FormParser, MultiPartParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.settings import api_settings

from league.models import Event
from rules.errors import DomainError

from . import services, tdf
from .models import TomUpload


class UploadToken(authentication.BaseAuthentication):
    """`Authorization: Bearer <token>`: the event's upload token; the request acts as the
    staff member who made it, and only on that event (`request.auth` is the `TomEvent`)."""

    keyword = "Bearer"

    def authenticate(self, request):
        header = authentication.get_authorization_header(request).split()
        if not header or header[0].lower() != self.keyword.lower().encode():
            return None
        if len(header) != 2:
            raise exceptions.AuthenticationFailed(
                "Give the token after Bearer, with no spaces in it."
            )
        try:
            token = header[1].decode()
        except UnicodeDecodeError:
            raise exceptions.AuthenticationFailed("Invalid token.") from None
        tom = services.event_for_token(token)
        if tom is None or tom.token_user is None or not tom.token_user.is_active:
            raise exceptions.AuthenticationFailed("Invalid token.")
        return tom.token_user, tom

    def authenticate_header(self, request):
        return self.keyword


class UploadTokenScheme(OpenApiAuthenticationExtension):
    target_class = "tom.api.UploadToken"
    name = "tomUploadToken"

    def get_security_definition(self, auto_schema):
        return {"type": "http", "scheme": "bearer", "description": "The event's TOM upload token"}


class AnyBody(BaseParser):
    """The save as the request body, whatever its content type."""

    media_type = "*/*"

    def parse(self, stream, media_type=None, parser_context=None):
        data = stream.read(services.MAX_SAVE_BYTES + 1) if stream is not None else b""
        return {"raw": data}


Summary = inline_serializer(
    "TomSaveImported",
    {
        "event": serializers.IntegerField(),
        "sha256": serializers.CharField(),
        "duplicate": serializers.BooleanField(),
        "summary": serializers.DictField(child=serializers.IntegerField()),
        "rounds": serializers.IntegerField(),
        "standings_agree": serializers.BooleanField(allow_null=True),
    },
)


@extend_schema(
    request={"application/octet-stream": {"type": "string", "format": "binary"}},
    responses={
        201: Summary,
        200: Summary,
        400: OpenApiResponse(description="tdf-invalid: not a TOM save"),
        409: OpenApiResponse(description="tdf-contradicts: the save contradicts the event"),
    },
)
@api_view(["POST"])
# The laptop token first, then whatever the site authenticates API calls with.
@authentication_classes([UploadToken, *api_settings.DEFAULT_AUTHENTICATION_CLASSES])
@permission_classes([IsAuthenticated])
@parser_classes([MultiPartParser, FormParser, AnyBody])
def post_save(request, event_id: int):
    """Import a TOM save into the event (the laptop script's endpoint)."""
    event = get_object_or_404(Event.objects.select_related("season__league"), pk=event_id)
    if (
        request.auth is not None
        and hasattr(request.auth, "event_id")
        and request.auth.event_id != event.pk
    ):
        raise DomainError("not-allowed", "This token is for another event.", status=403)
    upload = request.FILES.get("save") if hasattr(request, "FILES") else None
    if upload is not None:
        data, filename = upload.read(services.MAX_SAVE_BYTES + 1), upload.name
    else:
        body = request.data.get("raw") if hasattr(request.data, "get") else None
        data, filename = (
            (body if isinstance(body, bytes) else b""),
            request.headers.get("X-Filename", ""),
        )
    result = services.import_save(
        data=data, by_user=request.user, event=event, filename=filename, source=TomUpload.Source.API
    )
    tom = result.event.tom
    compared = tom.standings_compared
    return Response(
        {
            "event": event.pk,
            "sha256": tdf.content_hash(data),
            "duplicate": result.duplicate,
            "summary": {
                k: v
                for k, v in result.summary.items()
                if isinstance(v, int) and not isinstance(v, bool)
            },
            "rounds": result.event.rounds.count(),
            "standings_agree": all(c["agree"] for c in compared.values()) if compared else None,
        },
        status=status.HTTP_200_OK if result.duplicate else status.HTTP_201_CREATED,
    )
