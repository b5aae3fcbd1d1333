"""The OpenMP 4.5, 5.0, 5.1, 5.2 and 6.0 directive and clause tables.

Every row follows the shapes defined in `schema.py`. The data was derived from
LLVM's OMP.td (clause lists and first versions per directive) and completed from
the OpenMP specifications where OMP.td is silent or stricter than the spec.
Compound (combined and composite) directives take the union of the clauses of
their leaf constructs, with the exceptions the specification makes (no `nowait`
on parallel worksharing forms, no `ordered` on distribute parallel loops, no
`in_reduction` on parallel master/masked taskloop forms). When in doubt a clause
is allowed: a false "clause not allowed" is worse than a missed one.

Notes for readers:
* `since` 45 is the floor: anything present in OpenMP 4.5 (or an LLVM `ompx_`
  extension, which has no version) is marked 45.
* In 6.0 every multi-word directive name may also be spelled with underscores
  (`declare_target`, `target_enter_data`); the keys here use spaces only.
* `ordered` is block-associated unless it has a `depend` or `doacross` clause,
  in which case it is standalone (`standalone_with`).
"""
from __future__ import annotations

from collections.abc import Callable

from ..syntax.records import replace
from .schema import ClauseSpec, DirectiveSpec, Since

# ---------------------------------------------------------------------------
# Clauses
# ---------------------------------------------------------------------------

_MAP_TYPES = ("alloc", "to", "from", "tofrom", "release", "delete", "storage")
_DEP_TYPES = ("in", "out", "inout", "mutexinoutset", "inoutset", "depobj")
_MEMORY_ORDERS = ("seq_cst", "acq_rel", "acquire", "release", "relaxed")

