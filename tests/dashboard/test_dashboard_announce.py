"""mDNS: the Announcer is found by a separate zeroconf browser as knockdown.local (real multicast on this host)."""

from __future__ import annotations

import pytest
from zeroconf import IPVersion, Zeroconf

from assistant.web.announce import SERVICE_TYPE, Announcer


def lookup(name: str, timeout_ms: int):
    listener = Zeroconf(ip_version=IPVersion.V4Only, use_asyncio=False)
    try:
        return listener.get_service_info(SERVICE_TYPE, name, timeout=timeout_ms)
    finally:
        listener.close()


def test_announced_service_resolves_to_knockdown_local_and_goes_away_on_close():
    announcer = Announcer(8613, addresses=["127.0.0.1"], name="Knockdown Referee test")
    with announcer:
        assert announcer.is_announcing
        info = lookup(announcer.info.name, 3000)
        assert info is not None
        assert info.server == "knockdown.local."
        assert info.port == 8613
        assert info.parsed_addresses() == ["127.0.0.1"]
        assert info.properties[b"path"] == b"/"
    assert not announcer.is_announcing
    announcer.close()  # idempotent
    assert lookup(announcer.info.name, 600) is None


def test_url_names_the_mdns_host():
    assert Announcer(8080, addresses=["10.0.0.2"]).url == "http://knockdown.local:8080/"


@pytest.mark.parametrize("port", [0, 70000, "8080", True])
def test_bad_port_is_refused_with_its_value(port):
    with pytest.raises(ValueError, match=repr(port).replace("(", r"\(")):
        Announcer(port, addresses=["127.0.0.1"])


def test_hostname_must_be_one_label():
    with pytest.raises(ValueError, match="'knockdown.local'"):
        Announcer(8080, hostname="knockdown.local", addresses=["127.0.0.1"])


def test_a_failed_registration_closes_its_zeroconf():
    closed = []

    class Broken:
        def register_service(self, info, **kwargs):
            raise OSError("no multicast here")

        def close(self):
            closed.append(True)

    announcer = Announcer(8080, addresses=["127.0.0.1"], zeroconf_factory=Broken)
    with pytest.raises(OSError, match="no multicast"):
        announcer.start()
    assert closed == [True] and not announcer.is_announcing
