"""One voice per language: a catalog states how it addresses the players and says nothing in the other form.

German, French and Spanish rules can speak to one player (du / tu / tú) or to the group (ihr / vous /
vosotros). A catalog names its choice in its header, `X-Form-Of-Address: du`, and `address_problems` finds
every word of the other form: pronouns and possessives, and the verb forms that only that form uses (German
plural imperatives such as "Mischt", French "-ez" forms, Spanish "-ad/-ed/-id" imperatives and "-áis/-éis").
A catalog without the header may still not mix: the form its words use most is taken as its choice.

The scan is deliberately conservative where a word has another meaning: German "ihr" counts only as the
pronoun (not "her" / "their": "ihr Bonus", "mit ihr"), a clause-initial "Zieht" not when a subject follows
("Zieht jemand ..."), French "tu" only as a whole word. Template code (`{{ ... }}`, `{% ... %}`) is not
read, but the quoted strings inside it are, since they print.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from generator.errors import Problem
from generator.spec.catalogs import Catalog

HEADER = "X-Form-Of-Address"

FORMS: dict[str, tuple[str, str]] = {"de": ("du", "ihr"), "fr": ("tu", "vous"), "es": ("tú", "vosotros")}
"""The two forms of address of each language the check reads (the singular first)."""

_TAG_RE = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.DOTALL)
_LITERAL_RE = re.compile(r"'((?:[^'\\]|\\.)*)'|\"((?:[^\"\\]|\\.)*)\"")
_WORD_RE = re.compile(r"[^\W\d_]+(?:['’](?=[^\W\d_]))?", re.UNICODE)
_CLAUSE_END = frozenset(".:;!?")


def _words(*names: str) -> frozenset[str]:
    return frozenset(w for name in names for w in name.split())


# German -----------------------------------------------------------------------------------------------------
_DE_DU_PRONOUNS = _words("du dich dir dein deine deinen deinem deiner deines")
_DE_DU_VERBS = _words(
    "kannst darfst musst hast bist willst sollst ziehst legst nimmst gibst spielst wirfst trägst "
    "behältst brauchst siehst bekommst erhältst wählst würfelst schreibst"
)
_DE_DU_IMPERATIVES = _words(
    "Trage Ziehe Zieh Nimm Gib Lege Leg Mische Misch Wirf Setze Setz Decke Fülle Nutze "
    "Schreibe Kreuze Wähle Behalte Spiele Dreh Drehe Tausche Beginne Folge Baue Werte "
    "Schlage Halte Pflanze Bezahle Sortiere Staple Bilde Lies Zähle Würfle Würfele Addiere "
    "Markiere Notiere Schiebe Stelle Tu Hebe Teile Schneide Falte Klebe Drucke Zeige Sage"
)
_DE_IHR_PRONOUNS = _words("euch euer eure euren eurem eurer eures")
_DE_IHR_VERBS = _words("dürft könnt müsst habt seid wollt sollt wisst")
_DE_IHR_IMPERATIVES = _words(
    "Mischt Gebt Nehmt Zieht Legt Deckt Stapelt Sortiert Füllt Bildet Spielt Tragt "
    "Schreibt Würfelt Wählt Zählt Lest Haltet Setzt Werft Teilt Dreht Tauscht Kreuzt "
    "Notiert Markiert Behaltet Beginnt Wertet Addiert Ordnet Schiebt Lasst Verteilt Stellt "
    "Sagt Zeigt Sucht Entfernt Bereitet Schneidet Faltet Klebt Druckt Seht Hebt Nutzt"
)
# after a clause-initial "Zieht", these make it a third-person statement ("Zieht jemand ..., ..."), not
# an order
_DE_SUBJECTS = _words("jemand niemand man er sie es wer keiner keine jeder jede einer alle beide")
# "ihr" after these is "her", not "you": "mit ihr", "gib ihr"
_DE_IHR_DATIVE = _words("mit von zu bei aus nach seit gegenüber gib gebt gibt zeige zeigt hilf helft hilft")

# French -----------------------------------------------------------------------------------------------------
_FR_TU = _words("tu toi ton ta tes te t'")
_FR_VOUS = _words("vous votre vos")
_FR_NOT_VERBS = _words("chez assez nez rez")
_FR_TU_IMPERATIVES = _words(
    "Pioche Joue Plante Marque Garde Gagne Échange Cultive Mélange Distribue Lance Coche "
    "Remplis Additionne Révèle Prends Pose Place Retourne Défausse Écris Choisis Fais Mets "
    "Lis Tiens Imprime Découpe Plie Colle Note Compte Paie Déplace Prends Suis Laisse Reporte"
)
# an imperative with a hyphenated pronoun ("distribue-en", "plante-la") is tu unless it ends in -ez
_FR_ENCLITIC_RE = re.compile(r"\b([^\W\d_]+)-(?:la|le|les|en|y|lui|leur|moi|toi)\b", re.IGNORECASE)

# Spanish ----------------------------------------------------------------------------------------------------
_ES_TU = _words(
    "tú te ti tu tus contigo tuyo tuya tuyos tuyas puedes quieres debes tienes eres estás haces "
    "juegas robas coges tomas necesitas sabes"
)
_ES_VOSOTROS = _words("vosotros vosotras os vuestro vuestra vuestros vuestras")
_ES_NOT_IMPERATIVES = _words("red pared sed usted césped huésped lid vid ad id sud david madrid ardid")


@dataclass(frozen=True)
class Hit:
    """A word of one form of address found in a string."""

    form: str
    word: str


def printed_text(template: str) -> str:
    """The words of a catalog string that can print: the text around template tags, and the quoted strings
    inside them (`plural(n, one='einmal')` prints "einmal")."""
    out: list[str] = []
    last = 0
    for m in _TAG_RE.finditer(template):
        out.append(template[last : m.start()])
        # a tag stands for a value (a number): never a word of either form
        out.append(" 0 ")
        out.extend(f" {a or b} " for a, b in _LITERAL_RE.findall(m.group(0)))
        last = m.end()
    out.append(template[last:])
    return "".join(out)


def _tokens(text: str) -> list[tuple[str, bool]]:
    """Words with whether each starts a clause (after . : ; ! ? or a list number, or at the start)."""
    out: list[tuple[str, bool]] = []
    start = True
    pos = 0
    for m in _WORD_RE.finditer(text):
        between = text[pos : m.start()]
        if any(c in _CLAUSE_END for c in between) or (between.strip() and between.strip()[-1:] in "–—-("):
            start = True
        out.append((m.group(0), start))
        start = False
        pos = m.end()
    return out


def scan(lang: str, text: str) -> Iterator[Hit]:
    """Every word of `text` (a catalog string) that marks one of `lang`'s forms of address."""
    base = lang.split("_")[0].split("-")[0]
    words = _tokens(printed_text(text))
    if base == "de":
        yield from _scan_de(words)
    elif base == "fr":
        for m in _FR_ENCLITIC_RE.finditer(printed_text(text)):
            if not m.group(1).lower().endswith("ez"):
                yield Hit("tu", m.group(0))
        for i, (word, starts) in enumerate(words):
            low = word.lower().replace("’", "'")
            # an imperative opens a clause and goes on ("Garde une carte"); a word alone is a label ("Garde")
            goes_on = i + 1 < len(words) and not words[i + 1][1]
            if low in _FR_TU or (starts and goes_on and word in _FR_TU_IMPERATIVES):
                yield Hit("tu", word)
            elif low in _FR_VOUS or (len(low) > 4 and low.endswith("ez") and low not in _FR_NOT_VERBS):
                yield Hit("vous", word)
    elif base == "es":
        for word, _ in words:
            low = word.lower().replace("’", "'")
            if low in _ES_TU:
                yield Hit("tú", word)
            elif (
                low in _ES_VOSOTROS
                or low.endswith(("áis", "éis"))
                or (
                    len(low) > 3
                    and low.endswith(("ad", "ed", "id"))
                    and not low.endswith(("dad", "tad"))
                    and low not in _ES_NOT_IMPERATIVES
                )
            ):
                yield Hit("vosotros", word)


