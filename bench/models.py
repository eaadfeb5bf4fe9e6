"""The models and modes the benchmarks compare."""

import contextlib

import torch
from torch import nn

from torch_verified import measured

# the grad modes, in the order of the Measured page's tables (torch_verified/measured.py)
MODES = dict(
    zip(measured.MODES, (contextlib.nullcontext, torch.no_grad, torch.inference_mode), strict=True)
)


def mlp(depth, width):
    """depth × (Linear(width, width) → ReLU), seeded so every run builds the same weights."""
    torch.manual_seed(0)
    layers = []
    for _ in range(depth):
        layers += [nn.Linear(width, width), nn.ReLU()]
    return nn.Sequential(*layers)


def saved_activation_bytes(model, x, mode):
    """Bytes autograd saves for backward during one forward pass, parameters not counted.

    Measured with saved-tensor hooks: every tensor autograd keeps for the backward pass goes
    through `pack`. Each storage counts once (ReLU's output is also the next layer's saved
    input); parameters are kept by reference (no new memory), so they are skipped.
    """
    seen = {p.untyped_storage().data_ptr() for p in model.parameters()}
    total = 0

    def pack(tensor):
        nonlocal total
        storage = tensor.untyped_storage()
        if storage.data_ptr() not in seen:
            seen.add(storage.data_ptr())
            total += storage.nbytes()
        return tensor

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t), MODES[mode]():
        model(x)
    return total


def profiled_forward_bytes(model, x, mode):
    """CPU memory still allocated at the end of one forward pass, and its peak, as PyTorch's
    CPU allocator counts them (bench/allocator.py): the output plus everything autograd keeps
    for backward.

    Returns (net bytes held, peak bytes) over the forward.
    """
    from bench.allocator import allocated_bytes

    out = []
    with MODES[mode]():
        peak, _, held = allocated_bytes(lambda: out.append(model(x)))
    return held, peak
