// The page's first picture: one attention block as the article writes it in code (Q, K, V per
// head, the heads' outputs, their concatenation, W_o, the residual sum and LayerNorm), drawn in
// SVG with W_o picked out, the formula under it (MathML), and a switch of W_o's variants that
// redraws W_o: learned (every output mixes every head), identity (straight wires: no W_o),
// frozen (a random mixing under a lock) and learned from the identity (straight wires that then
// learn). Each part links to the experiment that tests it: the claim about that part (PARTS)
// names it through the core's claim_sources, and W_o links to the first experiment that compares
// the variant shown. The variants are the core's (experiments()); the words are i18n's.
import { t } from '../i18n/i18n.js';
import { $, el } from '../base/dom.js';
import { svg } from '../base/svg.js';

const MATH = 'http://www.w3.org/1998/Math/MathML';

// Each part of the block, the claim of docs/claims.md about it (whose first experiment tests
// it), and its text keys dp_<part> (its name) and dt_<part> (what it does). W_o (part 'wo') links
// to the experiment that compares the variant shown instead (linkWo).
const PARTS = [
  { part: 'heads', claim: 9 },     // the gradient reaching each head
  { part: 'concat', claim: 5 },    // which heads' blocks W_o reads
  { part: 'residual', claim: 8 },  // W_o's output small at first, protecting the residual stream
  { part: 'norm', claim: 6 },      // the residual sum's scale, which LayerNorm receives
  { part: 'gradient', claim: 7 },  // the learning rate the gradient through W_o tolerates
];

const diagram = {
  variants: [],         // the variants the switch offers (setUpDiagram), the core's codes
  frozen: new Set(),    // those never trained (experiments()' frozen)
  variant: 'learned',   // the one drawn
  links: new Map(),     // part -> experiment name, once the core's tables are in
  byVariant: new Map(), // variant -> the first experiment that compares it with another
};

// ---------- the picture ----------

// Geometry, in the viewBox's units (720 × 300): three drawn heads (1, 2, h) with a gap between
// the second and the last, read left to right; head h in the colour of the fusion figure's 8th.
const LANES = [{ y: 86, n: '1', head: 1 }, { y: 138, n: '2', head: 2 }, { y: 226, n: 'h', head: 8 }];
const DOTS_Y = 182;
const TOP = 62, BOTTOM = 250;                   // the concat's and W_o's extent
// Wide: Q, K, V and attention drawn per head. Compact (a phone's width, where the wide drawing's
// words would shrink below reading size): the heads alone, in a narrower viewBox.
const WIDE = { input: 14, qkv: 74, attn: 150, head: 232, headW: 30, concat: 286, wo: 334, woW: 128, out: 486, add: 540, norm: 584, end: 700, width: 720 };
const COMPACT = { input: 4, head: 58, headW: 34, concat: 118, wo: 160, woW: 112, out: 290, add: 340, norm: 372, end: 456, width: 460 };
const COMPACT_BELOW_PX = 560;  // the drawing's width under which it is compact
let X = WIDE;
const compact = () => X === COMPACT;

const headColor = (i) => `var(--head-${LANES[i].head})`;  // style.css's --head-1 .. --head-8
const segment = (i) => ({ y0: TOP + 6 + i * 62, y1: TOP + 6 + i * 62 + 50 });  // a head's rows of the concat

function arrow(x1, y1, x2, y2, cls = 'flow') {
  return svg('line', { x1, y1, x2, y2, class: cls, 'marker-end': 'url(#bd-arrow)' });
}

// A part: its shapes inside a link to the experiment that tests it (once known), with its name
// as the link's title for pointers and screen readers.
function part(name, ...children) {
  const experiment = diagram.links.get(name);
  const g = experiment ? svg('a', { href: `#exp-${experiment}`, class: `bd-part part-${name}` }) : svg('g', { class: `bd-part part-${name}` });
  g.dataset.part = name;
  if (experiment) g.dataset.experiment = experiment;
  const title = experiment ? t('dpLink', { part: t(`dp_${name}`), does: t(`dt_${name}`), title: t(`${experiment}_title`) })
    : `${t(`dp_${name}`)}: ${t(`dt_${name}`)}`;
  g.append(svg('title', {}, title), ...children);
  return g;
}

