"""The personal API token's model (`league.services.tokens` makes and revokes them;
`config` authenticates with them). Re-exported by `league.models`."""

from django.conf import settings
from django.db import models
from django.utils import timezone


class ApiToken(models.Model):
    """A personal API token: scripts and apps send `Authorization: Token <key>`. Only the
    key's SHA-256 is stored (a long random key needs no slow hash); the first characters
    are kept to tell a user's tokens apart. Created and revoked on the profile page."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(max_length=60)
    prefix = models.CharField(max_length=12)
    key_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(default=timezone.now)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"
