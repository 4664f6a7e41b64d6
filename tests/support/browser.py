"""What the browser tests share beyond tests/e2e: axe-core's serious problems on a page."""

from __future__ import annotations

from pathlib import Path

AXE = Path(__file__).resolve().parents[1] / "e2e" / "assets" / "axe.min.js"


SERIOUS = ("critical", "serious")


def axe_problems(page) -> list[str]:
    """The critical and serious violations axe finds on the page as it is, one line each.
    axe is evaluated through the DevTools protocol: a <script> tag would break the page's CSP."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE.read_text(encoding="utf-8"))
    # The page as it settles, not mid-fade: a fading text's colour is half its own (a replay
    # step's fade-in read as a contrast failure once). Finite animations only: a spinner runs on.
    page.wait_for_function(
        """() => document.getAnimations().every(a => a.playState !== "running"
            || a.effect.getComputedTiming().iterations === Infinity)"""
    )
    violations = page.evaluate("async () => (await axe.run(document)).violations")
    return [
        f"{v['impact']}: {v['id']} ({v['help']}) at "
        + "; ".join(" ".join(n["target"]) for n in v["nodes"][:5])
        for v in violations
        if v["impact"] in SERIOUS
    ]
