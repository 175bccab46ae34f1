"""The render room: drawing ops -> PDF / PNG. The only room that imports reportlab, PIL, pypdfium2."""
