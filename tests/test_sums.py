"""The sums the visible code cells print (lib/site/sums.py): written in each page's language, with the
operands' names from the words table, and refused when they do not give the figure beside them."""

import re

import nbformat
import pytest

from lib.core.words import words
from lib.site.sums import SumMismatch, Sums

from .conftest import LANGS, ROOT


def test_a_sum_reads_as_its_arithmetic_in_each_language():
    es, en = Sums("es"), Sums("en")
    line = lambda s: s.line("lora_params", 2 * s.term(96, "layer") * s.term(12288, name="width"), "parameter",
                            equals=2 * 96 * 12288)[0]
    assert line(es) == "Parámetros entrenables de LoRA: 2 × 96 capas × 12.288 (anchura del modelo) = 2.359.296 parámetros"
    assert line(en) == "LoRA's trainable parameters: 2 × 96 layers × 12,288 (model width) = 2,359,296 parameters"


def test_brackets_follow_precedence_and_ranges_are_intervals():
    s = Sums("en")
    a, b, c = s.term(6, "GPU"), s.term(2, "GPU"), s.term(3, "day")
    assert (a / (b * c)).text == "6 GPUs ÷ (2 GPUs × 3 days)"
    assert (a / b * c).text == "6 GPUs ÷ 2 GPUs × 3 days"
    assert (a - (b - c)).text == "6 GPUs − (2 GPUs − 3 days)"
    assert ((a + b) * c).text == "(6 GPUs + 2 GPUs) × 3 days"
    hours, price = s.between(2, 3, "GPU-hour"), s.between(10, 20, "USD/GPU-hour")
    cost = hours * price
    assert (cost.low, cost.high) == (20, 60)
    assert ((hours / price).low, (hours / price).high) == (0.1, 0.3)  # a low over the other's high


def test_a_sum_that_is_not_the_figure_beside_it_is_refused():
    s = Sums("es")
    with pytest.raises(SumMismatch) as refused:
        s.line("budget_usd", s.term(200, "EUR") * s.term(1.1, name="usd_per_eur"), "USD", equals=221, decimals=2)
    # In the page's language and number format, with what to do instead, and in a notebook as that one
    # line (IPython shows an exception's _render_traceback_ in place of its traceback).
    said = str(refused.value)
    assert "220,00 dólares" in said and "221,00 dólares" in said and "¿Y si…?" in said and "i.replace" in said
    assert refused.value._render_traceback_() == [said]
    with pytest.raises(SumMismatch, match=r"gives \$220\.000000, .* computes \$220\.000001 beside it"):
        Sums("en").line("budget_usd", Sums("en").term(200, "EUR") * Sums("en").term(1.1, name="usd_per_eur"), "USD",
                        equals=220.000001, decimals=2)
    with pytest.raises(ValueError, match="no es name"):
        s.term(1, name="no such operand")
    with pytest.raises(ValueError, match="no es label"):
        s.line("no such sum", s.term(1), "", equals=1)
    with pytest.raises(ValueError, match="named operands"):
        s.line("budget_usd", 200 * 1.1, "USD", equals=220)


def test_every_label_and_name_is_in_both_languages_and_every_one_is_used():
    """Each sum a chapter prints has its label and its operands' names in both tables (test_words
    checks the keys match), and no label is left that no chapter uses."""
    exact, prefixes = set(), set()
    for path in (ROOT / "book" / "_text").rglob("*.md"):
        text = path.read_text(encoding="utf8")
        exact |= set(re.findall(r'sums\.show\("(\w+)"', text))
        prefixes |= set(re.findall(r'sums\.show\(f"(\w+?)\{', text))  # f"opt_{scenario}"
    labels = set(words("en")["sums"]["labels"])
    unused = {label for label in labels if label not in exact and not label.startswith(tuple(prefixes))}
    assert not unused, f"labels no chapter prints: {sorted(unused)}"


ROW_KEYS = re.compile(r"^(opt|llama|palm|gpt3|mosaic|bloom|pretrain|full|lora|qlora|on_demand|three_year|H100 PCIe|H100 SXM)\b")


def row_dumps(text: str) -> list[str]:
    """The printed lines that are not sums ("… = …") or that start with a row's English key."""
    return [line for line in text.splitlines() if " = " not in line or ROW_KEYS.match(line)]


def test_the_row_dump_check_catches_the_old_outputs():
    assert row_dumps("opt 3,15 × 10²³ FLOP | 4,30 × 10²³ FLOP | 34,6 %")
    assert row_dumps("pretrain · weights 13,4 GB · gradients 13,4 GB")
    assert row_dumps("H100 PCIe 67,9 horas")
    assert not row_dumps("El presupuesto en dólares: 200 euros × 1,1172 (dólares por euro, BCE) = 223,44 dólares")


@pytest.mark.parametrize("lang", LANGS)
def test_the_visible_cells_print_sums_not_rows(lang):
    """A visible code cell that prints writes sums in the page's language: no dump of a row's English
    keys (the issue's "opt on_demand …", "pretrain · weights …", "palm amortized")."""
    for name in ("article1", "article2", "costs", "published", "budget", "plan"):
        nb = nbformat.read(ROOT / "book" / lang / f"{name}.ipynb", 4)
        for cell in nb.cells:
            if cell.cell_type != "code" or "remove-cell" in cell.metadata.get("tags", []):
                continue
            text = "".join(o.get("text", "") for o in cell.get("outputs", []) if o.get("output_type") == "stream")
            assert not row_dumps(text), f"{lang}/{name}: {row_dumps(text)}"


def test_a_line_reads_right_from_its_written_operands():
    """0.87 hours at $4.29 is $3.73: written at its one decimal, 0.9 hours would read $3.86, so the line
    writes the rounded operand with the decimals its result needs, and leaves exact ones alone."""
    sums = Sums("en")
    hours = sums.term(0.8695, "hour", decimals=1)
    line, _ = sums.line("pretrain_cost", hours * sums.term(4.29, "USD/GPU-hour"), "USD", decimals=2,
                        equals=0.8695 * 4.29, model="GPT-2")
    assert "0.87 hours × $4.29 per GPU-hour = $3.73" in line
    line, _ = sums.line("pretrain_cost", sums.term(0.5, "hour", decimals=1) * sums.term(4.29, "USD/GPU-hour"), "USD",
                        decimals=2, equals=0.5 * 4.29, model="GPT-2")
    assert "0.5 hours × $4.29 per GPU-hour = $2.15" in line


def test_a_result_carried_into_the_next_line_is_written_as_that_line_needs():
    sums = Sums("es")
    hours = sums.show("budget_hours_h100", sums.term(3.73, "USD", decimals=2) / sums.term(4.29, "USD/GPU-hour"),
                      "hour", decimals=1, equals=3.73 / 4.29)
    line, _ = sums.line("pretrain_cost", hours * sums.term(4.29, "USD/GPU-hour"), "USD", decimals=2,
                        equals=3.73, model="GPT-2")
    assert "0,87 horas" in line and line.endswith("= 3,73 dólares")
