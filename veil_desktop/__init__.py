"""veil-desktop: offline redaction of personal information in Korean documents."""
import os as _os

# Offline by design: onnxruntime (1.32, Linux) ships a telemetry client that writes a device id under
# ~/.cache/Microsoft and looks up mobile.events.data.microsoft.com ~10 s after start. Only this variable,
# set before the first `import onnxruntime`, turns it off; every entry point imports this package first.
_os.environ["ORT_DISABLE_TELEMETRY"] = "1"

__version__ = "0.1.0"
