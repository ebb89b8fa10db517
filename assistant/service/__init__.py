"""The one referee process: current match, store, devices, Knockdown Test flow, change feed."""

from assistant.service.core import (LIVE_LOG_ENTRIES, Hardware, InvalidRequest, NoMatch, RefereeService, ServiceError,
                                    live_snapshot)

__all__ = ["LIVE_LOG_ENTRIES", "Hardware", "InvalidRequest", "NoMatch", "RefereeService", "ServiceError",
           "live_snapshot"]
