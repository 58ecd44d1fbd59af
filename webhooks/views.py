"""The organiser's webhook pages: a league's URLs, and one URL with its recent deliveries
("send again", resume, new secret, delete). Thin: each POST calls one service."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from league import permissions
from league.models import League
from league.view_helpers import show_error
from rules.errors import DomainError

from . import services, signing
from .forms import EndpointEventsForm, EndpointForm
from .models import DeliveryStatus, WebhookDelivery, WebhookEndpoint

RECENT_DELIVERIES = 50


def _league(request, slug: str) -> League:
    league = get_object_or_404(League, slug=slug)
    if not permissions.is_league_organiser(request.user, league):
        raise PermissionDenied(_("Only the league's organisers can manage its webhooks."))
    return league


def _endpoint(request, slug: str, pk: int) -> WebhookEndpoint:
    league = _league(request, slug)
    return get_object_or_404(WebhookEndpoint.objects.select_related("league"), pk=pk, league=league)


@login_required
def endpoint_list(request, slug: str):
    league = _league(request, slug)
    form = EndpointForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            endpoint = services.create_endpoint(
                league=league, by_user=request.user, **form.cleaned_data
            )
        except DomainError as exc:
            show_error(request, exc, form=form)
        else:
            messages.success(request, _("Webhook added. Its secret is on this page."))
            return redirect("webhook-endpoint", league.slug, endpoint.pk)
    endpoints = league.webhook_endpoints.all()
    return render(
        request,
        "webhooks/endpoint_list.html",
        {"league": league, "endpoints": endpoints, "form": form},
    )


@login_required
def endpoint_detail(request, slug: str, pk: int):
    endpoint = _endpoint(request, slug, pk)
    form = EndpointEventsForm(
        request.POST or None,
        initial={"events": endpoint.events, "description": endpoint.description},
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.update_endpoint(endpoint=endpoint, by_user=request.user, **form.cleaned_data)
        except DomainError as exc:
            show_error(request, exc, form=form)
        else:
            messages.success(request, _("Saved."))
            return redirect("webhook-endpoint", slug, endpoint.pk)
    deliveries = endpoint.deliveries.all()[:RECENT_DELIVERIES]
    counts = {
        status: endpoint.deliveries.filter(status=status).count()
        for status in DeliveryStatus.values
    }
    return render(
        request,
        "webhooks/endpoint_detail.html",
        {
            "league": endpoint.league,
            "endpoint": endpoint,
            "form": form,
            "deliveries": deliveries,
            "counts": counts,
            "snippet": signing.VERIFY_SNIPPET,
            "window_minutes": signing.REPLAY_WINDOW_SECONDS // 60,
        },
    )


@login_required
@require_POST
def endpoint_action(request, slug: str, pk: int, action: str):
    endpoint = _endpoint(request, slug, pk)
    try:
        if action == "resume":
            waiting = services.resume_endpoint(endpoint=endpoint, by_user=request.user)
            messages.success(
                request,
                ngettext(
                    "Resumed: %(count)s waiting delivery is on its way.",
                    "Resumed: %(count)s waiting deliveries are on their way.",
                    waiting,
                )
                % {"count": waiting},
            )
        elif action == "rotate-secret":
            services.rotate_secret(endpoint=endpoint, by_user=request.user)
            messages.success(request, _("New secret made: update your receiver."))
        elif action == "delete":
            services.delete_endpoint(endpoint=endpoint, by_user=request.user)
            messages.success(request, _("Webhook deleted."))
            return redirect("webhooks", slug)
        else:
            raise PermissionDenied(_("Unknown action."))
    except DomainError as exc:
        show_error(request, exc)
    return redirect("webhook-endpoint", slug, endpoint.pk)


@login_required
@require_POST
def delivery_send_again(request, slug: str, pk: int, delivery_pk: int):
    endpoint = _endpoint(request, slug, pk)
    delivery = get_object_or_404(WebhookDelivery, pk=delivery_pk, endpoint=endpoint)
    try:
        services.send_again(delivery=delivery, by_user=request.user)
    except DomainError as exc:
        show_error(request, exc)
    else:
        messages.success(
            request,
            _("Delivery %(id)s is being sent again.") % {"id": delivery.delivery_id},
        )
    return redirect("webhook-endpoint", slug, endpoint.pk)
