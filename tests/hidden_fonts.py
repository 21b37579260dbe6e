"""vl-convert's render of every committed chart with the machine's fonts hidden, for
tests/test_chart_font.py.

`python -m tests.hidden_fonts` renders every chart of the committed notebooks again (lib.site.charts'
renderer: the shipped font registered, first_paint) and prints, as JSON, the charts whose SVG differs
from the committed one. `hidden_fonts_command()` runs that in a mount namespace of its own
(`unshare -m`, root) where an empty tmpfs covers every folder the machine's fonts are read from, so
only vl-convert's bundled fonts and the book's own remain: what a machine without the fonts of
Debian's Chromium package renders.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Where fontconfig and vl-convert's font database (fontdb) look for a machine's fonts, and
# fontconfig's own configuration (which may name more folders: font_dirs adds those).
DEFAULT_DIRS = ("/usr/share/fonts", "/usr/local/share/fonts", "/etc/fonts", "~/.fonts", "~/.local/share/fonts")


def font_dirs() -> list[str]:
    """The folders to hide that exist here: the usual ones and every <dir> fontconfig names."""
    found = list(DEFAULT_DIRS)
    for conf in [Path("/etc/fonts/fonts.conf"), *sorted(Path("/etc/fonts/conf.d").glob("*.conf"))]:
        if conf.is_file():
            for prefix, name in re.findall(r"<dir(?: prefix=\"(\w+)\")?[^>]*>([^<]+)</dir>",
                                           conf.read_text(encoding="utf8", errors="replace")):
                found.append(f"~/.local/share/{name.strip()}" if prefix == "xdg" else name.strip())
    dirs = []
    for name in found:
        path = os.path.realpath(os.path.expanduser(name))
        if os.path.isdir(path) and path not in dirs:
            dirs.append(path)
    return dirs


def hidden_fonts_command(dirs: list[str]) -> list[str]:
    """This module's check, run with each of `dirs` covered by an empty tmpfs (unshare -m: the
    mounts are seen by that one command only)."""
    mounts = " && ".join(f"mount -t tmpfs none {shlex.quote(d)}" for d in dirs)
    check = f"{shlex.quote(sys.executable)} -m tests.hidden_fonts --hidden {' '.join(map(shlex.quote, dirs))}"
    return ["unshare", "-m", "--propagation", "private", "sh", "-c", f"{mounts} && exec {check}"]


def unshare_refused(folder: str) -> str | None:
    """Why a mount namespace with a tmpfs over `folder` cannot be had here (not root, no unshare, a
    container that forbids it), or None when it can."""
    try:
        probe = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c",
                                f"mount -t tmpfs none {shlex.quote(folder)}"], capture_output=True, text=True, timeout=30)
    except (FileNotFoundError, PermissionError, subprocess.TimeoutExpired) as error:
        return f"unshare: {error}"
    if probe.returncode != 0:
        return f"unshare -m / mount: {probe.stderr.strip() or probe.returncode}"
    return None


def start() -> dict:
    """The render of every committed chart with the machine's fonts hidden, started now in a process
    of its own, in a time zone fourteen hours from UTC and the C locale, so that no output may depend
    on either. Where a mount namespace is refused (not root), the same render with the machine's
    fonts ("refused" says why)."""
    dirs = font_dirs()
    refused = unshare_refused(dirs[0]) if dirs else "no system font folder to hide"
    command = hidden_fonts_command(dirs) if refused is None else [sys.executable, "-m", "tests.hidden_fonts"]
    env = os.environ | {"TZ": "Pacific/Kiritimati", "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8", "LANGUAGE": ""}
    run = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return {"run": run, "command": command, "refused": refused}


def finish(started: dict) -> dict:
    """What `start` found: the command, why fonts were not hidden (or None), its exit status and output."""
    out, err = started["run"].communicate(timeout=300)
    return {"command": started["command"], "refused": started["refused"], "status": started["run"].returncode,
            "stdout": out, "stderr": err}


def differences() -> list[dict]:
    """Every committed chart whose render now differs from its committed first paint."""
    import vl_convert as vlc

    from lib.site import charts, fonts

    found = []
    for chart in fonts.committed_charts(ROOT):
        spec = chart["spec"]
        svg = charts.first_paint(vlc.vega_to_svg(spec, format_locale=chart["locale"]))
        if svg != chart["svg"]:
            size = re.compile(r'width="([\d.]+)" height="([\d.]+)"')
            committed, now = size.search(chart["svg"]).groups(), size.search(svg).groups()
            at = next(n for n, (a, b) in enumerate(zip(chart["svg"] + " ", svg + " ")) if a != b)
            found.append({"where": chart["where"], "committed size": committed, "size": now,
                          "committed": chart["svg"][max(0, at - 40):at + 60], "now": svg[max(0, at - 40):at + 60]})
    return found


def main(argv: list[str]) -> int:
    from lib.site import fonts

    if argv[:1] == ["--hidden"]:
        # Inside the namespace: the folders must be empty, or nothing was hidden.
        left = {d: os.listdir(d) for d in argv[1:] if os.listdir(d)}
        if left:
            print(json.dumps({"error": f"fonts still visible: {left}"}))
            return 2
    print(json.dumps({"charts": len(fonts.committed_charts(ROOT)), "differences": differences()}, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
