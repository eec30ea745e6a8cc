// Turns a list of simple shapes into one ffmpeg `geq` filter that paints them, so every picture
// of the sample is drawn by ffmpeg itself (no image files, no extra tools). Shapes are painted in
// order: a later shape covers an earlier one. A shape with `stroke` first gets a dark outline
// (the same shape grown by the stroke width), which gives the cartoon look.

/** Pixels per design unit when painting; the result is scaled down once for smooth edges. */
export const SUPERSAMPLE = 2;

/**
 * The `geq` expressions (r, g, b, a) for shapes designed on a width x height canvas, painted at
 * SUPERSAMPLE times that size. `fillRgb` is the colour transparent pixels carry (the outline colour),
 * so the down-scale does not leave a light fringe around the figure.
 */
export function geqFilter(shapes, { fillRgb = [40, 30, 30], background } = {}) {
  const painted = expandStrokes(shapes);
  const channels = ['r', 'g', 'b', 'a'].map((_, i) => {
    let expr = background ? String(i < 3 ? background[i] : 255) : String(i < 3 ? fillRgb[i] : 0);
    for (const shape of painted) {
      const value = i < 3 ? hex(shape.fill)[i] : 255;
      expr = `if(${inside(shape)},${value},${expr})`;
    }
    return expr;
  });
  return `geq=r='${channels[0]}':g='${channels[1]}':b='${channels[2]}':a='${channels[3]}'`;
}

/** '#rrggbb' -> [r, g, b] */
export function hex(color) {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(color);
  if (!m) throw new Error(`bad colour ${color}`);
  return [parseInt(m[1], 16), parseInt(m[2], 16), parseInt(m[3], 16)];
}

function expandStrokes(shapes) {
  const out = [];
  for (const shape of shapes) {
    if (shape.stroke) out.push({ ...grow(shape, shape.stroke), fill: shape.strokeColor ?? '#3b2a2a', stroke: 0 });
    out.push(shape);
  }
  return out;
}

function grow(shape, w) {
  switch (shape.t) {
    case 'ellipse':
      return { ...shape, rx: shape.rx + w, ry: shape.ry + w };
    case 'circle':
      return { ...shape, r: shape.r + w };
    case 'rect':
      return { ...shape, x: shape.x - w, y: shape.y - w, w: shape.w + 2 * w, h: shape.h + 2 * w };
    case 'tri': {
      const cx = (shape.p[0][0] + shape.p[1][0] + shape.p[2][0]) / 3;
      const cy = (shape.p[0][1] + shape.p[1][1] + shape.p[2][1]) / 3;
      const grown = shape.p.map(([x, y]) => {
        const d = Math.hypot(x - cx, y - cy) || 1;
        return [x + ((x - cx) / d) * w * 2, y + ((y - cy) / d) * w * 2];
      });
      return { ...shape, p: grown };
    }
    case 'arc':
      return { ...shape, rx: shape.rx + w / 2, ry: shape.ry + w / 2, w: shape.w + w };
    default:
      throw new Error(`cannot outline ${shape.t}`);
  }
}

const n = (v) => {
  const s = (Math.round(v * SUPERSAMPLE * 100) / 100).toString();
  return s.startsWith('-') ? `(${s})` : s;
};

/** An expression that is non-zero for the pixels (X, Y) inside the shape. */
function inside(s) {
  switch (s.t) {
    case 'circle':
      return `lte(pow(X-${n(s.cx)},2)+pow(Y-${n(s.cy)},2),${n(s.r * s.r * SUPERSAMPLE)})`;
    case 'ellipse': {
      if (!s.rot) return `lte(pow((X-${n(s.cx)})/${n(s.rx)},2)+pow((Y-${n(s.cy)})/${n(s.ry)},2),1)`;
      const a = (s.rot * Math.PI) / 180;
      const c = Math.round(Math.cos(a) * 1e4) / 1e4;
      const sn = Math.round(Math.sin(a) * 1e4) / 1e4;
      const dx = `(X-${n(s.cx)})`;
      const dy = `(Y-${n(s.cy)})`;
      return `lte(pow((${dx}*${c}+${dy}*${sn})/${n(s.rx)},2)+pow((${dy}*${c}-${dx}*${sn})/${n(s.ry)},2),1)`;
    }
    case 'rect':
      return `between(X,${n(s.x)},${n(s.x + s.w)})*between(Y,${n(s.y)},${n(s.y + s.h)})`;
    case 'tri': {
      const e = [0, 1, 2].map((i) => {
        const [x1, y1] = s.p[i];
        const [x2, y2] = s.p[(i + 1) % 3];
        return `(${n(x2 - x1)}*(Y-${n(y1)})-${n(y2 - y1)}*(X-${n(x1)}))`;
      });
      return `gte(${e[0]},0)*gte(${e[1]},0)*gte(${e[2]},0)+lte(${e[0]},0)*lte(${e[1]},0)*lte(${e[2]},0)`;
    }
    case 'arc': {
      // a band along an ellipse, kept to its lower half (a smile) or its upper half (a frown)
      const outer = `lte(pow((X-${n(s.cx)})/${n(s.rx)},2)+pow((Y-${n(s.cy)})/${n(s.ry)},2),1)`;
      const inner = `gt(pow((X-${n(s.cx)})/${n(s.rx - s.w)},2)+pow((Y-${n(s.cy)})/${n(s.ry - s.w)},2),1)`;
      const half = s.half === 'upper' ? `lt(Y,${n(s.cy)})` : `gt(Y,${n(s.cy)})`;
      return `${outer}*${inner}*${half}`;
    }
    default:
      throw new Error(`unknown shape ${s.t}`);
  }
}