function heads() {
  const shapes = [];
  LANES.forEach((lane, i) => {
    const c = headColor(i);
    if (compact()) {
      shapes.push(arrow(X.input + 30, lane.y, X.head - 3, lane.y, 'flow thin'),
        svg('rect', { x: X.head, y: lane.y - 11, width: X.headW, height: 22, rx: 4, class: 'bd-head', style: { fill: c } }),
        svg('text', { x: X.head + X.headW / 2, y: lane.y + 5, class: 'bd-head-label', 'text-anchor': 'middle' }, lane.n));
      return;
    }
    shapes.push(arrow(X.input + 30, lane.y, X.qkv - 4, lane.y, 'flow thin'));
    ['Q', 'K', 'V'].forEach((name, j) => {
      const x = X.qkv + j * 22;
      shapes.push(svg('rect', { x, y: lane.y - 10, width: 18, height: 20, rx: 3, class: 'bd-qkv', style: { stroke: c } }),
        svg('text', { x: x + 9, y: lane.y + 4, class: 'bd-small', 'text-anchor': 'middle' }, name));
    });
    shapes.push(arrow(X.qkv + 64, lane.y, X.attn - 3, lane.y, 'flow thin'),
      svg('rect', { x: X.attn, y: lane.y - 13, width: 64, height: 26, rx: 5, class: 'bd-attn', style: { stroke: c } }),
      svg('text', { x: X.attn + 32, y: lane.y + 4, class: 'bd-small', 'text-anchor': 'middle' }, t('dAttn')),
      arrow(X.attn + 64, lane.y, X.head - 3, lane.y, 'flow thin'),
      svg('rect', { x: X.head, y: lane.y - 9, width: 30, height: 18, rx: 3, class: 'bd-head', style: { fill: c } }),
      svg('text', { x: X.head + 15, y: lane.y + 4, class: 'bd-head-label', 'text-anchor': 'middle' }, lane.n));
  });
  if (compact()) {
    shapes.push(svg('text', { x: X.head + X.headW / 2, y: DOTS_Y + 6, class: 'bd-dots', 'text-anchor': 'middle' }, '⋮'),
      svg('text', { x: X.head + X.headW / 2, y: TOP - 10, class: 'bd-label', 'text-anchor': 'middle' }, t('dHeads')));
    return part('heads', ...shapes);
  }
  shapes.push(svg('text', { x: X.attn + 32, y: DOTS_Y + 6, class: 'bd-dots', 'text-anchor': 'middle' }, '⋮'),
    svg('text', { x: X.qkv + 31, y: TOP - 10, class: 'bd-label', 'text-anchor': 'middle' }, t('dQkv')),
    svg('text', { x: X.head + 15, y: TOP - 10, class: 'bd-label', 'text-anchor': 'middle' }, t('dHeads')));
  return part('heads', ...shapes);
}

function concat() {
  const shapes = LANES.map((lane, i) => {
    const { y0, y1 } = segment(i);
    return svg('rect', { x: X.concat, y: y0, width: 20, height: y1 - y0, class: 'bd-seg', style: { fill: headColor(i) } });
  });
  LANES.forEach((lane, i) => shapes.push(arrow(X.head + X.headW, lane.y, X.concat - 3, (segment(i).y0 + segment(i).y1) / 2, 'flow thin')));
  shapes.push(svg('rect', { x: X.concat - 2, y: TOP, width: 24, height: BOTTOM - TOP, rx: 4, class: 'bd-outline' }),
    svg('text', { x: X.concat + 10, y: TOP - 10, class: 'bd-label', 'text-anchor': 'middle' }, t('dConcat')));
  return part('concat', ...shapes);
}

