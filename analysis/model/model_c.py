"""The C/C++ program model, read from the tree-sitter tree.

One tree-sitter query (run in C) finds every scope-making node and declaration; a stack
of open scopes then places each declaration in its scope. References are collected only
when asked for (`FileModel.references`): walking every body costs time the
restriction rules mostly do not need.
"""
from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterator
from functools import partial
from typing import TYPE_CHECKING

from ..syntax.document import Language, Span
from .file_model import (
    AUTOMATIC,
    FIELD,
    FUNCTION,
    NAMESPACE,
    STATIC,
    THREAD,
    TYPE,
    VARIABLE,
    Capture,
    FileModel,
    Lambda,
    Reference,
    Scope,
    Symbol,
    defer,
    find_includes,
    is_target_region,
)

if TYPE_CHECKING:
    import tree_sitter

    from ..directives.nodes import Directive
    from ..directives.structure import Structure
    from ..syntax.document import Document

_COMMON_PATTERNS = """
(function_definition) @function
(declaration) @declaration
(type_definition) @typedef
(struct_specifier) @class
(union_specifier) @class
(enum_specifier) @enum
(compound_statement) @block
(for_statement) @block
"""
_CPP_PATTERNS = _COMMON_PATTERNS + """
(class_specifier) @class
(field_declaration) @field
(namespace_definition) @namespace
(linkage_specification) @linkage
(lambda_expression) @lambda
(for_range_loop) @block
(alias_declaration) @typedef
"""

_queries: dict[Language, tree_sitter.Query] = {}


def _query(language: Language) -> tree_sitter.Query:
    q = _queries.get(language)
    if q is None:
        import tree_sitter

        from ..syntax.document import parser_for
        parser = parser_for(language)
        assert parser is not None and parser.language is not None
        q = tree_sitter.Query(parser.language, _CPP_PATTERNS if language is Language.CPP else _COMMON_PATTERNS)
        _queries[language] = q
    return q


def _captures(language: Language, node: tree_sitter.Node) -> list[tuple[str, tree_sitter.Node]]:
    import tree_sitter
    captures = tree_sitter.QueryCursor(_query(language)).captures(node)
    out = [(name, n) for name, nodes in captures.items() for n in nodes]
    out.sort(key=lambda c: (c[1].start_byte, -c[1].end_byte))
    return out


_MODULE_WORD = re.compile(rb"(?:import|module|export)(?![A-Za-z0-9_:])")
_TRANSPARENT = frozenset({"declaration_list", "field_declaration_list", "preproc_if", "preproc_ifdef",
                          "preproc_else", "preproc_elif", "preproc_elifdef"})
_PARAMETER = frozenset({"dummy"})  # as Fortran calls a procedure's parameters
_THREAD_WORDS = frozenset({"_Thread_local", "__thread", "thread_local"})
_SPECIFIER_WORDS = frozenset({"static", "extern", "inline", "virtual", "constexpr", "register", "mutable",
                              "consteval", "constinit", "explicit", "friend", "typedef", "const", "volatile",
                              *_THREAD_WORDS})
_NAME_TYPES = frozenset({"identifier", "field_identifier", "qualified_identifier", "destructor_name",
                         "operator_name", "type_identifier", "template_function"})
_DECLARATOR_WRAPPERS = frozenset({"init_declarator", "pointer_declarator", "array_declarator",
                                  "reference_declarator", "parenthesized_declarator", "attributed_declarator"})
_WORD = re.compile(r"[A-Za-z_]\w*")


