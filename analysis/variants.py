"""Declare variant resolution: what each `declare variant` directive applies to, for C and C++.

For every `declare variant(v) match(...)`: the base function (the declaration or definition
right after the directive, as the compilers read it), the variant function(s) the name finds
where the base's declarator is (C++ overloads: the one whose type fits), the effective context
selector (an enclosing `begin declare variant` region's selector appended, as the seed says),
its construct traits and its adjust_args/append_args clauses. For `begin declare variant` ...
`end declare variant`: the regions, their nesting and effective selectors, and the function
definitions inside them (variants of the same-named base declared elsewhere).

Types are compared on a normal form (typedefs of the file expanded, builtin spellings made
canonical, top-level const of parameters and arrays-as-parameters adjusted). A type that comes
from a header or a macro is compared by spelling only: when spellings differ the answer is
"unknown", and the rules stay silent. Fortran directives get the directive-level facts
(selector, clauses) only; their procedures are resolved by the Fortran rules.
"""
from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache
from typing import TYPE_CHECKING

from .directives.nodes import Clause, ContextSelector, Directive, TraitSelector
from .model import FIELD, FUNCTION, TYPE, VARIABLE, FileModel, Symbol
from .records import dataclass, field
from .syntax import Language, Span

if TYPE_CHECKING:
    import tree_sitter

    from .rules import FileContext

DECLARE_VARIANT = "declare variant"
BEGIN_DECLARE_VARIANT = "begin declare variant"
END_DECLARE_VARIANT = "end declare variant"
VARIANT_DIRECTIVES = frozenset({DECLARE_VARIANT, BEGIN_DECLARE_VARIANT})

# Where a `declare variant` directive stands (VariantDirective.placement).
FUNCTION_FOLLOWS = "function"        # a single function declaration or definition follows
NOTHING_FOLLOWS = "nothing"          # end of file or scope, or a pragma other than declare variant
SEVERAL_FOLLOW = "several"           # a declaration of more than one name
NOT_A_FUNCTION = "not a function"    # a declaration of a variable or type
IN_BODY = "in body"                  # inside a function body (OMP008 reports it)
UNKNOWN = "unknown"                  # a macro, #if, a parse error: the model cannot tell

# -- types ----------------------------------------------------------------------------------

Level = tuple[str, tuple[str, ...]]   # (kind, qualifiers): kind is a base type name, "*", "&",
                                      # "&&", "[]" or "fn(...)"; qualifiers sorted


@dataclass(frozen=True)
class CType:
    """A type in normal form: levels from the named type outwards (the last is the top level)."""
    levels: tuple[Level, ...]
    known: bool        # only builtins, tags and types defined in this file: a difference is real
    text: str          # as written, for messages

    def same(self, other: CType) -> bool | None:
        """True / False, or None when a name from outside the file makes it undecidable."""
        if self.levels == other.levels:
            return True
        return False if self.known and other.known else None

    @property
    def top(self) -> str:
        return self.levels[-1][0] if self.levels else ""

    @property
    def is_pointer(self) -> bool:
        """A pointer, an array parameter, or a reference to a pointer."""
        kinds = [k for k, _ in self.levels]
        if kinds and kinds[-1] in ("&", "&&"):
            kinds = kinds[:-1]
        return bool(kinds) and kinds[-1] in ("*", "[]")


@dataclass(frozen=True)
class Signature:
    """A function's type as far as the source shows it."""
    result: CType | None               # None: not known (deduced `auto`, constructor, destructor)
    params: tuple[CType, ...] | None   # None: C `f()` without a prototype
    variadic: bool = False
    qualifiers: str = ""               # C++ member function cv/ref qualifiers
    member: str | None = ""            # C++: the class of a non-static member function, "" for a
                                       # free or static function, None when not known
    deduced: bool = False              # the return type is a placeholder (`auto`) with no trailing type

    @property
    def text(self) -> str:
        result = self.result.text if self.result is not None else "auto"
        if self.params is None:
            params = ""
        else:
            params = ", ".join([p.text for p in self.params] + (["..."] if self.variadic else []))
        return f"{result} ({params}){' ' + self.qualifiers if self.qualifiers else ''}"

    @property
    def key(self) -> tuple:
        """What tells overloads apart."""
        params = tuple(p.levels for p in self.params) if self.params is not None else None
        return (params, self.variadic, self.qualifiers)


@dataclass(frozen=True)
class Verdict:
    """How a variant's type compares with its base's: ok True / False / None (cannot tell)."""
    ok: bool | None
    reason: str = ""                   # what differs, for the message


_BUILTIN_WORDS = frozenset({"void", "char", "short", "int", "long", "float", "double", "signed", "unsigned",
                            "_Bool", "bool", "wchar_t", "char8_t", "char16_t", "char32_t", "__int128",
                            "_Complex", "_Float16", "__fp16", "__bf16"})
_QUALIFIER_WORDS = frozenset({"const", "volatile"})
_NAME_NODES = frozenset({"identifier", "field_identifier", "qualified_identifier", "destructor_name",
                         "operator_name", "template_function", "type_identifier", "primitive_type"})
_TRANSPARENT_DECLARATORS = frozenset({"parenthesized_declarator", "abstract_parenthesized_declarator",
                                      "attributed_declarator", "init_declarator"})
