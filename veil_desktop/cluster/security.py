"""Which Dask scheduler a cluster run may connect to — decided *before* anything connects.

A local cluster (``--workers N``) listens on 127.0.0.1 only. A named scheduler (``--scheduler ADDR`` or the
``address`` of ``--scheduler-file F``) must be on loopback, or reached over ``tls://`` with a CA, a client
certificate and its key (``--tls-ca/--tls-cert/--tls-key``); a plain ``tcp://`` address that is not loopback
is refused unless ``--insecure`` is given explicitly (documents and outputs would then travel unencrypted
and anyone on that network could submit work to the workers). Only ``tcp`` and ``tls`` are accepted.
"""
from __future__ import annotations

import ipaddress
import json
from dataclasses import dataclass
from pathlib import Path


class SchedulerRefused(ValueError):
    """The scheduler address may not be used as given (the message says why and what to do)."""


@dataclass(frozen=True)
class SchedulerTarget:
    address: str                 # normalised, with its protocol: tcp://host:port or tls://host:port
    protocol: str
    host: str
    loopback: bool
    tls: tuple[str, str, str] | None = None     # (ca, cert, key) for tls://

    def security(self):
        """A ``distributed.Security`` for this target (``None`` for plain tcp)."""
        if self.tls is None:
            return None
        from distributed.security import Security

        ca, cert, key = self.tls
        return Security(tls_ca_file=ca, tls_client_cert=cert, tls_client_key=key, require_encryption=True)


def split_address(addr: str) -> tuple[str, str, str]:
    """``(protocol, host, port)`` of ``tcp://h:p``, ``tls://h:p``, ``h:p`` (= tcp) or ``[::1]:p``."""
    addr = addr.strip()
    proto, sep, rest = addr.partition("://")
    if not sep:
        proto, rest = "tcp", addr
    proto = proto.lower()
    if proto not in ("tcp", "tls"):
        raise SchedulerRefused(f"scheduler protocol {proto!r} is not supported (use tcp:// on loopback or tls://)")
    if rest.startswith("["):
        host, _, tail = rest[1:].partition("]")
        port = tail[1:] if tail.startswith(":") else ""
    else:
        host, _, port = rest.rpartition(":") if ":" in rest else (rest, "", "")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise SchedulerRefused(f"scheduler address {addr!r} is not HOST:PORT")
    return proto, host, port


def is_loopback(host: str) -> bool:
    """Only a literal loopback IP or ``localhost``; a name is never resolved here (no lookup, no network)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_scheduler(addr: str, *, tls_ca: str | None = None, tls_cert: str | None = None,
                    tls_key: str | None = None, insecure: bool = False) -> SchedulerTarget:
    """The target to connect to, or :class:`SchedulerRefused`. Pure: opens no connection."""
    proto, host, port = split_address(addr)
    loop = is_loopback(host)
    hostport = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    given = [x for x in (tls_ca, tls_cert, tls_key) if x]
    if proto == "tls":
        if len(given) != 3:
            raise SchedulerRefused("a tls:// scheduler needs --tls-ca, --tls-cert and --tls-key")
        for flag, f in (("--tls-ca", tls_ca), ("--tls-cert", tls_cert), ("--tls-key", tls_key)):
            if not Path(f).is_file():
                raise SchedulerRefused(f"{flag} {f}: no such file")
        return SchedulerTarget(f"tls://{hostport}", "tls", host, loop, (tls_ca, tls_cert, tls_key))
    if given:
        raise SchedulerRefused("--tls-ca/--tls-cert/--tls-key need a tls:// scheduler address")
    if not loop and not insecure:
        raise SchedulerRefused(
            f"refusing plain tcp:// to {hostport}, which is not loopback: documents and outputs would travel "
            "unencrypted and anyone on that network could submit work. Use tls:// with --tls-ca/--tls-cert/"
            "--tls-key, or pass --insecure if this network is trusted")
    return SchedulerTarget(f"tcp://{hostport}", "tcp", host, loop)


def read_scheduler_file(path: str) -> str:
    """The ``address`` recorded in a Dask scheduler file (JSON)."""
    try:
        data = json.loads(Path(path).read_text("utf-8"))
        addr = data["address"]
        if not isinstance(addr, str):
            raise TypeError
        return addr
    except OSError as e:
        raise SchedulerRefused(f"--scheduler-file {path}: {e.strerror or e}") from None
    except (ValueError, KeyError, TypeError):
        raise SchedulerRefused(f"--scheduler-file {path}: not a Dask scheduler file (JSON with an address)") from None