class _Builder:
    def __init__(self, document: Document, directives: list[Directive], structure: Structure,
                 fragment: str | None = None) -> None:
        self.doc = document
        self.src = document.source
        self.language = document.language
        self.in_body = 0                          # reading a function body (depth)
        self.directives = directives
        self.structure = structure
        root = Scope("file", "", (0, len(self.src)))
        self.model = FileModel(self.language, root, includes=find_includes(self.src, False))
        self.tags: dict[str, bool] = {}          # struct/union/class tag -> has a body in this file
        self.typedef_tag: dict[str, str] = {}    # typedef name -> struct tag it names
        self.polymorphic: set[str] = set()       # class names with virtual members
        self.prefixes: dict[int, str] = {}        # scope id -> "ns::Class::"
        self.modules_possible = document.language is Language.CPP and any(
            word in self.src for word in (b"import", b"export", b"module"))
        self.c_linkage: list[Span] = []           # extern "C" { ... } blocks
        self._targets: list[tuple[int, int, int]] | None = None   # (start, end, directive index)
        # the function whose body holds the include, when the file is a header read there
        self.fragment: str | None = fragment
        self._target_starts: list[int] = []
        self._target_parents: list[int] = []

    # -- helpers ---------------------------------------------------------------------------
    def text(self, node: tree_sitter.Node) -> str:
        return self.src[node.start_byte:node.end_byte].decode("utf-8", "replace")

    def qualified(self, scope: Scope, name: str) -> str:
        prefix = self.prefixes.get(id(scope))
        if prefix is None:
            parts = [s.name for s in scope.ancestors() if s.kind in ("namespace", "class") and s.name]
            prefix = "".join(p + "::" for p in reversed(parts))
            self.prefixes[id(scope)] = prefix
        return prefix + name

    def add(self, scope: Scope, symbol: Symbol) -> Symbol:
        scope.symbols.append(symbol)
        # what a body declares is its own (FileModel.locals): file-wide lookups must not depend on
        # which bodies someone has read
        (self.model.locals if self.in_body else self.model.symbols).append(symbol)
        return symbol

    # -- the pass --------------------------------------------------------------------------
    def build(self) -> FileModel:
        tree = self.doc.tree
        if tree is None:
            self.model.complete = False
            return self.model
        root = tree.root_node
        if self.fragment is not None:
            # a header included inside a function body: its text is that function's body
            fscope = Scope("function", self.fragment, (0, len(self.src)), self.model.root)
            self.model.root.children.append(fscope)
            defer(fscope, lambda: self.body(root, fscope))
            self.finish()
            self.model.reference_builder = self.references
            self.model.use_finder = self.first_use
            return self.model
        if root.has_error and _error_outside_bodies(root):
            self.model.complete = False   # (an error inside a function body: that function's scope, read_body)
        self.top(root, self.model.root, False)
        self.finish()
        self.model.reference_builder = self.references
        self.model.use_finder = self.first_use
        self.model.body_reader = self.read_again
        return self.model

    # -- file, namespace and class scope: a walk over the few nodes there -----------------
    def top(self, node: tree_sitter.Node, scope: Scope, template: bool) -> None:
        for child in node.named_children:
            t = child.type
            if self.modules_possible and _MODULE_WORD.match(self.src, child.start_byte):
                # `import m;`, `module m;` and every export-declaration (`export import m;`,
                # `export int f();`, `export { ... }`): C++20 spells module exports that way.
                # tree-sitter-cpp has no module grammar, so the first word decides.
                self.model.module_statements.append((child.start_byte, child.end_byte))
            if t == "function_definition":
                self.function(child, scope, template, deferred=True)
            elif t in ("declaration", "field_declaration"):
                self.declaration(child, scope, field=t == "field_declaration", template=template)
                self.nested_types(child, scope, template)
                if self.language is Language.CPP and b"[" in self.src[child.start_byte:child.end_byte]:
                    self.lambdas_in(child, scope)
            elif t in ("type_definition", "alias_declaration"):
                self.typedef(child, scope)
                self.nested_types(child, scope, template)
            elif t in ("struct_specifier", "class_specifier", "union_specifier"):
                self.class_(child, scope, template)
            elif t == "enum_specifier":
                self.enum(child, scope)
            elif t == "namespace_definition":
                self.namespace(child, scope)
            elif t == "linkage_specification":
                self.c_linkage.append((child.start_byte, child.end_byte))
                body = child.child_by_field_name("body")
                if body is not None:
                    self.top(body if body.type == "declaration_list" else child, scope, template)
            elif t == "template_declaration":
                self.top(child, scope, True)
            elif t in _TRANSPARENT:
                self.top(child, scope, template)
            elif t == "ERROR":
                self.model.complete = False
                self.top(child, scope, template)

    def nested_types(self, node: tree_sitter.Node, scope: Scope, template: bool) -> None:
        ty = node.child_by_field_name("type")
        if ty is None or ty.child_by_field_name("body") is None:
            return
        if ty.type == "enum_specifier":
            self.enum(ty, scope)
        elif ty.type in ("struct_specifier", "class_specifier", "union_specifier"):
            self.class_(ty, scope, template)

    def enum(self, node: tree_sitter.Node, scope: Scope) -> None:
        name = node.child_by_field_name("name")
        if name is not None and node.child_by_field_name("body") is not None:
            text = self.text(name)
            self.add(scope, Symbol(text, text, TYPE, (node.start_byte, node.end_byte),
                                   (name.start_byte, name.end_byte), scope, definition=True,
                                   qualified=self.qualified(scope, text)))

    def namespace(self, node: tree_sitter.Node, scope: Scope) -> Scope:
        name = node.child_by_field_name("name")
        text = self.text(name) if name is not None else ""
        body = node.child_by_field_name("body")
        ns = Scope("namespace", text, (body.start_byte if body else node.start_byte, node.end_byte), scope)
        if name is not None:
            ns.symbol = self.add(scope, Symbol(text, text, NAMESPACE, (node.start_byte, node.end_byte),
                                               (name.start_byte, name.end_byte), scope, definition=True,
                                               qualified=self.qualified(scope, text)))
        scope.children.append(ns)
        if body is not None:
            self.top(body, ns, False)
        return ns

    def lambdas_in(self, node: tree_sitter.Node, scope: Scope) -> None:
        for lam in _lambda_nodes(node):
            lscope = Scope("lambda", "", (lam.start_byte, lam.end_byte), scope)
            scope.children.append(lscope)
            self.model.lambdas.append(self.lambda_(lam, lscope))
            body = lam.child_by_field_name("body")
            if body is not None:
                defer(lscope, partial(self.body, body, lscope))

    # -- function bodies: read when someone looks inside (model.expand / scope_at) ---------
    def body(self, body: tree_sitter.Node | None, fscope: Scope, params: tree_sitter.Node | None = None) -> None:
        self.in_body += 1
        try:
            self.read_body(body, fscope, params)
        finally:
            self.in_body -= 1

    def read_body(self, body: tree_sitter.Node | None, fscope: Scope, params: tree_sitter.Node | None) -> None:
        self.parameter_symbols(params, fscope)
        if body is None:
            return
        if body.has_error:
            fscope.complete = False   # (what it declares may be hidden in the error)
        stack = [fscope]
        handled: set[int] = {body.id}
        for kind, node in _captures(self.language, body):
            start = node.start_byte
            while len(stack) > 1 and stack[-1].span[1] <= start:
                stack.pop()
            scope = stack[-1]
            if kind == "function":  # a member function of a local class
                stack.append(self.function(node, scope, False, deferred=False))
                inner = node.child_by_field_name("body")
                if inner is not None:
                    handled.add(inner.id)
            elif kind == "declaration" or kind == "field":
                if node.parent is not None and node.parent.type == "for_range_loop":
                    continue
                self.declaration(node, scope, field=kind == "field")
            elif kind == "typedef":
                self.typedef(node, scope)
            elif kind == "class":
                cscope = self.class_(node, scope, False, walk=False)
                if cscope is not None:
                    stack.append(cscope)
            elif kind == "enum":
                self.enum(node, scope)
            elif kind == "lambda":
                lam = Scope("lambda", "", (start, node.end_byte), scope)
                scope.children.append(lam)
                stack.append(lam)
                self.model.lambdas.append(self.lambda_(node, lam))
                inner = node.child_by_field_name("body")
                if inner is not None:
                    handled.add(inner.id)
            elif kind == "block":
                if node.id in handled:
                    continue
                block = Scope("block", "", (start, node.end_byte), scope)
                scope.children.append(block)
                stack.append(block)

    def read_again(self, document: Document, fscope: Scope, node: tree_sitter.Node) -> None:
        """FileModel.refresh_body: drop what the body of `fscope` declared (parameters, locals,
        lambdas, inner scopes) and defer reading it from `node`. The file's other nodes are the
        last tree's, at the same places with the same text in `document`."""
        self.doc, self.src = document, document.source
        inner = list(fscope.walk())
        gone = {id(s) for scope in inner for s in scope.symbols}
        for scope in inner:
            self.prefixes.pop(id(scope), None)
        model = self.model
        model.locals = [s for s in model.locals if id(s) not in gone]
        model.lambdas = [lam for lam in model.lambdas if not fscope.span[0] <= lam.span[0] < fscope.span[1]]
        model._by_key = None
        model.reference_builder, model._references = self.references, []   # read again when asked
        for key in [k for k in fscope.__dict__ if k.startswith("_")]:
            del fscope.__dict__[key]
        fscope.children, fscope.symbols = [], []
        decl = node.child_by_field_name("declarator")
        params = self.unwrap(decl)[4] if decl is not None else None
        body = node.child_by_field_name("body")
        defer(fscope, lambda: self.body(body, fscope, params))

    # -- declarations ----------------------------------------------------------------------
    def specifiers(self, node: tree_sitter.Node) -> frozenset[str]:
        words = set()
        for c in node.children:
            t = c.type
            if t in ("storage_class_specifier", "type_qualifier", "virtual", "virtual_function_specifier",
                     "explicit_function_specifier"):
                words.add(self.text(c).strip())
            elif t in ("declarator", "init_declarator"):
                break
        if node.type == "declaration" or node.type == "field_declaration":
            ty = node.child_by_field_name("type")
            if ty is not None and self.text(ty) in _THREAD_WORDS:  # tree-sitter misreads `_Thread_local int x`
                words.add(self.text(ty))
        return frozenset(words)

    def linkage(self, node: tree_sitter.Node, scope: Scope, specs: frozenset[str]) -> str:
        at = node.start_byte
        if any(lo <= at < hi for lo, hi in self.c_linkage):
            return "C"
        if scope.kind in ("block", "function", "lambda"):
            return "external" if "extern" in specs else ""
        if "static" in specs or any(s.kind == "namespace" and not s.name for s in scope.ancestors()):
            return "internal"
        return "external"

    def declaration(self, node: tree_sitter.Node, scope: Scope, field: bool = False, template: bool = False) -> None:
        if any(c.type == "ERROR" for c in node.children):
            self.fallback_declaration(node, scope)
            return
        specs = self.specifiers(node)
        type_node = node.child_by_field_name("type")
        type_text = self.type_text(type_node)
        template = template or (scope.kind == "class" and bool(scope.symbol and scope.symbol.template))
        for decl in node.children_by_field_name("declarator"):
            name_node, is_function, pointer, initialized, params = self.unwrap(decl)
            if name_node is None:
                continue
            name, qualified = self.names(name_node, scope)
            span = (node.start_byte, node.end_byte)
            name_span = (name_node.start_byte, name_node.end_byte)
            if is_function:
                self.add(scope, Symbol(name, name, FUNCTION, span, name_span, scope, definition=False,
                                       specifiers=specs, params=self.lazy_parameters(params),  # type: ignore[arg-type]  # deferred field: takes a function (records.deferred)
                                       return_type=type_text, template=template,
                                       linkage=self.linkage(node, scope, specs), qualified=qualified))
                continue
            if field and "static" not in specs:
                # a non-static data member: not a variable of its own, but it hides globals of
                # the same name inside the class's member functions
                self.add(scope, Symbol(name, name, FIELD, span, name_span, scope, qualified=qualified))
                continue
            self.add(scope, Symbol(name, name, VARIABLE, span, name_span, scope,
                                   definition="extern" not in specs or initialized,
                                   storage=self.storage(scope, specs), specifiers=specs,
                                   type_text=type_text + ("*" if pointer else ""),
                                   linkage=self.linkage(node, scope, specs), initialized=initialized,
                                   complete=True if pointer else None,  # finish() decides from the tags
                                   polymorphic=not pointer and self.type_name(type_node) in self.polymorphic,
                                   qualified=qualified, template=template))

    def fallback_declaration(self, node: tree_sitter.Node, scope: Scope) -> None:
        """A declaration tree-sitter could not read (e.g. `static _Thread_local int x;` in C++)."""
        text = self.text(node)
        head = re.split(r"[=;\[({]", text, maxsplit=1)[0]
        words = _WORD.findall(head)
        if len(words) < 2:
            return
        name = words[-1]
        at = self.src.find(name.encode(), node.start_byte + len(head.encode()) - len(name.encode()) - 8)
        if at < 0 or at >= node.end_byte:
            return
        specs = frozenset(w for w in words[:-1] if w in _SPECIFIER_WORDS)
        self.add(scope, Symbol(name, name, VARIABLE, (node.start_byte, node.end_byte), (at, at + len(name)), scope,
                               definition="extern" not in specs, storage=self.storage(scope, specs),
                               specifiers=specs, type_text=" ".join(w for w in words[:-1] if w not in specs),
                               linkage=self.linkage(node, scope, specs), initialized="=" in text,
                               qualified=self.qualified(scope, name)))

    def storage(self, scope: Scope, specs: frozenset[str]) -> str:
        if specs & _THREAD_WORDS:
            return THREAD
        if scope.kind in ("block", "function", "lambda") and not specs & {"static", "extern"}:
            return AUTOMATIC
        return STATIC

    def unwrap(self, decl: tree_sitter.Node) -> tuple[tree_sitter.Node | None, bool, bool, bool,
                                                     tree_sitter.Node | None]:
        """(name node, is a function, through a pointer/array, has an initializer, parameter list)."""
        is_function = pointer = initialized = False
        params: tree_sitter.Node | None = None
        node: tree_sitter.Node | None = decl
        # Declarators nest outside-in; the one nearest the name decides what the name is:
        # `T *f(int)` is a function (returning a pointer), `T (*f)(int)` a pointer variable.
        while node is not None and node.type not in _NAME_TYPES:
            t = node.type
            if t == "init_declarator":
                initialized = True
                node = node.child_by_field_name("declarator")
            elif t == "function_declarator":
                is_function = True
                params = node.child_by_field_name("parameters")
                node = node.child_by_field_name("declarator")
            elif t in _DECLARATOR_WRAPPERS:
                if t in ("pointer_declarator", "reference_declarator", "array_declarator"):
                    pointer = True
                    is_function = False
                node = node.child_by_field_name("declarator") or next(
                    (c for c in node.named_children if c.type in _NAME_TYPES or c.type.endswith("declarator")), None)
            else:
                return None, False, False, False, None
        if not is_function:
            params = None
        return node, is_function, pointer, initialized, params

    def parameters(self, plist: tree_sitter.Node | None) -> tuple[tuple[str, str], ...]:
        if plist is None:
            return ()
        out = []
        for p in plist.children:   # not only named ones: tree-sitter-cpp gives `...` as an anonymous node
            if p.type not in ("parameter_declaration", "optional_parameter_declaration",
                              "variadic_parameter_declaration"):
                if p.type in ("variadic_parameter", "..."):
                    out.append(("...", ""))
                continue
            ty = p.child_by_field_name("type")
            decl = p.child_by_field_name("declarator")
            name_node = self.unwrap(decl)[0] if decl is not None else None
            type_text = self.text(ty) if ty is not None else ""
            if decl is not None:
                # keep pointer/array/reference declarators in the type text
                whole = self.text(decl)
                nm = self.text(name_node) if name_node is not None else ""
                type_text += " " + whole.replace(nm, "", 1).strip() if whole != nm else ""
            out.append((" ".join(type_text.split()), self.text(name_node) if name_node is not None else ""))
        if out == [("void", "")]:
            return ()
        return tuple(out)

    def names(self, name_node: tree_sitter.Node, scope: Scope) -> tuple[str, str]:
        if name_node.type == "qualified_identifier":
            full = "".join(self.text(name_node).split())
            return full.split("::")[-1], self.qualified_from(scope, full)
        name = self.text(name_node)
        return name, self.qualified(scope, name)

    def qualified_from(self, scope: Scope, written: str) -> str:
        """The full name a qualified declarator (`Params::cutoff`, `::g`) declares in `scope`: its
        first part is looked up from the scope outwards, so inside `namespace md` it means
        `md::Params::cutoff` (the name the in-class declaration has), unless that part names one
        of the enclosing namespaces or classes itself (`b::X::y` inside `a::b`: `a::b::X::y`)."""
        if written.startswith("::"):
            return written[2:]   # from the global namespace
        enclosing = [p for p in self.qualified(scope, "").split("::") if p]
        first = written.split("::", 1)[0]
        at = next((k for k in range(len(enclosing) - 1, -1, -1) if enclosing[k] == first), len(enclosing))
        return "".join(p + "::" for p in enclosing[:at]) + written

    def type_name(self, type_node: tree_sitter.Node | None) -> str:
        if type_node is None:
            return ""
        if type_node.type in ("struct_specifier", "class_specifier", "union_specifier"):
            name = type_node.child_by_field_name("name")
            return self.text(name) if name is not None else ""
        return self.text(type_node)

    def type_text(self, type_node: tree_sitter.Node | None) -> str:
        if type_node is None:
            return ""
        if type_node.type in ("struct_specifier", "class_specifier", "union_specifier", "enum_specifier"):
            name = type_node.child_by_field_name("name")
            keyword = type_node.type.split("_")[0]
            return f"{keyword} {self.text(name)}" if name is not None else keyword
        return " ".join(self.text(type_node).split())

    def typedef(self, node: tree_sitter.Node, scope: Scope) -> None:
        ty = node.child_by_field_name("type")
        tag = self.type_name(ty) if ty is not None and ty.type.endswith("_specifier") else ""
        for decl in node.children_by_field_name("declarator"):
            name_node = decl if decl.type in _NAME_TYPES else self.unwrap(decl)[0]
            if name_node is None:
                continue
            name = self.text(name_node)
            if tag and decl.type in _NAME_TYPES:
                self.typedef_tag[name] = tag
            self.add(scope, Symbol(name, name, TYPE, (node.start_byte, node.end_byte),
                                   (name_node.start_byte, name_node.end_byte), scope, definition=True,
                                   qualified=self.qualified(scope, name)))
        if node.type == "alias_declaration":
            name_node = node.child_by_field_name("name")
            if name_node is not None:
                name = self.text(name_node)
                self.add(scope, Symbol(name, name, TYPE, (node.start_byte, node.end_byte),
                                       (name_node.start_byte, name_node.end_byte), scope, definition=True,
                                       qualified=self.qualified(scope, name)))

    def class_(self, node: tree_sitter.Node, scope: Scope, template: bool, walk: bool = True) -> Scope | None:
        name_node = node.child_by_field_name("name")
        body = node.child_by_field_name("body")
        name = self.text(name_node) if name_node is not None else ""
        if name_node is not None and name_node.type == "type_identifier":
            self.tags[name] = self.tags.get(name, False) or body is not None
        if body is None:
            return None
        symbol = None
        if name_node is not None:
            symbol = self.add(scope, Symbol(name, name, TYPE, (node.start_byte, node.end_byte),
                                            (name_node.start_byte, name_node.end_byte), scope, definition=True,
                                            template=template, qualified=self.qualified(scope, name)))
        if (_has_virtual(body) or any(self.text(b) in self.polymorphic for b in _bases(node))) and not self.in_body:
            self.polymorphic.add(name)   # (a local class: known in its body only)
            if symbol is not None:
                symbol.polymorphic = True
        cscope = Scope("class", name, (body.start_byte, body.end_byte), scope, symbol=symbol)
        scope.children.append(cscope)
        if walk:
            self.top(body, cscope, template)
        return cscope

    def function(self, node: tree_sitter.Node, scope: Scope, template: bool, deferred: bool) -> Scope:
        decl = node.child_by_field_name("declarator")
        name_node, _, _, _, params = self.unwrap(decl) if decl is not None else (None, False, False, False, None)
        fscope = Scope("function", "", (node.start_byte, node.end_byte), scope)
        if name_node is not None:
            name, qualified = self.names(name_node, scope)
            fscope.name = name
            specs = self.specifiers(node)
            ty = node.child_by_field_name("type")
            fscope.symbol = self.add(scope, Symbol(
                name, name, FUNCTION, (node.start_byte, node.end_byte), (name_node.start_byte, name_node.end_byte),
                scope, definition=True, specifiers=specs,
                params=self.lazy_parameters(params),  # type: ignore[arg-type]  # deferred field: takes a function (records.deferred)
                return_type=self.text(ty) if ty is not None else "",
                template=template or (scope.kind == "class" and bool(scope.symbol and scope.symbol.template)),
                linkage=self.linkage(node, scope, specs), qualified=qualified))
        scope.children.append(fscope)
        body = node.child_by_field_name("body")
        if deferred:
            defer(fscope, lambda: self.body(body, fscope, params))
        else:
            self.parameter_symbols(params, fscope)
        return fscope

    def parameter_symbols(self, plist: tree_sitter.Node | None, fscope: Scope) -> None:
        """Parameters are automatic variables of the function scope."""
        for pname, pspan, pdecl in self.parameter_names(plist):
            self.add(fscope, Symbol(pname, pname, VARIABLE, pdecl, pspan, fscope, definition=True, storage=AUTOMATIC,
                                    specifiers=_PARAMETER))

    def lazy_parameters(self, plist: tree_sitter.Node | None) -> Callable[[], tuple[tuple[str, str], ...]] | tuple[()]:
        return (lambda: self.parameters(plist)) if plist is not None else ()

    def parameter_names(self, plist: tree_sitter.Node | None) -> Iterator[tuple[str, Span, Span]]:
        for p in plist.named_children if plist is not None else ():
            d = p.child_by_field_name("declarator")
            n = self.unwrap(d)[0] if d is not None else None
            if n is not None:
                yield self.text(n), (n.start_byte, n.end_byte), (p.start_byte, p.end_byte)

    def finish(self) -> None:
        """Types completed anywhere in the file count as complete (C: at the end of the unit)."""
        has_user_include = self.model.user_includes()
        for s in self.model.symbols:
            if s.kind != VARIABLE or s.complete is not None:
                continue
            base = s.type_text.split()[-1] if s.type_text.split() else ""
            tag = self.typedef_tag.get(base, base)
            if tag in self.tags:
                defined = self.tags[tag]
                s.complete = True if defined else (None if has_user_include else False)
            if tag in self.polymorphic:
                s.polymorphic = True

    def lambda_(self, node: tree_sitter.Node, scope: Scope) -> Lambda:
        lam = Lambda((node.start_byte, node.end_byte))
        caps = node.child_by_field_name("captures")
        for c in caps.named_children if caps is not None else ():
            if c.type == "lambda_default_capture":
                lam.default_capture = self.text(c).strip()
            elif c.type == "identifier":
                lam.captures.append(Capture(self.text(c), (c.start_byte, c.end_byte)))
            elif c.type in ("lambda_capture_initializer",):
                continue
            else:
                ident = next((x for x in _descendants(c) if x.type == "identifier"), None)
                if ident is not None:
                    lam.captures.append(Capture(self.text(ident), (ident.start_byte, ident.end_byte),
                                                by_reference="&" in self.text(c)))
        body = node.child_by_field_name("body")
        if body is not None:
            lam.references = list(self.references_in(body, scope))
        return lam

    # -- C++20 modules (tree-sitter reads `import m;` as a declaration of a variable m) -----
    # -- references (lazy) -----------------------------------------------------------------
    def references(self) -> list[Reference]:
        out: list[Reference] = []
        tree = self.doc.tree
        if tree is None:
            return out
        self.model.expand()
        for scope in self.model.root.walk():
            if scope.kind == "function":
                out.extend(self.references_in_span(scope.span))
        for s in self.model.symbols:  # initializers of file- and namespace-scope variables
            if s.kind == VARIABLE and s.initialized and s.scope.kind in ("file", "namespace"):
                out.extend(self.references_in_span(s.span))
        out.sort(key=lambda r: r.span[0])
        return out

    def references_in_span(self, span: Span) -> Iterator[Reference]:
        tree = self.doc.tree
        if tree is None:
            return iter(())
        node = tree.root_node.descendant_for_byte_range(span[0], span[1])
        assert node is not None   # (a span of the file: inside the root)
        return self.references_in(node, None)

    def references_in(self, node: tree_sitter.Node, scope: Scope | None) -> Iterator[Reference]:
        for ident in _identifiers(self.language, node):
            if not _is_use(ident):
                continue
            parent = ident.parent
            assert parent is not None
            pt = parent.type
            call_node = parent.parent if pt == "qualified_identifier" else parent
            is_call = call_node is not None and call_node.type == "call_expression" and \
                call_node.child_by_field_name("function") in (ident, parent)
            name = self.text(ident)
            start = ident.start_byte
            where = scope if scope is not None else self.model.scope_at(start)
            yield Reference(name, name, (start, ident.end_byte), where, is_call, self.target_at(start))

    def first_use(self, symbol: Symbol, span: Span) -> Span | None:
        """FileModel.first_use: a plain search for the name, each hit checked in the tree."""
        tree = self.doc.tree
        if tree is None:
            return None
        root = tree.root_node
        for start, end in _word_occurrences(self.src, symbol.name.encode(), span):
            node = root.descendant_for_byte_range(start, end)
            if node is None or node.type != "identifier" or not _is_use(node):
                continue
            hits = self.model.visible(symbol.key, start)
            if hits and _same_entity(hits[0], symbol):
                return (start, end)
        return None

    def target_at(self, offset: int) -> int | None:
        """The innermost target region holding `offset` (directive index), or None."""
        if self._targets is None:
            extents = self.structure.extents
            found = sorted((extents[i][0], extents[i][1], i) for i, d in enumerate(self.directives)
                           if is_target_region(d) and i in extents)
            # each region's enclosing region, so that a lookup walks up instead of scanning back
            parents: list[int] = []
            stack: list[int] = []
            for k, (lo, _hi, _i) in enumerate(found):
                while stack and found[stack[-1]][1] <= lo:
                    stack.pop()
                parents.append(stack[-1] if stack else -1)
                stack.append(k)
            self._targets = found
            self._target_starts = [t[0] for t in found]
            self._target_parents = parents
        k = bisect_right(self._target_starts, offset) - 1
        while k >= 0:
            lo, hi, index = self._targets[k]
            if offset < hi:
                return index
            k = self._target_parents[k]
        return None


