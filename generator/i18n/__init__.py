"""The i18n room: catalog lookup with English fallback, sandboxed rule templates; knows nothing of drawing."""