_POINTERS = frozenset({"pointer_declarator", "abstract_pointer_declarator"})
_REFERENCES = frozenset({"reference_declarator", "abstract_reference_declarator"})
_ARRAYS = frozenset({"array_declarator", "abstract_array_declarator"})
_FUNCTIONS = frozenset({"function_declarator", "abstract_function_declarator"})
_PARAMETERS = frozenset({"parameter_declaration", "optional_parameter_declaration"})
_UNKNOWN_TYPES = frozenset({"placeholder_type_specifier", "decltype", "template_type", "dependent_type",
                            "qualified_identifier", "macro_type_specifier", "auto"})


def canonical_builtin(words: list[str] | tuple[str, ...]) -> str | None:
    """One spelling per builtin type (`long unsigned int` -> `unsigned long`), or None."""
    return _canonical_builtin(tuple(words))


@lru_cache(maxsize=1024)  # a file spells its few builtin types over and over
def _canonical_builtin(words: tuple[str, ...]) -> str | None:
    if not words or any(w not in _BUILTIN_WORDS for w in words):
        return None
    ws = sorted(w for w in words if w != "_Complex")
    complex_ = "_Complex" in words
    unsigned = "unsigned" in ws
    signed = "signed" in ws
    longs = ws.count("long")
    rest = [w for w in ws if w not in ("signed", "unsigned", "long", "short", "int")]
    if rest:
        word = rest[0]
        modifiers = {w for w in ws if w != word}
        allowed = {"char": {"signed", "unsigned"}, "double": {"long"}}.get(word, set())
        if len(rest) > 1 or not modifiers <= allowed or longs > 1:
            return None
        if word == "char":
            base = "unsigned char" if unsigned else "signed char" if signed else "char"
        elif word == "double":
            base = "long double" if longs else "double"
        elif word in ("_Bool", "bool"):
            base = "bool"
        else:
            base = word
    elif "short" in ws:
        base = "unsigned short" if unsigned else "short"
    elif longs >= 2:
        base = "unsigned long long" if unsigned else "long long"
    elif longs == 1:
        base = "unsigned long" if unsigned else "long"
    else:
        base = "unsigned int" if unsigned else "int"
    return f"_Complex {base}" if complex_ else base


@lru_cache(maxsize=4096)
def _tidy_spelling(text: str) -> str:
    """A declaration's text as messages show it: one space between words, no default argument,
    no storage or function specifiers."""
    text = " ".join(text.replace("=", " = ").split(" = ")[0].split())
    text = re.sub(r"\b(?:static|extern|inline|virtual|constexpr|consteval|explicit|register|typedef)\b\s*",
                  "", text)
    return re.sub(r"\s+([,)\]])", r"\1", re.sub(r"([(\[])\s+", r"\1", text)).strip()


def _words(text: str) -> list[str]:
    return re.findall(r"[A-Za-z_]\w*", text)


