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
 * points: [{ label, value, about? }] in time order; value 0..max; format(value) is the page's one
 * rounding rule. Draws the line with dots, the value above each dot, and the labels on the axis
 * (turned when there are many, so neighbours never overlap).
 * @param {{ label: string, value: number, about?: string }[]} points
 * @param {{ title?: string, max?: number, format?: (v: number) => string, summary?: string }} [options]
 */
export function lineChart(points, { title, max = 100, format = (v) => `${Math.round(v)}%`, summary } = {}) {
  const W = 360;
  const many = points.length > 4;
  const H = many ? 230 : 190;
  const pad = { l: 46, r: 30, t: 22, b: many ? 82 : 36 };
  const svg = frame(title, summary ?? points.map((p) => `${p.label}${p.about ? ` (${p.about})` : ''}: ${format(p.value)}`).join(', '), W, H);
  const iw = W - pad.l - pad.r;
  const ih = H - pad.t - pad.b;
  const y = (v) => pad.t + ih - (Math.max(0, Math.min(max, v)) / max) * ih;
  const x = (i) => pad.l + (points.length === 1 ? iw / 2 : (i / (points.length - 1)) * iw);
  for (const g of [0, max / 2, max]) {
    svg.append(s('line', { class: 'grid', x1: pad.l, x2: W - pad.r, y1: y(g), y2: y(g) }));
    svg.append(s('text', { x: pad.l - 6, y: y(g) + 5, 'text-anchor': 'end' }, format(g)));
  }
  if (points.length > 1) svg.append(s('polyline', { class: 'line', points: points.map((p, i) => `${x(i)},${y(p.value)}`).join(' ') }));
  const labelEvery = Math.ceil(points.length / 12);
  points.forEach((p, i) => {
    const dot = s('circle', { class: 'dot', cx: x(i), cy: y(p.value), r: 5 });
    dot.append(s('title', {}, `${p.label}${p.about ? ` (${p.about})` : ''}: ${format(p.value)}`));
    svg.append(dot);
    if (i % labelEvery === 0 || i === points.length - 1) {
      if (points.length <= 8) svg.append(s('text', { x: x(i), y: y(p.value) - 10, 'text-anchor': 'middle' }, format(p.value)));
      const base = H - pad.b + 20;
      svg.append(
        many
          ? s('text', { x: x(i), y: base, 'text-anchor': 'end', transform: `rotate(-40 ${x(i)} ${base})` }, p.label)
          : s('text', { x: x(i), y: base, 'text-anchor': 'middle' }, p.label),
      );
    }
  });
  return svg;
}

/**
 * items: [{ label, value, note? }]; horizontal bars (long labels fit), value printed at the end with format().
 * @param {{ label: string, value: number, note?: string }[]} items
 * @param {{ title?: string, max?: number, format?: (v: number) => string, lowBelow?: number, summary?: string }} [options]
 */
export function barChart(items, { title, max, format = (v) => `${Math.round(v)}%`, lowBelow, summary } = {}) {
  const W = 360;
  const row = 34;
  const labelW = 122;
  const H = Math.max(1, items.length) * row + 10;
  const top = max ?? Math.max(1, ...items.map((i) => i.value));
  const svg = frame(title, summary ?? items.map((i) => `${i.label}: ${format(i.value)}${i.note ? ` (${i.note})` : ''}`).join(', '), W, H);
  items.forEach((it, i) => {
    const yy = 5 + i * row;
    const w = Math.max(2, ((W - labelW - 118) * Math.max(0, it.value)) / top);
    svg.append(s('text', { x: labelW - 6, y: yy + 20, 'text-anchor': 'end' }, it.label));
    svg.append(s('rect', { class: `bar${lowBelow !== undefined && it.value < lowBelow ? ' low' : ''}`, x: labelW, y: yy + 5, width: w, height: row - 12, rx: 4 }));
    svg.append(s('text', { x: labelW + w + 6, y: yy + 20 }, `${format(it.value)}${it.note ? ` · ${it.note}` : ''}`));
  });
  return svg;
}
