"""The reviewer's tools of the main window, one module each (``ui/review_tools.py`` assembles them):
``workspace`` (documents list, background detection queue, export all), ``find`` (find and mark),
``terms`` (term lists), ``pages`` (the PDF page view)."""