// Wires through W_o from each head's rows of the concat (left) to the output's rows (right):
// straight for the identity, every row to every row for a full matrix.
function wires(mix, straight) {
  const g = svg('g', { class: 'bd-wires' });
  const x0 = X.wo + 8, x1 = X.wo + X.woW - 8;
  const rows = LANES.map((lane, i) => (segment(i).y0 + segment(i).y1) / 2);
  if (mix) {
    rows.forEach((ya, i) => rows.forEach((yb, j) => {
      if (i === j && straight) return;
      g.append(svg('path', { d: `M${x0},${ya} C${x0 + 50},${ya} ${x1 - 50},${yb} ${x1},${yb}`, class: `bd-mix${straight ? ' faint' : ''}`, style: { stroke: headColor(i) } }));
    }));
  }
  if (straight) rows.forEach((y, i) => g.append(svg('line', { x1: x0, y1: y, x2: x1, y2: y, class: 'bd-wire', style: { stroke: headColor(i) } })));
  return g;
}

function lock(x, y) {
  const g = svg('g', { class: 'bd-lock', transform: `translate(${x},${y})` });
  g.append(svg('path', { d: 'M4,9 V6 a6,6 0 0 1 12,0 V9', class: 'bd-lock-shackle' }),
    svg('rect', { x: 0, y: 9, width: 20, height: 15, rx: 3, class: 'bd-lock-body' }),
    svg('circle', { cx: 10, cy: 16, r: 2.2, class: 'bd-lock-hole' }));
  return g;
}

// "W" with a subscript "o", as the page writes W_o.
function woName(x, y) {
  const name = svg('text', { x, y, class: 'bd-wo-name', 'text-anchor': 'middle' }, 'W');
  name.append(svg('tspan', { class: 'bd-sub', dy: 5 }, 'o'));
  return name;
}

// The controls of "What W_o is for": each head's own block and no other (separate boxes), or one
// gain and no matrix (a dial).
function blocks() {
  return LANES.map((lane, i) => svg('rect', { x: X.wo + 6, y: segment(i).y0 - 4, width: X.woW - 12, height: segment(i).y1 - segment(i).y0 + 8,
    rx: 6, class: 'bd-block', style: { stroke: headColor(i) } }));
}
function dial(x, y) {
  const g = svg('g', { class: 'bd-dial', transform: `translate(${x},${y})` });
  g.append(svg('circle', { cx: 0, cy: 0, r: 15 }), svg('path', { d: 'M0,0 L9,-9' }), svg('text', { x: 0, y: 28, 'text-anchor': 'middle' }, 'g'));
  return g;
}

// W_o as the variant shown draws it.
function wo() {
  const v = diagram.variant;
  // No matrix that mixes: identity, and the controls but block_diagonal's blocks.
  const noMatrix = v === 'identity' || v === 'identity_matched' || v === 'scalar_gain';
  const own = noMatrix || v === 'block_diagonal';  // each head keeps its own slice
  const frozen = diagram.frozen.has(v);
  const fromIdentity = v === 'learned_identity_init';
  const shapes = [
    svg('rect', { x: X.wo, y: TOP - 4, width: X.woW, height: BOTTOM - TOP + 8, rx: 10, class: `bd-wo${noMatrix ? ' absent' : ''}${frozen ? ' frozen' : ''}` }),
    wires(!own, own || fromIdentity),
    v === 'identity' || v === 'identity_matched' ? svg('text', { x: X.wo + X.woW / 2, y: TOP - 12, class: 'bd-wo-name', 'text-anchor': 'middle' }, t('dNoWo'))
      : woName(X.wo + X.woW / 2, TOP - 12),
  ];
  if (v === 'block_diagonal') shapes.push(...blocks());
  if (v === 'scalar_gain') shapes.push(dial(X.wo + X.woW / 2, (TOP + BOTTOM) / 2 - 8));
  // What the variant does to the block, in a line under the box.
  shapes.push(svg('text', { x: X.wo + X.woW / 2, y: BOTTOM + 22, class: 'bd-wo-note', 'text-anchor': 'middle' }, t(`dv_${v}`)));
  if (frozen) shapes.push(lock(X.wo + X.woW - 14, TOP - 30));
  LANES.forEach((lane, i) => shapes.push(svg('rect', { x: X.out, y: segment(i).y0, width: 20, height: 50, class: 'bd-seg', style: { fill: own ? headColor(i) : 'var(--wo-out)' } })));
  shapes.push(svg('rect', { x: X.out - 2, y: TOP, width: 24, height: BOTTOM - TOP, rx: 4, class: 'bd-outline' }));
  return part('wo', ...shapes);
}