_CLAUSE_ROWS: tuple[ClauseSpec, ...] = (
    # -- data-sharing and data-environment -------------------------------------
    ClauseSpec(
        "private", "list",
        doc="Gives each thread or task its own uninitialized copy of the listed variables.",
    ),
    ClauseSpec(
        "firstprivate", "list",
        doc="Private copies initialized from the original variables.",
    ),
    ClauseSpec(
        "lastprivate", "list",
        modifiers=("conditional",), modifier_since={"conditional": 50},
        doc="Private copies; the value of the sequentially last iteration is copied back.",
    ),
    ClauseSpec(
        "shared", "list",
        doc="The listed variables are shared by all threads or tasks of the region.",
    ),
    ClauseSpec(
        "default", "keyword", keywords=("shared", "none", "private", "firstprivate"), unique=True,
        doc="Sets the data-sharing attribute of variables referenced without an explicit one.",
    ),
    ClauseSpec(
        "copyin", "list",
        doc="Copies the primary thread's threadprivate values into each thread of the team.",
    ),
    ClauseSpec(
        "copyprivate", "list",
        doc="Broadcasts the values of private variables from the single thread to the others.",
    ),
    ClauseSpec(
        "reduction", "reduction",
        modifiers=("inscan", "task", "default", "original()"),
        modifier_since={"inscan": 50, "task": 50, "default": 50, "original()": 60},
        colon_required=True,
        doc="Private copies combined with the reduction identifier at the end of the region.",
    ),
    ClauseSpec(
        "in_reduction", "reduction", colon_required=True,
        doc="The task takes part in a reduction started by an enclosing construct.",
    ),
    ClauseSpec(
        "task_reduction", "reduction", colon_required=True,
        doc="Starts a reduction over the tasks of a taskgroup.",
    ),
    ClauseSpec(
        "linear", "linear",
        modifiers=("val", "ref", "uval", "step()"), modifier_since={"step()": 52},
        doc="Private copies whose value is linear in the iteration number, with an optional step.",
    ),
    ClauseSpec(
        "aligned", "aligned",
        doc="Declares the alignment in bytes of the listed pointers or arrays.",
    ),
    ClauseSpec(
        "uniform", "list",
        doc="The listed parameters have the same value in every concurrent SIMD call.",
    ),
    ClauseSpec(
        "nontemporal", "list",
        doc="Accesses to the listed variables have little temporal locality.",
    ),
    ClauseSpec(
        "allocate", "list",
        modifiers=("<expr>", "allocator()", "align()"),
        modifier_since={"allocator()": 51, "align()": 51},
        doc="Allocator (and alignment) used for the private copies of the listed variables.",
    ),
    ClauseSpec(
        "induction", "opaque",
        doc="Declares induction variables of the loop and how they advance (OpenMP 6.0).",
    ),
    # -- loop scheduling and shape ---------------------------------------------
    ClauseSpec(
        "collapse", "expr", unique=True,
        doc="Number of perfectly nested loops associated with the construct.",
    ),
    ClauseSpec(
        "ordered", "opt_expr", unique=True,
        doc="Allows ordered regions in the loop; with an argument, the number of doacross loops.",
    ),
    ClauseSpec(
        "schedule", "keyword_expr",
        keywords=("static", "dynamic", "guided", "auto", "runtime"),
        modifiers=("monotonic", "nonmonotonic", "simd"), unique=True,
        doc="How loop iterations are divided among the threads, with an optional chunk size.",
    ),
    ClauseSpec(
        "dist_schedule", "keyword_expr", keywords=("static",), unique=True,
        doc="How loop iterations are divided among the teams, with an optional chunk size.",
    ),
    ClauseSpec(
        "order", "keyword", keywords=("concurrent",),
        modifiers=("reproducible", "unconstrained"),
        modifier_since={"reproducible": 51, "unconstrained": 51}, unique=True,
        doc="Lets the loop iterations run in any order, including concurrently.",
    ),
    ClauseSpec(
        "bind", "keyword", keywords=("teams", "parallel", "thread"), unique=True,
        doc="The binding region of a loop construct.",
    ),
    ClauseSpec(
        "safelen", "expr", unique=True,
        doc="Maximum distance between iterations that may run concurrently in SIMD.",
    ),
    ClauseSpec(
        "simdlen", "expr", unique=True,
        doc="Preferred number of iterations to run concurrently in SIMD.",
    ),
    ClauseSpec(
        "inbranch", "none", unique=True,
        doc="The SIMD variant is always called from inside a conditional.",
    ),
    ClauseSpec(
        "notinbranch", "none", unique=True,
        doc="The SIMD variant is never called from inside a conditional.",
    ),
    ClauseSpec(
        "grainsize", "expr", modifiers=("strict",), modifier_since={"strict": 51}, unique=True,
        doc="Number of loop iterations per task created by taskloop.",
    ),
    ClauseSpec(
        "num_tasks", "expr", modifiers=("strict",), modifier_since={"strict": 51}, unique=True,
        doc="Number of tasks that taskloop creates.",
    ),
    ClauseSpec(
        "nogroup", "opt_expr", unique=True,
        doc="Omits the implicit taskgroup around the construct.",
    ),
    # -- loop transformations --------------------------------------------------
    ClauseSpec("sizes", "exprs", unique=True, doc="Tile or strip sizes, one per affected loop."),
    ClauseSpec("full", "none", unique=True, doc="Unrolls the loop completely."),
    ClauseSpec(
        "partial", "opt_expr", unique=True,
        doc="Unrolls the loop by the given (or an implementation-chosen) factor.",
    ),
    ClauseSpec(
        "permutation", "exprs", unique=True,
        doc="New order of the loops of the nest, as a permutation of 1..n.",
    ),
    ClauseSpec(
        "looprange", "exprs", unique=True,
        doc="First loop and number of loops of the sequence that fuse applies to.",
    ),
    ClauseSpec(
        "counts", "exprs", unique=True,
        doc="Iteration counts of the loops that split creates (omp_fill for the rest).",
    ),
    ClauseSpec(
        "apply", "opaque",
        doc="Applies further transformations to the loops a transformation generates (6.0).",
    ),
    # -- parallel, teams, tasks ------------------------------------------------
    ClauseSpec(
        "if", "expr",
        modifiers=(
            "parallel", "simd", "task", "taskloop", "target", "target data",
            "target enter data", "target exit data", "target update", "teams", "cancel",
            "taskgraph",
        ),
        modifier_since={"simd": 50, "cancel": 50, "teams": 52, "taskgraph": 60},
        unique_key="modifier",
        doc="Condition for the construct (or the leaf named by the modifier) to take effect.",
    ),
    ClauseSpec(
        "num_threads", "expr", modifiers=("strict",), modifier_since={"strict": 60}, unique=True,
        doc="Number of threads requested for the parallel region.",
    ),
    ClauseSpec(
        "proc_bind", "keyword", keywords=("master", "close", "spread", "primary"), unique=True,
        doc="Thread affinity policy for the team of the parallel region.",
    ),
    ClauseSpec(
        "safesync", "opt_expr", unique=True,
        doc="Threads of the team may synchronize safely with each other (OpenMP 6.0).",
    ),
    ClauseSpec(
        "num_teams", "expr", modifiers=("<expr>",), modifier_since={"<expr>": 51}, unique=True,
        doc="Number of teams to create, optionally as 'lower : upper'.",
    ),
    ClauseSpec(
        "thread_limit", "expr", unique=True,
        doc="Upper bound on the number of threads in each team or contention group.",
    ),
    ClauseSpec(
        "final", "expr", unique=True,
        doc="When true, the generated task and its descendants are final (run immediately).",
    ),
    ClauseSpec(
        "untied", "none", unique=True,
        doc="The task may resume on a different thread after suspension.",
    ),
    ClauseSpec(
        "mergeable", "none", unique=True,
        doc="The task may share the data environment of its generating task.",
    ),
    ClauseSpec(
        "priority", "expr", unique=True,
        doc="Hint for the execution order of the generated tasks.",
    ),
    ClauseSpec(
        "depend", "depend",
        modifiers=("iterator()",) + _DEP_TYPES + ("source", "sink"),
        modifier_since={"iterator()": 50, "mutexinoutset": 50, "depobj": 50, "inoutset": 51},
        colon_required=True,
        doc="Task dependences on the listed storage; 'source' (no colon) and 'sink' for doacross.",
    ),
    ClauseSpec(
        "doacross", "depend", modifiers=("source", "sink"), colon_required=True,
        doc="Cross-iteration dependences of an ordered loop nest (replaces depend(source/sink)).",
    ),
    ClauseSpec(
        "affinity", "list", modifiers=("iterator()",),
        doc="Hint to run the task close to the listed data.",
    ),
    ClauseSpec(
        "detach", "expr", unique=True,
        doc="Event handle that must be fulfilled before the task completes.",
    ),
    ClauseSpec(
        "threadset", "keyword", keywords=("omp_pool", "omp_team"), unique=True,
        doc="Which threads may execute the generated task (OpenMP 6.0).",
    ),
    ClauseSpec(
        "replayable", "opt_expr", unique=True,
        doc="The task may be recorded into and replayed from a taskgraph (OpenMP 6.0).",
    ),
    ClauseSpec(
        "transparent", "opt_expr", unique=True,
        doc="The task is a transparent task for dependences (OpenMP 6.0).",
    ),
    ClauseSpec(
        "graph_id", "expr", unique=True,
        doc="Identifier of the taskgraph record to use (OpenMP 6.0).",
    ),
    ClauseSpec(
        "graph_reset", "opt_expr", unique=True,
        doc="Discards the recorded taskgraph and records it again (OpenMP 6.0).",
    ),
    ClauseSpec(
        "filter", "expr", unique=True,
        doc="Thread number of the thread that executes the masked region.",
    ),
    # -- nowait ----------------------------------------------------------------
    ClauseSpec(
        "nowait", "opt_expr", unique=True,
        doc="Removes the implied barrier or lets the generated task be deferred.",
    ),
    # -- memory order and atomic -----------------------------------------------
    ClauseSpec("seq_cst", "none", unique=True, doc="Sequentially consistent memory order."),
    ClauseSpec("acq_rel", "none", unique=True, doc="Acquire-release memory order."),
    ClauseSpec("acquire", "none", unique=True, doc="Acquire memory order."),
    ClauseSpec("release", "none", unique=True, doc="Release memory order."),
    ClauseSpec("relaxed", "none", unique=True, doc="Relaxed memory order."),
    ClauseSpec("read", "none", unique=True, doc="Atomic read of a shared location."),
    ClauseSpec("write", "none", unique=True, doc="Atomic write of a shared location."),
    ClauseSpec(
        "update", "none", keywords=("in", "out", "inout", "mutexinoutset", "inoutset"), unique=True,
        doc="Atomic read-modify-write; on depobj, 'update(type)' changes the dependence type.",
    ),
    ClauseSpec(
        "capture", "none", unique=True,
        doc="Atomic update that also captures the old or new value.",
    ),
    ClauseSpec("compare", "none", unique=True, doc="Atomic conditional update (compare and swap)."),
    ClauseSpec("weak", "none", unique=True, doc="The atomic compare may fail spuriously."),
    ClauseSpec(
        "fail", "keyword", keywords=("seq_cst", "acquire", "relaxed"), unique=True,
        doc="Memory order of an atomic compare whose comparison fails.",
    ),
    ClauseSpec(
        "memscope", "keyword", keywords=("all", "cgroup", "device"), unique=True,
        doc="Set of threads the atomic operation must be atomic with respect to (OpenMP 6.0).",
    ),
    ClauseSpec(
        "hint", "expr", unique=True,
        doc="Synchronization hint (omp_sync_hint_* constant expression).",
    ),
    # -- cancellation construct types ------------------------------------------
    ClauseSpec(
        "parallel", "none", unique=True,
        doc="Cancels the innermost enclosing parallel region.",
    ),
    ClauseSpec(
        "sections", "none", unique=True,
        doc="Cancels the innermost enclosing sections region.",
    ),
    ClauseSpec(
        "for", "none", unique=True, lang="c",
        doc="Cancels the innermost enclosing worksharing-loop region.",
    ),
    ClauseSpec(
        "do", "none", unique=True, lang="fortran",
        doc="Cancels the innermost enclosing worksharing-loop region.",
    ),
    ClauseSpec(
        "taskgroup", "none", unique=True,
        doc="Cancels the innermost enclosing taskgroup region.",
    ),
    # -- ordered ---------------------------------------------------------------
    ClauseSpec(
        "threads", "none", unique=True,
        doc="The ordered region orders threads of the worksharing loop.",
    ),
    ClauseSpec(
        "simd", "none", unique=True,
        doc="The ordered region orders SIMD lanes of the simd loop.",
    ),
    # -- scan ------------------------------------------------------------------
    ClauseSpec("inclusive", "list", doc="The scan includes the current iteration's contribution."),
    ClauseSpec("exclusive", "list", doc="The scan excludes the current iteration's contribution."),
    ClauseSpec(
        "init_complete", "opt_expr", unique=True,
        doc="Marks the end of the initialization phase of a scan (OpenMP 6.0).",
    ),
    # -- device ----------------------------------------------------------------
    ClauseSpec(
        "device", "expr", modifiers=("ancestor", "device_num"),
        modifier_since={"ancestor": 50, "device_num": 50}, unique=True,
        doc="Device on which the construct executes.",
    ),
    ClauseSpec(
        "map", "list",
        modifiers=(
            "always", "close", "present", "self", "mapper()", "iterator()",
            "ref_ptee", "ref_ptr", "ref_ptr_ptee", "ompx_hold",
        ) + _MAP_TYPES,
        modifier_since={
            "close": 50, "mapper()": 50, "present": 51, "iterator()": 51,
            "self": 60, "storage": 60, "ref_ptee": 60, "ref_ptr": 60, "ref_ptr_ptee": 60,
        },
        doc="Maps the listed variables between the host and the device data environment.",
    ),
    ClauseSpec(
        "defaultmap", "defaultmap",
        keywords=(
            "alloc", "to", "from", "tofrom", "firstprivate", "none", "default", "present",
            "storage", "private",
        ),
        categories=("scalar", "aggregate", "pointer", "allocatable", "all"),
        unique_key="category",
        doc="Implicit data-mapping behavior for a category of variables.",
    ),
    ClauseSpec("is_device_ptr", "list", doc="The listed pointers already hold device addresses."),
    ClauseSpec(
        "has_device_addr", "list",
        doc="The listed variables already have device addresses.",
    ),
    ClauseSpec(
        "use_device_ptr", "list",
        doc="Inside the region, the listed pointers hold device addresses.",
    ),
    ClauseSpec(
        "use_device_addr", "list",
        doc="Inside the region, the listed variables refer to their device storage.",
    ),
    ClauseSpec(
        "to", "list", modifiers=("present", "mapper()", "iterator()"),
        modifier_since={"present": 51, "mapper()": 50, "iterator()": 51},
        doc="target update: copy to the device; declare target: device symbols (5.2: use enter).",
    ),
    ClauseSpec(
        "from", "list", modifiers=("present", "mapper()", "iterator()"),
        modifier_since={"present": 51, "mapper()": 50, "iterator()": 51},
        doc="Copies the listed variables from the device to the host.",
    ),
    ClauseSpec(
        "link", "list",
        doc="The listed variables are mapped on demand rather than replicated on the device.",
    ),
    ClauseSpec(
        "enter", "list", modifiers=("automap",), modifier_since={"automap": 60},
        doc="The listed procedures and variables are made available on the device.",
    ),
    ClauseSpec(
        "local", "list",
        doc="The listed variables get a separate copy on each device (OpenMP 6.0).",
    ),
    ClauseSpec(
        "device_type", "keyword", keywords=("host", "nohost", "any"), unique=True,
        doc="Device kinds for which the declaration applies.",
    ),
    ClauseSpec(
        "indirect", "opt_expr", unique=True,
        doc="The procedures may be called through a function pointer on the device.",
    ),
    ClauseSpec(
        "uses_allocators", "uses_allocators", modifiers=("traits()", "memspace()"),
        modifier_since={"traits()": 51, "memspace()": 51},
        doc="Allocators made available inside the target region.",
    ),
    ClauseSpec(
        "dyn_groupprivate", "opaque", unique=True,
        doc="Size of dynamic groupprivate memory for each team (OpenMP 6.0).",
    ),
    # -- memory allocators -----------------------------------------------------
    ClauseSpec("allocator", "expr", unique=True, doc="Allocator used by the allocate directive."),
    ClauseSpec("align", "expr", unique=True, doc="Byte alignment of the allocated variables."),
    # -- requires --------------------------------------------------------------
    ClauseSpec(
        "reverse_offload", "opt_expr", unique=True,
        doc="Requires support for target regions that run back on the host.",
    ),
    ClauseSpec(
        "unified_address", "opt_expr", unique=True,
        doc="Requires a single address space shared by host and devices.",
    ),
    ClauseSpec(
        "unified_shared_memory", "opt_expr", unique=True,
        doc="Requires memory accessible from host and devices without mapping.",
    ),
    ClauseSpec(
        "dynamic_allocators", "opt_expr", unique=True,
        doc="Requires allocators that can be used inside target regions.",
    ),
    ClauseSpec(
        "self_maps", "opt_expr", unique=True,
        doc="Requires every mapping to be a self map (device uses host storage).",
    ),
    ClauseSpec(
        "device_safesync", "opt_expr", unique=True,
        doc="Requires device threads to be able to synchronize safely (OpenMP 6.0).",
    ),
    ClauseSpec(
        "atomic_default_mem_order", "keyword", keywords=_MEMORY_ORDERS, unique=True,
        doc="Default memory order of atomic constructs in the compilation unit.",
    ),
    # -- declare variant, dispatch, interop ------------------------------------
    ClauseSpec(
        "match", "selector", unique=True,
        doc="Context selector under which the variant replaces the base function.",
    ),
    ClauseSpec(
        "adjust_args", "adjust_args",
        modifiers=("need_device_ptr", "need_device_ptr()", "need_device_addr", "nothing"),
        modifier_since={"need_device_ptr()": 60, "need_device_addr": 60},
        colon_required=True,
        doc="How arguments of the base call are adjusted when the variant is called.",
    ),
    ClauseSpec(
        "append_args", "append_args", unique=True,
        doc="Extra interop arguments appended to the variant call.",
    ),
    ClauseSpec(
        "novariants", "expr", unique=True,
        doc="When true, the base function is called instead of a variant.",
    ),
    ClauseSpec(
        "nocontext", "expr", unique=True,
        doc="When true, the dispatch construct is not added to the construct trait set.",
    ),
    ClauseSpec(
        "interop", "list",
        doc="Interop objects passed to the variant called by dispatch (OpenMP 6.0).",
    ),
    ClauseSpec(
        "init", "list", modifiers=("target", "targetsync", "prefer_type()"),
        doc="Initializes an interop object for the given interop types.",
    ),
    ClauseSpec("use", "expr", doc="Interop object used by the interop construct."),
    ClauseSpec("destroy", "opt_expr", doc="Destroys an interop object or a depend object."),
    # -- metadirective ---------------------------------------------------------
    ClauseSpec(
        "when", "when",
        doc="Directive variant selected when the context selector matches.",
    ),
    ClauseSpec(
        "otherwise", "opaque", unique=True,
        doc="Directive variant used when no when clause matches.",
    ),
    # -- declare reduction, declare induction ----------------------------------
    ClauseSpec(
        "initializer", "opaque", unique=True,
        doc="How private copies of a user-defined reduction are initialized.",
    ),
    ClauseSpec(
        "combiner", "opaque", unique=True,
        doc="Combiner expression of a user-defined reduction (OpenMP 6.0).",
    ),
    ClauseSpec(
        "inductor", "opaque", unique=True,
        doc="Expression that advances a user-defined induction (OpenMP 6.0).",
    ),
    ClauseSpec(
        "collector", "opaque", unique=True,
        doc="Expression that computes a step multiple for a user-defined induction (OpenMP 6.0).",
    ),
    # -- error -----------------------------------------------------------------
    ClauseSpec(
        "at", "keyword", keywords=("compilation", "execution"), unique=True,
        doc="Whether the error is reported at compile time or at run time.",
    ),
    ClauseSpec(
        "severity", "keyword", keywords=("fatal", "warning"), unique=True,
        doc="Whether the error is fatal or only a warning.",
    ),
    ClauseSpec("message", "expr", unique=True, doc="Text printed with the error or warning."),
    # -- assumptions -----------------------------------------------------------
    ClauseSpec(
        "absent", "list", unique=True,
        doc="The listed directives do not appear in the scope.",
    ),
    ClauseSpec(
        "contains", "list", unique=True,
        doc="The listed directives are likely to appear in the scope.",
    ),
    ClauseSpec("holds", "expr", doc="The expression is true throughout the scope."),
    ClauseSpec(
        "no_openmp", "opt_expr", unique=True,
        doc="No OpenMP code is executed in the scope.",
    ),
    ClauseSpec(
        "no_openmp_routines", "opt_expr", unique=True,
        doc="No OpenMP runtime routines are called in the scope.",
    ),
    ClauseSpec(
        "no_openmp_constructs", "opt_expr", unique=True,
        doc="No OpenMP constructs are encountered in the scope (OpenMP 6.0).",
    ),
    ClauseSpec(
        "no_parallelism", "opt_expr", unique=True,
        doc="No parallelism is generated in the scope.",
    ),
    # -- LLVM extensions -------------------------------------------------------
    ClauseSpec(
        "ompx_attribute", "opaque", lang="c",
        doc="LLVM extension: attaches attributes (e.g. launch bounds) to the outlined kernel.",
    ),
    ClauseSpec(
        "ompx_bare", "none", unique=True,
        doc="LLVM extension: launches target teams as a bare kernel, without the device runtime.",
    ),
    ClauseSpec(
        "ompx_dyn_cgroup_mem", "expr", unique=True,
        doc="LLVM extension: bytes of dynamic shared (team) memory for the kernel.",
    ),
)

