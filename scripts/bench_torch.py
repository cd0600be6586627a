#!/usr/bin/python3
"""Training steps per second of the spec's model in PyTorch eager on one thread: the yardstick
for the C++ and wasm trainers. Copy task, a fresh random batch each step, Adam + clipping as in
the spec; 20 warm-up steps, then --steps timed. Prints one JSON line.

    /usr/bin/python3 scripts/bench_torch.py --d-model 256 --d-ff 1024

Exits 3 when torch is missing (the project's bench reads that as "skip").
"""
import argparse
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
import make_reference as ref  # noqa: E402  (the one model definition)

WARMUP_STEPS = 20


def blas_libraries():
    """The BLAS libraries torch really loaded (Debian picks one by the libblas.so.3 alternative)."""
    try:
        with open("/proc/self/maps") as f:
            paths = {line.split()[-1] for line in f
                     if "blas" in line.lower() or "mkl" in line.lower()}
    except OSError:
        return "unknown"
    # the directory tells OpenBLAS's libblas.so.3 (openblas-pthread/) from the reference one (blas/)
    return ",".join(sorted(os.path.join(os.path.basename(os.path.dirname(p)), os.path.basename(p))
                           for p in paths)) or "unknown"


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    for flag, default in (("--d-model", 64), ("--heads", 4), ("--layers", 2), ("--d-ff", 256),
                          ("--length", 8), ("--alphabet", 10), ("--batch", 32), ("--steps", 200)):
        parser.add_argument(flag, type=int, default=default)
    args = parser.parse_args()
    for name, value in vars(args).items():
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
    config = {"model": {"d_model": args.d_model, "heads": args.heads, "layers": args.layers,
                        "d_ff": args.d_ff, "ln": "post", "wo": "learned"},
              "task": {"name": "copy", "alphabet": args.alphabet, "length": args.length},
              "train": {"batch": args.batch, "lr": 0.001, "clip": 1.0}}
    model = ref.build_model(config)
    optimizer = ref.make_optimizer(model, config["train"]["lr"])

    def step():
        x = torch.randint(args.alphabet, (args.batch, args.length))
        ref.train_step(model, optimizer, *ref.copy_batch(x, args.alphabet), clip=1.0)

    for _ in range(WARMUP_STEPS):
        step()
    start = time.perf_counter()
    for _ in range(args.steps):
        step()
    elapsed = time.perf_counter() - start

    print(json.dumps({"impl": "pytorch", "d_model": args.d_model, "heads": args.heads,
                      "layers": args.layers, "d_ff": args.d_ff, "length": args.length,
                      "alphabet": args.alphabet, "batch": args.batch, "steps": args.steps,
                      "steps_per_s": round(args.steps / elapsed, 2),
                      "threads": len(os.listdir("/proc/self/task")),  # OS threads of this process
                      "torch": torch.__version__, "blas": blas_libraries()}))


if __name__ == "__main__":
    main()
