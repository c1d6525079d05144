"""``kitgen serve``: a local web app over the command line (docs/design.md §11).

Every build, check and preview runs the command line itself (``python -m kitgen ...``) in a
fresh temporary folder, so the page gives the same bytes and the same one-line messages as a
terminal, builds in two tabs never share state (fonts, caches), and a bad deck cannot take the
server down. This package knows no game: the command line brings the families in.

Its modules, each importing only those above it: ``limits`` (the numbers, ``BadRequest``, ``Busy``),
``workspace`` (a request's folder, ``sweep``, the built ``Kit``), ``uploads`` (the saved ``Deck``),
``fields`` (the allow-list ``FIELDS``, ``build_arguments``), ``children`` (``Work``, ``run_kitgen``),
``jobs`` (``build``, ``check``, the page's ``Jobs``) and ``app`` (``create_app``, ``start``).
"""

from .app import create_app, is_loopback, start

__all__ = ["create_app", "is_loopback", "start"]
