"""`make diff` (lib.site.moved): what moved since a commit, in a few readable lines."""

import json

from lib.site import moved


def _notebook(**records) -> str:
    outputs = [{"output_type": "display_data", "metadata": {"scrapbook": {"name": k}},
                "data": {"application/papermill.record/text/plain": repr(v)}} for k, v in records.items()]
    return json.dumps({"cells": [{"cell_type": "code", "outputs": outputs}]})


def test_glued_values_are_read_as_the_page_pastes_them():
    assert moved.glued(_notebook(**{"costs.opt": "$1.49 million"})) == {"costs.opt": "$1.49 million"}
    assert moved.glued(None) == {}


ANSWER = ("Renting OPT-175B's final run would have cost {cost} ({low}–6.8 million according to the hours its "
          "sources give and the prices of the two clouds): 809,472 GPU-hours of A100 at the on-demand prices of "
          "2022. The same work on today's H100s, at today's prices: {today}.")


def test_a_moved_figure_and_verdict_are_named_with_their_page_key_and_values():
    card = "**Holds**\n\nThe sources give: $3.99 per GPU-hour\n\nSeen on September 25, 2026."
    old = {"A1-x.verdict": "Holds", "A1-x.sourced": "$3.99", "A1-x.raw": "3.99", "A1-x.box": card}
    new = {"A1-x.verdict": "Needs context", "A1-x.sourced": "$3.49", "A1-x.raw": "3.49",
           "A1-x.box": card.replace("3.99", "3.49").replace("September 25", "November 30")}
    lines = moved.compare_figures("en/article1.ipynb", old, new)
    assert lines[0] == "  en/article1.ipynb: 3 glued value(s)"
    assert "    A1-x.verdict: Holds → Needs context" in lines and "    A1-x.sourced: $3.99 → $3.49" in lines
    assert ("    A1-x.box: **Holds** The sources give: $3.99 per GPU-hour Seen on September 25, 2026. → "
            "**Holds** The sources give: $3.49 per GPU-hour Seen on November 30, 2026.") in lines, lines
    assert not any("raw" in line or "changed" in line for line in lines)
    assert moved.compare_figures("en/article1.ipynb", old, dict(old)) == []


def test_a_long_answer_that_moved_is_shown_by_its_old_and_new_figures_in_either_language():
    """An answer is longer than a line: each passage that moved, old → new, never just "changed"."""
    old = {"ans.run_opt": ANSWER.format(cost="$3.3 million", low="3.3", today="$1.0–1.8 million")}
    new = {"ans.run_opt": ANSWER.format(cost="$3.4 million", low="3.4", today="$1.1–2.0 million")}
    lines = moved.compare_figures("en/index.ipynb", old, new)
    assert lines[1] == ("    ans.run_opt: …run would have cost $3.3 million (3.3–6.8 million according to the… → "
                        "…run would have cost $3.4 million (3.4–6.8 million according to the…"), lines
    assert lines[2] == ("    ans.run_opt: …H100s, at today's prices: $1.0–1.8 million. → "
                        "…H100s, at today's prices: $1.1–2.0 million."), lines
    spanish = "Alquilar la ejecución final de OPT-175B habría costado 3,3 millones de dólares, " * 3
    lines = moved.compare_figures("es/index.ipynb", {"ans.run_opt": spanish},
                                  {"ans.run_opt": spanish.replace("3,3", "3,4", 1)})
    assert lines[1:] == ["    ans.run_opt: …de OPT-175B habría costado 3,3 millones de dólares, Alquilar… → "
                         "…de OPT-175B habría costado 3,4 millones de dólares, Alquilar…"], lines
    assert moved.compare_figures("es/index.ipynb", {}, {"ans.run_opt": spanish})[1].startswith("    ans.run_opt: (none) → Alquilar")


def test_an_input_line_says_old_and_new_with_the_date_seen():
    line = moved._input_line("lambda_h100_sxm_8x", {"value": 3.99, "seen": "2026-09-25"}, {"value": 3.49, "seen": "2026-11-30"})
    assert line == "  lambda_h100_sxm_8x: 3.99 (seen 2026-09-25) → 3.49 (seen 2026-11-30)"


def test_an_unknown_commit_is_a_clear_message(capsys):
    assert moved.main(["no-such-commit"]) == 2
    assert "no such commit" in capsys.readouterr().err


def test_a_failing_nbval_cell_names_the_glue_key_and_both_values_first():
    from .nbval_report import what_moved

    def record(name, text):
        return {"output_type": "display_data", "metadata": {"scrapbook": {"name": name}},
                "data": {"application/papermill.record/text/plain": "<IPython.core.display.Markdown object>",
                         "application/papermill.record/text/markdown": text}}

    committed = [record("A1.price", "$3.99 per GPU-hour"), record("A1.count", "24")]
    new = [record("A1.price", "$3.89 per GPU-hour"), record("A1.count", "24")]
    message = what_moved("en/article1.ipynb", committed, new)
    assert "en/article1.ipynb: 1 glued value(s)" in message and "A1.price: $3.99 per GPU-hour → $3.89 per GPU-hour" in message
    assert what_moved("en/article1.ipynb", committed, committed) == ""
