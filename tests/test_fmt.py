"""Numbers in each language's format, by Babel (CLDR)."""

import datetime as dt

import pytest

from lib.core import fmt
from lib.core.figure import Figure


@pytest.mark.parametrize(
    "lang, expected",
    [("es", ["1.428.480", "46,2\u00a0%", "21 de marzo de 2023", "5,7 millones de dólares", "9–23 millones de dólares"]),
     ("en", ["1,428,480", "46.2%", "March 21, 2023", "$5.7 million", "$9–23 million"])],
)
def test_guide_examples(lang, expected):
    got = [
        fmt.number(1428480, lang),
        fmt.percent(0.462, lang),
        fmt.date(dt.date(2023, 3, 21), lang),
        fmt.money_compact(5.7e6, "USD", lang),
        fmt.money_compact(9e6, "USD", lang, high=23e6),
    ]
    assert got == expected


def test_spanish_billion_is_ten_to_the_twelve():
    assert fmt.compact(3e12, "es", 0) == "3 billones"
    assert fmt.compact(3e12, "en", 0) == "3 trillion"


def test_money_keeps_currency_and_cents():
    assert fmt.money(3.29, "USD", "en") == "$3.29"
    assert fmt.money(3.29, "USD", "es") == "3,29 dólares"
    assert fmt.money(200, "EUR", "es", 0) == "200 euros"
    assert fmt.money(34335, "EUR", "en", 0) == "€34,335"


def test_a_range_of_money_keeps_one_unit():
    assert fmt.money_range(4.1, 5.12, "USD", "es") == "4,10–5,12 dólares"
    assert fmt.money_range(4.1, 5.12, "USD", "en") == "$4.10–5.12"
    assert fmt.money_range(215, 220, "USD", "en", 0) == "$215–220"
    assert Figure.between(4.1, 5.12, "USD/GPU-hour").format("es") == "4,10–5,12 dólares por hora-GPU"


def test_spanish_counts_thousands_of_millions_in_millions():
    assert fmt.compact(175e9, "es", 0) == "175.000 millones"
    assert fmt.compact(175.2558e9, "es", 1) == "175.300 millones"
    assert fmt.compact(1e9, "es", 0) == "1.000 millones"
    assert fmt.compact(65.2e9, "en", 1) == "65.2 billion"
    assert fmt.money_compact(1.2e9, "USD", "es", decimals=1) == "1.200 millones de dólares"
    assert Figure.of(540e9, "parameter", compact=True).format("es") == "540.000 millones de parámetros"


def test_a_range_of_money_keeps_one_precision_for_both_ends():
    """STYLE.md: a range keeps one unit and one precision for both ends."""
    assert fmt.money_compact(1.02e6, "USD", "en", high=6.83e6) == "$1.0–6.8 million"
    assert fmt.money_compact(1.02e6, "USD", "es", high=6.83e6) == "1,0–6,8 millones de dólares"
    assert fmt.money_compact(9e6, "USD", "en", high=23e6) == "$9–23 million"


def test_a_fixed_figure_keeps_its_decimals_beside_its_range():
    """A computed figure beside a range at one decimal keeps that decimal ("$18.0 million ($18.0–27.1
    million)", "6.0 million beside 7.5 million"); a figure as an article states it drops a trailing
    zero ("$4 million", not "$4.0 million")."""
    assert fmt.money_compact(18.04e6, "USD", "en") == "$18 million"
    assert fmt.money_compact(18.04e6, "USD", "en", fixed=True) == "$18.0 million"
    assert fmt.money_compact(18.04e6, "USD", "es", fixed=True) == "18,0 millones de dólares"
    assert fmt.money_compact(9e6, "USD", "en", high=23e6, fixed=True) == "$9.0–23.0 million"
    assert fmt.money_compact(1e6, "USD", "es", fixed=True) == "1,0 millones de dólares"
    assert fmt.money_compact(1e6, "USD", "es") == "1 millón de dólares"
    assert fmt.compact(5.995e6, "en", 1) == "6 million"
    assert fmt.compact(5.995e6, "en", 1, fixed=True) == "6.0 million"
    assert fmt.compact(5.995e6, "es", 1, fixed=True) == "6,0 millones"
    assert fmt.compact(3e12, "es", 1, fixed=True) == "3,0 billones"
    assert fmt.compact(175.2558e9, "es", 1, fixed=True) == "175.300 millones"
    for lang, article, book in (("en", "$4 million", "$18.0 million"), ("es", "4 millones de dólares", "18,0 millones de dólares")):
        assert Figure.of(4e6, "USD", decimals=1).format(lang) == article
        assert Figure.of(18.04e6, "USD", decimals=1, fixed=True).format(lang) == book
    assert Figure.of(5.995e6, "GPU-hour", compact=True, decimals=1, fixed=True).format("en") == "6.0 million GPU-hours"
    assert Figure.of(5.995e6, "GPU-hour", compact=True, decimals=1, fixed=True).format("es") == "6,0 millones de horas-GPU"


