"""veil-desktop: offline redaction of personal information in Korean documents."""
__version__ = "0.1.0"
