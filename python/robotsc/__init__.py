# SPDX-License-Identifier: Apache-2.0
"""robotsc: robots.txt compiled to verified bytecode, with Google's exact verdicts.

    >>> import robotsc
    >>> r = robotsc.Robots.parse(b"User-agent: *\\nDisallow: /private\\n")
    >>> r.allowed("https://example.com/private/x", "Googlebot")
    False
    >>> r.allowed("https://example.com/private/x", user_agent="Googlebot/2.1")
    False

The agent is the crawler's name, matched as Google's library matches it
(never cut; a name that is not a product token warns with AgentWarning);
user_agent= takes a whole User-Agent header and uses its product token.

Robots(blob) loads a blob made by compile() (or ``robotsc compile``) from
any buffer without copying it. robotsc.protego is a drop-in for Protego,
robotsc.scrapy a Scrapy ROBOTSTXT_PARSER and robotsc.dask compiles many
files on a Dask cluster. See docs/PYTHON.md.
"""
from ._robotsc import (  # noqa: F401
    MAX_BODY,
    AgentWarning,
    BlobError,
    CompileError,
    Diagnostic,
    Directive,
    Error,
    Explanation,
    Origin,
    Policy,
    RequestRate,
    Robots,
    URLError,
    __version__,
    agent_token,
    cache_ttl,
    compile,
    is_robots_url,
    library_version,
    origin,
    status_policy,
)

try:  # present when the extension was built with the LMDB store
    from ._robotsc import Store, StoreError, StoreKeyError  # noqa: F401
except ImportError:
    pass


def lint(body, profile="google"):
    """The lint warnings of a robots.txt body, as a list of Diagnostic."""
    found = []
    compile(body, profile, diagnostics=found)
    return found


__all__ = [
    "AgentWarning", "BlobError", "CompileError", "Diagnostic", "Directive", "Error", "Explanation",
    "MAX_BODY", "Origin", "Policy", "RequestRate", "Robots", "URLError",
    "agent_token", "cache_ttl", "compile", "is_robots_url", "library_version",
    "lint", "origin", "status_policy",
] + (["Store", "StoreError", "StoreKeyError"] if "Store" in globals() else [])
