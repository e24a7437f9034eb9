"""Type stub of robotsc._robotsc (the C extension)."""
from typing import Iterable, List, Literal, NamedTuple, Optional, Sequence, Union

from typing_extensions import Buffer

_Text = Union[str, bytes, bytearray, memoryview]
_Agent = Union[str, bytes, Sequence[Union[str, bytes]]]
_Profile = Literal["google", "rfc"]

__version__: str
library_version: str
MAX_BODY: int

class Error(Exception):
    status: int
    status_name: str
    offset: Optional[int]
    reason: Optional[str]

class BlobError(Error, ValueError): ...
class URLError(Error, ValueError): ...
class CompileError(Error): ...

class Explanation(NamedTuple):
    allowed: bool
    line: int
    pattern: Optional[str]
    # attributes only (not part of the tuple):
    # decided: bool; rule: Optional[Literal["allow", "disallow"]]; priority: int

class Origin(NamedTuple):
    key: str
    robots_url: str
    # attributes only: scheme: str; host: str; port: int; default_port: bool

class Policy(NamedTuple):
    policy: Literal["parse", "allow-all", "disallow-all"]
    definite: bool
    body: bytes
    reason: str

class Directive(NamedTuple):
    line: int
    key: str
    value: str

class Diagnostic(NamedTuple):
    line: int
    name: str
    message: str
    detail: Optional[str]

class RequestRate(NamedTuple):
    requests: int
    seconds: float

def compile(body: _Text, profile: _Profile = "google", *,
            diagnostics: Optional[List[Diagnostic]] = None) -> bytes: ...

class Robots:
    def __new__(cls, blob: Buffer) -> "Robots": ...
    @classmethod
    def parse(cls, body: _Text, profile: _Profile = "google") -> "Robots": ...
    def allowed(self, url: _Text, agent: _Agent) -> bool: ...
    def explain(self, url: _Text, agent: _Agent) -> Explanation: ...
    def allowed_many(self, urls: Iterable[_Text], agent: _Agent,
                     out: Optional[Buffer] = None) -> Union[List[bool], Buffer]: ...
    def crawl_delay(self, agent: _Agent) -> Optional[float]: ...
    def request_rate(self, agent: _Agent) -> Optional[RequestRate]: ...
    def group_directive(self, key: str, agent: _Agent) -> Optional[str]: ...
    @property
    def sitemaps(self) -> List[str]: ...
    @property
    def directives(self) -> List[Directive]: ...
    @property
    def profile(self) -> _Profile: ...
    @property
    def size(self) -> int: ...
    @property
    def zero_copy(self) -> bool: ...
    @property
    def blob(self) -> memoryview: ...

def origin(url: _Text) -> Origin: ...
def is_robots_url(url: _Text) -> bool: ...
def status_policy(status: int,
                  error: Optional[Literal["network", "timeout", "redirects"]] = None,
                  body: Optional[_Text] = b"") -> Policy: ...
def cache_ttl(cache_control: Optional[_Text] = None) -> int: ...
def agent_token(user_agent: _Text) -> str: ...
