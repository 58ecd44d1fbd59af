from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from config.favicon import favicon
from config.pwa import manifest, service_worker
from league import views
from league.views import language

urlpatterns = [
    path("", views.home, name="home"),
    path("favicon.ico", favicon, name="favicon"),
    path("favicon.svg", favicon, {"name": "favicon.svg"}, name="favicon-svg"),
    path("sw.js", service_worker, name="service-worker"),
    path("manifest.webmanifest", manifest, name="web-manifest"),
    path("admin/", admin.site.urls),
    # The language switcher posts here (base.html); a signed-in player's choice is kept on
    # their profile too (league.languages).
    path("i18n/setlang/", language.set_language, name="set_language"),
    # Before Django's own: the reset e-mail goes through the outbox, after the response.
    path("accounts/password_reset/", views.password_reset, name="password_reset"),
    # Before Django's own: a signed-in player's profile language becomes the page's.
    path("accounts/login/", language.login, name="login"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view serves Swagger UI's init script from a URL: no inline script, so the
    # Content-Security-Policy holds on the docs page too.
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/", include(("config.api_urls", "api"))),
    path("", include("config.page_urls")),
    path("", include("notifications.urls")),
    path("", include("tom.urls")),
    path("", include("webhooks.urls")),
]

handler403 = "config.error_pages.permission_denied"
handler404 = "config.error_pages.not_found"
handler500 = "config.error_pages.server_error"
