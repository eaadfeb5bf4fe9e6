"""CPU memory as PyTorch's own allocator counts it, from the profiler's allocation events.

With `profile_memory=True`, every allocation and free by PyTorch's CPU allocator (c10) is an
event with its address and size, in the order they happened. Adding them up gives the bytes
allocated at every moment: the highest sum is the peak; the sum when a marked region ends is
what the region left allocated. This is exact for tensors and honest on a CPU, where `torch.cuda.memory_*` does not
apply and `tracemalloc` sees only Python's own allocator (a 4 MB tensor is 80 bytes to it).

What it does not count: memory allocated before profiling began (the model's parameters and
the input, unless the measured code allocates them), and memory libraries allocate behind
PyTorch's allocator (BLAS scratch space, Python objects such as the graph's nodes).
"""

from torch._C._profiler import _EventType
from torch.profiler import ProfilerActivity, profile, record_function

MARK = "bench::mark"


def _walk(nodes):
    stack = list(nodes)
    while stack:
        node = stack.pop()
        stack.extend(node.children)
        yield node


def allocated_bytes(fn):
    """Run fn() under the profiler; return (peak, at_mark, at_end): the bytes that fn allocated
    and had not yet freed, at their highest, when the first `mark()` region fn entered ended
    (None when fn marks nothing), and when fn returned.

    Only memory fn allocates counts: freeing a tensor that existed before fn started (an old
    `.grad` set to None) is not subtracted, so the figures do not depend on what happened to
    be allocated before.
    """
    with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
        fn()
    nodes = list(_walk(prof.profiler.kineto_results.experimental_event_tree()))
    events = sorted(
        (n.start_time_ns, n.extra_fields.ptr, n.extra_fields.alloc_size)
        for n in nodes
        if n.tag == _EventType.Allocation and n.extra_fields.device.type == "cpu"
    )
    marks = sorted(n.end_time_ns for n in nodes if n.name == MARK)
    live, total, peak, at_mark = {}, 0, 0, None
    for time, ptr, size in events:
        if marks and at_mark is None and time > marks[0]:
            at_mark = total
        if size > 0:
            live[ptr] = size
            total += size
            peak = max(peak, total)
        elif ptr in live:
            total -= live.pop(ptr)
    if marks and at_mark is None:
        at_mark = total
    return peak, at_mark, total


def mark():
    """A region whose end allocated_bytes reports (`with mark(): out = model(x)`)."""
    return record_function(MARK)
