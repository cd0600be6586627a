#!/usr/bin/python3
"""PyTorch reference of the W_o Lab model (the "Model" section of the spec), and the fixtures
the C++ tests check against it, in the way llm.c's train_gpt2.py dumps a state for test_gpt2.c.

Run by hand, not in CI (needs Debian's python3-torch):
    /usr/bin/python3 scripts/make_reference.py [--out tests/fixtures]
For each W_o mode x LN placement it writes ref_<wo>_<ln>.safetensors (initial weights, one
copy-task batch, logits, loss, every gradient, the losses of 10 Adam steps), and for each LN
placement ref_g2p_<ln>.safetensors, the same for a padded batch of the task g2p (docs/g2p.md);
then it reads every file back and checks it. Same bytes on every run on one machine.
The model, its W_o variants and the batch layouts come from scripts/wolab_torch.py.
"""
import argparse
import json
import math
import os
import struct
import sys

try:
    import numpy as np
    import torch
    import torch.nn as nn
    import torch.nn.functional as F
except ImportError as e:
    print(f"make_reference: {e.name} is not installed (apt-get install python3-torch); "
          "nothing written", file=sys.stderr)
    sys.exit(3)

# The model, its W_o variants, the batches and the training step: the one Python source of the
# design, which the notebooks inline too.
from wolab_torch import (G2P_EOS, LEARNED_WO_GAIN, WO_MODES, build_model, copy_batch,  # noqa: E402
                         ffn_width, g2p_batch, loss_fn, make_optimizer, parameter_count,
                         train_step)

LN_MODES = ("post", "pre")


# ---------------------------------------------------------------------------------------------
# safetensors, by hand: u64 little-endian header length, JSON header (space-padded to a
# multiple of 8), then the raw little-endian data of each tensor in header order.

DTYPES = {torch.float32: ("F32", "<f4"), torch.int32: ("I32", "<i4")}
NUMPY_OF = dict(DTYPES.values())


def write_safetensors(path, tensors, metadata):
    header, blobs, offset = {"__metadata__": metadata}, [], 0
    for name, t in tensors.items():
        dtype, np_dtype = DTYPES[t.dtype]
        data = t.detach().contiguous().numpy().astype(np_dtype).tobytes()
        header[name] = {"dtype": dtype, "shape": list(t.shape),
                        "data_offsets": [offset, offset + len(data)]}
        blobs.append(data)
        offset += len(data)
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + b"".join(blobs))


def read_safetensors(path):
    """-> ({name: tensor} in file order, metadata); rejects holes, overlaps and trailing bytes."""
    with open(path, "rb") as f:
        raw = f.read()
    (n,) = struct.unpack_from("<Q", raw)
    header = json.loads(raw[8: 8 + n])
    metadata = header.pop("__metadata__", {})
    data, tensors, end = raw[8 + n:], {}, 0
    for name, info in header.items():
        begin, stop = info["data_offsets"]
        if begin != end:
            raise ValueError(f"{path}: {name} starts at {begin}, expected {end}")
        arr = np.frombuffer(data[begin:stop], dtype=NUMPY_OF[info["dtype"]])
        # astype copies into native byte order: torch.from_numpy wants a writable native array
        native = arr.reshape(info["shape"]).astype(arr.dtype.newbyteorder("="))
        tensors[name] = torch.from_numpy(native)
        end = stop
    if end != len(data):
        raise ValueError(f"{path}: {len(data) - end} bytes after the last tensor")
    return tensors, metadata


# ---------------------------------------------------------------------------------------------
# Fixtures

SEED = 0
ADAM_STEPS = 10


# The g2p fixtures' words, as dictionary lines (CMUdict's pronunciations, stress removed): 6 to
# 10 input positions, so three of the four rows end in pads.
G2P_WORDS = ("AT  AE T", "PHONE  F OW N", "OX  AA K S", "CAT  K AE T")


