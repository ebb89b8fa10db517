"""The Knockdown Test flow the dashboard, the API and the countdown button all drive."""

from assistant.knockdown.flow import (
    CameraVerdict,
    Decision,
    FlowError,
    FlowInputError,
    FlowState,
    KnockdownFlow,
    PendingTest,
)

__all__ = ["CameraVerdict", "Decision", "FlowError", "FlowInputError", "FlowState", "KnockdownFlow", "PendingTest"]