class TypeReader:
    """Reads declarations from the tree into normal-form types (one per file, caches typedefs)."""

    def __init__(self, ctx: FileContext) -> None:
        self.src = ctx.document.source
        self.tree = ctx.document.tree
        self.cpp = ctx.document.language is Language.CPP
        self.model = ctx.model
        self.macros = ctx.macros
        self._typedefs: dict[str, list[tuple[tree_sitter.Node, tree_sitter.Node | None]]] | None = None
        self._expanding: set[str] = set()
        self._classes: set[str] | None = None
        self._signatures: dict[int, Signature | None] = {}

    def text(self, node: tree_sitter.Node) -> str:
        return " ".join(self.src[node.start_byte:node.end_byte].decode("utf-8", "replace").split())

    # -- the file's own type names ------------------------------------------------------------
    def typedefs(self) -> dict[str, list[tuple[tree_sitter.Node, tree_sitter.Node | None]]]:
        if self._typedefs is None:
            found: dict[str, list[tuple[tree_sitter.Node, tree_sitter.Node | None]]] = {}
            if self.tree is not None:
                kinds = ("type_definition", "alias_declaration") if self.cpp else ("type_definition",)
                for node in _nodes_of(self.tree, kinds):
                    if node.type == "alias_declaration":
                        name = node.child_by_field_name("name")
                        if name is not None:
                            found.setdefault(self.text(name), []).append((node, None))
                        continue
                    for decl in node.children_by_field_name("declarator"):
                        name_node = _declarator_name(decl)
                        if name_node is not None:
                            found.setdefault(self.text(name_node), []).append((node, decl))
            self._typedefs = found
        return self._typedefs

    def classes(self) -> set[str]:
        """Class, struct, union and enum names declared in the file (not typedef names)."""
        if self._classes is None:
            typedefs = self.typedefs()
            self._classes = {s.name for s in self.model.symbols if s.kind == TYPE and s.name not in typedefs}
        return self._classes

    # -- types --------------------------------------------------------------------------------
    def base(self, node: tree_sitter.Node | None, quals: tuple[str, ...]) -> tuple[list[Level], bool] | None:
        """Levels of a decl-specifier's type (with its qualifiers on the top level)."""
        if node is None:
            return None
        t = node.type
        if t in ("primitive_type", "sized_type_specifier"):
            name = canonical_builtin(_words(self.text(node)))
            return ([(name, quals)], True) if name is not None else ([(self.text(node), quals)], False)
        if t in ("struct_specifier", "union_specifier", "enum_specifier", "class_specifier"):
            name_node = node.child_by_field_name("name")
            if name_node is None:
                return [(f"<anonymous@{node.start_byte}>", quals)], False
            name = self.text(name_node)
            if name_node.type != "type_identifier":
                return [(name, quals)], False
            keyword = t.split("_")[0]
            return [(name if self.cpp else f"{keyword} {name}", quals)], True
        if t == "type_identifier":
            name = self.text(node)
            if name in self.macros:
                return [(name, quals)], False
            expanded = self.typedef(name)
            if expanded is not None:
                levels, known = expanded
                top_kind, top_quals = levels[-1]
                return [*levels[:-1], (top_kind, tuple(sorted(set(top_quals) | set(quals))))], known
            if self.cpp and name in self.classes():
                return [(name, quals)], True
            return [(name, quals)], False
        return [(self.text(node), quals)], False

    def typedef(self, name: str) -> tuple[list[Level], bool] | None:
        entries = self.typedefs().get(name)
        if not entries or name in self._expanding:
            return None
        self._expanding.add(name)
        try:
            results = set()
            for node, decl in entries:
                if node.type == "alias_declaration":
                    ty = node.child_by_field_name("type")
                    read = self.type_descriptor(ty) if ty is not None else None
                else:
                    read = self.declared(node, decl)
                if read is None:
                    return [(name, ())], False
                results.add((tuple(read.levels), read.known))
            if len(results) != 1:
                return [(name, ())], False  # two typedefs of the name (in different scopes)
            levels, known = results.pop()
            return list(levels), known
        finally:
            self._expanding.discard(name)

    def specifiers(self, holder: tree_sitter.Node) -> tuple[tree_sitter.Node | None, tuple[str, ...]]:
        """(type node, const/volatile qualifiers) of a declaration's decl-specifiers."""
        quals: set[str] = set()
        for c in holder.children:
            if c.type == "type_qualifier":
                word = self.text(c)
                if word in _QUALIFIER_WORDS:
                    quals.add(word)
        return holder.child_by_field_name("type"), tuple(sorted(quals))

    def declared(self, holder: tree_sitter.Node, decl: tree_sitter.Node | None, *,
                 parameter: bool = False) -> CType | None:
        """The type a declarator gives to its name (`holder` holds the decl-specifiers)."""
        type_node, quals = self.specifiers(holder)
        base = self.base(type_node, quals)
        if base is None:
            return None
        levels, known = base
        ops = self.chain(decl)
        if ops is None:
            return None
        for op in ops:
            level, op_known = self.level(op)
            levels.append(level)
            known = known and op_known
        if parameter and levels:
            kind = levels[-1][0]
            if kind == "[]":
                levels[-1] = ("*", ())          # an array parameter is a pointer
            elif kind.startswith("fn("):
                levels.append(("*", ()))        # a function parameter is a pointer to function
            else:
                levels[-1] = (kind, ())         # top-level const/volatile is not part of the type
        return CType(tuple(levels), known, self.spelling(holder, decl))

    def type_descriptor(self, node: tree_sitter.Node) -> CType | None:
        return self.declared(node, node.child_by_field_name("declarator"))

    def chain(self, decl: tree_sitter.Node | None) -> list[tree_sitter.Node] | None:
        """Type-constructing declarators from the outside in, down to the name (None: unreadable)."""
        ops: list[tree_sitter.Node] = []
        node = decl
        while node is not None:
            t = node.type
            if t in _NAME_NODES:
                break
            if t in _TRANSPARENT_DECLARATORS:
                node = node.child_by_field_name("declarator") or _first_declarator(node)
                continue
            if t in _POINTERS or t in _REFERENCES or t in _ARRAYS or t in _FUNCTIONS:
                ops.append(node)
                node = node.child_by_field_name("declarator") if t not in _REFERENCES else _first_declarator(node)
                continue
            return None
        return ops

    def level(self, op: tree_sitter.Node) -> tuple[Level, bool]:
        t = op.type
        if t in _POINTERS:
            quals = tuple(sorted({self.text(c) for c in op.children if c.type == "type_qualifier"}
                                 & _QUALIFIER_WORDS))
            return ("*", quals), True
        if t in _REFERENCES:
            return ("&&" if any(c.type == "&&" for c in op.children) else "&", ()), True
        if t in _ARRAYS:
            return ("[]", ()), True
        sig = self.parameters(op)
        if sig is None:
            return (f"fn({self.text(op)})", ()), False
        params, variadic, known = sig
        inner = ",".join(repr(p.levels) for p in params or ())
        return (f"fn({inner}{',...' if variadic else ''})", ()), known

    def parameters(self, fdecl: tree_sitter.Node) -> tuple[tuple[CType, ...] | None, bool, bool] | None:
        """(parameter types (None: C's unprototyped `()`), variadic, all known) of a function declarator."""
        plist = fdecl.child_by_field_name("parameters")
        if plist is None:
            return None
        params: list[CType] = []
        variadic = False
        known = True
        children = plist.named_children
        for p in children:
            if p.type in _PARAMETERS:
                ct = self.declared(p, p.child_by_field_name("declarator"), parameter=True)
                if ct is None:
                    return None
                params.append(ct)
                known = known and ct.known
            elif p.type == "variadic_parameter":
                variadic = True
            elif p.type == "comment":
                continue
            else:
                return None  # a parameter pack, a K&R list, an error
        if any(c.type == "..." for c in plist.children):
            variadic = True
        if not params and not variadic and not self.cpp:
            return None, False, known  # C: `f()` declares no prototype
        if len(params) == 1 and params[0].levels == (("void", ()),):
            params = []
        return tuple(params), variadic, known

    def spelling(self, holder: tree_sitter.Node, decl: tree_sitter.Node | None) -> str:
        """The declaration's text without its name (and without default arguments)."""
        start = holder.start_byte
        end = (decl.end_byte if decl is not None else holder.end_byte)
        ty = holder.child_by_field_name("type")
        if ty is not None:
            start = min(start, ty.start_byte)
        text = self.src[start:end].decode("utf-8", "replace")
        name = _declarator_name(decl) if decl is not None else None
        if name is not None and name.type != "type_identifier":
            a, b = name.start_byte - start, name.end_byte - start
            text = text[:a] + text[b:]
        return _tidy_spelling(text)

    # -- functions ----------------------------------------------------------------------------
    def function_nodes(self, symbol: Symbol) -> tuple[tree_sitter.Node, tree_sitter.Node, list[tree_sitter.Node]] | None:
        """(the declaration holding the decl-specifiers, the symbol's function declarator, the
        declarators outside it that belong to the return type)."""
        if self.tree is None:
            return None
        name = self.tree.root_node.descendant_for_byte_range(*symbol.name_span)
        node = name
        while node is not None and node.type not in _FUNCTIONS:
            if node.type in ("declaration", "field_declaration", "function_definition", "compound_statement",
                             "translation_unit", "parameter_list"):
                return None
            node = node.parent
        if node is None:
            return None
        fdecl = node
        outer: list[tree_sitter.Node] = []
        node = fdecl.parent
        while node is not None and (node.type in _TRANSPARENT_DECLARATORS or node.type in _POINTERS
                                    or node.type in _REFERENCES):
            if node.type not in _TRANSPARENT_DECLARATORS:
                outer.append(node)
            node = node.parent
        if node is None or node.type not in ("declaration", "field_declaration", "function_definition"):
            return None
        outer.reverse()  # outside in
        return node, fdecl, outer

    def signature(self, symbol: Symbol) -> Signature | None:
        key = id(symbol)
        if key not in self._signatures:
            self._signatures[key] = self._signature(symbol)
        return self._signatures[key]

    def _signature(self, symbol: Symbol) -> Signature | None:
        nodes = self.function_nodes(symbol)
        if nodes is None:
            return None
        holder, fdecl, outer = nodes
        if holder.has_error:
            return None
        sig = self.parameters(fdecl)
        if sig is None:
            return None
        params, variadic, _ = sig
        quals = " ".join(self.text(c) for c in fdecl.children
                         if c.type in ("type_qualifier", "ref_qualifier") or c.type in ("&", "&&"))
        deduced = False
        result: CType | None
        trailing = next((c for c in fdecl.children if c.type == "trailing_return_type"), None)
        type_node = holder.child_by_field_name("type")
        if trailing is not None:
            descriptor = next((c for c in trailing.named_children if c.type == "type_descriptor"), None)
            result = self.type_descriptor(descriptor) if descriptor is not None else None
        elif type_node is None:
            result = None  # constructor, destructor, conversion function
        elif type_node.type == "placeholder_type_specifier" or self.text(type_node) in ("auto", "decltype(auto)"):
            result, deduced = None, True
        else:
            result = self._result(holder, outer)
        return Signature(result, params, variadic, quals, self.member(symbol), deduced)

    def _result(self, holder: tree_sitter.Node, outer: list[tree_sitter.Node]) -> CType | None:
        type_node, quals = self.specifiers(holder)
        base = self.base(type_node, quals)
        if base is None:
            return None
        levels, known = base
        for op in outer:
            level, op_known = self.level(op)
            levels.append(level)
            known = known and op_known
        levels[-1] = (levels[-1][0], ())  # a top-level qualifier on a return type changes nothing here
        text = self.text(type_node) if type_node is not None else ""
        stars = "".join("*" if op.type in _POINTERS else "&" for op in outer)
        spelled = " ".join(self.text(c) for c in holder.children if c.type == "type_qualifier"
                           and self.text(c) in _QUALIFIER_WORDS)
        return CType(tuple(levels), known, f"{spelled + ' ' if spelled else ''}{text}{' ' + stars if stars else ''}")

    def parameter_names(self, symbol: Symbol) -> list[str] | None:
        """The parameter names of a function declaration as written ("" for an unnamed one)."""
        nodes = self.function_nodes(symbol)
        plist = nodes[1].child_by_field_name("parameters") if nodes is not None else None
        if plist is None:
            return None
        names = []
        for p in plist.named_children:
            if p.type in _PARAMETERS:
                name = _declarator_name(p.child_by_field_name("declarator"))
                names.append(self.text(name) if name is not None else "")
        return names

    def special(self, symbol: Symbol) -> frozenset[str]:
        """What makes a C++ function unfit as a base: virtual, constructor, destructor, deleted,
        defaulted, consteval (from the declaration's words and the tree)."""
        if not self.cpp:
            return frozenset()
        found: set[str] = set()
        if "virtual" in symbol.specifiers:
            found.add("virtual")
        if "consteval" in symbol.specifiers:
            found.add("consteval")
        parts = symbol.qualified.split("::")
        nodes = self.function_nodes(symbol)
        if symbol.name.startswith("~"):
            found.add("destructor")
        elif symbol.scope.kind == "class" and symbol.name == symbol.scope.name:
            found.add("constructor")
        elif len(parts) >= 2 and parts[-1] == parts[-2] and nodes is not None \
                and nodes[0].child_by_field_name("type") is None:
            found.add("constructor")  # `S::S() { ... }` (a function named like its namespace has a type)
        if nodes is not None:
            holder, fdecl, _ = nodes
            kinds = {c.type for c in holder.children}
            if "delete_method_clause" in kinds:
                found.add("deleted")
            if "default_method_clause" in kinds:
                found.add("defaulted")
            if any(c.type == "virtual_specifier" for c in fdecl.children):
                found.add("virtual")  # override / final
        return frozenset(found)

    def undeducible(self, symbol: Symbol) -> list[str] | None:
        """Template parameters of a function template that its parameter types cannot deduce
        (no default, not named in any parameter): None when not known."""
        nodes = self.function_nodes(symbol)
        if nodes is None:
            return None
        holder, fdecl, _ = nodes
        template = holder.parent
        if template is None or template.type != "template_declaration":
            return None
        plist = template.child_by_field_name("parameters")
        params = fdecl.child_by_field_name("parameters")
        if plist is None or params is None:
            return None
        names: list[str] = []
        for p in plist.named_children:
            if p.type == "type_parameter_declaration":
                name = next((c for c in p.named_children if c.type == "type_identifier"), None)
            elif p.type == "parameter_declaration":
                name = _declarator_name(p.child_by_field_name("declarator"))
            elif p.type in ("optional_type_parameter_declaration", "optional_parameter_declaration",
                            "variadic_type_parameter_declaration", "variadic_parameter_declaration"):
                continue
            else:
                return None  # template template parameters, constrained parameters: not modelled
            if name is None:
                return None
            names.append(self.text(name))
        # deduction from the base's function type reads the return type too ([temp.deduct.funcaddr])
        used = set(_words(self.text(params)))
        type_node = holder.child_by_field_name("type")
        if type_node is not None:
            used.update(_words(self.text(type_node)))
        return [n for n in names if n not in used]

    def is_function(self, symbol: Symbol) -> bool:
        """A function declaration. The model records `T *f(int);` and `T &f(int);` as variables
        (fields in a class): their declarator is checked here."""
        if symbol.kind == FUNCTION:
            return True
        if symbol.kind not in (VARIABLE, FIELD) or self.tree is None:
            return False
        node = self.tree.root_node.descendant_for_byte_range(*symbol.name_span)
        parent = node.parent if node is not None else None
        while parent is not None and parent.type in ("qualified_identifier", "template_function"):
            parent = parent.parent
        return parent is not None and parent.type == "function_declarator" and \
            parent.child_by_field_name("declarator") is not None and \
            parent.child_by_field_name("declarator").end_byte >= symbol.name_span[1]

    def member(self, symbol: Symbol) -> str | None:
        """The class of a non-static member function, "" for a free or static function, None: unknown."""
        if not self.cpp:
            return ""
        if symbol.scope.kind == "class":
            if symbol.specifiers & {"static", "friend"}:
                return ""
            return symbol.scope.symbol.qualified if symbol.scope.symbol is not None else None
        if "::" not in symbol.qualified or symbol.scope.kind not in ("file", "namespace"):
            return ""
        owner = symbol.qualified.rsplit("::", 1)[0]
        in_class = [s for s in self.model.named(symbol.key)
                    if s.kind == FUNCTION and s.scope.kind == "class" and s.qualified == symbol.qualified]
        if in_class:
            return self.member(in_class[0])
        if any(s.kind == "namespace" and s.qualified == owner for s in self.model.named(owner.rsplit("::", 1)[-1])):
            return ""
        return None