_DECLARATOR_PARENTS = frozenset({"init_declarator", "pointer_declarator", "array_declarator", "function_declarator",
                                 "reference_declarator", "parenthesized_declarator", "declaration",
                                 "parameter_declaration", "field_declaration"})

def _is_use(ident: tree_sitter.Node) -> bool:
    """An identifier that uses a name: not one that declares it (`int x`, `int S::x = 0`), a
    member after `.`/`->`, or the scope part of a qualified name."""
    parent = ident.parent
    if parent is None:
        return False
    if parent.type == "qualified_identifier" and parent.child_by_field_name("name") != ident:
        return False
    if parent.type == "field_expression" and parent.child_by_field_name("field") == ident:
        return False
    node = ident
    while node.parent is not None and node.parent.type == "qualified_identifier":
        node = node.parent
    outer = node.parent
    if outer is None or outer.type == "reference_declarator":
        return False   # (`double &x`: the grammar gives the name no field there)
    # (`int i, n, x;`: every declarator of the declaration, not only the first)
    return outer.type not in _DECLARATOR_PARENTS or not _is_declarator(outer, node)


def _is_declarator(outer: tree_sitter.Node, node: tree_sitter.Node) -> bool:
    """Whether `node` is in a `declarator` field of `outer`: found from its place, not by listing
    every declarator (a declaration of thousands of names, read once per name, is quadratic)."""
    if node.start_byte == node.end_byte:   # (a MISSING node, which the search by byte passes over)
        return node in outer.children_by_field_name("declarator")
    cursor = outer.walk()
    if cursor.goto_first_child_for_byte(node.start_byte) is None:
        return False
    while True:
        child = cursor.node
        if child == node:
            return cursor.field_name == "declarator"
        if child is None or child.start_byte > node.start_byte or not cursor.goto_next_sibling():
            return False


