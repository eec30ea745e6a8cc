// Hand-drawn SVG charts for the reports: a line over time and labelled bars. No library: a few
// rectangles and a polyline, each chart with a title, a text summary for screen readers and the
// numbers printed on the chart so a parent reads it at a glance.

const NS = 'http://www.w3.org/2000/svg';

function s(tag, attrs = {}, text) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
}

function frame(title, summary, width, height) {
  const id = `c${Math.random().toString(36).slice(2, 8)}`;
  const svg = s('svg', { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-labelledby': `${id}-t ${id}-d` });
  svg.append(s('title', { id: `${id}-t` }, title), s('desc', { id: `${id}-d` }, summary));
  return svg;
}

/**
 * points: [{ label, value }] in time order; value 0..max. Draws the line with dots, the value
 * above each dot, and the first/last labels on the axis.
 */
export function lineChart(points, { title, max = 100, unit = '%', summary } = {}) {
  const W = 360;
  const H = 180;
  const pad = { l: 38, r: 28, t: 18, b: 30 };
  const svg = frame(title, summary ?? points.map((p) => `${p.label}: ${p.value}${unit}`).join(', '), W, H);
  const iw = W - pad.l - pad.r;
  const ih = H - pad.t - pad.b;
  const y = (v) => pad.t + ih - (Math.max(0, Math.min(max, v)) / max) * ih;
  const x = (i) => pad.l + (points.length === 1 ? iw / 2 : (i / (points.length - 1)) * iw);
  for (const g of [0, max / 2, max]) {
    svg.append(s('line', { class: 'grid', x1: pad.l, x2: W - pad.r, y1: y(g), y2: y(g) }));
    svg.append(s('text', { x: pad.l - 4, y: y(g) + 4, 'text-anchor': 'end' }, `${Math.round(g)}${unit}`));
  }
  if (points.length > 1) svg.append(s('polyline', { class: 'line', points: points.map((p, i) => `${x(i)},${y(p.value)}`).join(' ') }));
  const labelEvery = Math.ceil(points.length / 6);
  points.forEach((p, i) => {
    svg.append(s('circle', { class: 'dot', cx: x(i), cy: y(p.value), r: 4 }));
    if (points.length <= 12 || i % labelEvery === 0 || i === points.length - 1) {
      svg.append(s('text', { x: x(i), y: y(p.value) - 8, 'text-anchor': 'middle' }, `${Math.round(p.value)}`));
      svg.append(s('text', { x: x(i), y: H - 10, 'text-anchor': 'middle' }, p.label));
    }
  });
  return svg;
}

/** items: [{ label, value, note? }]; horizontal bars (long labels fit), value printed at the end. */
export function barChart(items, { title, max, unit = '%', lowBelow, summary } = {}) {
  const W = 360;
  const row = 30;
  const labelW = 110;
  const H = Math.max(1, items.length) * row + 10;
  const top = max ?? Math.max(1, ...items.map((i) => i.value));
  const svg = frame(title, summary ?? items.map((i) => `${i.label}: ${fmt(i.value)}${unit}${i.note ? ` (${i.note})` : ''}`).join(', '), W, H);
  items.forEach((it, i) => {
    const yy = 5 + i * row;
    const w = Math.max(2, ((W - labelW - 110) * Math.max(0, it.value)) / top);
    svg.append(s('text', { x: labelW - 6, y: yy + 17, 'text-anchor': 'end' }, it.label));
    svg.append(s('rect', { class: `bar${lowBelow !== undefined && it.value < lowBelow ? ' low' : ''}`, x: labelW, y: yy + 4, width: w, height: row - 10, rx: 4 }));
    svg.append(s('text', { x: labelW + w + 6, y: yy + 17 }, `${fmt(it.value)}${unit}${it.note ? ` · ${it.note}` : ''}`));
  });
  return svg;
}

const fmt = (v) => (Math.abs(v) >= 10 ? Math.round(v) : Math.round(v * 10) / 10);