def fixture_config(wo, ln, task="copy", schedule=None):
    config = {"model": {"d_model": 8, "heads": 2, "layers": 2, "d_ff": 16, "ln": ln, "wo": wo},
              "task": {"name": "g2p"} if task == "g2p" else {"name": "copy", "alphabet": 5, "length": 3},
              "train": {"steps": ADAM_STEPS, "batch": 4, "lr": 0.001, "clip": 1.0}}
    if schedule:
        config["train"].update(schedule)
    return config


# The schedule fixture: 10 Adam steps at a peak of 0.01 (so the schedule shows in the losses),
# 3 of warmup, decaying to 0.001; and the same schedule over a longer run on its own.
SCHEDULE = {"lr": 0.01, "schedule": "cosine", "warmup": 3, "lr_min": 0.001}
SCHEDULE_LONG = {"steps": 300, "warmup": 40}


def make_scheduler(optimizer, train):
    """The config's learning-rate schedule (docs/config.md), or None for constant: cosine is a linear
    warmup then a cosine decay to lr_min, PyTorch's own schedulers chained."""
    if train.get("schedule", "constant") == "constant":
        return None
    warmup, steps = train["warmup"], train["steps"]
    sched = torch.optim.lr_scheduler
    decay = sched.CosineAnnealingLR(optimizer, T_max=steps - warmup, eta_min=train["lr_min"])
    if warmup == 0:
        return decay
    ramp = sched.LinearLR(optimizer, start_factor=1 / warmup, end_factor=1.0, total_iters=max(1, warmup - 1))
    return sched.SequentialLR(optimizer, [ramp, decay], milestones=[warmup])


def schedule_lrs(train):
    """The learning rate PyTorch's schedulers give each of train["steps"] steps."""
    optimizer = torch.optim.Adam([nn.Parameter(torch.zeros(1))], lr=train["lr"])
    scheduler, lrs = make_scheduler(optimizer, train), []
    for _ in range(train["steps"]):
        lrs.append(optimizer.param_groups[0]["lr"])
        optimizer.step()
        scheduler.step()
    return lrs


def g2p_words(lines):
    """Dictionary lines -> [(word, [phoneme, ...]), ...]."""
    return [(line.split()[0].lower(), line.split()[1:]) for line in lines]


def fixture_batch(config):
    """-> input, target (B,T) of the fixture's one batch."""
    task, train = config["task"], config["train"]
    if task["name"] == "g2p":
        return g2p_batch(g2p_words(G2P_WORDS))
    # The batch has its own generator, so every fixture sees the same one.
    x = torch.randint(task["alphabet"], (train["batch"], task["length"]),
                      generator=torch.Generator().manual_seed(SEED))
    return copy_batch(x, task["alphabet"])


def make_fixture(config):
    """-> (tensors in file order, metadata) for one config."""
    train = config["train"]
    torch.manual_seed(SEED)
    model = build_model(config)
    tokens, target = fixture_batch(config)

    tensors = {name: p.detach().clone() for name, p in model.named_parameters()}
    initial = {name: t.clone() for name, t in tensors.items()}
    logits = model(tokens)
    loss = loss_fn(logits, target)
    loss.backward()
    tensors.update({"input": tokens, "target": target, "logits": logits.detach(),
                    "loss": loss.detach().reshape(1)})
    tensors.update({f"grad.{name}": p.grad.clone()
                    for name, p in model.named_parameters() if p.requires_grad})

    model.load_state_dict(initial)
    optimizer = make_optimizer(model, train["lr"])
    scheduler, losses, lrs = make_scheduler(optimizer, train), [], []
    for _ in range(train["steps"]):
        lrs.append(optimizer.param_groups[0]["lr"])
        losses.append(train_step(model, optimizer, tokens, target, train["clip"]))
        if scheduler:
            scheduler.step()
    tensors["adam_losses"] = torch.tensor(losses, dtype=torch.float32)
    if scheduler:
        tensors["adam_lrs"] = torch.tensor(lrs, dtype=torch.float32)
        # A longer schedule on its own, as a real-words run uses it.
        long = dict(train, **SCHEDULE_LONG)
        tensors["schedule_lrs"] = torch.tensor(schedule_lrs(long), dtype=torch.float32)

    metadata = {"format": "wolab-reference", "version": "1",
                "config": json.dumps(config, separators=(",", ":")),
                "torch": torch.__version__, "torch_seed": str(SEED),
                "parameters": str(parameter_count(model))}
    if scheduler:
        metadata["schedule_config"] = json.dumps(dict(config["train"], **SCHEDULE_LONG), separators=(",", ":"))
    if config["task"]["name"] == "g2p":
        metadata["words"] = "\n".join(G2P_WORDS) + "\n"
    return tensors, metadata


