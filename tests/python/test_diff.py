# SPDX-License-Identifier: Apache-2.0
"""Robots.diff() and Robots.lint(): the C library's rsc_diff() and
rsc_lint()/rsc_semlint() through the binding (docs/DIFF.md, docs/LINT.md)."""
import pytest

from robotsc import Robots

OLD = b"User-agent: *\nDisallow: /private\nAllow: /private/ok\n\nUser-agent: googlebot\nDisallow: /g\n"
NEW = b"User-agent: *\nDisallow: /private\nDisallow: /tmp\n\nUser-agent: googlebot\nDisallow: /g\n"


def test_diff_same_and_different():
    a, b = Robots.parse(OLD), Robots.parse(NEW)
    same = a.diff(a)
    assert same["outcome"] == "same"
    assert set(same["agents"]) == {"googlebot", "*"}
    d = a.diff(b)
    assert d["outcome"] == "different"
    assert d["agents"]["googlebot"]["outcome"] == "same"
    star = d["agents"]["*"]
    assert star["outcome"] == "different" and star["complete"]
    paths = [f[0] for f in star["flips"]]
    assert paths == [b"/tmp", b"/private/ok"]  # shortest first, one per kind of change
    for path, old_allowed, new_allowed, old_line, new_line in star["flips"]:
        # every witness re-checks with the matcher
        assert a.allowed(path.decode(), "x") == old_allowed
        assert b.allowed(path.decode(), "x") == new_allowed
        assert old_allowed != new_allowed
    assert star["flips"][1][3:] == (3, 2)


def test_diff_agents_budget_and_errors():
    a, b = Robots.parse(OLD), Robots.parse(NEW)
    d = a.diff(b, agents=["googlebot"])
    assert list(d["agents"]) == ["googlebot"] and d["outcome"] == "same"
    # never "same" past the budget (OLD2 has one rule more that changes no
    # verdict: the lists differ and must be walked); equal lists need no walk
    a2 = Robots.parse(OLD.replace(b"Allow: /private/ok\n", b"Allow: /private/ok\nAllow: /zz$\n"))
    assert a.diff(a2, max_states=1)["outcome"] == "unknown"
    assert a.diff(a2)["outcome"] == "same"
    assert a.diff(a, max_states=1)["outcome"] == "same"
    with pytest.raises(TypeError):
        a.diff(OLD)
    with pytest.raises(ValueError):
        a.diff(Robots.parse(NEW, profile="rfc"))


def test_lint():
    body = (b"User-agent: *\nDisallow: /search\nAllow: /search*\nCrawl-delay: soon\n"
            b"Noindex: /x\nSitemap: /s.xml\n")
    diags = Robots.lint(body)
    codes = {(d["line"], d["code"]) for d in diags}
    assert (2, "dead-rule") in codes
    assert (4, "bad-crawl-delay") in codes
    assert (5, "unsupported-directive") in codes
    assert (6, "sitemap-not-url") in codes
    dead = [d for d in diags if d["code"] == "dead-rule"][0]
    assert dead["other_line"] == 3 and dead["severity"] == "warning"
    assert all(d["code"] != "dead-rule" for d in Robots.lint(body, semantic=False))
    assert Robots.lint(b"User-agent: *\nDisallow: /\n") == []