_NON_LOCAL = frozenset({"file", "namespace", "class"})


def _same_entity(found: Symbol, symbol: Symbol) -> bool:
    """The same declaration, or a redeclaration of it (prototype, definition) outside any function;
    a local, parameter or member of the same name is another entity."""
    return found is symbol or (found.kind == symbol.kind and found.qualified == symbol.qualified
                               and found.scope.kind in _NON_LOCAL and symbol.scope.kind in _NON_LOCAL)


def _word_occurrences(src: bytes, word: bytes, span: Span) -> Iterator[Span]:
    """Whole-word occurrences of `word` in src[span] (a plain search: no regex to compile per name)."""
    at, stop = span
    while True:
        at = src.find(word, at, stop)
        if at < 0:
            return
        end = at + len(word)
        before = src[at - 1:at]
        after = src[end:end + 1]
        if not (before.isalnum() or before in (b"_", b".")) and not (after.isalnum() or after == b"_"):
            yield (at, end)
        at = end


_ident_queries: dict[Language, tuple[tree_sitter.Query, int]] = {}
# Query cursors slow down more than linearly on nodes with very many children (a 10 MB table,
# one initializer of five million values, took minutes): a span larger than this is walked with a
# tree cursor instead, which finds the same identifiers in source order in linear time.
_WALKED_BYTES = 1 << 20


