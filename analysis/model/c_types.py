"""C and C++ types in a normal form, read from the tree-sitter tree of one file.

A type is a chain of levels from the named type outwards (`const char *` is `char` const, then
`*`): typedefs of the file expanded, builtin spellings made canonical (`long unsigned int` is
`unsigned long`), for parameters top-level const dropped and arrays and functions adjusted to
pointers. `known` says whether every name in it is a builtin, a tag or a type defined in this
file: only then is a difference between two types real. Declare variant compares function types
with it (OMP303, OMP310); the target rules ask whether a variable is a pointer (OMP209).
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from ..syntax.document import Language
from ..syntax.records import dataclass
from .file_model import FIELD, FUNCTION, TYPE, VARIABLE, Symbol

if TYPE_CHECKING:
    from .facts import ModelFacts

    FileFacts = ModelFacts   # what every pass reads is all this one reads
    import tree_sitter


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
    def key(self) -> tuple[tuple[tuple[Level, ...], ...] | None, bool, str]:
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
FUNCTION_DECLARATORS = frozenset({"function_declarator", "abstract_function_declarator"})
_PARAMETERS = frozenset({"parameter_declaration", "optional_parameter_declaration"})
# Arithmetic typedefs of the platform that tree-sitter reads as primitive types: their spelling
# differs from the builtin they stand for (so equality stays unknown), but none is a pointer.
ARITHMETIC_TYPEDEFS = frozenset({
    "wchar_t", "char8_t", "char16_t", "char32_t", "size_t", "ssize_t", "ptrdiff_t", "intptr_t", "uintptr_t",
    "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t",
})
_VARIABLE_HOLDERS = frozenset({"declaration", "field_declaration", *_PARAMETERS})
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

    def __init__(self, ctx: FileFacts) -> None:
        self.src = ctx.document.source
        self.tree = ctx.document.tree
        self.cpp = ctx.document.language is Language.CPP
        self.model = ctx.model
        self.macros = ctx.macros
        self.body_words = ctx.body_words_read()   # (the set, not the context: no cycle)
        self._typedefs: dict[str, list[tuple[tree_sitter.Node, tree_sitter.Node | None]]] | None = None
        self._expanding: set[str] = set()
        self._classes: set[str] | None = None
        self._signatures: dict[int, Signature | None] = {}

    def text(self, node: tree_sitter.Node) -> str:
        return " ".join(self.src[node.start_byte:node.end_byte].decode("utf-8", "replace").split())

    # -- the file's own type names ------------------------------------------------------------
    def typedefs(self) -> dict[str, list[tuple[tree_sitter.Node, tree_sitter.Node | None]]]:
        if self._typedefs is None:
            self.body_words.update((b"typedef", b"using"))   # function bodies' own count too
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
                        name_node = declarator_name(decl)
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
            if t in _POINTERS or t in _REFERENCES or t in _ARRAYS or t in FUNCTION_DECLARATORS:
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
        name = declarator_name(decl) if decl is not None else None
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
        while node is not None and node.type not in FUNCTION_DECLARATORS:
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

    def variable(self, symbol: Symbol) -> CType | None:
        """The declared type of a variable, data member or parameter (None: the tree does not say)."""
        if self.tree is None:
            return None
        node = self.tree.root_node.descendant_for_byte_range(*symbol.name_span)
        decl = None
        while node is not None and node.type not in _VARIABLE_HOLDERS:
            if node.type in ("compound_statement", "function_definition", "translation_unit"):
                return None
            decl, node = node, node.parent
        if node is None or decl is None or node.has_error:
            return None
        return self.declared(node, decl, parameter=node.type in _PARAMETERS)

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
                name = declarator_name(p.child_by_field_name("declarator"))
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
                name = declarator_name(p.child_by_field_name("declarator"))
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
            (declarator := parent.child_by_field_name("declarator")) is not None and \
            declarator.end_byte >= symbol.name_span[1]

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
    """Every node of these kinds (a query runs in C), in source order (the captures are not)."""
    import tree_sitter
    query = tree_sitter.Query(tree.language, "\n".join(f"({kind}) @n" for kind in kinds))
    return sorted(tree_sitter.QueryCursor(query).captures(tree.root_node).get("n", []), key=lambda n: n.start_byte)


def _first_declarator(node: tree_sitter.Node) -> tree_sitter.Node | None:
    return next((c for c in node.named_children if c.type != "type_qualifier"
                 and (c.type.endswith("declarator") or c.type in _NAME_NODES)), None)


def declarator_name(decl: tree_sitter.Node | None) -> tree_sitter.Node | None:
    node = decl
    while node is not None and node.type not in _NAME_NODES:
        inner = node.child_by_field_name("declarator")
        node = inner if inner is not None else _first_declarator(node)
    return node
