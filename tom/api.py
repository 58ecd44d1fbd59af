"""The live mirror's endpoint: the script on the TOM laptop posts every save.

`POST /api/tom/events/<id>/saves/` with the save as the body (any content type; or a
multipart form with a `save` file; up to `MAX_SAVE_BYTES`, the body limit of this path),
authenticated by the event's upload token (`Authorization: Bearer <token>`, made on the
event's TOM page) or as the event's staff. The save is stored and applied by the worker
(`tom.services.saves`): 202 with `status_url`, where `GET` gives `pending`, then
`applied` (what changed), `duplicate` or `refused` (`code`, `detail`: `tdf-contradicts`,
`tdf-differs`). The same file posted twice is applied once (the content's SHA-256): 200
when it had been imported before. Errors answered at once are `{"code", "detail"}`:
`tdf-invalid` (400), `not-allowed` (403).
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
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

from league import permissions
from league.models import Event
from rules.errors import DomainError

from . import services
from .models import TomSave, TomUpload


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
                _("Give the token after Bearer, with no spaces in it.")
            )
        try:
            token = header[1].decode()
        except UnicodeDecodeError:
            raise exceptions.AuthenticationFailed(_("Invalid token.")) from None
        tom = services.event_for_token(token)
        if tom is None or tom.token_user is None or not tom.token_user.is_active:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
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


Accepted = inline_serializer(
    "TomSaveReceived",
    {
        "id": serializers.IntegerField(),
        "event": serializers.IntegerField(),
        "sha256": serializers.CharField(),
        "status": serializers.ChoiceField(choices=TomSave.Status.choices),
        "duplicate": serializers.BooleanField(),
        "summary": serializers.DictField(child=serializers.IntegerField()),
        "standings_agree": serializers.BooleanField(allow_null=True),
        "status_url": serializers.CharField(),
        "code": serializers.CharField(required=False),
        "detail": serializers.CharField(required=False),
    },
)


def _token_event_matches(request, event_id: int) -> None:
    if (
        request.auth is not None
        and hasattr(request.auth, "event_id")
        and request.auth.event_id != event_id
    ):
        raise DomainError("not-allowed", _("This token is for another event."), status=403)


def _answer(request, save: TomSave, status_code: int) -> Response:
    url = request.build_absolute_uri(reverse("api-tom-save-status", args=[save.pk]))
    return Response({**services.save_status(save), "status_url": url}, status=status_code)


@extend_schema(
    request={"application/octet-stream": {"type": "string", "format": "binary"}},
    responses={
        202: Accepted,
        200: Accepted,
        400: OpenApiResponse(description="tdf-invalid: not a TOM save"),
    },
)
@api_view(["POST"])
# The laptop token first, then whatever the site authenticates API calls with.
@authentication_classes([UploadToken, *api_settings.DEFAULT_AUTHENTICATION_CLASSES])
@permission_classes([IsAuthenticated])
@parser_classes([MultiPartParser, FormParser, AnyBody])
def post_save(request, event_id: int):
    """Receive a TOM save for the event (the laptop script's endpoint): 202 with the
    save's status address, where the outcome can be read once the worker has applied it;
    200 when the same file was imported before."""
    event = get_object_or_404(Event.objects.select_related("season__league"), pk=event_id)
    _token_event_matches(request, event.pk)
    upload = request.FILES.get("save") if hasattr(request, "FILES") else None
    if upload is not None:
        data, filename = upload.read(services.MAX_SAVE_BYTES + 1), upload.name
    else:
        body = request.data.get("raw") if hasattr(request.data, "get") else None
        data, filename = (
            (body if isinstance(body, bytes) else b""),
            request.headers.get("X-Filename", ""),
        )
    save = services.receive_save(
        event=event, data=data, by_user=request.user, filename=filename, source=TomUpload.Source.API
    )
    pending = save.status == TomSave.Status.PENDING
    return _answer(request, save, status.HTTP_202_ACCEPTED if pending else status.HTTP_200_OK)


@extend_schema(responses={200: Accepted})
@api_view(["GET"])
@authentication_classes([UploadToken, *api_settings.DEFAULT_AUTHENTICATION_CLASSES])
@permission_classes([IsAuthenticated])
def save_status(request, save_id: int):
    """A posted save's status: `pending` until the worker has applied it, then `applied`
    (with what it changed), `duplicate`, or `refused` (with `code` and `detail`)."""
    save = get_object_or_404(
        TomSave.objects.defer("data").select_related("event__season__league"), pk=save_id
    )
    _token_event_matches(request, save.event_id)
    if not permissions.can(request.user, save.event, "manage-event"):
        raise DomainError("not-allowed", _("Only the event's staff can read this."), status=403)
    return _answer(request, save, status.HTTP_200_OK)