def _nodes_of(tree: tree_sitter.Tree, kinds: tuple[str, ...]) -> list[tree_sitter.Node]:
    """Every node of these kinds (a query runs in C)."""
    import tree_sitter
    query = tree_sitter.Query(tree.language, "\n".join(f"({kind}) @n" for kind in kinds))
    return tree_sitter.QueryCursor(query).captures(tree.root_node).get("n", [])


def _first_declarator(node: tree_sitter.Node) -> tree_sitter.Node | None:
    return next((c for c in node.named_children if c.type != "type_qualifier"
                 and (c.type.endswith("declarator") or c.type in _NAME_NODES)), None)


def _declarator_name(decl: tree_sitter.Node | None) -> tree_sitter.Node | None:
    node = decl
    while node is not None and node.type not in _NAME_NODES:
        inner = node.child_by_field_name("declarator")
        node = inner if inner is not None else _first_declarator(node)
    return node


# -- context selectors ----------------------------------------------------------------------

@dataclass(frozen=True)
class EffectiveSelector:
    """A context selector with the selectors of enclosing begin/end regions appended."""
    sets: tuple[tuple[str, tuple[TraitSelector, ...]], ...] = ()

    def selectors(self, set_name: str) -> tuple[TraitSelector, ...]:
        return next((sels for name, sels in self.sets if name == set_name), ())

    @property
    def construct(self) -> tuple[str, ...]:
        """The construct trait names, in order."""
        return tuple(s.name for s in self.selectors("construct"))

    @property
    def construct_key(self) -> tuple[tuple[str, str], ...]:
        """The construct set as compared between directives (names and properties)."""
        return tuple((s.name, _norm(",".join(p.text for p in s.properties))) for s in self.selectors("construct"))

    def has(self, set_name: str, selector: str) -> bool:
        return any(s.name == selector for s in self.selectors(set_name))


