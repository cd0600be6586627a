#!/usr/bin/python3
"""Training steps per second of the spec's model in PyTorch eager on one thread: the yardstick
for the C++ and wasm trainers. Copy task (or g2p), a fresh random batch each step, Adam +
clipping as in the spec; 20 warm-up steps, then --steps timed. Prints one JSON line.

    /usr/bin/python3 scripts/bench_torch.py --d-model 256 --d-ff 1024
    /usr/bin/python3 scripts/bench_torch.py --task g2p --lexicon build/data/cmudict-g2p.txt

--task g2p draws --batch training words from the compact lexicon the build makes (docs/g2p.md),
with the core's split (FNV-1a of the word) and each word's first pronunciation, from one bucket
of similar lengths as src/run/g2p.cpp draws them (wolab_torch.split_words), and pads each batch
to its longest word as src/run/g2p.cpp does (wolab_torch.g2p_pad, whose
layout tests/native/test_reference.cpp checks against the core's); "positions" is the mean
padded length.

Exits 3 when torch is missing (the project's bench reads that as "skip").
"""
import argparse
import ctypes
import json
import os
import sys
import time

# OpenBLAS starts its own thread pool when loaded, and torch.set_num_threads does not reach it
# in Debian's build: it has to hear "1 thread" before torch is imported.
os.environ["OPENBLAS_NUM_THREADS"] = "1"
os.environ["OMP_NUM_THREADS"] = "1"

try:
    import torch
except ImportError:
    print("bench_torch: python3-torch is not installed (apt-get install python3-torch); skipping",
          file=sys.stderr)
    sys.exit(3)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wolab_torch as ref  # noqa: E402  (the one model definition)

WARMUP_STEPS = 20


def blas_libraries():
    """The BLAS libraries torch really loaded (Debian picks one by the libblas.so.3 alternative)."""
    try:
        with open("/proc/self/maps") as f:
            paths = {line.split()[-1] for line in f
                     if "blas" in line.lower() or "mkl" in line.lower()}
    except OSError:
        return "unknown", {}
    # the directory tells OpenBLAS's libblas.so.3 (openblas-pthread/) from the reference one (blas/)
    names = ",".join(sorted(os.path.join(os.path.basename(os.path.dirname(p)), os.path.basename(p))
                            for p in paths)) or "unknown"
    return names, openblas_settings(p for p in paths if "libopenblas" in os.path.basename(p))


def openblas_settings(paths):
    """OpenBLAS's own word on the kernels it chose for this CPU and its threads; {} without it."""
    for path in paths:
        try:
            lib = ctypes.CDLL(path)  # already loaded by torch: this finds the same copy
            lib.openblas_get_corename.restype = ctypes.c_char_p
            return {"core": lib.openblas_get_corename().decode(), "threads": lib.openblas_get_num_threads()}
        except (OSError, AttributeError):
            continue
    return {}


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    for flag, default in (("--d-model", 64), ("--heads", 4), ("--layers", 2), ("--d-ff", 256),
                          ("--length", 8), ("--alphabet", 10), ("--batch", 32), ("--steps", 200)):
        parser.add_argument(flag, type=int, default=default)
    parser.add_argument("--task", choices=("copy", "g2p"), default="copy")
    parser.add_argument("--lexicon", help="g2p: the compact lexicon file (docs/g2p.md)")
    args = parser.parse_args()
    if (args.task == "g2p") != (args.lexicon is not None):
        parser.error("--lexicon: give it with --task g2p, and only then")
    for name, value in vars(args).items():
        if not isinstance(value, int):
            continue
        if value < 1:
            flag = "--" + name.replace("_", "-")
            parser.error(f"{flag}: {value} is not positive; use an integer >= 1")
    if args.d_model % args.heads:
        parser.error(f"--heads: d_model {args.d_model} is not divisible by heads {args.heads}; "
                     "choose heads dividing d_model")
    return args


def main():
    args = parse_args()
    torch.set_num_threads(1)
    torch.manual_seed(0)
    task = ({"name": "g2p"} if args.task == "g2p" else
            {"name": "copy", "alphabet": args.alphabet, "length": args.length})
    config = {"model": {"d_model": args.d_model, "heads": args.heads, "layers": args.layers,
                        "d_ff": args.d_ff, "ln": "post", "wo": "learned"},
              "task": task, "train": {"batch": args.batch, "lr": 0.001, "clip": 1.0}}
    model = ref.build_model(config)
    optimizer = ref.make_optimizer(model, config["train"]["lr"])
    try:
        buckets = ref.split_words(ref.read_lexicon(args.lexicon))[0] if args.task == "g2p" else None
    except (OSError, ValueError) as e:
        sys.exit(f"bench_torch: {e}")

    def batch():
        if buckets is None:
            x = torch.randint(args.alphabet, (args.batch, args.length))
            return ref.copy_batch(x, args.alphabet)
        words = ref.draw_bucket(buckets)  # the bucket of a uniformly drawn word, then the batch from it
        return ref.g2p_pad([words[i] for i in torch.randint(len(words), (args.batch,)).tolist()])

    def step():
        tokens, target = batch()
        ref.train_step(model, optimizer, tokens, target, clip=1.0)
        return tokens.shape[1]

    for _ in range(WARMUP_STEPS):
        step()
    positions = 0
    start, cpu = time.perf_counter(), time.process_time()
    for _ in range(args.steps):
        positions += step()
    elapsed, cpu_elapsed = time.perf_counter() - start, time.process_time() - cpu

    blas, openblas = blas_libraries()
    shape = ({"task": "g2p", "words": sum(map(len, buckets)), "positions": round(positions / args.steps, 2)}
             if buckets else {"task": "copy", "length": args.length, "alphabet": args.alphabet})
    print(json.dumps({"impl": "pytorch", "d_model": args.d_model, "heads": args.heads,
                      "layers": args.layers, "d_ff": args.d_ff, **shape,
                      "batch": args.batch, "steps": args.steps,
                      "steps_per_s": round(args.steps / elapsed, 2),
                      "steps_per_cpu_s": round(args.steps / cpu_elapsed, 2),  # all its threads' CPU time
                      "threads": len(os.listdir("/proc/self/task")),  # OS threads of this process
                      "torch": torch.__version__, "blas": blas, "openblas": openblas}))


if __name__ == "__main__":
    main()