function residual() {
  const y = 24;
  return part('residual',
    svg('path', { d: `M${X.input + 15},${TOP} V${y} H${X.add} V${(TOP + BOTTOM) / 2 - 17}`, class: 'bd-skip', 'marker-end': 'url(#bd-arrow)' }),
    svg('text', { x: (X.input + X.add) / 2, y: y - 7, class: 'bd-label', 'text-anchor': 'middle' }, t('dResidual')),
    arrow(X.out + 22, (TOP + BOTTOM) / 2, X.add - 17, (TOP + BOTTOM) / 2),
    svg('circle', { cx: X.add, cy: (TOP + BOTTOM) / 2, r: 14, class: 'bd-add' }),
    svg('text', { x: X.add, y: (TOP + BOTTOM) / 2 + 6, class: 'bd-add-sign', 'text-anchor': 'middle' }, '+'));
}

// LayerNorm's name up its box: turned a quarter; in Chinese characters (CJK), upright, a
// character under another.
function normLabel(x, mid) {
  const name = t('dNorm');
  if (!/[\u3400-\u9fff]/.test(name)) {
    return svg('text', { x, y: mid, class: 'bd-norm-label', 'text-anchor': 'middle', 'dominant-baseline': 'central', transform: `rotate(-90 ${x} ${mid})` }, name);
  }
  const g = svg('g', { class: 'bd-norm-label' });
  const chars = [...name];
  chars.forEach((c, i) => g.append(svg('text', { x, y: mid + (i - (chars.length - 1) / 2) * 15 + 5, 'text-anchor': 'middle' }, c)));
  return g;
}

function norm() {
  const mid = (TOP + BOTTOM) / 2;
  return part('norm',
    arrow(X.add + 14, mid, X.norm - 3, mid),
    svg('rect', { x: X.norm, y: mid - 60, width: 34, height: 120, rx: 6, class: 'bd-norm' }),
    normLabel(X.norm + 17, mid),
    arrow(X.norm + 34, mid, X.end, mid),
    svg('text', { x: X.end, y: mid - 10, class: 'bd-label', 'text-anchor': 'end' }, t(compact() ? 'dNextShort' : 'dNext')));
}

function gradient() {
  const y = BOTTOM + 42;
  const to = compact() ? X.head + X.headW / 2 : X.qkv + 31;  // back to the heads' Q, K and V
  return part('gradient',
    svg('path', { d: `M${X.norm + 17},${(TOP + BOTTOM) / 2 + 62} V${y} H${to} V${LANES[2].y + 14}`, class: 'bd-grad', 'marker-end': 'url(#bd-arrow-grad)' }),
    // Under the line where the drawing is compact: above it, it would meet W_o's note.
    svg('text', compact() ? { x: X.head, y: y + 16, class: 'bd-label bd-grad-label' } : { x: X.attn + 32, y: y - 6, class: 'bd-label bd-grad-label', 'text-anchor': 'middle' }, t('dGradient')));
}

function input() {
  const g = svg('g', { class: 'bd-input' });
  g.append(svg('rect', { x: X.input, y: TOP, width: 30, height: BOTTOM - TOP, rx: 4, class: 'bd-outline' }),
    svg('text', { x: X.input + 15, y: (TOP + BOTTOM) / 2 + 5, class: 'bd-x', 'text-anchor': 'middle' }, 'x'));
  return g;
}

