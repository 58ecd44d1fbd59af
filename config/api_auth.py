"""Basic authentication that refuses credentials PostgreSQL cannot even compare (a NUL
byte in a text value is an error there, not a mismatch)."""

from drf_spectacular import authentication as drf_spectacular_basic
from rest_framework import authentication, exceptions


class BasicAuthentication(authentication.BasicAuthentication):
    def authenticate_credentials(self, userid, password, request=None):
        if "\x00" in userid or "\x00" in password:
            raise exceptions.AuthenticationFailed("Invalid username/password.")
        return super().authenticate_credentials(userid, password, request)


class BasicScheme(drf_spectacular_basic.BasicScheme):
    """Describe it in the OpenAPI schema as plain HTTP Basic."""

    target_class = "config.api_auth.BasicAuthentication"
