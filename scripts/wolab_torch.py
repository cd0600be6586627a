"""W_o Lab's model, W_o variants, tasks, training loop, probes and results file in plain PyTorch:
the one Python source of the design. scripts/make_reference.py builds its fixtures from it,
scripts/bench_torch.py times it, and `wolab notebook` inlines its sections, one a cell, into
the notebook of an experiment (docs/notebooks.md): each `# %% [name]` line below starts the
section `name`, which runs on its own after the sections before it.
"""
# %% [setup]
import json
import math

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

# A GPU when there is one; the fixtures and the lab's tests run on the CPU.
DEVICE = torch.device("cuda" if torch.cuda.is_available() else "cpu")


# %% [model]
# The decoder-only Transformer the lab trains (README, "The experiments"): parameter names and order
# are the lab's, so a state dict reads as its checkpoints do.

class Attention(nn.Module):
    """Causal multi-head self-attention; W_o as the mode says. With `record` set, forward keeps
    the concat of the heads (and its gradient after backward) and W_o's output for the probes."""

    def __init__(self, d_model, heads, wo, layer):
        super().__init__()
        self.heads = heads
        self.W_q = nn.Linear(d_model, d_model)
        self.W_k = nn.Linear(d_model, d_model)
        self.W_v = nn.Linear(d_model, d_model)
        self.W_o = make_wo(d_model, heads, wo, layer)
        self.record = False

    def forward(self, x):  # x (B,T,d) -> (B,T,d)
        B, T, d = x.shape
        d_k = d // self.heads

        def split(t):  # (B,T,d) -> (B,H,T,d_k); head h = columns h*d_k..(h+1)*d_k-1
            return t.view(B, T, self.heads, d_k).transpose(1, 2)

        q, k, v = split(self.W_q(x)), split(self.W_k(x)), split(self.W_v(x))
        scores = q @ k.transpose(-2, -1) / math.sqrt(d_k)  # (B,H,T,T)
        future = torch.ones(T, T, dtype=torch.bool, device=x.device).triu(1)  # key j > query i
        probs = scores.masked_fill(future, float("-inf")).softmax(-1)  # (B,H,T,T)
        concat = (probs @ v).transpose(1, 2).reshape(B, T, d)  # (B,T,d) heads side by side
        out = concat if self.W_o is None else self.W_o(concat)  # (B,T,d)
        if self.record:
            concat.retain_grad()
            self.concat, self.out = concat, out
        return out


class FFN(nn.Module):
    def __init__(self, d_model, d_ff):
        super().__init__()
        self.fc1 = nn.Linear(d_model, d_ff)
        self.fc2 = nn.Linear(d_ff, d_model)

    def forward(self, x):  # (B,T,d) -> (B,T,d)
        return self.fc2(F.relu(self.fc1(x)))

    @torch.no_grad()
    def widen(self, width, generator):
        """identity_matched's wider FFN: its d_ff units first, as every variant has them, then
        width - d_ff more, drawn like them (fc1's rows and biases U(±1/√d), fc2's columns
        U(±1/√d_ff), d_ff's bound) from `generator`, so that no later weight's draw moves."""
        d, d_ff = self.fc1.in_features, self.fc1.out_features
        extra = width - d_ff
        a, b = 1 / math.sqrt(d), 1 / math.sqrt(d_ff)
        w1 = torch.empty(extra, d).uniform_(-a, a, generator=generator)  # (extra,d)
        b1 = torch.empty(extra).uniform_(-a, a, generator=generator)  # (extra)
        w2 = torch.empty(d, extra).uniform_(-b, b, generator=generator)  # (d,extra)
        self.fc1.weight = nn.Parameter(torch.cat([self.fc1.weight, w1]))  # (width,d)
        self.fc1.bias = nn.Parameter(torch.cat([self.fc1.bias, b1]))  # (width)
        self.fc2.weight = nn.Parameter(torch.cat([self.fc2.weight, w2], dim=1))  # (d,width)
        self.fc1.out_features = self.fc2.in_features = width


