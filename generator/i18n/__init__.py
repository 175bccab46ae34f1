"""The i18n room: catalog lookup with English fallback and sandboxed rule templates; knows nothing of drawing."""
