"""Pages of a player's own account: sign-up, profile, history."""

urlpatterns: list = []