class Block(nn.Module):
    def __init__(self, d_model, heads, d_ff, ln, wo, layer):
        super().__init__()
        self.pre_ln = ln == "pre"
        self.attn = Attention(d_model, heads, wo, layer)
        self.ln1 = nn.LayerNorm(d_model, eps=1e-5)
        self.ffn = FFN(d_model, d_ff)
        if wo == "identity_matched":  # a generator of its own: the stream stays as it was
            seed = torch.initial_seed() + 1000 + layer
            self.ffn.widen(ffn_width(d_model, d_ff, wo), torch.Generator().manual_seed(seed))
        self.ln2 = nn.LayerNorm(d_model, eps=1e-5)

    def forward(self, x):  # (B,T,d) -> (B,T,d)
        residual = x + self.attn(self.ln1(x) if self.pre_ln else x)  # x + W_o(concat)
        if self.attn.record:
            self.residual = residual
        if self.pre_ln:
            return residual + self.ffn(self.ln2(residual))
        x = self.ln1(residual)
        return self.ln2(x + self.ffn(x))


class Transformer(nn.Module):
    def __init__(self, vocab, seq_len, d_model, heads, layers, d_ff, ln, wo):
        super().__init__()
        self.tok_emb = nn.Embedding(vocab, d_model)
        self.pos_emb = nn.Embedding(seq_len, d_model)
        self.layers = nn.ModuleList(Block(d_model, heads, d_ff, ln, wo, i) for i in range(layers))
        self.ln_f = nn.LayerNorm(d_model, eps=1e-5) if ln == "pre" else None
        self.head = nn.Linear(d_model, vocab)

    def forward(self, tokens):  # tokens (B,T) -> logits (B,T,V)
        x = self.tok_emb(tokens.long()) + self.pos_emb.weight[: tokens.shape[1]]  # (B,T,d)
        for block in self.layers:
            x = block(x)
        if self.ln_f is not None:
            x = self.ln_f(x)
        return self.head(x)


def build_model(config):
    """A Transformer for a config in the lab's schema (docs/config.md); seed torch first."""
    m, task = config["model"], config["task"]
    if m["wo"] not in WO_MODES or m["ln"] not in ("post", "pre") or m["d_model"] % m["heads"]:
        raise ValueError(f"bad model config {m}")
    if task["name"] == "g2p":  # the data's vocabulary and longest example (docs/g2p.md)
        vocab, seq_len = G2P_VOCAB, G2P_SEQ_LEN
    else:
        vocab, seq_len = task["alphabet"] + 2, 2 * task["length"] + 1
    return Transformer(vocab=vocab, seq_len=seq_len,
                       d_model=m["d_model"], heads=m["heads"], layers=m["layers"],
                       d_ff=m["d_ff"], ln=m["ln"], wo=m["wo"])


def trainable(model):
    return [p for p in model.parameters() if p.requires_grad]


def parameter_count(model):
    """The parameters that train, as the lab counts them: block_diagonal's zeros between the
    heads' blocks, which never move, left out."""
    zeros = sum(int((m.mask == 0).sum()) for m in model.modules() if isinstance(m, BlockDiagonal))
    return sum(p.numel() for p in trainable(model)) - zeros


def wo_matrix(model, layer):
    """Layer `layer`'s W_o (d,d), (out, in); the identity matrix when there is none, and the
    gain times it for scalar_gain."""
    W_o = model.layers[layer].attn.W_o
    eye = torch.eye(model.tok_emb.weight.shape[1], device=model.head.weight.device)
    if W_o is None:
        return eye
    return W_o.gain.detach() * eye if isinstance(W_o, ScalarGain) else W_o.weight.detach()


