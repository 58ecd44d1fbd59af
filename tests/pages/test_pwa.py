"""The progressive web app's server side (`config/pwa.py`): the service worker at the site's
root, the web manifest, and the `X-Viewer` header the service worker keeps copies by."""

from django.contrib.staticfiles import finders
from django.urls import reverse


def test_the_service_worker_is_served_from_the_root_and_always_revalidated(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript"
    assert response["Service-Worker-Allowed"] == "/"
    assert response["Cache-Control"] == "no-cache"
    body = response.content.decode()
    # What it must never keep, and the pages it keeps.
    assert "/^\\/api\\//" in body and "me\\.json" in body
    assert client.post("/sw.js").status_code == 405


def test_the_manifest_and_every_page_link_it_and_load_the_venue_script(client, db):
    manifest = client.get("/manifest.webmanifest")
    assert manifest["Content-Type"] == "application/manifest+json"
    assert manifest.json()["start_url"] == "/" and manifest.json()["display"] == "standalone"
    head = client.head("/manifest.webmanifest")
    assert head.status_code == 200 and head.content == b"" and head["X-Viewer"] == "anon"
    home = client.get(reverse("home")).content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in home
    assert 'src="/static/pwa/venue.js"' in home
    assert finders.find("pwa/venue.js") and finders.find("pwa/venue.css")


def test_x_viewer_names_the_account_without_saying_who(client, make_user):
    one, two = make_user("ash"), make_user("misty")
    assert client.get(reverse("home"))["X-Viewer"] == "anon"
    client.force_login(one)
    first = client.get(reverse("home"))["X-Viewer"]
    assert client.get("/api/schema/")["X-Viewer"] == first  # every answer, the API's too
    client.force_login(two)
    second = client.get(reverse("home"))["X-Viewer"]
    assert first != second and "anon" not in (first, second)
    assert str(one.pk) != first and one.username not in first