def crosscheck_logits(config, tensors):
    """Our model against PyTorch's own nn.TransformerEncoderLayer (same weights, W_o folded into
    out_proj, identity as I, scalar_gain's gain as gain · I, identity_matched's FFN at its width):
    an independent check that the model is the spec's."""
    m = config["model"]
    d, T = m["d_model"], tensors["input"].shape[1]
    future = torch.ones(T, T, dtype=torch.bool).triu(1)
    x = tensors["tok_emb.weight"][tensors["input"].long()] + tensors["pos_emb.weight"][:T]
    for i in range(m["layers"]):
        prefix = f"layers.{i}."
        width = ffn_width(d, m["d_ff"], m["wo"])
        layer = nn.TransformerEncoderLayer(d, m["heads"], width, dropout=0.0, batch_first=True,
                                           layer_norm_eps=1e-5, norm_first=m["ln"] == "pre")
        gain = tensors.get(f"{prefix}attn.W_o.gain", torch.ones(1))
        wo_weight = tensors.get(f"{prefix}attn.W_o.weight", gain * torch.eye(d))
        wo_bias = tensors.get(f"{prefix}attn.W_o.bias", torch.zeros(d))
        with torch.no_grad():
            sa = layer.self_attn
            qkv = [f"{prefix}attn.{w}" for w in ("W_q", "W_k", "W_v")]
            sa.in_proj_weight.copy_(torch.cat([tensors[f"{w}.weight"] for w in qkv]))
            sa.in_proj_bias.copy_(torch.cat([tensors[f"{w}.bias"] for w in qkv]))
            sa.out_proj.weight.copy_(wo_weight)
            sa.out_proj.bias.copy_(wo_bias)
            for ours, theirs in (("ffn.fc1", layer.linear1), ("ffn.fc2", layer.linear2),
                                 ("ln1", layer.norm1), ("ln2", layer.norm2)):
                theirs.weight.copy_(tensors[f"{prefix}{ours}.weight"])
                theirs.bias.copy_(tensors[f"{prefix}{ours}.bias"])
            x = layer(x, src_mask=future)
    if m["ln"] == "pre":
        x = F.layer_norm(x, (d,), tensors["ln_f.weight"], tensors["ln_f.bias"], eps=1e-5)
    logits = F.linear(x, tensors["head.weight"], tensors["head.bias"]).detach()
    assert torch.allclose(logits, tensors["logits"], rtol=1e-5, atol=1e-5), \
        f"nn.TransformerEncoderLayer disagrees: max diff {(logits - tensors['logits']).abs().max()}"