# %% [variants]
# The W_o variants (docs/config.md, model.wo). Every mode draws the learned W_o first, so the
# mode never shifts the random stream: all variants of a seed share every other weight, and
# frozen_random's W_o is learned's initial W_o. Three controls change one thing each:
# block_diagonal keeps learned's W_o to its heads' blocks, scalar_gain replaces it with one
# learned scalar, and identity_matched drops it but widens the FFN to learned's parameter count.
WO_MODES = ("learned", "identity", "frozen_random", "learned_identity_init",
            "frozen_random_scaled", "frozen_orthogonal", "block_diagonal", "scalar_gain",
            "identity_matched")
FROZEN_MODES = ("frozen_random", "frozen_random_scaled", "frozen_orthogonal")
# The gain of learned's initial W_o: entries U(±1/√d) have variance 1/(3d), so E‖W_o x‖² =
# ‖x‖²/3 and the RMS ratio ‖W_o x‖/‖x‖ is 1/√3 whatever d. scalar_gain starts there.
LEARNED_WO_GAIN = 1 / math.sqrt(3)


def ffn_width(d_model, d_ff, wo):
    """The FFN's hidden width: d_ff, but identity_matched adds the whole number of units nearest
    to W_o's d² + d parameters (2d + 1 each: a row of fc1, its bias, a column of fc2)."""
    if wo != "identity_matched":
        return d_ff
    unit = 2 * d_model + 1
    return d_ff + (2 * d_model * (d_model + 1) + unit) // (2 * unit)


class BlockDiagonal(nn.Module):
    """block_diagonal's W_o: learned's nn.Linear (its draw, its bias) with the weight kept to the
    heads' d_k × d_k blocks on its diagonal. Forward multiplies the weight by a 0/1 mask, so the
    gradient between the blocks is exactly 0, and Adam (whose moments there stay 0) never moves
    the zeros."""

    def __init__(self, linear, heads):
        super().__init__()
        d = linear.in_features
        head = torch.arange(d) // (d // heads)  # the head of each row and column
        self.register_buffer("mask", (head[:, None] == head[None, :]).float(), persistent=False)
        self.weight = nn.Parameter(linear.weight.detach() * self.mask)  # (d,d)
        self.bias = linear.bias  # (d)

    def forward(self, x):  # (B,T,d) -> (B,T,d)
        return F.linear(x, self.weight * self.mask, self.bias)


class ScalarGain(nn.Module):
    """scalar_gain's W_o: no matrix and no bias (like identity), the concat times one learned
    scalar, starting at learned's initial gain."""

    def __init__(self):
        super().__init__()
        self.gain = nn.Parameter(torch.full((1,), LEARNED_WO_GAIN))

    def forward(self, x):  # (B,T,d) -> (B,T,d)
        return x * self.gain


def random_orthogonal(d, generator):
    """QR of a Gaussian matrix with R's diagonal made positive, as src/nn/orthogonal.cpp does.
    The C++ side draws its own from its own PRNG: the two matrices differ, not their law."""
    q, r = torch.linalg.qr(torch.randn(d, d, generator=generator, dtype=torch.float64))
    return (q * torch.sign(torch.diagonal(r))).float()


def make_wo(d_model, heads, wo, layer):
    """Layer `layer`'s W_o in mode `wo`: an nn.Linear, BlockDiagonal or ScalarGain, or None for
    identity and identity_matched (output = concat)."""
    W_o = nn.Linear(d_model, d_model)
    if wo in ("identity", "identity_matched"):
        return None
    if wo == "block_diagonal":
        return BlockDiagonal(W_o, heads)
    if wo == "scalar_gain":
        return ScalarGain()
    if wo in FROZEN_MODES:  # never trained, no bias
        W_o.register_parameter("bias", None)
        W_o.weight.requires_grad_(False)
        if wo == "frozen_random_scaled":  # E‖W_o‖²_F = d, like the identity's
            W_o.weight.mul_(math.sqrt(3))
        elif wo == "frozen_orthogonal":  # a generator of its own: the stream stays as it was
            seed = torch.initial_seed() + 1 + layer
            W_o.weight.copy_(random_orthogonal(d_model, torch.Generator().manual_seed(seed)))
    elif wo == "learned_identity_init":
        nn.init.eye_(W_o.weight)
        nn.init.zeros_(W_o.bias)
    return W_o


