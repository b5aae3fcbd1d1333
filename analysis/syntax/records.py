"""Record classes: the part of `dataclasses` omp-lsp uses, without its start-up cost.

`omp-lsp --check` defines some thirty record classes on every start. With the standard
`dataclasses` (which imports `inspect` and generates each method separately) that took about
40 ms of a 0.4 s check of a 10,000-line file, so these records generate `__init__`,
`__repr__` and `__eq__` (and, when frozen, `__setattr__`, `__delattr__` and `__hash__`) in one
`exec` per class. Supported: annotated fields in order, plain defaults, `field(default_factory=...)`,
`frozen=True`, `__post_init__`, `replace()` and `fields()`; and `kept_with`, a value kept with a
record while what it is made from stays the same.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple, TypeVar, dataclass_transform

from . import reads

T = TypeVar("T")


class FrozenInstanceError(AttributeError):
    """Assignment to a field of a frozen record."""


class _Factory:
    __slots__ = ("make",)

    def __init__(self, make: Callable[[], Any]) -> None:
        self.make = make


def field(*, default_factory: Callable[[], Any]) -> Any:
    """A field whose default is made anew for each record (a list, a dict)."""
    return _Factory(default_factory)


class Field(NamedTuple):
    name: str
    type: str  # the annotation as written (annotations are not evaluated)


def fields(cls_or_record: Any) -> tuple[Field, ...]:
    cls: Any = cls_or_record if isinstance(cls_or_record, type) else type(cls_or_record)
    record_fields: tuple[Field, ...] = cls.__record_fields__  # set by _build
    return record_fields


def replace(record: T, **changes: Any) -> T:
    """A new record with some fields changed (its __init__ and __post_init__ run again)."""
    values = {f.name: getattr(record, f.name) for f in fields(record)}
    values.update(changes)
    return type(record)(**values)


def kept_with(owner: Any, name: str, basis: object, make: Callable[[], T]) -> T:
    """A value derived from `basis`, kept in `owner`'s dictionary under `name` while `basis` is
    the same object (the incremental layer hands lists on unchanged: what is made from one is made
    once)."""
    kept: tuple[object, T] | None = owner.__dict__.get(name)
    if kept is not None and kept[0] is basis:
        return kept[1]
    made = make()
    owner.__dict__[name] = (basis, made)
    return made


def _frozen_setattr(self: Any, name: str, value: Any) -> None:
    raise FrozenInstanceError(f"cannot assign to field '{name}' of a frozen {type(self).__name__}")


def _frozen_delattr(self: Any, name: str) -> None:
    raise FrozenInstanceError(f"cannot delete field '{name}' of a frozen {type(self).__name__}")


def _build(cls: type, frozen: bool, eq: bool = True) -> type:
    # the class's own, as dataclasses reads them (inspect.get_annotations reads the same dict;
    # importing inspect cost 13 ms of every start)
    annotations: dict[str, Any] = cls.__dict__.get("__annotations__", {})  # noqa: RUF063
    names = list(annotations)
    namespace: dict[str, Any] = {}
    params, body = ["self"], []
    for name in names:
        default = cls.__dict__.get(name, _MISSING)
        if isinstance(default, _Factory):
            namespace[f"_make_{name}"] = default.make
            params.append(f"{name}=_FACTORY")
            body.append(f"  _d['{name}'] = _make_{name}() if {name} is _FACTORY else {name}")
            delattr(cls, name)  # like dataclasses: no class attribute for a factory field
        elif default is not _MISSING:
            namespace[f"_default_{name}"] = default
            params.append(f"{name}=_default_{name}")
            body.append(f"  _d['{name}'] = {name}")
        else:
            params.append(name)
            body.append(f"  _d['{name}'] = {name}")
    if hasattr(cls, "__post_init__"):
        body.append("  self.__post_init__()")
    values = "".join(f"self.{n}, " for n in names)
    other_values = "".join(f"other.{n}, " for n in names)
    reprs = ", ".join(f"{n}={{self.{n}!r}}" for n in names)
    source = "\n".join([
        f"def __init__({', '.join(params)}):",
        "  _d = self.__dict__",
        *body,
        "def __repr__(self):",
        f"  return f'{cls.__qualname__}({reprs})'",
        "def __eq__(self, other):",
        "  if other.__class__ is not self.__class__:",
        "    return NotImplemented",
        f"  return ({values}) == ({other_values})",
        "def __hash__(self):",
        f"  return hash(({values}))",
    ])
    namespace["_FACTORY"] = _MISSING
    exec(source, namespace)
    # the class seen as Any: its methods are replaced by generated ones the static types cannot see
    target: Any = cls
    target.__init__ = namespace["__init__"]
    if "__repr__" not in cls.__dict__:  # a class's own __repr__ wins (e.g. to cut cycles)
        target.__repr__ = namespace["__repr__"]
    if eq:  # eq=False keeps identity semantics (records that point at each other)
        target.__eq__ = namespace["__eq__"]
        # mutable records are not hashable, as with dataclasses
        target.__hash__ = namespace["__hash__"] if frozen else None
    if frozen:
        target.__setattr__ = _frozen_setattr
        target.__delattr__ = _frozen_delattr
    target.__record_fields__ = tuple(Field(n, str(annotations[n])) for n in names)
    return cls


_MISSING: Any = type("_Missing", (), {"__repr__": lambda self: "<missing>"})()


@dataclass_transform(field_specifiers=(field,))
def dataclass(cls: type | None = None, *, frozen: bool = False, eq: bool = True) -> Any:
    """Decorator: `@dataclass`, `@dataclass(frozen=True)`, or `@dataclass(eq=False)` (identity)."""
    if cls is None:
        return lambda c: _build(c, frozen, eq)
    return _build(cls, frozen, eq)


def deferred(cls: type, name: str, recorded: str | None = None) -> None:
    """Let a record field hold a zero-argument function that computes its value on first read.

    Builders use it for values most readers never ask for (C construct extents, parameter
    types); the value replaces the function in the record once computed. `recorded`: every
    read is recorded as a read of that structure (reads.structure).
    """
    def get(self: Any) -> Any:
        if recorded is not None:
            reads.structure(recorded)
        value = self.__dict__[name]
        if callable(value):
            value = self.__dict__[name] = value()
        return value

    def set_(self: Any, value: Any) -> None:
        self.__dict__[name] = value

    setattr(cls, name, property(get, set_))