def _identifiers(language: Language, node: tree_sitter.Node,
                 within: tuple[int, int] | None = None) -> list[tree_sitter.Node]:
    """The identifiers under `node` (those that start inside `within` only, when given)."""
    import tree_sitter
    found = _ident_queries.get(language)
    if found is None:
        from ..syntax.document import parser_for
        parser = parser_for(language)
        assert parser is not None and parser.language is not None
        kind = parser.language.id_for_node_kind("identifier", True)
        assert kind is not None
        found = _ident_queries[language] = (tree_sitter.Query(parser.language, "(identifier) @id"), kind)
    q, kind = found
    lo, hi = within if within is not None else (node.start_byte, node.end_byte + 1)   # (+1: a missing one at the end)
    if hi - lo > _WALKED_BYTES:
        return _walked_identifiers(node, kind, lo, hi)
    cursor = tree_sitter.QueryCursor(q)
    if within is not None:
        cursor.set_byte_range(*within)
    found_ids = cursor.captures(node).get("id", [])
    if within is not None:
        found_ids = [n for n in found_ids if within[0] <= n.start_byte < within[1]]
    # in source order: the captures come out of order (a parameter after the locals), and
    # readers that expand bodies as they go (the call graph, the model's references) must not
    # depend on it
    found_ids.sort(key=_start_byte)
    return found_ids