# %% [tasks]
# The toy tasks: [BOS] x1..xL [SEP] y1..yL with x uniform over `alphabet` symbols, y = x (copy),
# x reversed or x sorted. The model reads the sequence without its last token; only the L
# answer positions carry a target (-1 elsewhere).

def fnv1a64(text):
    """64-bit FNV-1a, as src/run/g2p.cpp hashes a word (and as the held-out stream is named here)."""
    h = 0xcbf29ce484222325
    for byte in text.encode():
        h = ((h ^ byte) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def toy_batch(x, task):
    """Symbols x (B,L) -> input, target (B,T), T = 2L+1: target -1 but at t = L+1..2L."""
    B, L = x.shape
    alphabet = task["alphabet"]
    y = {"copy": x, "reverse": x.flip(1), "sort": x.sort(1).values}[task["name"]]
    bos = torch.full((B, 1), alphabet, dtype=x.dtype, device=x.device)
    sep = torch.full((B, 1), alphabet + 1, dtype=x.dtype, device=x.device)
    seq = torch.cat([bos, x, sep, y], dim=1)  # (B,2L+2)
    target = seq[:, 1:].clone()  # (B,T)
    target[:, : L + 1] = -1
    return seq[:, :-1].to(torch.int32), target.to(torch.int32)


def copy_batch(x, alphabet):
    """The task copy's batch of symbols x (B,L)."""
    return toy_batch(x, {"name": "copy", "alphabet": alphabet})


def toy_heldout(task):
    """The fixed held-out set of (task, alphabet, length), whatever the run's seed: the first
    task.heldout sequences of one stream named after them (the lab's stream differs)."""
    key = f"heldout/{task['name']}/{task['alphabet']}/{task['length']}"
    generator = torch.Generator().manual_seed(fnv1a64(key) >> 1)
    x = torch.randint(task["alphabet"], (task["heldout"], task["length"]), generator=generator)
    return toy_batch(x, task)


# %% [g2p]
# Real words (docs/g2p.md): a word's letters in, its CMUdict pronunciation out. Letters a-z are
# tokens 0-25, the 39 phonemes 26-64 in CMUdict's order, then [BOS] 65, [SEP] 66, [EOS] 67. A
# word is held out when FNV-1a of it, modulo 1000, is below 50: the lab's split, for every run.
PHONEMES = ("AA AE AH AO AW AY B CH D DH EH ER EY F G HH IH IY JH K L M N NG OW OY "
            "P R S SH T TH UH UW V W Y Z ZH").split()
G2P_BOS = 26 + len(PHONEMES)
G2P_SEP, G2P_EOS, G2P_VOCAB = G2P_BOS + 1, G2P_BOS + 2, G2P_BOS + 3
G2P_SEQ_LEN = 12 + 14 + 2  # [BOS], 12 letters, [SEP], 14 phonemes
MIN_BUCKET = 4096  # training words per length bucket, at least (kMinG2pBucket, src/run/g2p.h)


def g2p_sequence(word, phonemes):
    """-> ([BOS] letters [SEP] phonemes [EOS] as tokens, the position of its [SEP])."""
    return ([G2P_BOS] + [ord(c) - ord("a") for c in word] + [G2P_SEP]
            + [26 + PHONEMES.index(p) for p in phonemes] + [G2P_EOS]), len(word) + 1


def g2p_pad(sequences):
    """[g2p_sequence, ...] -> input, target (B,T): each row its sequence without the last token,
    targets from [SEP] on (the phonemes, then EOS), -1 before; padded at the end to the longest
    row (T) with input EOS and target -1."""
    T = max(len(seq) - 1 for seq, _ in sequences)
    tokens = np.full((len(sequences), T), G2P_EOS, dtype=np.int32)
    target = np.full((len(sequences), T), -1, dtype=np.int32)
    for b, (seq, sep) in enumerate(sequences):
        n = len(seq) - 1
        tokens[b, :n] = seq[:-1]
        target[b, sep:n] = seq[sep + 1:]
    return torch.from_numpy(tokens), torch.from_numpy(target)


def g2p_batch(words):
    """[(word, [phoneme, ...]), ...] -> input, target (B,T), laid out as src/run/g2p.cpp does."""
    return g2p_pad([g2p_sequence(word, phonemes) for word, phonemes in words])


def read_lexicon(path):
    """The compact lexicon the build makes (build/data/cmudict-g2p.txt) -> {word: [pronunciation,
    ...]} in the file's order; a pronunciation is a list of phonemes, `WORD(n)` an alternate."""
    words = {}
    with open(path, encoding="ascii") as f:
        for line in f:
            if line.startswith(";;;") or not line.strip():
                continue
            head, *phonemes = line.split()
            words.setdefault(head.split("(")[0].lower(), []).append(phonemes)
    if not words:
        raise ValueError(f"{path}: no words; give the lexicon the build makes (docs/g2p.md)")
    return words


def length_buckets(sequences):
    """Training sequences by input length (stable), cut as split_lexicon cuts them: lengths join
    a bucket, shortest first, until it holds MIN_BUCKET; a last bucket under that joins the one
    before."""
    buckets, current = [], []
    for seq in sorted(sequences, key=lambda s: len(s[0])):
        if current and len(seq[0]) != len(current[-1][0]) and len(current) >= MIN_BUCKET:
            buckets.append(current)
            current = []
        current.append(seq)
    if current and buckets and len(current) < MIN_BUCKET:
        buckets[-1] += current
    elif current:
        buckets.append(current)
    return buckets


def split_words(lexicon):
    """-> (length buckets of the training words' first pronunciations as g2p_sequence, the
    held-out words ordered by hash, each (word, its pronunciations))."""
    train, heldout = [], []
    for word, prons in lexicon.items():
        if fnv1a64(word) % 1000 < 50:
            heldout.append((fnv1a64(word), len(heldout), word, prons))
        else:
            train.append(g2p_sequence(word, prons[0]))
    return length_buckets(train), [(w, p) for _, _, w, p in sorted(heldout)]


def draw_bucket(buckets, generator=None):
    """The bucket of a training word drawn uniformly: each with probability size / all words."""
    first = torch.randint(sum(len(b) for b in buckets), (1,), generator=generator).item()
    for bucket in buckets:
        if first < len(bucket):
            return bucket
        first -= len(bucket)


def edit_distance(a, b):
    row = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        diagonal, row[0] = row[0], i
        for j in range(1, len(b) + 1):
            up = row[j]
            row[j] = min(up + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1]))
            diagonal = up
    return row[len(b)]


