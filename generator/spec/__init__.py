"""The spec room: kit folders (YAML + catalogs) -> frozen, validated models. Only this room sees raw dicts."""
