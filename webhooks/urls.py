"""The organiser's webhook pages, under the league's address."""

from django.urls import path

from . import views

urlpatterns = [
    path("leagues/<slug:slug>/webhooks/", views.endpoint_list, name="webhooks"),
    path("leagues/<slug:slug>/webhooks/<int:pk>/", views.endpoint_detail, name="webhook-endpoint"),
    path(
        "leagues/<slug:slug>/webhooks/<int:pk>/<slug:action>/",
        views.endpoint_action,
        name="webhook-endpoint-action",
    ),
    path(
        "leagues/<slug:slug>/webhooks/<int:pk>/deliveries/<int:delivery_pk>/send-again/",
        views.delivery_send_again,
        name="webhook-send-again",
    ),
]
