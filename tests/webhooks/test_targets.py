"""The address guard (issue 27): every range that is not public unicast is refused by name,
and an IPv6 address carrying an IPv4 one (mapped, 6to4, NAT64, Teredo) is judged by that
IPv4 address; `check --deploy` warns when private targets are allowed in production."""

import pytest
from django.core import checks

from rules.errors import DomainError
from webhooks import targets

REFUSED = {
    "2002:7f00:1::": "6to4 carrying 127.0.0.1",
    "2002:a9fe:a9fe::1": "6to4 carrying 169.254.169.254 (cloud metadata)",
    "2002:c0a8:1::1": "6to4 carrying 192.168.0.1",
    "fec0::1": "site-local",
    "64:ff9b::7f00:1": "NAT64 carrying 127.0.0.1",
    "64:ff9b::a9fe:a9fe": "NAT64 carrying 169.254.169.254",
    "64:ff9b:1::1": "local-use NAT64",
    "2001:0:4136:e378:8000:63bf:80ff:fffe": "Teredo carrying 127.0.0.1 as its client",
    "::ffff:127.0.0.1": "IPv4-mapped loopback",
    "::ffff:169.254.169.254": "IPv4-mapped link-local",
    "::127.0.0.1": "IPv4-compatible (deprecated) loopback",
    "::1": "loopback",
    "::": "unspecified",
    "fe80::1": "link-local",
    "fe80::1%eth0": "link-local with a zone",
    "fc00::1": "unique local",
    "fd12:3456::1": "unique local",
    "ff02::1": "multicast",
    "ff0e::1": "global multicast",
    "100::1": "discard-only",
    "2001:db8::1": "documentation",
    "3fff::1": "documentation (2024)",
    "2001:10::1": "ORCHID",
    "5f00::1": "SRv6 SIDs",
    "0.0.0.0": "this network",
    "10.1.2.3": "private",
    "100.64.0.1": "shared address space",
    "127.0.0.1": "loopback",
    "169.254.169.254": "link-local",
    "172.16.0.1": "private",
    "192.0.0.8": "IETF protocol assignments",
    "192.0.2.1": "documentation",
    "192.88.99.1": "6to4 relay anycast",
    "192.168.0.10": "private",
    "198.18.0.1": "benchmarking",
    "198.51.100.1": "documentation",
    "203.0.113.1": "documentation",
    "224.0.0.1": "multicast",
    "239.255.255.250": "multicast (SSDP)",
    "240.0.0.1": "reserved",
    "255.255.255.255": "limited broadcast",
    "not an address": "garbage",
}

ACCEPTED = {
    "8.8.8.8": "public IPv4",
    "93.184.215.14": "public IPv4",
    "2606:4700:4700::1111": "public IPv6",
    "2a00:1450:4007:80e::200e": "public IPv6",
    "::ffff:8.8.8.8": "IPv4-mapped public",
    "2002:808:808::1": "6to4 carrying a public address",
    "64:ff9b::808:808": "NAT64 carrying a public address",
}


@pytest.mark.parametrize("address", sorted(REFUSED), ids=lambda a: REFUSED[a])
def test_every_non_public_unicast_range_is_refused(address):
    assert not targets.is_public_address(address)


@pytest.mark.parametrize("address", sorted(ACCEPTED), ids=lambda a: ACCEPTED[a])
def test_public_unicast_addresses_are_accepted(address):
    assert targets.is_public_address(address)


@pytest.mark.parametrize(
    "url",
    ["http://[2002:7f00:1::]/hook", "http://[2002:a9fe:a9fe::]/latest", "http://[fec0::1]/hook"],
)
def test_the_issue_s_addresses_are_refused_as_urls(url, settings):
    settings.WEBHOOK_ALLOW_PRIVATE_TARGETS = False
    with pytest.raises(DomainError) as err:
        targets.check_url(url)
    assert err.value.code == "webhook-target-refused"


def test_check_deploy_warns_when_private_targets_are_allowed(settings):
    settings.WEBHOOK_ALLOW_PRIVATE_TARGETS = True
    found = checks.run_checks(include_deployment_checks=True, tags=[checks.Tags.security])
    assert "webhooks.W001" in {message.id for message in found}
    settings.WEBHOOK_ALLOW_PRIVATE_TARGETS = False
    found = checks.run_checks(include_deployment_checks=True, tags=[checks.Tags.security])
    assert "webhooks.W001" not in {message.id for message in found}
    # Not a deploy-time worry in development: plain `check` stays quiet.
    settings.WEBHOOK_ALLOW_PRIVATE_TARGETS = True
    assert "webhooks.W001" not in {m.id for m in checks.run_checks(tags=[checks.Tags.security])}
