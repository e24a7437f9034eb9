# SPDX-License-Identifier: Apache-2.0
from typing import List

from ._robotsc import (
    MAX_BODY as MAX_BODY,
    AgentWarning as AgentWarning,
    BlobError as BlobError,
    CompileError as CompileError,
    Diagnostic as Diagnostic,
    Directive as Directive,
    Error as Error,
    Explanation as Explanation,
    Origin as Origin,
    Policy as Policy,
    RequestRate as RequestRate,
    Robots as Robots,
    Store as Store,
    StoreError as StoreError,
    StoreKeyError as StoreKeyError,
    URLError as URLError,
    __version__ as __version__,
    _Profile,
    _Text,
    agent_token as agent_token,
    cache_ttl as cache_ttl,
    compile as compile,
    is_robots_url as is_robots_url,
    library_version as library_version,
    origin as origin,
    status_policy as status_policy,
)

def lint(body: _Text, profile: _Profile = "google") -> List[Diagnostic]: ...