# %% [training]
# The lab's recipe: Adam with β (0.9, 0.98), ε 1e-9 and a constant learning rate, the gradient's
# global norm clipped (0: off), a fresh batch every step, loss on the answer positions only.

def loss_fn(logits, target):  # logits (B,T,V), target (B,T) with -1 where ignored
    return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), target.reshape(-1).long(),
                           ignore_index=-1)


def make_optimizer(model, lr):
    return torch.optim.Adam(trainable(model), lr=lr, betas=(0.9, 0.98), eps=1e-9)


def train_step(model, optimizer, tokens, target, clip):
    """One step of the recipe; returns the loss before the update."""
    optimizer.zero_grad(set_to_none=True)
    loss = loss_fn(model(tokens), target)
    loss.backward()
    if clip > 0:
        nn.utils.clip_grad_norm_(trainable(model), clip)
    optimizer.step()
    return loss.item()


@torch.no_grad()
def evaluate(model, tokens, target, chunk=512):
    """Teacher forced on a held-out set: mean loss over answer tokens, token accuracy, and the
    share of sequences whose every answer token is right."""
    loss, tokens_n, right, exact = 0.0, 0, 0, 0
    for start in range(0, len(tokens), chunk):
        x, y = tokens[start:start + chunk], target[start:start + chunk].long()
        logits, scored = model(x), y >= 0
        loss += F.cross_entropy(logits[scored], y[scored], reduction="sum").item()
        ok = (logits.argmax(-1) == y) | ~scored
        right += (ok & scored).sum().item()
        tokens_n += scored.sum().item()
        exact += ok.all(1).sum().item()
    return {"loss": loss / tokens_n, "token_acc": right / tokens_n, "exact": exact / len(tokens)}