def _norm(text: str) -> str:
    return "".join(text.split()).lower()


def _equivalent(a: TraitSelector, b: TraitSelector) -> bool:
    return (a.name == b.name and _norm(a.score.text if a.score else "") == _norm(b.score.text if b.score else "")
            and sorted(_norm(p.text) for p in a.properties) == sorted(_norm(p.text) for p in b.properties))


def effective(own: ContextSelector | None, outer: EffectiveSelector | None) -> EffectiveSelector:
    """The seed's rule: the outer selectors are appended to the inner directive's, per trait set,
    after the outer selectors equivalent to inner ones are removed."""
    sets: list[tuple[str, list[TraitSelector]]] = []
    for ts in own.sets if own is not None else ():
        found = next((s for s in sets if s[0] == ts.name), None)
        if found is None:
            sets.append((ts.name, list(ts.selectors)))
        else:
            found[1].extend(ts.selectors)
    for name, sels in outer.sets if outer is not None else ():
        found = next((s for s in sets if s[0] == name), None)
        if found is None:
            sets.append((name, list(sels)))
        else:
            found[1].extend(s for s in sels if not any(_equivalent(s, mine) for mine in found[1]))
    return EffectiveSelector(tuple((name, tuple(sels)) for name, sels in sets))


def selector_of(d: Directive) -> ContextSelector | None:
    c = d.clause("match")
    return c.selector if c is not None else None