def test_scientific_uses_superscripts():
    assert fmt.scientific(4.3e23, "es") == "4,30 × 10²³"


def test_figure_bounds_read_with_their_direction():
    assert Figure.more_than(65, "hour").format("en") == "more than 65 hours"
    assert Figure.more_than(35, "count", inclusive=True).format("es") == "al menos 35"
    assert Figure.less_than(1, "hour").format("es") == "menos de 1 hora"
    assert Figure.between(0, 2, "hour").format("en") == "0–2 hours"  # a range from zero is not a bound
    assert Figure.series((1.0, 0.3), "", decimals=1).format("es") == "1,0 → 0,3"
    assert Figure.place("Sections 2.2 and 2.5").format("es") == "secciones 2.2 y 2.5"


@pytest.mark.parametrize("lang, expected", [
    ("en", ["9.7–68.9 hours", "5.8–41.2 minutes", "0.5–2.1 hours", "1,544,727 hours", "970–6,863 hours",
            "999.9 hours", "1,000 hours", "1.0 hour", "0.1–1.0 hours", "11.5 hours"]),
    ("es", ["9,7–68,9 horas", "5,8–41,2 minutos", "0,5–2,1 horas", "1.544.727 horas", "970–6.863 horas",
            "999,9 horas", "1.000 horas", "1,0 hora", "0,1–1,0 horas", "11,5 horas"]),
])
def test_a_duration_range_keeps_one_unit_and_one_precision(lang, expected):
    """Minutes where the high end is under an hour, else hours for both ends (an hour straddled reads in
    hours); one decimal, none from 1,000 hours on (as the high end rounds); plural for a range."""
    written = [Figure.duration_range(9.71, 68.94), Figure.duration_range(5.8 / 60, 41.2 / 60),
               Figure.duration_range(0.5, 2.1), Figure.duration(1_544_727.04), Figure.duration_range(970.4, 6863.2),
               Figure.duration(999.94), Figure.duration(999.96), Figure.duration(1.04), Figure.duration_range(0.14, 1.0),
               Figure.duration_range(11.46, 11.54)]
    assert [f.format(lang) for f in written] == expected
    with pytest.raises(ValueError, match="range low"):
        Figure.duration_range(2, 1)


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), "12", None, True])
def test_formatting_refuses_what_is_not_a_finite_number(bad):
    with pytest.raises(ValueError, match="not a finite number"):
        fmt.number(bad, "es")


def test_unknown_language_is_refused():
    with pytest.raises(ValueError, match="unknown language 'fr'"):
        fmt.number(1, "fr")


def test_a_figure_in_an_unknown_unit_is_refused():
    with pytest.raises(ValueError, match="no words for unit 'furlong'"):
        Figure.of(3, "furlong").format("en")


@pytest.mark.parametrize("value, unit, style, es, en", [
    (999_999_000, "USD", {"decimals": 2}, "1.000 millones de dólares", "$1 billion"),
    (999_999e6, "USD", {"decimals": 2}, "1 billón de dólares", "$1 trillion"),
    # Spanish thousands of millions at the English billions' precision (STYLE.md): the same number.
    (1_164_146_794, "USD", {"decimals": 1}, "1.200 millones de dólares", "$1.2 billion"),
    (999_994e3, "USD", {"decimals": 2}, "999,99 millones de dólares", "$999.99 million"),
    (999.96e9, "parameter", {"compact": True, "decimals": 1}, "1 billón de parámetros", "1 trillion parameters"),
    (999_999_000, "parameter", {"compact": True, "decimals": 1}, "1.000 millones de parámetros", "1 billion parameters"),
])
def test_rounding_that_reaches_the_next_scale_takes_its_word(value, unit, style, es, en):
    """999,999,000 at two decimals is one billion, not "1,000 billion" (the scale word and the
    divisor come from the same rounded value)."""
    from lib.core.figure import Figure

    assert Figure.of(value, unit, **style).format("es") == es
    assert Figure.of(value, unit, **style).format("en") == en