def _start_byte(node: tree_sitter.Node) -> int:
    return node.start_byte


def _walked_identifiers(node: tree_sitter.Node, kind: int, lo: int, hi: int) -> list[tree_sitter.Node]:
    """The nodes of `kind` under `node` that start in [lo, hi), subtrees outside it skipped."""
    out: list[tree_sitter.Node] = []
    cursor = node.walk()
    while True:
        n = cursor.node
        assert n is not None
        if (n.end_byte > lo or n.start_byte == lo) and n.start_byte < hi:
            if n.kind_id == kind and n.start_byte >= lo:
                out.append(n)
            if cursor.goto_first_child():
                continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return out


def _lambda_nodes(node: tree_sitter.Node) -> Iterator[tree_sitter.Node]:
    """Lambda expressions in a declaration, outermost only (inner ones are read with their body)."""
    for c in node.named_children:
        if c.type == "lambda_expression":
            yield c
        else:
            yield from _lambda_nodes(c)


def _descendants(node: tree_sitter.Node) -> Iterator[tree_sitter.Node]:
    for c in node.named_children:
        yield c
        yield from _descendants(c)


def _bases(node: tree_sitter.Node) -> Iterator[tree_sitter.Node]:
    for c in node.named_children:
        if c.type == "base_class_clause":
            yield from (b for b in c.named_children if b.type in ("type_identifier", "qualified_identifier"))


