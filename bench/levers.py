"""The levers on the memory that saved tensors take, on a stack of transformer-style
feed-forward blocks: what each saves in peak memory and costs in time and in gradient accuracy.

    none          autograd saves what each operation's backward needs
    bfloat16      saved_tensors_hooks that store every saved activation in bfloat16 and give
                  it back in float32 (parameters are saved by reference and left alone)
    save_on_cpu   torch.autograd.graph.save_on_cpu(): moves saved tensors to host memory
    checkpoint    torch.utils.checkpoint.checkpoint(block, x, use_reentrant=False) per block:
                  keeps each block's input and recomputes the rest during backward
"""

import contextlib

import torch
from torch import nn
from torch.utils.checkpoint import checkpoint

LEVERS = ("none", "bfloat16", "save_on_cpu", "checkpoint")
WIDTH, TOKENS = 128, 512


class Block(nn.Module):
    """x + Linear(4w → w)(GELU(Linear(w → 4w)(LayerNorm(x)))): a transformer's MLP block."""

    def __init__(self, width):
        super().__init__()
        self.norm = nn.LayerNorm(width)
        self.up = nn.Linear(width, 4 * width)
        self.act = nn.GELU()
        self.down = nn.Linear(4 * width, width)

    def forward(self, x):
        return x + self.down(self.act(self.up(self.norm(x))))


def stack(depth, width=WIDTH):
    """depth blocks, seeded so every run builds the same weights."""
    torch.manual_seed(0)
    return nn.Sequential(*(Block(width) for _ in range(depth)))


def bfloat16_hooks(model):
    """Saved activations stored in bfloat16, returned in float32 for backward."""
    params = {p.untyped_storage().data_ptr() for p in model.parameters()}

    def pack(t):
        if t.dtype == torch.float32 and t.untyped_storage().data_ptr() not in params:
            return True, t.to(torch.bfloat16)
        return False, t

    def unpack(packed):
        cast, t = packed
        return t.float() if cast else t

    return torch.autograd.graph.saved_tensors_hooks(pack, unpack)


def forward(model, x, lever):
    if lever == "checkpoint":
        for block in model:
            x = checkpoint(block, x, use_reentrant=False)
        return x
    contexts = {
        "none": contextlib.nullcontext,
        "bfloat16": lambda: bfloat16_hooks(model),
        "save_on_cpu": torch.autograd.graph.save_on_cpu,
    }
    with contexts[lever]():
        return model(x)


def step(model, x, lever, mark=contextlib.nullcontext):
    """One forward and backward pass, gradients set to None first (as zero_grad() does)."""
    model.zero_grad(set_to_none=True)
    with mark():
        out = forward(model, x, lever)
    out.square().mean().backward()


def gradient_error(model, x, lever):
    """The largest relative difference, over the parameters, between the gradients with the
    lever and without it (0.0: the same gradients)."""
    step(model, x, "none")
    exact = [p.grad.clone() for p in model.parameters()]
    step(model, x, lever)
    return max(
        ((p.grad - g).norm() / g.norm()).item()
        for p, g in zip(model.parameters(), exact, strict=True)
    )