@pytest.mark.parametrize("lang, expected", [
    ("es", ["1,4 millones de dólares", "4,29 dólares", "46,2\u00a0%", "1.000 GPU", "5,7 millones", "×1,50"]),
    ("en", ["$1.4 million", "$4.29", "46.2%", "1,000 GPUs", "5.7 million", "×1.50"]),
])
def test_a_range_whose_ends_write_alike_is_one_figure(lang, expected):
    """A price range of $4.29–4.39 an hour costs 1.41–1.44 million: "$1.4 million", never
    "$1.4–1.4 million" (a reader sees the same figure said twice)."""
    got = [
        Figure.between(1.41e6, 1.44e6, "USD", decimals=1).format(lang),
        fmt.money_range(4.291, 4.294, "USD", lang),
        fmt.percent_range(0.4621, 0.4624, lang),
        Figure.between(999.6, 1000.4, "GPU").format(lang),
        Figure.between(5.71e6, 5.74e6, "", compact=True, decimals=1).format(lang),
        "×" + fmt.joined(fmt.number(1.501, lang, 2), fmt.number(1.499, lang, 2)),
    ]
    assert got == expected
    assert fmt.DASH in Figure.between(1.41e6, 1.56e6, "USD", decimals=1).format(lang)  # ends apart stay a range


def test_a_compact_range_keeps_one_scale_for_both_ends():
    """STYLE.md: one unit for a range. 742.2 million to 5.3 billion tokens is 0.7–5.3 billion (700–5.300
    millones), not "742.2 million–5.3 billion"; each end keeps its own scale only where the low end would
    round to nothing in the high end's."""
    from lib.core.figure import Figure

    tokens = Figure.between(742.2e6, 5.3e9, "token", compact=True, decimals=1)
    assert tokens.format("en") == "0.7–5.3 billion tokens"
    assert tokens.format("es") == "700–5.300 millones de tokens"
    assert Figure.between(8.5e9, 60.2e9, "token", compact=True, decimals=1).format("en") == "8.5–60.2 billion tokens"
    assert Figure.between(1e6, 1e12, "token", compact=True, decimals=1).format("en") == "1 million–1 trillion tokens"
    assert Figure.of(5.6e6, "chip-hour", compact=True, decimals=2).format("en") == "5.6 million chip-hours"


@pytest.mark.parametrize("lang, written", [("es", ("9–23\u00a0M\u00a0US$", "900\u00a0mil\u00a0US$–2,3\u00a0M\u00a0US$", "4\u00a0M\u00a0US$")),
                                           ("en", ("$9–23M", "$900K–$2.3M", "$4M"))])
def test_a_short_range_keeps_one_unit_where_both_ends_write_it(lang, written):
    """A chart's short amounts: a range writes its unit once (9–23 M US$), as the prose's ranges do;
    ends of two scales each keep theirs; a range whose ends write alike is one amount."""
    got = (fmt.money_short(9e6, "USD", lang, 23e6), fmt.money_short(9e5, "USD", lang, 2.3e6),
           fmt.money_short(4e6, "USD", lang, 4.01e6))
    assert got == written


def test_a_compact_number_past_the_largest_scale_word_groups_its_thousands():
    """CLDR's largest scale word is the trillion (billón): past it Babel writes 1979 trillion; the book
    groups the thousands as every other number it writes (an H100's 1,979 trillion FLOP/s)."""
    assert fmt.compact(1979e12, "en", 0) == "1,979 trillion" and fmt.compact(1979e12, "es", 0) == "1.979 billones"
    assert fmt.compact(-1979.5e12, "en", 1) == "-1,979.5 trillion" and fmt.compact(1979.5e12, "es", 1) == "1.979,5 billones"
    assert fmt.compact(999e12, "en", 0) == "999 trillion" and fmt.compact(2.5e12, "es", 1) == "2,5 billones"