# -- records ---------------------------------------------------------------------------------

@dataclass(eq=False)
class VariantRegion:
    """A `begin declare variant` ... `end declare variant` region."""
    begin: int                          # directive index
    end: int                            # directive index of the paired end
    span: Span                          # end of the begin directive .. start of the end directive
    parent: int | None                  # begin index of the enclosing region
    selector: EffectiveSelector         # effective (enclosing regions' selectors appended)
    functions: list[Symbol] = field(default_factory=list)   # defined directly inside (not in a nested region)


@dataclass(eq=False)
class RegionFunction:
    """A function defined in a begin/end region: a variant of the same-named base declared elsewhere."""
    symbol: Symbol
    region: int                         # begin index of the innermost region
    bases: list[Symbol] = field(default_factory=list)   # declarations outside every region that fit


@dataclass(eq=False)
class VariantDirective:
    """One `declare variant` directive resolved."""
    index: int
    directive: Directive
    selector: EffectiveSelector
    region: int | None = None                          # the innermost enclosing begin region
    adjust_args: list[Clause] = field(default_factory=list)
    append_args: Clause | None = None
    # C/C++ only (Fortran records stop here):
    placement: str = UNKNOWN
    following: Span | None = None                      # what follows the directive (for OMP304)
    base: Symbol | None = None
    name: str = ""                                     # variant-func-id as written
    name_span: Span | None = None
    template_args: bool = False                        # written as a template-id `f<int>`
    found: list[Symbol] = field(default_factory=list)  # every declaration the name finds
    variants: list[Symbol] = field(default_factory=list)   # the function(s) it names
    verdict: Verdict = Verdict(None)                   # the variant's type against the base's

    @property
    def interops(self) -> int:
        return len(self.append_args.interops) if self.append_args is not None else 0

    @property
    def construct(self) -> tuple[str, ...]:
        return self.selector.construct


@dataclass(eq=False)
class Variants:
    directives: list[VariantDirective] = field(default_factory=list)
    regions: list[VariantRegion] = field(default_factory=list)        # in source order of their begin
    region_functions: list[RegionFunction] = field(default_factory=list)
    types: TypeReader | None = None

    def region_of(self, offset: int) -> VariantRegion | None:
        """The innermost region holding `offset`."""
        if not self.regions:
            return None
        starts = self.__dict__.get("_starts")
        if starts is None or len(starts) != len(self.regions):
            starts = self.__dict__["_starts"] = [r.span[0] for r in self.regions]
        for k in range(bisect_right(starts, offset) - 1, -1, -1):
            r = self.regions[k]
            if offset < r.span[1]:
                return r  # regions nest: the latest start that still holds it is the innermost
        return None

    def identity(self, symbol: Symbol) -> tuple:
        """What makes two declarations the same function: the qualified name, the parameter
        types (C++ overloads), and the begin/end region it is defined in."""
        region = self.region_of(symbol.name_span[0])
        sig = self.types.signature(symbol) if self.types is not None and self.types.cpp else None
        key = sig.key if sig is not None else ("?",) if self.types is not None and self.types.cpp else ()
        return (symbol.qualified or symbol.name, key, region.begin if region is not None else -1)


# -- resolution ------------------------------------------------------------------------------

def resolve(ctx: FileContext) -> Variants:
    out = Variants()
    directives = ctx.directives
    if not any(d.name in VARIANT_DIRECTIVES for d in directives):
        return out
    fortran = ctx.document.language.is_fortran
    if not fortran:
        _regions(ctx, out)
    for i, d in enumerate(directives):
        if d.name != DECLARE_VARIANT:
            continue
        region = out.region_of(d.span[0]) if out.regions else None
        rec = VariantDirective(i, d, effective(selector_of(d), region.selector if region else None),
                               region.begin if region is not None else None,
                               adjust_args=d.clauses_named("adjust_args"), append_args=d.clause("append_args"))
        out.directives.append(rec)
    if fortran or ctx.document.tree is None:
        return out
    out.types = TypeReader(ctx)
    _Resolver(ctx, out).run()
    _region_bases(ctx, out)
    return out


def _region_bases(ctx: FileContext, out: Variants) -> None:
    """Each region function's base: the same name outside every region, with a type that fits."""
    types = out.types
    assert types is not None
    for region in out.regions:
        for s in region.functions:
            sig = types.signature(s)
            bases = []
            for b in ctx.model.named(s.key):
                if b.qualified != s.qualified or not types_is_function(types, b) or out.region_of(b.name_span[0]):
                    continue
                base_sig = types.signature(b)
                if not types.cpp or sig is None or base_sig is None or compare_signatures(base_sig, sig, 0).ok is not False:
                    bases.append(b)
            out.region_functions.append(RegionFunction(s, region.begin, bases))


