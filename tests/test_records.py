"""The light record classes behave like the dataclasses they replace."""
from __future__ import annotations

import pytest
from omp_lsp.analysis.syntax.records import FrozenInstanceError, dataclass, field, fields, replace


@dataclass
class Item:
    name: str
    tags: list[str] = field(default_factory=list)
    count: int = 0


@dataclass(frozen=True)
class Point:
    x: int
    y: int = 0

    def __post_init__(self) -> None:
        if self.x < 0:
            raise ValueError("x must not be negative")


def test_defaults_factories_and_equality() -> None:
    a, b = Item("a"), Item("a")
    assert a == b and a.tags is not b.tags and a.count == 0
    a.tags.append("t")
    assert a != b
    assert repr(Item("z", ["q"], 2)) == "Item(name='z', tags=['q'], count=2)"
    assert Item("k", count=3).count == 3
    assert not hasattr(Item, "tags")  # factory fields leave no class attribute
    with pytest.raises(TypeError):
        hash(a)


def test_frozen_records() -> None:
    p = Point(1, 2)
    with pytest.raises(FrozenInstanceError):
        p.x = 3  # type: ignore[misc]
    assert hash(p) == hash(Point(1, 2)) and {p, Point(1, 2)} == {p}
    with pytest.raises(ValueError):
        Point(-1)


def test_replace_and_fields() -> None:
    p = replace(Point(1, 2), y=5)
    assert p == Point(1, 5)
    with pytest.raises(ValueError):
        replace(p, x=-2)  # __post_init__ runs again
    assert [(f.name, f.type) for f in fields(Item)] == [("name", "str"), ("tags", "list[str]"), ("count", "int")]


def test_deferred_field_is_computed_once_on_first_read() -> None:
    from omp_lsp.analysis.syntax.records import dataclass, deferred

    @dataclass
    class R:
        value: int = 0

    deferred(R, "value")
    calls = []
    r = R(lambda: calls.append(1) or 42)
    assert calls == []
    assert r.value == 42 and r.value == 42 and calls == [1]
    r.value = 7
    assert r.value == 7 and R(3).value == 3