def _scan_de(words: list[tuple[str, bool]]) -> Iterator[Hit]:
    for i, (word, starts) in enumerate(words):
        low = word.lower()
        nxt = words[i + 1][0] if i + 1 < len(words) else ""
        prev = words[i - 1][0].lower() if i > 0 else ""
        if low in _DE_DU_PRONOUNS or low in _DE_DU_VERBS or (starts and word in _DE_DU_IMPERATIVES):
            yield Hit("du", word)
        elif low in _DE_IHR_PRONOUNS or low in _DE_IHR_VERBS:
            yield Hit("ihr", word)
        elif low == "ihr":
            # the pronoun stands before a verb or after one ("ihr legt", "dürft ihr"); "ihr Bonus" (a noun
            # follows: their/her) and "mit ihr" (dative: her) are not the form of address
            if nxt[:1].islower() and prev not in _DE_IHR_DATIVE:
                yield Hit("ihr", word)
        elif starts and word in _DE_IHR_IMPERATIVES and nxt.lower() not in _DE_SUBJECTS:
            yield Hit("ihr", word)


def address_problems(catalog: Catalog) -> list[Problem]:
    """Every string of `catalog` that uses the form of address it does not declare (or, undeclared, the
    form its strings use less), located at its line: file:line: msgid: the word."""
    base = catalog.lang.split("_")[0].split("-")[0]
    declared = catalog.header.get(HEADER)
    forms = FORMS.get(base)
    if forms is None:
        return []
    problems: list[Problem] = []
    if declared is not None and declared[0] not in forms:
        got = repr(declared[0]) if len(declared[0]) <= 40 else repr(declared[0][:40]) + "..."
        return [Problem(catalog.path, declared[1], HEADER, f"expected {forms[0]} or {forms[1]}; got {got}")]
    hits = [
        (tid, hit)
        for tid in sorted(catalog.messages, key=lambda t: (catalog.lines.get(t, 0), t))
        for hit in scan(base, catalog.messages[tid])
    ]
    if declared is not None:
        chosen, why = declared[0], f"the catalog's {HEADER} is {declared[0]!r}"
    else:
        counts = {f: sum(1 for _, h in hits if h.form == f) for f in forms}
        if min(counts.values()) == 0:
            return []
        chosen = max(forms, key=lambda f: (counts[f], f == forms[0]))
        why = (
            f"the catalog mixes {forms[0]} ({counts[forms[0]]} words) and {forms[1]} ({counts[forms[1]]}); "
            f"declare one with a header line {HEADER}: {forms[0]} or {forms[1]}"
        )
    for tid, hit in hits:
        if hit.form != chosen:
            problems.append(
                Problem(
                    catalog.path,
                    catalog.lines.get(tid),
                    tid,
                    f"{hit.word!r} addresses the players as {hit.form}; {why}",
                )
            )
    return problems


__all__ = ["FORMS", "HEADER", "Hit", "address_problems", "printed_text", "scan"]
