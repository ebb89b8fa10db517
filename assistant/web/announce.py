"""mDNS: advertise the dashboard as ``knockdown.local`` so tablets need no IP address.

``Announcer(port)`` registers an ``_http._tcp`` service named "Knockdown Referee" whose
host is ``knockdown.local.``, pointing at this machine's LAN addresses. ``close()``
unregisters it (a goodbye packet) and is idempotent; use it as a context manager.
"""

from __future__ import annotations

import socket

from zeroconf import IPVersion, ServiceInfo, Zeroconf

SERVICE_TYPE = "_http._tcp.local."


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses a tablet could reach (loopback only as a last resort)."""
    found: list[str] = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: picks the outgoing interface, sends nothing
            found.append(probe.getsockname()[0])
        except OSError:
            pass
    return found or ["127.0.0.1"]


class Announcer:
    def __init__(self, port: int, *, hostname: str = "knockdown", name: str = "Knockdown Referee",
                 addresses: list[str] | None = None, path: str = "/", zeroconf_factory=None):
        if not isinstance(port, int) or isinstance(port, bool) or not 0 < port < 65536:
            raise ValueError(f"port must be an integer from 1 to 65535, got {port!r}")
        if not hostname or "." in hostname:
            raise ValueError(f"hostname must be one label such as 'knockdown', got {hostname!r}")
        self.port = port
        self.server = f"{hostname}.local."
        self.addresses = list(addresses) if addresses is not None else lan_addresses()
        self.info = ServiceInfo(
            SERVICE_TYPE,
            f"{name}.{SERVICE_TYPE}",
            port=port,
            parsed_addresses=self.addresses,
            server=self.server,
            properties={"path": path},
        )
        # Its own loop thread, always: never attach to an asyncio loop the caller happens to have.
        self._zeroconf_factory = zeroconf_factory or self._own_zeroconf
        self._zeroconf: Zeroconf | None = None

    @staticmethod
    def _own_zeroconf() -> Zeroconf:
        return Zeroconf(ip_version=IPVersion.V4Only, use_asyncio=False)

    @property
    def url(self) -> str:
        return f"http://{self.server.rstrip('.')}:{self.port}/"

    @property
    def is_announcing(self) -> bool:
        return self._zeroconf is not None

    def start(self) -> "Announcer":
        if self._zeroconf is None:
            zc = self._zeroconf_factory()
            try:
                # A second Pi on the table keeps working: zeroconf renames the instance.
                zc.register_service(self.info, allow_name_change=True)
            except BaseException:
                zc.close()
                raise
            self._zeroconf = zc
        return self

    def close(self) -> None:
        zc, self._zeroconf = self._zeroconf, None
        if zc is not None:
            try:
                zc.unregister_service(self.info)
            finally:
                zc.close()

    def __enter__(self) -> "Announcer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.close()