@torch.no_grad()
def greedy_exact(model, tokens, target, first):
    """Held-out sequences whose every answer the model gets right from its own predictions,
    fed [BOS] x [SEP] and then what it predicted (answers from position `first` on)."""
    seq, right = tokens.clone(), torch.ones(len(tokens), dtype=torch.bool, device=tokens.device)
    for t in range(first, seq.shape[1]):
        prediction = model(seq[:, : t + 1])[:, t].argmax(-1).to(seq.dtype)
        right &= prediction == target[:, t]
        if t + 1 < seq.shape[1]:
            seq[:, t + 1] = prediction
    return right.float().mean().item()


@torch.no_grad()
def pronounce(model, words):
    """Greedy pronunciations of words (a-z): [(phoneme ids, whether EOS came)], each fed [BOS]
    letters [SEP], then its own predictions, up to the model's last position."""
    device = model.head.weight.device
    seq = torch.full((len(words), G2P_SEQ_LEN), G2P_EOS, dtype=torch.int64, device=device)
    said = torch.full_like(seq, -1)  # (B,T) the token predicted at t, -1 where none
    sep = torch.tensor([len(w) + 1 for w in words], device=device)
    for b, w in enumerate(words):
        seq[b, : len(w) + 2] = torch.tensor(g2p_sequence(w, [])[0][:-1])
    done = torch.zeros(len(words), dtype=torch.bool, device=device)
    for t in range(int(sep.min()), G2P_SEQ_LEN):
        active = (sep <= t) & ~done
        prediction = model(seq[:, : t + 1])[:, t].argmax(-1)
        done |= active & (prediction == G2P_EOS)
        speaks = active & (prediction != G2P_EOS)
        said[:, t] = torch.where(speaks, prediction, said[:, t])
        if t + 1 < G2P_SEQ_LEN:
            seq[:, t + 1] = torch.where(speaks, prediction, seq[:, t + 1])
    # a token that is not a phoneme is below 0 or above 38: it matches none
    return [([x - 26 for x in row if x >= 0], eos) for row, eos in zip(said.tolist(), done.tolist())]


@torch.no_grad()
def g2p_scores(model, words, chunk=512):
    """Held-out words (word, pronunciations): teacher-forced loss and token accuracy of their
    first pronunciations, and PER and WER of the greedy ones against the closest listed (a word
    that never predicts EOS counts one edit more, and is wrong)."""
    device = model.head.weight.device
    loss, right, tokens_n, edits, reference, wrong = 0.0, 0, 0, 0, 0, 0
    for start in range(0, len(words), chunk):
        part = words[start:start + chunk]
        x, y = g2p_batch([(w, p[0]) for w, p in part])
        m = evaluate(model, x.to(device), y.to(device))
        n = (y >= 0).sum().item()
        loss, right, tokens_n = loss + m["loss"] * n, right + round(m["token_acc"] * n), tokens_n + n
        for (w, prons), (guess, eos) in zip(part, pronounce(model, [w for w, _ in part])):
            ids = [[PHONEMES.index(p) for p in pron] for pron in prons]
            best = min(ids, key=lambda r: edit_distance(guess, r))  # the first on a tie
            d = edit_distance(guess, best)
            edits, reference, wrong = edits + d + (not eos), reference + len(best), wrong + (d > 0 or not eos)
    return {"words": len(words), "loss": loss / tokens_n, "token_acc": right / tokens_n,
            "per": edits / reference, "wer": wrong / len(words)}