def check_fixture(path, config, tensors, metadata):
    """Reads the file back and checks it against what was written and against the spec."""
    back, back_metadata = read_safetensors(path)
    assert back_metadata == metadata, f"{path}: metadata differs"
    assert list(back) == list(tensors), f"{path}: tensor names or order differ"
    for name, t in tensors.items():
        assert back[name].dtype == t.dtype and torch.equal(back[name], t), f"{path}: {name} differs"
    m, d = config["model"], config["model"]["d_model"]
    params = [n for n in back if n not in ("input", "target", "logits", "loss", "adam_losses", "adam_lrs", "schedule_lrs")
              and not n.startswith("grad.")]
    grads = [n[len("grad."):] for n in back if n.startswith("grad.")]
    has_wo_bias = m["wo"] in ("learned", "learned_identity_init", "block_diagonal")
    d_k, width = d // m["heads"], ffn_width(d, m["d_ff"], m["wo"])
    between_heads = torch.arange(d)[:, None] // d_k != torch.arange(d)[None, :] // d_k
    for i in range(m["layers"]):
        assert (f"layers.{i}.attn.W_o.weight" in params) == (m["wo"] not in ("identity", "identity_matched", "scalar_gain"))
        assert (f"layers.{i}.attn.W_o.bias" in params) == has_wo_bias
        assert (f"layers.{i}.attn.W_o.weight" in grads) == has_wo_bias
        assert (f"layers.{i}.attn.W_o.gain" in grads) == (m["wo"] == "scalar_gain")
        assert back[f"layers.{i}.ffn.fc1.weight"].shape == (width, d)
        if m["wo"] == "learned_identity_init":
            assert torch.equal(back[f"layers.{i}.attn.W_o.weight"], torch.eye(d))
        if m["wo"] == "frozen_orthogonal":
            w = back[f"layers.{i}.attn.W_o.weight"].double()
            assert torch.allclose(w.T @ w, torch.eye(d, dtype=torch.float64), rtol=0, atol=1e-6)
        if m["wo"] == "block_diagonal":
            for name in (f"layers.{i}.attn.W_o.weight", f"grad.layers.{i}.attn.W_o.weight"):
                assert (back[name][between_heads] == 0).all(), f"{name} between heads"
        if m["wo"] == "scalar_gain":
            assert back[f"layers.{i}.attn.W_o.gain"].item() == torch.tensor(LEARNED_WO_GAIN).item()
    assert ("ln_f.weight" in params) == (m["ln"] == "pre")
    assert grads == [n for n in params if n in grads], "grads not in parameter order"
    zeros = m["layers"] * int(between_heads.sum()) if m["wo"] == "block_diagonal" else 0
    assert sum(back[n].numel() for n in grads) - zeros == int(metadata["parameters"])
    assert back["adam_losses"][0] == back["loss"][0], "adam_losses[0] != loss"
    if config["task"]["name"] == "g2p":  # each word's phonemes and its EOS
        answers = sum(len(phonemes) + 1 for _, phonemes in g2p_words(G2P_WORDS))
        assert back_metadata["words"] == "\n".join(G2P_WORDS) + "\n"
    else:
        answers = config["train"]["batch"] * config["task"]["length"]
    assert (back["target"] != -1).sum() == answers
    assert all(torch.isfinite(t.float()).all() for t in back.values())
    crosscheck_logits(config, back)
    if config["task"]["name"] == "g2p":
        check_padding(config, back, params)
    return back


