"""API authentication: the browser's session, or a personal token
(`Authorization: Token <key>`, created on the profile page, `league.services.tokens`). HTTP Basic
is not accepted: it ran a password hash on every request."""

from django.utils.translation import gettext as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions

from league.services import tokens


class TokenAuthentication(authentication.BaseAuthentication):
    keyword = "Token"

    def authenticate(self, request):
        parts = authentication.get_authorization_header(request).split()
        if not parts or parts[0].lower() != self.keyword.lower().encode():
            return None
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed(_("Send `Authorization: Token <key>`."))
        try:
            key = parts[1].decode("ascii")
        except UnicodeDecodeError as exc:
            raise exceptions.AuthenticationFailed(_("Invalid token.")) from exc
        user = tokens.user_for_key(key)
        if user is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        return user, key

    def authenticate_header(self, request):
        return self.keyword


class TokenScheme(OpenApiAuthenticationExtension):
    """Describe it in the OpenAPI schema."""

    target_class = "config.api_auth.TokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema):
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "`Token <key>`: a personal token, created and revoked on your "
            "profile page (/accounts/profile/). The key is shown once.",
        }
