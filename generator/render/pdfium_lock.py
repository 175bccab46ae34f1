"""The one lock around PDFium. PDFium is not thread-safe, not even for two documents at once (pypdfium2's
documentation), and `serve` draws previews in its request threads while its rebuild thread may rasterise art
for the contrast check: every call into pypdfium2 in pnpkit holds PDFIUM (re-entrant, so a caller that holds
it may call another function that takes it)."""

from __future__ import annotations

import threading

PDFIUM = threading.RLock()