def check_padding(config, tensors, params):
    """The padded batch is a batch of its words: its loss is the mean of each word's loss alone
    (no pads) weighted by its answer tokens, and other pad inputs change no real position's
    logits."""
    torch.manual_seed(SEED)
    model = build_model(config)
    model.load_state_dict({n: tensors[n] for n in params})
    with torch.no_grad():
        total = 0.0
        for word in g2p_words(G2P_WORDS):
            tokens, target = g2p_batch([word])
            total += loss_fn(model(tokens), target).item() * (target != -1).sum().item()
        mean = total / (tensors["target"] != -1).sum().item()
        assert math.isclose(mean, tensors["loss"].item(), rel_tol=1e-6), (mean, tensors["loss"])
        pads = tensors["input"] == G2P_EOS  # a real input is never EOS (the row's last token)
        assert pads[:, 0].logical_not().all() and (tensors["target"][pads] == -1).all()
        other = torch.where(pads, torch.zeros_like(tensors["input"]), tensors["input"])
        real = tensors["target"] != -1
        assert torch.allclose(model(other)[real], tensors["logits"][real], rtol=0, atol=1e-6)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", help="directory to write to (default: tests/fixtures)",
                        default=os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures"))
    args = parser.parse_args()
    torch.set_num_threads(1)  # one reduction order: the same bytes on every run
    torch.use_deterministic_algorithms(True)

    written = {}
    for wo in WO_MODES:
        for ln in LN_MODES:
            config = fixture_config(wo, ln)
            tensors, metadata = make_fixture(config)
            path = os.path.join(args.out, f"ref_{wo}_{ln}.safetensors")
            write_safetensors(path, tensors, metadata)
            written[(wo, ln)] = check_fixture(path, config, tensors, metadata)
            print(f"{os.path.relpath(path)}: {os.path.getsize(path)} bytes, "
                  f"{metadata['parameters']} parameters, loss {tensors['loss'].item():.6f}, "
                  f"after {ADAM_STEPS} Adam steps {tensors['adam_losses'][-1].item():.6f}")

    # Variants of one seed differ only in W_o (and identity_matched's extra FFN units, after
    # every variant's): the C++ experiments promise the same.
    for (wo, ln), tensors in written.items():
        learned = written[("learned", ln)]
        for name, t in learned.items():
            if "W_o" not in name and not name.startswith(("grad.", "logits", "loss", "adam")):
                ours = tensors[name]
                if ours.shape != t.shape:  # identity_matched's wider fc1, fc1.bias and fc2
                    assert wo == "identity_matched" and ".ffn." in name, f"ref_{wo}_{ln}: {name}"
                    ours = ours[tuple(slice(0, n) for n in t.shape)]
                assert torch.equal(ours, t), f"ref_{wo}_{ln}: {name} differs from learned"
        model = fixture_config(wo, ln)["model"]
        for i in range(model["layers"]):
            name = f"layers.{i}.attn.W_o.weight"
            if wo == "frozen_random":
                assert torch.equal(tensors[name], learned[name])
            if wo == "frozen_random_scaled":
                assert torch.equal(tensors[name], learned[name] * math.sqrt(3))
            if wo == "block_diagonal":  # learned's blocks, and learned's bias
                d_k = model["d_model"] // model["heads"]
                head = torch.arange(model["d_model"]) // d_k
                assert torch.equal(tensors[name], learned[name] * (head[:, None] == head[None, :]))
                assert torch.equal(tensors[name.replace("weight", "bias")], learned[name.replace("weight", "bias")])
        if wo == "identity_matched":  # learned's parameter count, within 1%
            counts = [sum(t.numel() for n, t in f.items() if n.startswith("grad.")) for f in (tensors, learned)]
            assert abs(counts[0] - counts[1]) < 0.01 * counts[1], f"ref_{wo}_{ln}: {counts}"
    # W_o = I with bias 0 computes exactly what no W_o computes.
    for ln in LN_MODES:
        a, b = written[("identity", ln)], written[("learned_identity_init", ln)]
        assert torch.allclose(a["logits"], b["logits"], rtol=0, atol=1e-6), f"identity_{ln}"
    for ln in LN_MODES:
        config = fixture_config("learned", ln, task="g2p")
        tensors, metadata = make_fixture(config)
        path = os.path.join(args.out, f"ref_g2p_{ln}.safetensors")
        write_safetensors(path, tensors, metadata)
        check_fixture(path, config, tensors, metadata)
        print(f"{os.path.relpath(path)}: {os.path.getsize(path)} bytes, "
              f"{metadata['parameters']} parameters, batch {tuple(tensors['input'].shape)}, "
              f"loss {tensors['loss'].item():.6f}, "
              f"after {ADAM_STEPS} Adam steps {tensors['adam_losses'][-1].item():.6f}")
    config = fixture_config("learned", "post", schedule=SCHEDULE)
    tensors, metadata = make_fixture(config)
    path = os.path.join(args.out, "ref_schedule_post.safetensors")
    write_safetensors(path, tensors, metadata)
    check_fixture(path, config, tensors, metadata)
    print(f"{os.path.relpath(path)}: {os.path.getsize(path)} bytes, learning rates "
          f"{tensors['adam_lrs'][0].item():.6g}..{tensors['adam_lrs'][-1].item():.6g}, "
          f"after {ADAM_STEPS} Adam steps {tensors['adam_losses'][-1].item():.6f}")
    print("all fixtures read back and checked")


if __name__ == "__main__":
    main()