CLAUSES: dict[str, ClauseSpec] = {spec.name: spec for spec in _CLAUSE_ROWS}

# ---------------------------------------------------------------------------
# Clause sets of the leaf constructs, reused for compound constructs.
# Values are the first OpenMP version that allows the clause on that leaf.
# ---------------------------------------------------------------------------

PARALLEL: dict[str, Since] = {
    "allocate": 50, "copyin": 45, "default": 45, "firstprivate": 45, "if": 45,
    "message": 60, "num_threads": 45, "ompx_attribute": 45, "private": 45,
    "proc_bind": 45, "reduction": 45, "safesync": 60, "severity": 60, "shared": 45,
}
# Worksharing loop without ordered and nowait (distribute parallel loops take neither).
WSLOOP_BASE: dict[str, Since] = {
    "allocate": 50, "collapse": 45, "firstprivate": 45, "induction": 60,
    "lastprivate": 45, "linear": 45, "order": 50, "private": 45, "reduction": 45,
    "schedule": 45,
}
# Worksharing loop without nowait (the parallel forms do not accept nowait).
WSLOOP: dict[str, Since] = {**WSLOOP_BASE, "ordered": 45}
FOR: dict[str, Since] = {**WSLOOP, "nowait": 45}
SIMD: dict[str, Since] = {
    "aligned": 45, "allocate": 50, "collapse": 45, "if": 50, "induction": 60,
    "lastprivate": 45, "linear": 45, "nontemporal": 50, "order": 50, "private": 45,
    "reduction": 45, "safelen": 45, "simdlen": 45,
}
DISTRIBUTE: dict[str, Since] = {
    "allocate": 50, "collapse": 45, "dist_schedule": 45, "firstprivate": 45,
    "lastprivate": 45, "order": 50, "private": 45,
}
# distribute + parallel worksharing loop: no ordered, no nowait.
DIST_PAR_LOOP: dict[str, Since] = {**WSLOOP_BASE, **DISTRIBUTE, **PARALLEL}
LOOP: dict[str, Since] = {
    "bind": 50, "collapse": 50, "lastprivate": 50, "order": 50, "private": 50,
    "reduction": 50,
}
TEAMS: dict[str, Since] = {
    "allocate": 50, "default": 45, "dyn_groupprivate": 60, "firstprivate": 45,
    "if": 52, "num_teams": 45, "ompx_attribute": 45, "private": 45,
    "reduction": 45, "shared": 45, "thread_limit": 45,
}
TARGET: dict[str, Since] = {
    "allocate": 50, "default": 60, "defaultmap": 45, "depend": 45, "device": 45,
    "dyn_groupprivate": 60, "firstprivate": 45, "has_device_addr": 51, "if": 45,
    "in_reduction": 50, "is_device_ptr": 45, "map": 45, "nowait": 45,
    "ompx_attribute": 45, "ompx_dyn_cgroup_mem": 45, "private": 45,
    "replayable": 60, "thread_limit": 51, "uses_allocators": 50,
}
# target + teams: `if` is 4.5 through target, default/thread_limit 4.5 through teams.
TARGET_TEAMS: dict[str, Since] = {**TARGET, **TEAMS, "if": 45}
TASK: dict[str, Since] = {
    "affinity": 50, "allocate": 50, "default": 45, "depend": 45, "detach": 50,
    "final": 45, "firstprivate": 45, "if": 45, "in_reduction": 50, "mergeable": 45,
    "priority": 45, "private": 45, "replayable": 60, "shared": 45, "threadset": 60,
    "transparent": 60, "untied": 45,
}
# taskloop without in_reduction (the parallel master/masked taskloop forms do not take it).
TASKLOOP_BASE: dict[str, Since] = {
    "allocate": 50, "collapse": 45, "default": 45, "final": 45, "firstprivate": 45,
    "grainsize": 45, "if": 45, "induction": 60, "lastprivate": 45, "mergeable": 45,
    "nogroup": 45, "num_tasks": 45, "priority": 45, "private": 45, "reduction": 50,
    "replayable": 60, "shared": 45, "threadset": 60, "transparent": 60, "untied": 45,
}
TASKLOOP: dict[str, Since] = {**TASKLOOP_BASE, "in_reduction": 50}
# taskloop simd: `if` is 4.5 through taskloop (5.0 through simd).
TASKLOOP_SIMD: dict[str, Since] = {**SIMD, **TASKLOOP}
PAR_TASKLOOP: dict[str, Since] = {**TASKLOOP_BASE, **PARALLEL}
PAR_TASKLOOP_SIMD: dict[str, Since] = {**SIMD, **PAR_TASKLOOP}
MASKED: dict[str, Since] = {"filter": 51}
SECTIONS: dict[str, Since] = {
    "allocate": 50, "firstprivate": 45, "lastprivate": 45, "private": 45,
    "reduction": 45,
}
SINGLE: dict[str, Since] = {"allocate": 50, "copyprivate": 45, "firstprivate": 45, "nowait": 45, "private": 45}
SCOPE: dict[str, Since] = {"allocate": 52, "firstprivate": 52, "nowait": 51, "private": 51, "reduction": 51}
ASSUMPTIONS: dict[str, Since] = {
    "absent": 51, "contains": 51, "holds": 51, "no_openmp": 51,
    "no_openmp_routines": 51, "no_openmp_constructs": 60, "no_parallelism": 51,
}
CANCEL_TYPES: dict[str, Since] = {"parallel": 45, "sections": 45, "for": 45, "do": 45, "taskgroup": 45}
DECLARE_TARGET: dict[str, Since] = {
    "device_type": 50, "enter": 52, "indirect": 51, "link": 45, "local": 60, "to": 45,
}
DECLARE_SIMD: dict[str, Since] = {
    "aligned": 45, "inbranch": 45, "linear": 45, "notinbranch": 45, "simdlen": 45,
    "uniform": 45,
}
REQUIRES: dict[str, Since] = {
    "atomic_default_mem_order": 50, "device_safesync": 60, "dynamic_allocators": 50,
    "reverse_offload": 50, "self_maps": 60, "unified_address": 50,
    "unified_shared_memory": 50,
}
ATOMIC: dict[str, Since] = {
    "acq_rel": 50, "acquire": 50, "capture": 45, "compare": 51, "fail": 51,
    "hint": 50, "memscope": 60, "read": 45, "relaxed": 50, "release": 50,
    "seq_cst": 45, "update": 45, "weak": 51, "write": 45,
}
METADIRECTIVE: dict[str, Since] = {"default": (50, 52), "otherwise": 52, "when": 50}

