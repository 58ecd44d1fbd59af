"""TOM saves: the event's TOM page, upload, download, the laptop's token, and the API
endpoint the laptop script posts to. Included once from the site's root URLs."""

from django.urls import path

from . import api, views

urlpatterns = [
    path("events/<int:event_id>/tom/", views.tom_event, name="tom-event"),
    path("events/<int:event_id>/tom/upload/", views.tom_upload, name="tom-upload"),
    path("events/<int:event_id>/tom/save.tdf", views.tom_download, name="tom-download"),
    path("events/<int:event_id>/tom/token/", views.tom_token, name="tom-token"),
    path(
        "events/<int:event_id>/tom/saves/<int:save_id>/new-event/",
        views.tom_new_event,
        name="tom-new-event",
    ),
    path("api/tom/events/<int:event_id>/saves/", api.post_save, name="api-tom-save"),
    path("api/tom/saves/<int:save_id>/", api.save_status, name="api-tom-save-status"),
]