def _regions(ctx: FileContext, out: Variants) -> None:
    directives = ctx.directives
    pairs = sorted((b, e) for b, e in ctx.structure.pairs.items() if directives[b].name == BEGIN_DECLARE_VARIANT)
    stack: list[VariantRegion] = []
    for b, e in pairs:
        span = (directives[b].span[1], directives[e].span[0])
        while stack and not (stack[-1].span[0] <= span[0] and span[1] <= stack[-1].span[1]):
            stack.pop()
        parent = stack[-1] if stack else None
        region = VariantRegion(b, e, span, parent.begin if parent else None,
                               effective(selector_of(directives[b]), parent.selector if parent else None))
        out.regions.append(region)
        stack.append(region)
    if not out.regions:
        return
    for s in ctx.model.symbols:
        if s.kind != FUNCTION or not s.definition or s.scope.kind not in ("file", "namespace"):
            continue
        region = out.region_of(s.name_span[0])
        if region is not None:
            region.functions.append(s)


_PRAGMA_NODE = "preproc_call"
_SKIPPED = frozenset({"comment"})
_UNCERTAIN = frozenset({"ERROR", "preproc_if", "preproc_ifdef", "preproc_include", "preproc_def",
                        "preproc_function_def", "expression_statement", "macro_type_specifier"})
_BODY_SCOPES = frozenset({"function", "block", "lambda"})
_TEMPLATE_ARGS = re.compile(r"<.*>$", re.DOTALL)


class _Resolver:
    def __init__(self, ctx: FileContext, out: Variants) -> None:
        self.ctx = ctx
        self.out = out
        self.model: FileModel = ctx.model
        assert out.types is not None and ctx.document.tree is not None
        self.types: TypeReader = out.types
        self.root = ctx.document.tree.root_node
        self.src = ctx.document.source
        self.starts = {d.raw.span[0]: i for i, d in enumerate(ctx.directives)}
        self.functions = {s.name_span[0]: s for s in self.model.symbols
                          if s.kind == FUNCTION or s.kind in (VARIABLE, FIELD) and self.types.is_function(s)}

    def run(self) -> None:
        for rec in self.out.directives:
            d = rec.directive
            item = d.argument[0] if d.argument else None
            if item is not None:
                rec.name = "".join(item.text.split())
                rec.name_span = item.span
                rec.template_args = "<" in rec.name
            if d.raw.in_macro or d.raw.form != "pragma":
                continue
            if self.model.scope_at(d.span[0]).kind in _BODY_SCOPES:
                rec.placement = IN_BODY
                continue
            self.place(rec)
            if rec.name and not d.uses_macros:
                self.find_variant(rec)

    # -- the base function ---------------------------------------------------------------------
    def place(self, rec: VariantDirective) -> None:
        d = rec.directive
        node = self.root.descendant_for_byte_range(d.raw.span[0], d.raw.span[0] + 1)
        while node is not None and node.type != _PRAGMA_NODE:
            node = node.parent
        if node is None or node.start_byte != d.raw.span[0]:
            return
        nxt = node.next_named_sibling
        while nxt is not None:
            if nxt.type in _SKIPPED:
                nxt = nxt.next_named_sibling
                continue
            if nxt.type == _PRAGMA_NODE:
                other = self.starts.get(nxt.start_byte)
                if other is not None and self.ctx.directives[other].name == DECLARE_VARIANT:
                    nxt = nxt.next_named_sibling
                    continue
                if other is None and not self.src.startswith(b"#", nxt.start_byte):
                    return
                if b"pragma" not in self.src[nxt.start_byte:nxt.start_byte + 16]:
                    return  # `#undef`, `#line`: the model does not follow them
                rec.placement, rec.following = NOTHING_FOLLOWS, (nxt.start_byte, nxt.end_byte)
                return
            break
        if nxt is None:
            rec.placement = NOTHING_FOLLOWS
            return
        self.classify(rec, nxt)

    def classify(self, rec: VariantDirective, node: tree_sitter.Node) -> None:
        t = node.type
        if t == "template_declaration":
            inner = next((c for c in reversed(node.named_children)
                          if c.type in ("declaration", "function_definition", "field_declaration")), None)
            if inner is None:
                return
            node, t = inner, inner.type
        if t == "linkage_specification":
            body = node.child_by_field_name("body")
            if body is None or body.type not in ("declaration", "function_definition"):
                return
            node, t = body, body.type
        if node.has_error or t in _UNCERTAIN:
            return
        rec.following = (node.start_byte, node.end_byte)
        if t == "function_definition":
            decls = [node.child_by_field_name("declarator")]
        elif t in ("declaration", "field_declaration"):
            decls = node.children_by_field_name("declarator")
        elif t in ("type_definition", "struct_specifier", "class_specifier", "union_specifier", "enum_specifier",
                   "alias_declaration", "namespace_definition", "static_assert_declaration"):
            rec.placement = NOT_A_FUNCTION
            return
        else:
            return
        decls = [x for x in decls if x is not None]
        if not decls:
            rec.placement = NOT_A_FUNCTION
            return
        if len(decls) > 1:
            rec.placement = SEVERAL_FOLLOW
            return
        name = _declarator_name(decls[0])
        base = self.functions.get(name.start_byte) if name is not None else None
        if base is None:
            ops = self.types.chain(decls[0]) if self.types is not None else None
            if ops is not None and not any(op.type in _FUNCTIONS for op in ops) and name is not None:
                rec.placement = NOT_A_FUNCTION
                rec.following = (name.start_byte, name.end_byte)
            return
        rec.placement = FUNCTION_FOLLOWS
        rec.base = base

    # -- the variant ---------------------------------------------------------------------------
    def find_variant(self, rec: VariantDirective) -> None:
        offset = rec.base.name_span[1] if rec.base is not None else rec.directive.span[1]
        name = _TEMPLATE_ARGS.sub("", rec.name).lstrip(":")
        found = self.lookup(name, offset, rec.base)
        rec.found = found
        functions = [s for s in found if types_is_function(self.types, s)]
        if not functions:
            return
        if rec.base is None:
            rec.variants = functions
            return
        types = self.types
        base_sig = types.signature(rec.base)
        by_identity: dict[tuple, Symbol] = {}
        for s in functions:
            by_identity.setdefault(self.out.identity(s), s)
        candidates = list(by_identity.values())
        if base_sig is None:
            rec.variants = candidates
            return
        verdicts = [(s, self.compare(rec, base_sig, s)) for s in candidates]
        matching = [s for s, v in verdicts if v.ok is True]
        unknown = [s for s, v in verdicts if v.ok is None]
        if matching:
            rec.variants, rec.verdict = matching, Verdict(True)
        elif unknown:
            rec.variants, rec.verdict = unknown, Verdict(None)
        else:
            rec.variants = candidates
            if len(verdicts) == 1:
                rec.verdict = verdicts[0][1]
            else:
                rec.verdict = Verdict(False, f"none of the {len(verdicts)} overloads of '{name}' has the base "
                                             f"function's type '{base_sig.text}'"
                                      + (f" plus {rec.interops} omp_interop_t parameter(s)" if rec.interops else ""))

    def lookup(self, name: str, offset: int, base: Symbol | None) -> list[Symbol]:
        model = self.model
        if "::" not in name:
            hits = model.visible(name, offset)
            if not hits and base is not None and "::" in base.qualified and base.scope.kind != "class":
                owner = base.qualified.rsplit("::", 1)[0]
                hits = self.qualified(f"{owner}::{name}", offset)
            return hits
        return self.qualified(name, offset)

    def qualified(self, name: str, offset: int) -> list[Symbol]:
        parts = name.split("::")
        want = "::".join(parts)
        return [s for s in self.model.named(parts[-1])
                if s.name_span[0] < offset and (s.qualified == want or s.qualified.endswith("::" + want))]

    def compare(self, rec: VariantDirective, base: Signature, symbol: Symbol) -> Verdict:
        types = self.types
        assert types is not None
        if symbol.template and not rec.template_args:
            return Verdict(None)  # deduced from the base's parameters: not modelled
        if symbol.template or (rec.base is not None and rec.base.template):
            return Verdict(None)
        variant = types.signature(symbol)
        if variant is None:
            return Verdict(None)
        return compare_signatures(base, variant, rec.interops, rec.name)


