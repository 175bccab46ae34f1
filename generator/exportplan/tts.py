"""The Tabletop Simulator saved object of a kit, as plain data: a bag holding one DeckCustom per deck (one
CustomDeck entry per sheet) and one Custom_Tile per board. Written by the hallway as JSON."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from generator.exportplan.plan import Deck, SheetGrid
from generator.units import mm

POKER_W = mm(63.5)
"""Cards are scaled relative to a poker card (TTS's card at scale 1)."""


@dataclass(frozen=True)
class DeckImages:
    """Where a deck's sheets and back(s) are, as URLs, and the sheet grids."""

    deck: Deck
    sheets: tuple[SheetGrid, ...]
    face_urls: tuple[str, ...]
    back_urls: tuple[str, ...]
    """One URL (a shared back image) or one per sheet (a back sheet laid out like the face sheet)."""
    unique_back: bool = False
    """back_urls are back sheets, slot for slot like the face sheets (TTS UniqueBack)"""


@dataclass(frozen=True)
class BoardImage:
    """A board exported as a Custom_Tile image."""

    component: str
    title: str
    url: str
    width: float
    height: float


def guid(*parts: str) -> str:
    """A stable 6-hex-digit GUID (TTS wants one per object; the same export gives the same ones)."""
    return hashlib.sha256("/".join(parts).encode()).hexdigest()[:6]


def _transform(x: float, z: float, scale: float, *, face_down: bool = False) -> dict[str, float]:
    return {
        "posX": round(x, 3),
        "posY": 1.0,
        "posZ": round(z, 3),
        "rotX": 0.0,
        "rotY": 180.0,
        "rotZ": 180.0 if face_down else 0.0,
        "scaleX": round(scale, 4),
        "scaleY": 1.0,
        "scaleZ": round(scale, 4),
    }


def card_id(deck_key: int, slot: int) -> int:
    """TTS CardID: the CustomDeck key times 100 plus the slot on its sheet."""
    return deck_key * 100 + slot


def custom_decks(images: DeckImages, first_key: int) -> dict[str, dict[str, Any]]:
    """The CustomDeck entries of a deck, one per sheet, keyed from first_key."""
    unique = images.unique_back
    out: dict[str, dict[str, Any]] = {}
    for k, grid in enumerate(images.sheets):
        out[str(first_key + k)] = {
            "FaceURL": images.face_urls[k],
            "BackURL": images.back_urls[k if unique else 0],
            "NumWidth": grid.cols,
            "NumHeight": grid.rows,
            "BackIsHidden": True,
            "UniqueBack": unique,
            "Type": 0,
        }
    return out


def deck_rows(images: DeckImages, first_key: int) -> list[dict[str, Any]]:
    """One row per card in deck order: TTS CardID, sheet, slot, deck index and face id (the sidecar CSV)."""
    rows: list[dict[str, Any]] = []
    for k, grid in enumerate(images.sheets):
        for slot, i in enumerate(grid.cards):
            card = images.deck.cards[i]
            rows.append(
                {
                    "card_id": card_id(first_key + k, slot),
                    "sheet": grid.number,
                    "slot": slot,
                    "index": card.index,
                    "id": card.id,
                    "name": card.name or card.id,
                    "description": card.description,
                }
            )
    return rows


def deck_object(images: DeckImages, first_key: int, x: float, kit: str, lang: str) -> dict[str, Any]:
    """A DeckCustom (or a single Card when the deck has one card) with every card in deck order."""
    deck = images.deck
    scale = deck.trim_w / POKER_W
    decks = custom_decks(images, first_key)
    cards = []
    rows = deck_rows(images, first_key)
    for row in rows:
        key = str(row["card_id"] // 100)
        cards.append(
            {
                "Name": "Card",
                "GUID": guid(kit, lang, deck.component, str(row["index"])),
                "Nickname": row["name"],
                "Description": row["description"],
                "CardID": row["card_id"],
                "CustomDeck": {key: decks[key]},
                "Transform": _transform(x, 0.0, scale, face_down=True),
            }
        )
    if len(cards) == 1:
        return cards[0] | {"Nickname": deck.title}
    return {
        "Name": "DeckCustom",
        "GUID": guid(kit, lang, deck.component),
        "Nickname": deck.title,
        "Description": f"{len(cards)} card{'' if len(cards) == 1 else 's'} ({deck.component})",
        "DeckIDs": [r["card_id"] for r in rows],
        "CustomDeck": decks,
        "ContainedObjects": cards,
        "Transform": _transform(x, 0.0, scale, face_down=True),
    }


def tile_object(board: BoardImage, x: float, kit: str, lang: str) -> dict[str, Any]:
    """A Custom_Tile showing a board (score sheet, rules) at its printed proportions."""
    return {
        "Name": "Custom_Tile",
        "GUID": guid(kit, lang, board.component),
        "Nickname": board.title,
        "Description": board.component,
        "Transform": _transform(x, 8.0, board.width / mm(100)),
        "CustomImage": {
            "ImageURL": board.url,
            "ImageSecondaryURL": board.url,
            "ImageScalar": 1.0,
            "WidthScale": 0.0,
            "CustomTile": {"Type": 0, "Thickness": 0.1, "Stackable": False, "Stretch": True},
        },
    }


def saved_object(
    kit: str, lang: str, title: str, decks: Sequence[DeckImages], boards: Sequence[BoardImage], version: str
) -> dict[str, Any]:
    """The whole kit as a TTS saved object: one Bag of decks and tiles (CustomDeck keys numbered from 1)."""
    contained: list[dict[str, Any]] = []
    key = 1
    for n, images in enumerate(decks):
        contained.append(deck_object(images, key, 3.0 * n, kit, lang))
        key += len(images.sheets)
    for n, board in enumerate(boards):
        contained.append(tile_object(board, 6.0 * n, kit, lang))
    bag: Mapping[str, Any] = {
        "Name": "Bag",
        "GUID": guid(kit, lang),
        "Nickname": title,
        "Description": f"pnpkit {kit} {version} ({lang})",
        "Transform": _transform(0, -6, 1.0),
        "ContainedObjects": contained,
    }
    return {
        "SaveName": title,
        "GameMode": "",
        "Date": "",
        "VersionNumber": "",
        "Note": "",
        "Table": "",
        "Sky": "",
        "Rules": "",
        "XmlUI": "",
        "LuaScript": "",
        "LuaScriptState": "",
        "ObjectStates": [dict(bag)],
    }


def first_keys(decks: Sequence[DeckImages]) -> list[int]:
    """The first CustomDeck key of each deck (as saved_object numbers them)."""
    out, key = [], 1
    for images in decks:
        out.append(key)
        key += len(images.sheets)
    return out