# Clauses allowed at most once per leaf (OMP.td allowedOnceClauses). `if` and
# `defaultmap` are left to their per-modifier / per-category rules; `holds` is left
# repeatable.
ONCE_PARALLEL = frozenset({
    "default", "message", "num_threads", "proc_bind", "safesync", "severity",
})
ONCE_WSLOOP = frozenset({"collapse", "order", "ordered", "schedule"})
ONCE_FOR = ONCE_WSLOOP | {"nowait"}
ONCE_SIMD = frozenset({"collapse", "order", "safelen", "simdlen"})
ONCE_DISTRIBUTE = frozenset({"collapse", "dist_schedule", "order"})
ONCE_LOOP = frozenset({"bind", "collapse", "order"})
ONCE_TEAMS = frozenset({"default", "dyn_groupprivate", "num_teams", "thread_limit"})
ONCE_TARGET = frozenset({
    "default", "device", "dyn_groupprivate", "nowait", "ompx_dyn_cgroup_mem", "replayable",
    "thread_limit",
})
ONCE_TASK = frozenset({
    "default", "detach", "final", "priority", "replayable", "threadset", "transparent",
})
ONCE_TASKLOOP = frozenset({
    "collapse", "default", "final", "grainsize", "num_tasks", "priority", "replayable",
    "threadset", "transparent",
})
ONCE_ASSUMPTIONS = frozenset({
    "absent", "contains", "no_openmp", "no_openmp_routines", "no_openmp_constructs",
    "no_parallelism",
})

ONCE_DIST_PAR_LOOP = ONCE_DISTRIBUTE | ONCE_PARALLEL | {"schedule"}
ONCE_TARGET_TEAMS = ONCE_TARGET | ONCE_TEAMS
ONCE_PAR_TASKLOOP = ONCE_PARALLEL | ONCE_TASKLOOP | {"filter"}

# Clause sets of which at most one member may appear on a directive (DirectiveSpec.exclusive),
# each from a restriction of the specification (5.1 numbering). Only what the spec says:
# `nowait` with `depend`, or `to` with `enter` on one declare target, may appear together.
MEMORY_ORDER = frozenset(_MEMORY_ORDERS)  # 2.19.7, 2.19.8: at most one memory-order-clause
EXCLUSIVE_ATOMIC = (frozenset({"read", "write", "update"}), MEMORY_ORDER)  # 2.19.7: at most one atomic-clause
EXCLUSIVE_FLUSH = (MEMORY_ORDER,)
EXCLUSIVE_DECLARE_SIMD = (frozenset({"inbranch", "notinbranch"}),)  # 2.11.5.3: [inbranch | notinbranch]
EXCLUSIVE_UNROLL = (frozenset({"full", "partial"}),)  # 2.11.9.2: "unroll [clause]", one of full, partial
EXCLUSIVE_TASK = (frozenset({"detach", "mergeable"}),)  # 2.12.1: no mergeable with a detach clause
# 2.12.2: grainsize and num_tasks are mutually exclusive; no reduction with nogroup.
EXCLUSIVE_TASKLOOP = (frozenset({"grainsize", "num_tasks"}), frozenset({"nogroup", "reduction"}))

# ---------------------------------------------------------------------------
# Directives
# ---------------------------------------------------------------------------