def types_is_function(types: TypeReader | None, symbol: Symbol) -> bool:
    return symbol.kind == FUNCTION or (types is not None and types.is_function(symbol))


_INTEROP = "omp_interop_t"


def _count(n: int) -> str:
    return f"{n} parameter{'s' if n != 1 else ''}"


def compare_signatures(base: Signature, variant: Signature, interops: int, name: str = "the variant") -> Verdict:
    """Whether `variant` has `base`'s type plus one omp_interop_t parameter per appended interop."""
    if base.member is not None and variant.member is not None and base.member != variant.member:
        if base.member and not variant.member:
            return Verdict(False, f"the base function is a non-static member of '{base.member}' but '{name}' is "
                                  "not a member of it")
        if variant.member and not base.member:
            return Verdict(False, f"'{name}' is a non-static member of '{variant.member}' but the base function is not")
        return Verdict(False, f"'{name}' is a member of '{variant.member}', the base function of '{base.member}'")
    if base.result is None or variant.result is None:
        result_ok: bool | None = None if (base.deduced or variant.deduced or base.result is None
                                          or variant.result is None) else True
    else:
        result_ok = base.result.same(variant.result)
        if result_ok is False:
            return Verdict(False, f"'{name}' returns '{variant.result.text}' but the base function returns "
                                  f"'{base.result.text}'")
    if base.params is None or variant.params is None:
        if interops and base.params is None:
            return Verdict(False, "the base function has no prototype, which append_args needs")
        return Verdict(result_ok if result_ok is not True else None)
    if base.variadic != variant.variadic:
        which = "takes" if variant.variadic else "does not take"
        return Verdict(False, f"'{name}' {which} a variable argument list ('...') unlike the base function")
    want = len(base.params) + interops
    if len(variant.params) != want:
        if interops:
            return Verdict(False, f"'{name}' takes {_count(len(variant.params))} but needs {want}: the base function's "
                                  f"{len(base.params)} and one omp_interop_t per interop of append_args")
        return Verdict(False, f"'{name}' takes {_count(len(variant.params))} but the base function takes "
                              f"{len(base.params)}")
    unknown = result_ok is None
    for i, (b, v) in enumerate(zip(base.params, variant.params)):
        same = b.same(v)
        if same is False:
            return Verdict(False, f"parameter {i + 1} of '{name}' is '{v.text}' but the base function's is "
                                  f"'{b.text}'")
        unknown = unknown or same is None
    for j, v in enumerate(variant.params[len(base.params):]):
        kind = v.levels[0][0] if len(v.levels) == 1 else ""
        if kind == _INTEROP:
            continue
        if v.known and v.levels != (("void", ()), ("*", ())):
            return Verdict(False, f"parameter {len(base.params) + j + 1} of '{name}' is '{v.text}' but the "
                                  f"appended interop argument is an omp_interop_t")
        unknown = True
    if base.qualifiers != variant.qualifiers and base.member:
        return Verdict(False, f"'{name}' has the qualifiers '{variant.qualifiers or 'none'}' but the base "
                              f"function '{base.qualifiers or 'none'}'")
    return Verdict(None if unknown else True)
