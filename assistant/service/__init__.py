"""The one referee process: current match, store, devices, Knockdown Test flow, change feed."""

from assistant.service.core import Hardware, InvalidRequest, NoMatch, RefereeService, ServiceError

__all__ = ["Hardware", "InvalidRequest", "NoMatch", "RefereeService", "ServiceError"]