_DIRECTIVE_ROWS: tuple[DirectiveSpec, ...] = (
    # -- parallelism -----------------------------------------------------------
    DirectiveSpec(
        "parallel", "executable", "block", PARALLEL, unique=ONCE_PARALLEL,
        doc="Creates a team of threads that execute the region.",
    ),
    DirectiveSpec(
        "teams", "executable", "block", TEAMS, unique=ONCE_TEAMS,
        doc="Creates a league of teams; the initial thread of each executes the region.",
    ),
    DirectiveSpec(
        "simd", "executable", "loop", SIMD, unique=ONCE_SIMD,
        doc="Executes loop iterations concurrently using SIMD instructions.",
    ),
    DirectiveSpec(
        "masked", "executable", "block", MASKED, unique=frozenset({"filter"}), since=51,
        doc="Only the thread selected by the filter (default: the primary) executes the region.",
    ),
    DirectiveSpec(
        "master", "executable", "block",
        doc="Only the primary thread executes the region (deprecated in 5.1; use masked).",
    ),
    # -- worksharing -----------------------------------------------------------
    DirectiveSpec(
        "for", "executable", "loop", FOR, unique=ONCE_FOR, lang="c",
        doc="Divides the loop iterations among the threads of the team.",
    ),
    DirectiveSpec(
        "do", "executable", "loop", FOR, unique=ONCE_FOR, lang="fortran",
        doc="Divides the loop iterations among the threads of the team.",
    ),
    DirectiveSpec(
        "for simd", "executable", "loop", {**SIMD, **FOR}, unique=ONCE_FOR | ONCE_SIMD, lang="c",
        doc="Worksharing loop whose chunks are executed with SIMD instructions.",
    ),
    DirectiveSpec(
        "do simd", "executable", "loop", {**SIMD, **FOR}, unique=ONCE_FOR | ONCE_SIMD,
        lang="fortran",
        doc="Worksharing loop whose chunks are executed with SIMD instructions.",
    ),
    DirectiveSpec(
        "sections", "executable", "block", {**SECTIONS, "nowait": 45}, unique=frozenset({"nowait"}),
        doc="Distributes the enclosed section blocks among the threads of the team.",
    ),
    DirectiveSpec(
        "section", "subsidiary", "separating",
        doc="Starts the next structured block of a sections construct.",
    ),
    DirectiveSpec(
        "single", "executable", "block", SINGLE, unique=frozenset({"nowait"}),
        doc="Only one thread of the team executes the region.",
    ),
    DirectiveSpec(
        "workshare", "executable", "block", {"nowait": 45}, unique=frozenset({"nowait"}),
        lang="fortran",
        doc="Divides the work of array statements and similar constructs among the threads.",
    ),
    DirectiveSpec(
        "workdistribute", "executable", "block", since=60, lang="fortran",
        doc="Divides the work of array statements among the teams of a league (OpenMP 6.0).",
    ),
    DirectiveSpec(
        "scope", "executable", "block", SCOPE, unique=frozenset({"nowait"}), since=51,
        doc="A region executed by all threads of the team, with its own data environment.",
    ),
    DirectiveSpec(
        "distribute", "executable", "loop", DISTRIBUTE, unique=ONCE_DISTRIBUTE,
        doc="Divides the loop iterations among the initial threads of the teams.",
    ),
    DirectiveSpec(
        "loop", "executable", "loop", LOOP, unique=ONCE_LOOP, since=50,
        doc="The loop iterations may run concurrently; the binding decides how.",
    ),
    # -- loop transformations --------------------------------------------------
    DirectiveSpec(
        "tile", "executable", "loop", {"apply": 60, "sizes": 51}, unique=frozenset({"sizes"}),
        since=51,
        doc="Tiles the loop nest with the given tile sizes.",
    ),
    DirectiveSpec(
        "unroll", "executable", "loop", {"apply": 60, "full": 51, "partial": 51},
        unique=frozenset({"full", "partial"}), since=51,
        exclusive=EXCLUSIVE_UNROLL,
        doc="Unrolls the loop fully or partially.",
    ),
    DirectiveSpec(
        "interchange", "executable", "loop", {"apply": 60, "permutation": 60},
        unique=frozenset({"permutation"}), since=60,
        doc="Reorders the loops of the nest.",
    ),
    DirectiveSpec(
        "reverse", "executable", "loop", {"apply": 60}, since=60,
        doc="Reverses the iteration order of the loop.",
    ),
    DirectiveSpec(
        "fuse", "executable", "block", {"apply": 60, "looprange": 60},
        unique=frozenset({"looprange"}), since=60,
        doc="Fuses a sequence of loops into one loop (Fortran: closed by end fuse).",
    ),
    DirectiveSpec(
        "split", "executable", "loop", {"apply": 60, "counts": 60}, unique=frozenset({"counts"}),
        since=60,
        doc="Splits the iteration space of the loop into several loops.",
    ),
    DirectiveSpec(
        "stripe", "executable", "loop", {"apply": 60, "sizes": 60}, unique=frozenset({"sizes"}),
        since=60,
        doc="Strip-mines the loop nest with the given sizes.",
    ),
    # -- tasking ---------------------------------------------------------------
    DirectiveSpec(
        "task", "executable", "block", TASK, unique=ONCE_TASK,
        exclusive=EXCLUSIVE_TASK,
        doc="Creates an explicit task from the region.",
    ),
    DirectiveSpec(
        "taskloop", "executable", "loop", TASKLOOP, unique=ONCE_TASKLOOP,
        exclusive=EXCLUSIVE_TASKLOOP,
        doc="Divides the loop iterations into explicit tasks.",
    ),
    DirectiveSpec(
        "taskloop simd", "executable", "loop", TASKLOOP_SIMD, unique=ONCE_TASKLOOP | ONCE_SIMD,
        exclusive=EXCLUSIVE_TASKLOOP,
        doc="Taskloop whose tasks execute their iterations with SIMD instructions.",
    ),
    DirectiveSpec(
        "task iteration", "subsidiary", "none", {"affinity": 60, "depend": 60, "if": 60}, since=60,
        doc="Gives per-iteration dependences to the tasks of an enclosing taskloop (OpenMP 6.0).",
    ),
    DirectiveSpec(
        "taskgraph", "executable", "block",
        {"graph_id": 60, "graph_reset": 60, "if": 60, "nogroup": 60},
        unique=frozenset({"graph_id", "graph_reset", "nogroup"}), since=60,
        doc="Records the tasks of the region so they can be replayed (OpenMP 6.0).",
    ),
    DirectiveSpec(
        "taskgroup", "executable", "block", {"allocate": 50, "task_reduction": 50},
        doc="Waits at its end for all tasks created in the region and their descendants.",
    ),
    DirectiveSpec(
        "taskwait", "executable", "none", {"depend": 50, "nowait": 51, "replayable": 60},
        unique=frozenset({"nowait", "replayable"}),
        doc="Waits for the child tasks of the current task (or for the given dependences).",
    ),
    DirectiveSpec(
        "taskyield", "executable", "none",
        doc="The current task may be suspended in favor of another task.",
    ),
    # -- synchronization -------------------------------------------------------
    DirectiveSpec(
        "critical", "executable", "block", {"hint": 45}, unique=frozenset({"hint"}),
        argument="name",
        doc="Mutual exclusion: one thread at a time executes regions with the same name.",
    ),
    DirectiveSpec(
        "barrier", "executable", "none",
        doc="All threads of the team wait here for each other.",
    ),
    DirectiveSpec(
        "flush", "executable", "none",
        {"acq_rel": 50, "acquire": 50, "release": 50, "seq_cst": 51},
        unique=frozenset({"acq_rel", "acquire", "release", "seq_cst"}), argument="list",
        exclusive=EXCLUSIVE_FLUSH,
        doc="Makes the thread's view of memory (or of the listed variables) consistent.",
    ),
    DirectiveSpec(
        "atomic", "executable", "statement", ATOMIC, unique=frozenset(ATOMIC),
        exclusive=EXCLUSIVE_ATOMIC,
        doc="The associated statement accesses a storage location atomically.",
    ),
    DirectiveSpec(
        "ordered", "executable", "block",
        {"depend": 45, "doacross": 52, "simd": 45, "threads": 45},
        unique=frozenset({"simd", "threads"}), standalone_with=frozenset({"depend", "doacross"}),
        doc="Executes the region in loop iteration order; with depend/doacross it is standalone.",
    ),
    DirectiveSpec(
        "cancel", "executable", "none", {**CANCEL_TYPES, "if": 45}, unique=frozenset(CANCEL_TYPES),
        exactly_one_of=tuple(CANCEL_TYPES),
        doc="Requests cancellation of the innermost enclosing region of the given type.",
    ),
    DirectiveSpec(
        "cancellation point", "executable", "none", CANCEL_TYPES, unique=frozenset(CANCEL_TYPES),
        exactly_one_of=tuple(CANCEL_TYPES),
        doc="Point where the task checks whether cancellation was requested.",
    ),
    DirectiveSpec(
        "depobj", "executable", "none", {"depend": 50, "destroy": 50, "update": 50},
        unique=frozenset({"depend", "destroy", "update"}), since=50,
        argument="name", argument_required=True, shape_overrides={"update": "keyword"},
        doc="Initializes, updates or destroys a depend object.",
    ),
    DirectiveSpec(
        "scan", "subsidiary", "separating", {"exclusive": 50, "inclusive": 50, "init_complete": 60},
        unique=frozenset({"exclusive", "inclusive"}), since=50,
        doc="Separates the input and scan phases of a loop with an inscan reduction.",
    ),
    # -- device ----------------------------------------------------------------
    DirectiveSpec(
        "target", "executable", "block", {**TARGET, "ompx_bare": 45},
        unique=ONCE_TARGET | {"ompx_bare"},
        doc="Maps data to a device and executes the region there.",
    ),
    DirectiveSpec(
        "target data", "executable", "block",
        {"default": 60, "device": 45, "if": 45, "map": 45, "transparent": 60,
         "use_device_addr": 50, "use_device_ptr": 45},
        unique=frozenset({"default", "device", "transparent"}),
        doc="Maps data to a device for the extent of the region.",
    ),
    DirectiveSpec(
        "target enter data", "executable", "none",
        {"depend": 45, "device": 45, "if": 45, "map": 45, "nowait": 45, "replayable": 60},
        unique=frozenset({"device", "nowait", "replayable"}),
        doc="Maps data to a device.",
    ),
    DirectiveSpec(
        "target exit data", "executable", "none",
        {"depend": 45, "device": 45, "if": 45, "map": 45, "nowait": 45, "replayable": 60},
        unique=frozenset({"device", "nowait", "replayable"}),
        doc="Unmaps data from a device.",
    ),
    DirectiveSpec(
        "target update", "executable", "none",
        {"depend": 45, "device": 45, "from": 45, "if": 45, "nowait": 45, "replayable": 60,
         "to": 45},
        unique=frozenset({"device", "nowait", "replayable"}),
        doc="Makes host and device copies of mapped data consistent.",
    ),
    DirectiveSpec(
        "interop", "executable", "none",
        {"depend": 51, "destroy": 51, "device": 51, "init": 51, "nowait": 51, "use": 51},
        unique=frozenset({"device", "nowait"}), since=51,
        doc="Initializes, uses or destroys interop objects for foreign runtimes.",
    ),
    DirectiveSpec(
        "dispatch", "executable", "statement",
        {"depend": 51, "device": 51, "has_device_addr": 51, "interop": 60, "is_device_ptr": 51,
         "nocontext": 51, "novariants": 51, "nowait": 51},
        unique=frozenset({"device", "nocontext", "novariants", "nowait"}), since=51,
        doc="Calls a function variant chosen for the dispatch context.",
    ),
    # -- memory ----------------------------------------------------------------
    DirectiveSpec(
        "allocate", "declarative", "none", {"align": 51, "allocator": 50},
        unique=frozenset({"align", "allocator"}), since=50, argument="list",
        doc="Chooses the allocator for the listed variables (Fortran: also before an ALLOCATE).",
    ),
    DirectiveSpec(
        "allocators", "executable", "statement", {"allocate": 52}, since=52, lang="fortran",
        doc="Chooses allocators for the variables of the following ALLOCATE statement.",
    ),
    DirectiveSpec(
        "threadprivate", "declarative", "none", argument="list", argument_required=True,
        doc="Each thread gets its own persistent copy of the listed variables.",
    ),
    DirectiveSpec(
        "groupprivate", "declarative", "none", {"device_type": 60},
        unique=frozenset({"device_type"}),
        since=60, argument="list", argument_required=True,
        doc="Each contention group gets its own copy of the listed variables (OpenMP 6.0).",
    ),
    # -- declarations ----------------------------------------------------------
    DirectiveSpec(
        "declare target", "declarative", "none", DECLARE_TARGET, unique=frozenset({"device_type"}),
        argument="list",
        doc="Makes the listed (or following) procedures and variables available on devices.",
    ),
    DirectiveSpec(
        "begin declare target", "declarative", "begin",
        {"device_type": 51, "indirect": 51, "link": 51, "to": 51},
        unique=frozenset({"device_type", "indirect"}), since=51, lang="c", end="end declare target",
        doc="Starts a region of declarations made available on devices.",
    ),
    DirectiveSpec(
        "end declare target", "declarative", "end", lang="c",
        doc="Ends a begin declare target (or clause-less declare target) region.",
    ),
    DirectiveSpec(
        "declare simd", "declarative", "declaration", DECLARE_SIMD,
        unique=frozenset({"inbranch", "notinbranch", "simdlen"}), argument="name",
        exclusive=EXCLUSIVE_DECLARE_SIMD,
        doc="Creates SIMD versions of the following function.",
    ),
    DirectiveSpec(
        "declare reduction", "declarative", "none", {"combiner": 60, "initializer": 45},
        unique=frozenset({"combiner", "initializer"}), argument="opaque", argument_required=True,
        doc="Declares a user-defined reduction identifier.",
    ),
    DirectiveSpec(
        "declare mapper", "declarative", "none", {"map": 50}, since=50,
        argument="opaque", argument_required=True,
        doc="Declares a user-defined mapper for a type.",
    ),
    DirectiveSpec(
        "declare induction", "declarative", "none", {"collector": 60, "inductor": 60},
        unique=frozenset({"collector", "inductor"}), since=60,
        argument="opaque", argument_required=True,
        doc="Declares a user-defined induction (OpenMP 6.0).",
    ),
    DirectiveSpec(
        "declare variant", "declarative", "declaration",
        {"adjust_args": 51, "append_args": 51, "match": 50},
        unique=frozenset({"append_args", "match"}), since=50,
        argument="name", argument_required=True,
        doc="Declares a function variant that replaces the base function in a matching context.",
    ),
    DirectiveSpec(
        "begin declare variant", "declarative", "begin", {"match": 51},
        unique=frozenset({"match"}), since=51, lang="c", end="end declare variant",
        doc="Starts a region of function definitions that are variants for the given context.",
    ),
    DirectiveSpec(
        "end declare variant", "declarative", "end", since=51, lang="c",
        doc="Ends a begin declare variant region.",
    ),
    DirectiveSpec(
        "requires", "informational", "none", REQUIRES, unique=frozenset(REQUIRES), since=50,
        doc="States implementation features the compilation unit requires.",
    ),
    # -- assumptions -----------------------------------------------------------
    DirectiveSpec(
        "assume", "informational", "block", ASSUMPTIONS, unique=ONCE_ASSUMPTIONS, since=51,
        doc="Assumptions that hold while the region executes.",
    ),
    DirectiveSpec(
        "assumes", "informational", "none", ASSUMPTIONS, unique=ONCE_ASSUMPTIONS, since=51,
        doc="Assumptions that hold in the whole scope.",
    ),
    DirectiveSpec(
        "begin assumes", "informational", "begin", ASSUMPTIONS, unique=ONCE_ASSUMPTIONS,
        since=51, lang="c", end="end assumes",
        doc="Starts a region of declarations for which the assumptions hold.",
    ),
    DirectiveSpec(
        "end assumes", "informational", "end", since=51, lang="c",
        doc="Ends a begin assumes region.",
    ),
    # -- meta and utility ------------------------------------------------------
    DirectiveSpec(
        "metadirective", "meta", "none", METADIRECTIVE, unique=frozenset({"default", "otherwise"}),
        since=50, shape_overrides={"default": "opaque"},
        doc="Replaced by the directive variant whose context selector matches.",
    ),
    DirectiveSpec(
        "begin metadirective", "meta", "begin",
        {"default": (51, 52), "otherwise": 52, "when": 51},
        unique=frozenset({"default", "otherwise"}), since=51, end="end metadirective",
        shape_overrides={"default": "opaque"},
        doc="Metadirective whose variants apply to the delimited code.",
    ),
    DirectiveSpec(
        "end metadirective", "meta", "end", since=51,
        doc="Ends a begin metadirective region.",
    ),
    DirectiveSpec(
        "error", "utility", "none", {"at": 51, "message": 51, "severity": 51},
        unique=frozenset({"at", "message", "severity"}), since=51,
        doc="Reports an error or warning at compile time or at run time.",
    ),
    DirectiveSpec(
        "nothing", "utility", "none", since=51,
        doc="Does nothing; useful as a metadirective variant.",
    ),
    # -- parallel worksharing compounds ----------------------------------------
    DirectiveSpec(
        "parallel for", "executable", "loop", {**WSLOOP, **PARALLEL},
        unique=ONCE_PARALLEL | ONCE_WSLOOP, lang="c",
        doc="A parallel region containing only a worksharing loop.",
    ),
    DirectiveSpec(
        "parallel do", "executable", "loop", {**WSLOOP, **PARALLEL},
        unique=ONCE_PARALLEL | ONCE_WSLOOP, lang="fortran",
        doc="A parallel region containing only a worksharing loop.",
    ),
    DirectiveSpec(
        "parallel for simd", "executable", "loop", {**SIMD, **WSLOOP, **PARALLEL},
        unique=ONCE_PARALLEL | ONCE_WSLOOP | ONCE_SIMD, lang="c",
        doc="A parallel region containing only a worksharing loop SIMD construct.",
    ),
    DirectiveSpec(
        "parallel do simd", "executable", "loop", {**SIMD, **WSLOOP, **PARALLEL},
        unique=ONCE_PARALLEL | ONCE_WSLOOP | ONCE_SIMD, lang="fortran",
        doc="A parallel region containing only a worksharing loop SIMD construct.",
    ),
    DirectiveSpec(
        "parallel sections", "executable", "block", {**SECTIONS, **PARALLEL}, unique=ONCE_PARALLEL,
        doc="A parallel region containing only a sections construct.",
    ),
    DirectiveSpec(
        "parallel workshare", "executable", "block", PARALLEL, unique=ONCE_PARALLEL, lang="fortran",
        doc="A parallel region containing only a workshare construct.",
    ),
    DirectiveSpec(
        "parallel loop", "executable", "loop", {**LOOP, **PARALLEL},
        unique=ONCE_PARALLEL | ONCE_LOOP, since=50,
        doc="A parallel region containing only a loop construct.",
    ),
    DirectiveSpec(
        "parallel master", "executable", "block", PARALLEL, unique=ONCE_PARALLEL, since=50,
        doc="A parallel region containing only a master construct.",
    ),
    DirectiveSpec(
        "parallel masked", "executable", "block", {**MASKED, **PARALLEL},
        unique=ONCE_PARALLEL | {"filter"}, since=51,
        doc="A parallel region containing only a masked construct.",
    ),
    # -- master/masked taskloop compounds --------------------------------------
    DirectiveSpec(
        "master taskloop", "executable", "loop", TASKLOOP, unique=ONCE_TASKLOOP, since=50,
        exclusive=EXCLUSIVE_TASKLOOP,
        doc="A master construct containing only a taskloop construct.",
    ),
    DirectiveSpec(
        "master taskloop simd", "executable", "loop", TASKLOOP_SIMD,
        unique=ONCE_TASKLOOP | ONCE_SIMD, since=50,
        exclusive=EXCLUSIVE_TASKLOOP,
        doc="A master construct containing only a taskloop simd construct.",
    ),
    DirectiveSpec(
        "masked taskloop", "executable", "loop", {**MASKED, **TASKLOOP},
        unique=ONCE_TASKLOOP | {"filter"}, since=51,
        exclusive=EXCLUSIVE_TASKLOOP,
        doc="A masked construct containing only a taskloop construct.",
    ),
    DirectiveSpec(
        "masked taskloop simd", "executable", "loop", {**MASKED, **TASKLOOP_SIMD},
        unique=ONCE_TASKLOOP | ONCE_SIMD | {"filter"}, since=51,
        exclusive=EXCLUSIVE_TASKLOOP,
        doc="A masked construct containing only a taskloop simd construct.",
    ),
    DirectiveSpec(
        "parallel master taskloop", "executable", "loop", PAR_TASKLOOP,
        unique=ONCE_PAR_TASKLOOP - {"filter"}, since=50,
        exclusive=EXCLUSIVE_TASKLOOP,
        doc="A parallel region containing only a master taskloop construct.",
    ),
    DirectiveSpec(
        "parallel master taskloop simd", "executable", "loop", PAR_TASKLOOP_SIMD,
        unique=(ONCE_PAR_TASKLOOP | ONCE_SIMD) - {"filter"}, since=50,
        exclusive=EXCLUSIVE_TASKLOOP,
        doc="A parallel region containing only a master taskloop simd construct.",
    ),
    DirectiveSpec(
        "parallel masked taskloop", "executable", "loop", {**MASKED, **PAR_TASKLOOP},
        unique=ONCE_PAR_TASKLOOP, since=51,
        exclusive=EXCLUSIVE_TASKLOOP,
        doc="A parallel region containing only a masked taskloop construct.",
    ),
    DirectiveSpec(
        "parallel masked taskloop simd", "executable", "loop", {**MASKED, **PAR_TASKLOOP_SIMD},
        unique=ONCE_PAR_TASKLOOP | ONCE_SIMD, since=51,
        exclusive=EXCLUSIVE_TASKLOOP,
        doc="A parallel region containing only a masked taskloop simd construct.",
    ),
    # -- distribute compounds --------------------------------------------------
    DirectiveSpec(
        "distribute simd", "executable", "loop", {**SIMD, **DISTRIBUTE},
        unique=ONCE_DISTRIBUTE | ONCE_SIMD,
        doc="Distributes loop chunks to teams and executes each chunk with SIMD instructions.",
    ),
    DirectiveSpec(
        "distribute parallel for", "executable", "loop", DIST_PAR_LOOP,
        unique=ONCE_DIST_PAR_LOOP, lang="c",
        doc="Distributes loop chunks to teams, each executed by a parallel worksharing loop.",
    ),
    DirectiveSpec(
        "distribute parallel do", "executable", "loop", DIST_PAR_LOOP,
        unique=ONCE_DIST_PAR_LOOP, lang="fortran",
        doc="Distributes loop chunks to teams, each executed by a parallel worksharing loop.",
    ),
    DirectiveSpec(
        "distribute parallel for simd", "executable", "loop", {**SIMD, **DIST_PAR_LOOP},
        unique=ONCE_DIST_PAR_LOOP | ONCE_SIMD, lang="c",
        doc="Distributes loop chunks to teams, each run by a parallel worksharing-loop SIMD.",
    ),
    DirectiveSpec(
        "distribute parallel do simd", "executable", "loop", {**SIMD, **DIST_PAR_LOOP},
        unique=ONCE_DIST_PAR_LOOP | ONCE_SIMD, lang="fortran",
        doc="Distributes loop chunks to teams, each run by a parallel worksharing-loop SIMD.",
    ),
    # -- teams compounds -------------------------------------------------------
    DirectiveSpec(
        "teams distribute", "executable", "loop", {**DISTRIBUTE, **TEAMS},
        unique=ONCE_TEAMS | ONCE_DISTRIBUTE,
        doc="A teams region containing only a distribute construct.",
    ),
    DirectiveSpec(
        "teams distribute simd", "executable", "loop", {**TEAMS, **SIMD, **DISTRIBUTE},
        unique=ONCE_TEAMS | ONCE_DISTRIBUTE | ONCE_SIMD,
        doc="A teams region containing only a distribute simd construct.",
    ),
    DirectiveSpec(
        "teams distribute parallel for", "executable", "loop", {**TEAMS, **DIST_PAR_LOOP},
        unique=ONCE_TEAMS | ONCE_DIST_PAR_LOOP, lang="c",
        doc="A teams region containing only a distribute parallel worksharing-loop construct.",
    ),
    DirectiveSpec(
        "teams distribute parallel do", "executable", "loop", {**TEAMS, **DIST_PAR_LOOP},
        unique=ONCE_TEAMS | ONCE_DIST_PAR_LOOP, lang="fortran",
        doc="A teams region containing only a distribute parallel worksharing-loop construct.",
    ),
    DirectiveSpec(
        "teams distribute parallel for simd", "executable", "loop",
        {**TEAMS, **SIMD, **DIST_PAR_LOOP},
        unique=ONCE_TEAMS | ONCE_DIST_PAR_LOOP | ONCE_SIMD, lang="c",
        doc="A teams region containing only a distribute parallel worksharing-loop SIMD construct.",
    ),
    DirectiveSpec(
        "teams distribute parallel do simd", "executable", "loop",
        {**TEAMS, **SIMD, **DIST_PAR_LOOP},
        unique=ONCE_TEAMS | ONCE_DIST_PAR_LOOP | ONCE_SIMD, lang="fortran",
        doc="A teams region containing only a distribute parallel worksharing-loop SIMD construct.",
    ),
    DirectiveSpec(
        "teams loop", "executable", "loop", {**TEAMS, **LOOP},
        unique=ONCE_TEAMS | ONCE_LOOP, since=50,
        doc="A teams region containing only a loop construct.",
    ),
    DirectiveSpec(
        "teams workdistribute", "executable", "block", TEAMS, unique=ONCE_TEAMS,
        since=60, lang="fortran",
        doc="A teams region containing only a workdistribute construct (OpenMP 6.0).",
    ),
    # -- target compounds ------------------------------------------------------
    DirectiveSpec(
        "target parallel", "executable", "block", {**TARGET, **PARALLEL},
        unique=ONCE_TARGET | ONCE_PARALLEL,
        doc="A target region containing only a parallel construct.",
    ),
    DirectiveSpec(
        "target parallel for", "executable", "loop", {**WSLOOP, **TARGET, **PARALLEL},
        unique=ONCE_TARGET | ONCE_PARALLEL | ONCE_WSLOOP, lang="c",
        doc="A target region containing only a parallel worksharing-loop construct.",
    ),
    DirectiveSpec(
        "target parallel do", "executable", "loop", {**WSLOOP, **TARGET, **PARALLEL},
        unique=ONCE_TARGET | ONCE_PARALLEL | ONCE_WSLOOP, lang="fortran",
        doc="A target region containing only a parallel worksharing-loop construct.",
    ),
    DirectiveSpec(
        "target parallel for simd", "executable", "loop",
        {**SIMD, **WSLOOP, **TARGET, **PARALLEL},
        unique=ONCE_TARGET | ONCE_PARALLEL | ONCE_WSLOOP | ONCE_SIMD, lang="c",
        doc="A target region containing only a parallel worksharing-loop SIMD construct.",
    ),
    DirectiveSpec(
        "target parallel do simd", "executable", "loop",
        {**SIMD, **WSLOOP, **TARGET, **PARALLEL},
        unique=ONCE_TARGET | ONCE_PARALLEL | ONCE_WSLOOP | ONCE_SIMD, lang="fortran",
        doc="A target region containing only a parallel worksharing-loop SIMD construct.",
    ),
    DirectiveSpec(
        "target parallel loop", "executable", "loop", {**LOOP, **TARGET, **PARALLEL},
        unique=ONCE_TARGET | ONCE_PARALLEL | ONCE_LOOP, since=50,
        doc="A target region containing only a parallel loop construct.",
    ),
    DirectiveSpec(
        "target simd", "executable", "loop", {**SIMD, **TARGET},
        unique=ONCE_TARGET | ONCE_SIMD,
        doc="A target region containing only a simd construct.",
    ),
    DirectiveSpec(
        "target loop", "executable", "loop", {**LOOP, **TARGET},
        unique=ONCE_TARGET | ONCE_LOOP, since=50,
        doc="A target region containing only a loop construct (LLVM lists it; no spec form).",
    ),
    DirectiveSpec(
        "target teams", "executable", "block", {**TARGET_TEAMS, "ompx_bare": 45},
        unique=ONCE_TARGET_TEAMS | {"ompx_bare"},
        doc="A target region containing only a teams construct.",
    ),
    DirectiveSpec(
        "target teams distribute", "executable", "loop", {**DISTRIBUTE, **TARGET_TEAMS},
        unique=ONCE_TARGET_TEAMS | ONCE_DISTRIBUTE,
        doc="A target region containing only a teams distribute construct.",
    ),
    DirectiveSpec(
        "target teams distribute simd", "executable", "loop",
        {**SIMD, **DISTRIBUTE, **TARGET_TEAMS},
        unique=ONCE_TARGET_TEAMS | ONCE_DISTRIBUTE | ONCE_SIMD,
        doc="A target region containing only a teams distribute simd construct.",
    ),
    DirectiveSpec(
        "target teams distribute parallel for", "executable", "loop",
        {**TARGET_TEAMS, **DIST_PAR_LOOP},
        unique=ONCE_TARGET_TEAMS | ONCE_DIST_PAR_LOOP, lang="c",
        doc="A target region containing only a teams distribute parallel worksharing loop.",
    ),
    DirectiveSpec(
        "target teams distribute parallel do", "executable", "loop",
        {**TARGET_TEAMS, **DIST_PAR_LOOP},
        unique=ONCE_TARGET_TEAMS | ONCE_DIST_PAR_LOOP, lang="fortran",
        doc="A target region containing only a teams distribute parallel worksharing loop.",
    ),
    DirectiveSpec(
        "target teams distribute parallel for simd", "executable", "loop",
        {**TARGET_TEAMS, **SIMD, **DIST_PAR_LOOP},
        unique=ONCE_TARGET_TEAMS | ONCE_DIST_PAR_LOOP | ONCE_SIMD, lang="c",
        doc="A target region containing only a teams distribute parallel worksharing-loop SIMD.",
    ),
    DirectiveSpec(
        "target teams distribute parallel do simd", "executable", "loop",
        {**TARGET_TEAMS, **SIMD, **DIST_PAR_LOOP},
        unique=ONCE_TARGET_TEAMS | ONCE_DIST_PAR_LOOP | ONCE_SIMD, lang="fortran",
        doc="A target region containing only a teams distribute parallel worksharing-loop SIMD.",
    ),
    DirectiveSpec(
        "target teams loop", "executable", "loop", {**LOOP, **TARGET_TEAMS},
        unique=ONCE_TARGET_TEAMS | ONCE_LOOP, since=50,
        doc="A target region containing only a teams loop construct.",
    ),
    DirectiveSpec(
        "target teams workdistribute", "executable", "block", {**TARGET_TEAMS, "ompx_bare": 45},
        unique=ONCE_TARGET_TEAMS | {"ompx_bare"}, since=60, lang="fortran",
        doc="A target region containing only a teams workdistribute construct (OpenMP 6.0).",
    ),
    # -- Fortran end directives that take clauses or an argument ---------------
    DirectiveSpec(
        "end do", "executable", "end", {"nowait": 45}, lang="fortran",
        doc="Ends a do construct.",
    ),
    DirectiveSpec(
        "end do simd", "executable", "end", {"nowait": 45}, lang="fortran",
        doc="Ends a do simd construct.",
    ),
    DirectiveSpec(
        "end sections", "executable", "end", {"nowait": 45}, lang="fortran",
        doc="Ends a sections construct.",
    ),
    DirectiveSpec(
        "end single", "executable", "end", {"copyprivate": 45, "nowait": 45}, lang="fortran",
        doc="Ends a single construct; may broadcast private values.",
    ),
    DirectiveSpec(
        "end workshare", "executable", "end", {"nowait": 45}, lang="fortran",
        doc="Ends a workshare construct.",
    ),
    DirectiveSpec(
        "end scope", "executable", "end", {"nowait": 51}, since=51, lang="fortran",
        doc="Ends a scope construct.",
    ),
    DirectiveSpec(
        "end critical", "executable", "end", lang="fortran", argument="name",
        doc="Ends a critical construct; repeats its name if it has one.",
    ),
)

# Restrictions of compound constructs that the leaf unions above do not express
# (and that clang and flang enforce): no copyin on a combined target construct
# (5.2 17.4), no linear on a distribute parallel worksharing loop without simd.
_NOT_ON: tuple[tuple[str, Callable[[str], bool]], ...] = (
    ("copyin", lambda name: name.startswith("target ") and "parallel" in name.split()),
    ("linear", lambda name: "distribute parallel" in name and not name.endswith("simd")),
)


def _restricted(spec: DirectiveSpec) -> DirectiveSpec:
    dropped = {clause for clause, applies in _NOT_ON if clause in spec.clauses and applies(spec.name)}
    if not dropped:
        return spec
    return replace(spec, clauses={c: v for c, v in spec.clauses.items() if c not in dropped},
                   unique=spec.unique - dropped)


DIRECTIVES: dict[str, DirectiveSpec] = {spec.name: _restricted(spec) for spec in _DIRECTIVE_ROWS}
