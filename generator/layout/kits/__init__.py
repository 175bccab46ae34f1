"""One composer per game: a loaded kit + texts -> components made of pages."""
