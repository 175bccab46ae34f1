"""The layout room: models + i18n -> pages of backend-neutral drawing ops. Imposition is data here."""
