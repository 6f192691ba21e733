"""Review state for one document: items (span + decision), undo/redo, propagation, export selection and
session persistence. Pure Python; the Qt UI is an adapter over it (``veil_desktop.ui``)."""
from .export import PendingPolicy, PendingSpansError, build_plan, spans_to_mask
from .session import Autosaver, SessionInfo, Snapshot, document_hash, load_session, session_path
from .settings import AppSettings
from .state import Command, ReviewItem, ReviewState, StateListener, Status

__all__ = [
    "AppSettings", "Autosaver", "Command", "PendingPolicy", "PendingSpansError", "ReviewItem", "ReviewState",
    "SessionInfo", "Snapshot", "StateListener", "Status", "build_plan", "document_hash", "load_session", "session_path",
    "spans_to_mask",
]
