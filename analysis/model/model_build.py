"""Building a file's program model: the language's builder (model_c, model_fortran), then what
both languages record the same way. Kept apart from model.py, which the builders import."""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..directives.nodes import Directive
    from ..directives.structure import Structure
    from ..syntax.document import Document
    from .file_model import FileModel


def build_model(document: Document, directives: list[Directive], structure: Structure,
                fragment: str | None = None) -> FileModel:
    """The program model of one file (never raises on odd input: gives up on parts instead).
    `fragment`: C/C++: the function whose body includes the file (see model_c)."""
    # (each language's builder is loaded when a file of that language is first analysed)
    if document.language.is_fortran:
        from .model_fortran import build_fortran_model
        model = build_fortran_model(document, directives, structure)
    else:
        from .model_c import build_c_model
        model = build_c_model(document, directives, structure, fragment)
    for i, d in enumerate(directives):
        if d.name == "threadprivate" and d.argument:
            for item in d.argument:
                if item.name is not None:
                    key = model.key_of(item.name)
                    model.threadprivate.setdefault(f"/{key}/" if item.common_block else key, []).append(i)
    return model
