"""Pages of a player's own account: sign-up, profile, history."""

from django.urls import path

from league import views
from matches import views as match_views

urlpatterns = [
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/profile/", views.profile, name="profile"),
    path("accounts/profile/public/", views.profile_public, name="profile-public"),
    path("accounts/profile/tokens/", views.profile_tokens, name="profile-tokens"),
    path("me/", match_views.my_events, name="my-events"),
]