def _has_virtual(body: tree_sitter.Node) -> bool:
    for member in body.named_children:
        for c in member.children:
            if c.type in ("virtual", "virtual_function_specifier") or (c.type == "storage_class_specifier"
                                                                     and c.text == b"virtual"):
                return True
    return False



_QUALIFIER = re.compile(rb"((?:::)?(?:[A-Za-z_]\w*\s*::\s*)+)$")


_NAMESPACE_SCOPES = frozenset({"file", "namespace", "class"})


def named_by(model: FileModel, source: bytes, ref: Reference) -> list[Symbol]:
    """The declarations a C/C++ reference names: a qualified name `ns::f` by its qualifier,
    otherwise what is visible from the reference's own scope (declared before it)."""
    start = ref.span[0]
    before = source[max(0, start - 128):start]
    m = _QUALIFIER.search(before) if before.rstrip().endswith(b"::") else None
    if m is None:
        for scope in ref.scope.ancestors():
            hits = [s for s in scope.declared(ref.key) if s.name_span[0] < start]
            if hits:
                return hits
        return []
    want = "".join(m.group(1).decode("utf-8", "replace").split()).lstrip(":") + ref.name
    # a qualified name names no local (whatever function bodies the model has read so far)
    return [s for s in model.named(ref.key) if s.name_span[0] < start and s.scope.kind in _NAMESPACE_SCOPES
            and (s.qualified == want or s.qualified.endswith("::" + want))]

def build_c_model(document: Document, directives: list[Directive], structure: Structure,
                  fragment: str | None = None) -> FileModel:
    """The model of a C/C++ file; `fragment`: the function whose body includes it (a header whose
    text is statements of that body)."""
    try:
        return _Builder(document, directives, structure, fragment).build()
    except RecursionError:
        model = FileModel(document.language, Scope("file", "", (0, len(document.source))),
                          includes=find_includes(document.source, False))
        model.complete = False
        return model


def _error_outside_bodies(root: tree_sitter.Node) -> bool:
    """Whether the tree has a syntax error (or a missing node) outside the bodies of function
    definitions: one inside a body hides nothing of the file's other declarations."""
    stack = [root]
    while stack:
        node = stack.pop()
        if not node.has_error:
            continue
        if node.is_error or node.is_missing:
            return True
        if node.type == "function_definition":
            body = node.child_by_field_name("body")
            stack.extend(c for c in node.children if body is None or c.id != body.id)
            continue
        stack.extend(node.children)
    return False
