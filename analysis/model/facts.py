"""What every pass over the model reads of an analysed file: its text, directives, block structure and
program model, and the record of what was read for the incremental analysis. A pass names what it
reads as a Protocol (FileFacts) built on this one; semantics.context.FileContext provides all of it,
and no pass imports the context that builds the passes."""
from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from ..directives.nodes import Directive
    from ..directives.structure import Structure
    from ..syntax.document import Document
    from .file_model import FileModel


class ModelFacts(Protocol):
    @property
    def document(self) -> Document: ...
    @property
    def directives(self) -> list[Directive]: ...
    @property
    def structure(self) -> Structure: ...
    @property
    def model(self) -> FileModel: ...
    @property
    def macros(self) -> frozenset[str]: ...
    def directives_named(self, *names: str) -> list[tuple[int, Directive]]: ...
    def depends_on_words(self, *words: bytes) -> None: ...
    def body_words_read(self) -> set[bytes]: ...
