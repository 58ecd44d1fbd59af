"""The site's URLs plus one view that fails, for the 500 page's test."""

from django.urls import path

from config.urls import handler403, handler404, handler500, urlpatterns  # noqa: F401


def boom(request):
    raise RuntimeError("a bug")


urlpatterns = [*urlpatterns, path("boom/", boom)]