def activation_stats(model, step):
    """The probe of a training step, after its backward and before its update: per layer, mean
    and (population) std of the concat, of W_o(concat) and of x + W_o(concat), and the norm of
    the loss's gradient reaching each head's slice of the concat."""
    out = []
    for layer, block in enumerate(model.layers):
        a = block.attn
        grad = a.concat.grad.reshape(-1, a.heads, a.concat.shape[-1] // a.heads)  # (N,H,d_k)
        site = lambda t: {"mean": t.mean().item(), "std": t.std(unbiased=False).item()}
        out.append({"step": step, "layer": layer, "concat": site(a.concat.detach()),
                    "wo_out": site(a.out.detach()), "residual": site(block.residual.detach()),
                    "head_grad_norm": grad.pow(2).sum((0, 2)).sqrt().tolist()})
    return out


def wo_snapshot(model, step):
    """Every layer's W_o at `step`, and the singular values of each head's OV circuit
    W_o[:, head] · W_v[head, :]."""
    wo, ov = [], []
    for layer, block in enumerate(model.layers):
        w, heads = wo_matrix(model, layer), block.attn.heads
        d = w.shape[0]
        wo.append({"step": step, "layer": layer, "rows": d, "cols": d,
                   "data": w.flatten().tolist()})
        d_k, wv = d // heads, block.attn.W_v.weight.detach()
        for h in range(heads):
            circuit = w[:, h * d_k:(h + 1) * d_k].double() @ wv[h * d_k:(h + 1) * d_k].double()
            ov.append({"step": step, "layer": layer, "head": h,
                       "values": torch.linalg.svdvals(circuit)[:d_k].tolist()})
    return wo, ov


def finite(x):
    """Whether every number in a (nested) record entry is finite: a series stops before one that
    is not, as the lab's records do (JSON has no NaN)."""
    if isinstance(x, dict):
        return all(finite(v) for v in x.values())
    if isinstance(x, list):
        return all(finite(v) for v in x)
    return not isinstance(x, float) or math.isfinite(x)


def loss_curve(losses, every):
    """The record's loss curve as the lab writes it (train.loss_every): a point per `every` steps,
    at the last of them, holding their mean."""
    steps, means = [], []
    for begin in range(0, len(losses), every):
        block = losses[begin:begin + every]
        steps.append(begin + len(block))
        means.append(sum(block) / len(block))
    return {"step": steps, "loss": means}


def train_run(run_config, keep, data, progress=None):
    """Trains one run of the plan (`run_config`: model, task and train of the lab's schema, its
    model.wo the variant) and returns its record in the lab's results schema (docs/results.md).
    keep: {"stats", "wo"} as the plan says; data: the held-out set and, for g2p, the words."""
    model_cfg, task, train = run_config["model"], run_config["task"], run_config["train"]
    seed, steps, every = train["seed"], train["steps"], train["probe_every"]
    torch.manual_seed(seed)  # the weights: every variant of a seed shares all but W_o
    model = build_model(run_config).to(DEVICE)
    optimizer = make_optimizer(model, train["lr"])
    batches = torch.Generator().manual_seed(seed + 1)  # the data: every variant sees the same
    record = {"variant": model_cfg["wo"], "seed": seed, "lr": train["lr"], "clip": train["clip"],
              "parameters": parameter_count(model),
              "wo_sv": [torch.linalg.svdvals(wo_matrix(model, l).double()).tolist()
                        for l in range(len(model.layers))],
              "curve": {"step": [], "loss": []}, "eval": {"step": []}, "stats": [], "wo": [], "ov": [],
              "final": None, "status": {"state": "done"}}
    g2p = task["name"] == "g2p"
    probe_words = data["heldout_words"][: task["heldout"]] if g2p else None
    heldout = g2p_batch([(w, p[0]) for w, p in probe_words]) if g2p else data["heldout"]
    heldout = [t.to(DEVICE) for t in heldout]
    if keep["wo"]:
        record["wo"], record["ov"] = wo_snapshot(model, 0)
    evals, losses, series_ok = [], [], {"stats": True, "wo": True}
    for step in range(1, steps + 1):
        probe = step % every == 0 or step == steps
        if g2p:
            bucket = draw_bucket(data["buckets"], batches)
            picks = torch.randint(len(bucket), (train["batch"],), generator=batches).tolist()
            tokens, target = g2p_pad([bucket[i] for i in picks])
        else:
            x = torch.randint(task["alphabet"], (train["batch"], task["length"]), generator=batches)
            tokens, target = toy_batch(x, task)
        tokens, target = tokens.to(DEVICE), target.to(DEVICE)
        record_stats = keep["stats"] and probe and series_ok["stats"]
        for block in model.layers:
            block.attn.record = record_stats
        optimizer.zero_grad(set_to_none=True)
        loss = loss_fn(model(tokens), target)
        if not math.isfinite(loss.item()):
            record["status"] = {"state": "diverged", "step": step}
            break
        loss.backward()
        if record_stats:
            for block in model.layers:
                block.attn.record = False
            stats = activation_stats(model, step)
            series_ok["stats"] = finite(stats)
            record["stats"] += stats if series_ok["stats"] else []
        if train["clip"] > 0:
            nn.utils.clip_grad_norm_(trainable(model), train["clip"])
        optimizer.step()
        losses.append(loss.item())
        if probe:
            if keep["wo"] and series_ok["wo"]:
                wo, ov = wo_snapshot(model, step)
                series_ok["wo"] = finite(wo) and finite(ov)
                if series_ok["wo"]:
                    record["wo"] += wo
                    record["ov"] += ov
            metrics = evaluate(model, *heldout)
            if g2p:  # the greedy pronunciations of the same words
                metrics.update({k: v for k, v in g2p_scores(model, probe_words).items() if k in ("per", "wer")})
            if not math.isfinite(metrics["loss"]):
                record["status"] = {"state": "diverged", "step": step}
                break
            evals.append(dict(metrics, step=step))
            if progress:
                progress(step, metrics)
    for key in ("step", "loss", "token_acc", "exact") + (("per", "wer") if g2p else ()):
        record["eval"][key] = [e[key] for e in evals]
    done = record["status"]["state"] == "done"
    last = evals[-1] if evals else {}
    final = {k: last.get(k) for k in ("loss", "token_acc", "exact")}
    final["greedy_exact"] = None if not done else (
        1 - last["wer"] if g2p else greedy_exact(model, *heldout, first=task["length"] + 1))
    final["steps_to_loss_0_1"] = next((i + 1 for i, l in enumerate(losses) if l < 0.1), None)
    record["curve"] = loss_curve(losses, train.get("loss_every", 1))
    if g2p:  # every held-out word, at the end
        final["heldout_words"] = g2p_scores(model, data["heldout_words"]) if done else None
    record["final"] = final
    return record


def task_data(run_config, lexicon_path=None):
    """What every run of a plan reads: the toy task's held-out set, or the words' split."""
    task = run_config["task"]
    if task["name"] != "g2p":
        return {"heldout": toy_heldout(task)}
    buckets, heldout_words = split_words(read_lexicon(lexicon_path))
    return {"buckets": buckets, "heldout_words": heldout_words}


# %% [results]
# The results file of the lab (docs/results.md, version 2), which `wolab report` reads and the
# page imports, labelled by its producer as this notebook's; the lab recomputes its summary.

def results_file(experiment, config, records):
    def rounded(x):  # 7 significant digits: float32's, in a file a quarter of the size
        if isinstance(x, dict):
            return {k: rounded(v) for k, v in x.items()}
        if isinstance(x, list):
            return [rounded(v) for v in x]
        return float(f"{x:.7g}") if isinstance(x, float) else x

    return {"format": "wolab-results", "version": 2,
            "created_by": f"W_o Lab notebook, PyTorch {torch.__version__} on {DEVICE.type}",
            "producer": "pytorch-notebook", "experiment": experiment, "config": config,
            "runs": rounded(records), "summary": []}


def write_results(path, experiment, config, records):
    with open(path, "w") as f:
        json.dump(results_file(experiment, config, records), f)