function markers() {
  const make = (id, cls) => {
    const marker = svg('marker', { id, viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' });
    marker.append(svg('path', { d: 'M0,0 L10,5 L0,10 z', class: cls }));
    return marker;
  };
  const defs = svg('defs');
  defs.append(make('bd-arrow', 'bd-arrowhead'), make('bd-arrow-grad', 'bd-arrowhead grad'));
  return defs;
}

// ---------- the formula ----------

function m(tag, ...children) {
  const e = document.createElementNS(MATH, tag);
  for (const c of children) e.append(typeof c === 'string' ? document.createTextNode(c) : c);
  return e;
}
const mi = (s) => m('mi', s);
const mo = (s) => m('mo', s);
const sub = (base, s) => m('msub', mi(base), typeof s === 'string' ? mi(s) : s);
const WO = () => m('msup', mi('W'), mi('O'));

// MultiHead(Q, K, V) = Concat(head_1, …, head_h) W^O, as the variant shown makes it: the
// identity multiplies by I (no W^O at all); the others name how W^O starts and whether it learns.
function formula() {
  const v = diagram.variant;
  const concat = [mi('Concat'), mo('('), sub('head', m('mn', '1')), mo(','), mo('…'), mo(','), sub('head', 'h'), mo(')')];
  const row = m('mrow', mi('MultiHead'), mo('('), mi('Q'), mo(','), mi('K'), mo(','), mi('V'), mo(')'), mo('='), ...concat);
  if (v === 'identity' || v === 'identity_matched') row.append(mi('I'));
  else if (v === 'scalar_gain') row.append(mo('·'), mi('g'));
  else row.append(WO());
  const math = m('math', row);
  math.setAttribute('display', 'block');
  const where = el('p', 'bd-where', t(`df_${v}`));
  return [math, where];
}

// ---------- the whole ----------

export function renderDiagram() {
  const box = $('#block-diagram');
  if (!box) return;
  X = box.clientWidth && box.clientWidth < COMPACT_BELOW_PX ? COMPACT : WIDE;
  const drawing = svg('svg', { viewBox: `0 0 ${X.width} ${compact() ? 314 : 300}`, role: 'group', class: `bd-svg${compact() ? ' compact' : ''}`, 'aria-labelledby': 'hero-title' });
  drawing.dataset.variant = diagram.variant;
  drawing.append(markers(), residual(), input(), heads(), concat(), wo(), norm(), gradient());
  box.replaceChildren(drawing);
  $('#formula').replaceChildren(...formula());
  renderSwitch();
}

function renderSwitch() {
  const box = $('#variant-switch');
  box.setAttribute('aria-label', t('dSwitch'));
  box.replaceChildren(...diagram.variants.map((v) => {
    const b = el('button', 'variant-option', t(`ds_${v}`));
    b.type = 'button';
    b.dataset.variant = v;
    b.setAttribute('aria-pressed', String(v === diagram.variant));
    b.addEventListener('click', () => {
      diagram.variant = v;
      linkWo();
      renderDiagram();
      $(`#variant-switch [data-variant="${v}"]`).focus();
    });
    return b;
  }));
  box.hidden = diagram.variants.length < 2;
}

// experiments: the core's experiments(); claimSources: codes().claim_sources. The switch offers
// the variants of the first experiment that compares a frozen W_o (the article's four: learned,
// none, frozen random, learned from the identity); each part links to the first experiment of
// its claim; W_o to the first experiment that compares the variant shown with another.
export function setUpDiagram(experiments, claimSources) {
  new ResizeObserver(() => {
    const box = $('#block-diagram');
    if ((box.clientWidth < COMPACT_BELOW_PX) !== compact()) renderDiagram();
  }).observe($('#block-diagram'));
  const compared = experiments.find((e) => e.frozen.length > 0 && !e.lr_sweep) || experiments[0];
  diagram.variants = compared ? [...compared.variants] : [];
  // Then the controls of the experiment that separates W_o's jobs (its block-diagonal W_o).
  const controls = experiments.find((e) => e.variants.includes('block_diagonal'));
  if (controls) diagram.variants.push(...controls.variants.filter((v) => !diagram.variants.includes(v)));
  diagram.frozen = new Set(experiments.flatMap((e) => e.frozen));
  for (const v of diagram.variants) {
    const first = experiments.find((e) => e.variants.length > 1 && e.variants.includes(v));
    if (first) diagram.byVariant.set(v, first.name);
  }
  const sources = new Map(claimSources.map((c) => [c.id, c.experiments]));
  const shown = new Set(experiments.map((e) => e.name));
  for (const { part: name, claim } of PARTS) {
    const first = (sources.get(claim) || []).find((e) => shown.has(e));
    if (first) diagram.links.set(name, first);
  }
  linkWo();
  renderDiagram();
}

function linkWo() {
  const experiment = diagram.byVariant.get(diagram.variant);
  if (experiment) diagram.links.set('wo', experiment);
}
