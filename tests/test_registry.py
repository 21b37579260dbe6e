"""The registry against the articles: every number in them accounted for, every quote and
every mismatch's words verbatim, and the dossier's claim ids all registered.

These tests read the articles' text and the dossier, which sit beside the book in ../shared and
are not part of the repository: a clone without them skips the whole module, in one line saying
why; in CI (CI=true), which has them, a missing folder fails it (conftest.shared_path). What the
build needs of the registry (the claims listed in lib/data/) the preflight checks without them."""

import re
import tomllib

import pytest

from lib.core.claims import CLAIMS_DIR, load_claims

from .conftest import shared_path

ARTICLES = {1: "000_ea543c8d103d7e16.txt", 2: "004_0dc3c25c5deb5377.txt"}
DOSSIER = shared_path("sources", "DOSSIER.md")  # skips (locally) or fails (CI) the module when missing
for _n in ARTICLES:
    shared_path("articles", ARTICLES[_n])
INVENTORY = CLAIMS_DIR.parent / "article_numbers.toml"
IN_WORDS = CLAIMS_DIR.parent / "claims_in_words.toml"
STATUSES = {"claim", "name", "illustration", "structure", "premise", "vague"}
# Spanish number words (cardinals, ordinals, multiples, fractions); "un/una/uno" are left
# out, as they are mostly articles: where one is a quantity, its span lists it anyway.
NUMBER_WORDS = (
    r"cero|dos|tres|cuatro|cinco|seis|siete|ocho|nueve|diez|once|doce|quince|veinte|treinta|cuarenta|"
    r"cincuenta|sesenta|setenta|ochenta|noventa|cien|cientos?|mil|miles|millón|millones|billón|billones|"
    r"primer[oa]?s?|segund[oa]s?|tercer[oa]?s?|cuart[oa]s?|media|mitad|doble|triple|fracción|docenas?|"
    r"ambas|ambos|varias|varios"
)
NUMBER = re.compile(rf"\d+(?:[.,]\d+)*|(?<![\w])(?:{NUMBER_WORDS})(?![\w])", re.IGNORECASE)


def article(n: int) -> str:
    return re.sub(r"\s+", " ", shared_path("articles", ARTICLES[n]).read_text(encoding="utf8"))


def inventory() -> dict:
    with open(INVENTORY, "rb") as fh:
        return tomllib.load(fh)


def in_words() -> dict:
    with open(IN_WORDS, "rb") as fh:
        return tomllib.load(fh)


def test_registry_covers_every_dossier_id():
    ids = set(re.findall(r"\bA[12]-[a-z0-9]+(?:-[a-z0-9]+)*", DOSSIER.read_text("utf8")))
    missing = ids - set(load_claims())
    assert not missing, f"claims in the dossier but not registered: {sorted(missing)}"


def test_every_registered_claim_is_in_the_inventory_or_the_claims_in_words():
    listed = {e.get("claim_id") for e in inventory().values()}
    orphans = [cid for cid in load_claims() if cid not in listed and cid not in in_words()]
    assert not orphans, f"claims that neither the inventory of numbers nor the claims in words names: {orphans}"


def test_each_claim_in_words_is_the_dossier_s_and_holds_no_number():
    """lib/data/claims_in_words.toml lists what the dossier lists beside the numbers: each entry a
    registered claim of its article, named by the dossier, whose quote in the article has no numeral or
    number word (a claim with one belongs in the inventory)."""
    claims, dossier = load_claims(), DOSSIER.read_text("utf8")
    for cid, entry in in_words().items():
        assert cid in claims and claims[cid].article == entry["article"], f"{cid}: not a claim of article {entry['article']}"
        assert cid in dossier, f"{cid}: the dossier does not name it"
        assert entry.get("reason", "").strip(), f"{cid}: a claim in words needs its reason"
        assert not NUMBER.findall(claims[cid].quote), f"{cid}: its quote holds a number; list it in {INVENTORY.name}"
        assert cid not in {e.get("claim_id") for e in inventory().values()}, f"{cid}: listed in both files"


def test_inventory_entries_are_well_formed():
    claims = load_claims()
    for key, entry in inventory().items():
        assert entry["status"] in STATUSES, f"{key}: unknown status {entry['status']!r}"
        if entry["status"] == "claim":
            assert entry.get("claim_id") in claims, f"{key}: claim_id {entry.get('claim_id')!r} is not registered"
        else:
            assert entry.get("reason", "").strip(), f"{key}: a number that is not a claim needs its reason"
        text = article(entry["article"])
        assert text.count(entry["text"]) == 1, f"{key}: span {entry['text']!r} is not once in article {entry['article']}"


@pytest.mark.parametrize("n", sorted(ARTICLES))
def test_every_number_in_the_articles_is_accounted_for(n):
    text = article(n)
    spans = []
    for entry in inventory().values():
        if entry["article"] == n:
            start = text.index(entry["text"])
            spans.append((start, start + len(entry["text"])))
    loose = [(m.group(0), text[max(0, m.start() - 30):m.end() + 30]) for m in NUMBER.finditer(text)
             if not any(a <= m.start() and m.end() <= b for a, b in spans)]
    assert not loose, f"article {n}: numbers that are neither a claim nor listed with a reason: {loose}"


@pytest.mark.parametrize("claim", list(load_claims().values()), ids=lambda c: c.id)
def test_each_quote_and_mismatch_is_the_article_s_own_words(claim):
    text = article(claim.article)
    assert re.sub(r"\s+", " ", claim.quote) in text, f"{claim.id}: the quote is not verbatim in the article"
    for m in claim.mismatches:
        assert m.words in text, f"{claim.id}: mismatch words {m.words!r} are not verbatim in the article"


@pytest.mark.parametrize("claim", [c for c in load_claims().values() if c.stated.items], ids=lambda c: c.id)
def test_a_text_claim_states_what_its_quote_says(claim):
    shown = claim.stated.items_es or claim.stated.items
    for part in shown:
        assert part.casefold() in claim.quote.casefold(), f"{claim.id}: {part!r} is not in the quote"


def test_the_number_pattern_catches_digits_and_words():
    found = [m.group(0) for m in NUMBER.finditer("992 GPUs, 1,43 millones, tres billones, la tercera, H100")]
    assert found == ["992", "1,43", "millones", "tres", "billones", "tercera", "100"]
