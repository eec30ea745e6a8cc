// The characters and props of the sample story, as shapes for draw.mjs. Sizes are in output
// pixels of the 640x360 video. Each sprite: { w, h, shapes }.

const OUT = 3; // outline width
const INK = '#3b2a2a';

const eye = (cx, cy, r = 4.5) => [
  { t: 'circle', cx, cy, r, fill: '#1d1d1d' },
  { t: 'circle', cx: cx - r * 0.35, cy: cy - r * 0.35, r: r * 0.38, fill: '#ffffff' },
];

/** Penny the pig: pink, round, a snout with nostrils; `sad` swaps the smile for a frown and a tear. */
export function pig({ sad = false } = {}) {
  const pink = '#f6a5c0';
  const dark = '#e27fa3';
  return {
    w: 180,
    h: 160,
    shapes: [
      { t: 'circle', cx: 160, cy: 78, r: 7, fill: pink, stroke: 2 }, // tail
      { t: 'rect', x: 62, y: 118, w: 16, h: 30, fill: dark, stroke: OUT },
      { t: 'rect', x: 128, y: 118, w: 16, h: 30, fill: dark, stroke: OUT },
      { t: 'ellipse', cx: 108, cy: 98, rx: 56, ry: 42, fill: pink, stroke: OUT },
      { t: 'rect', x: 82, y: 122, w: 16, h: 28, fill: pink, stroke: OUT },
      { t: 'rect', x: 110, y: 122, w: 16, h: 28, fill: pink, stroke: OUT },
      { t: 'tri', p: [[30, 38], [42, 8], [58, 30]], fill: dark, stroke: 2 }, // ears
      { t: 'tri', p: [[70, 30], [88, 8], [94, 40]], fill: dark, stroke: 2 },
      { t: 'circle', cx: 62, cy: 66, r: 40, fill: pink, stroke: OUT },
      { t: 'circle', cx: 36, cy: 80, r: 8, fill: '#f78aa8' }, // cheeks
      { t: 'circle', cx: 88, cy: 80, r: 8, fill: '#f78aa8' },
      { t: 'ellipse', cx: 62, cy: 80, rx: 17, ry: 12, fill: '#f28cab', stroke: 2 }, // snout
      { t: 'ellipse', cx: 56, cy: 80, rx: 3, ry: 5, fill: '#8a3b57' },
      { t: 'ellipse', cx: 68, cy: 80, rx: 3, ry: 5, fill: '#8a3b57' },
      ...eye(46, 56),
      ...eye(78, 56),
      sad
        ? { t: 'arc', cx: 62, cy: 106, rx: 11, ry: 7, w: 3, half: 'upper', fill: INK }
        : { t: 'arc', cx: 62, cy: 92, rx: 12, ry: 9, w: 3, half: 'lower', fill: INK },
      ...(sad ? [{ t: 'ellipse', cx: 40, cy: 70, rx: 4, ry: 7, fill: '#5fb7f0', stroke: 1, strokeColor: '#2f6f9f' }] : []),
    ],
  };
}

/** Benny the bunny: white with long pink-lined ears, a pink nose and whiskers. */
export function bunny() {
  const fur = '#f4f1ee';
  const shade = '#d9d2cc';
  return {
    w: 120,
    h: 200,
    shapes: [
      { t: 'ellipse', cx: 44, cy: 42, rx: 12, ry: 38, rot: -10, fill: fur, stroke: OUT },
      { t: 'ellipse', cx: 44, cy: 44, rx: 6, ry: 28, rot: -10, fill: '#f7b6c8' },
      { t: 'ellipse', cx: 78, cy: 42, rx: 12, ry: 38, rot: 10, fill: fur, stroke: OUT },
      { t: 'ellipse', cx: 78, cy: 44, rx: 6, ry: 28, rot: 10, fill: '#f7b6c8' },
      { t: 'circle', cx: 100, cy: 150, r: 12, fill: '#ffffff', stroke: 2 }, // tail
      { t: 'ellipse', cx: 62, cy: 148, rx: 38, ry: 42, fill: fur, stroke: OUT },
      { t: 'ellipse', cx: 62, cy: 152, rx: 22, ry: 28, fill: '#ffffff' },
      { t: 'ellipse', cx: 40, cy: 188, rx: 18, ry: 8, fill: shade, stroke: OUT }, // feet
      { t: 'ellipse', cx: 84, cy: 188, rx: 18, ry: 8, fill: shade, stroke: OUT },
      { t: 'circle', cx: 61, cy: 96, r: 32, fill: fur, stroke: OUT },
      ...eye(49, 90, 4.5),
      ...eye(73, 90, 4.5),
      { t: 'tri', p: [[55, 103], [67, 103], [61, 110]], fill: '#f27fa0' },
      { t: 'rect', x: 24, y: 106, w: 24, h: 1.5, fill: '#8a8a8a' }, // whiskers
      { t: 'rect', x: 74, y: 106, w: 24, h: 1.5, fill: '#8a8a8a' },
      { t: 'arc', cx: 61, cy: 111, rx: 8, ry: 6, w: 2.5, half: 'lower', fill: INK },
      { t: 'circle', cx: 40, cy: 104, r: 5, fill: '#f7c1cf' },
      { t: 'circle', cx: 82, cy: 104, r: 5, fill: '#f7c1cf' },
    ],
  };
}

/** Ally the alligator: long and green with a lighter belly, bumpy eyes on top and white teeth. */
export function alligator() {
  const green = '#4caf50';
  const darkGreen = '#2e7d32';
  const teeth = [];
  for (let x = 26; x <= 92; x += 11) teeth.push({ t: 'tri', p: [[x, 84], [x + 8, 84], [x + 4, 92]], fill: '#ffffff' });
  return {
    w: 300,
    h: 130,
    shapes: [
      { t: 'tri', p: [[200, 70], [296, 104], [200, 108]], fill: green, stroke: OUT }, // tail
      { t: 'rect', x: 130, y: 96, w: 18, h: 28, fill: darkGreen, stroke: OUT },
      { t: 'rect', x: 196, y: 96, w: 18, h: 28, fill: darkGreen, stroke: OUT },
      { t: 'ellipse', cx: 170, cy: 88, rx: 62, ry: 28, fill: green, stroke: OUT },
      { t: 'ellipse', cx: 170, cy: 100, rx: 48, ry: 12, fill: '#c5e1a5' },
      { t: 'circle', cx: 150, cy: 66, r: 6, fill: darkGreen }, // back bumps
      { t: 'circle', cx: 172, cy: 62, r: 6, fill: darkGreen },
      { t: 'circle', cx: 194, cy: 66, r: 6, fill: darkGreen },
      { t: 'ellipse', cx: 74, cy: 82, rx: 66, ry: 14, fill: green, stroke: OUT }, // snout
      { t: 'ellipse', cx: 76, cy: 96, rx: 60, ry: 8, fill: '#8bc34a', stroke: 2 }, // jaw
      ...teeth,
      { t: 'circle', cx: 96, cy: 62, r: 13, fill: green, stroke: OUT },
      { t: 'circle', cx: 122, cy: 62, r: 13, fill: green, stroke: OUT },
      { t: 'circle', cx: 96, cy: 62, r: 8, fill: '#ffffff' },
      { t: 'circle', cx: 122, cy: 62, r: 8, fill: '#ffffff' },
      ...eye(98, 63, 4),
      ...eye(124, 63, 4),
      { t: 'circle', cx: 16, cy: 76, r: 2.5, fill: '#1b5e20' }, // nostrils
      { t: 'circle', cx: 26, cy: 74, r: 2.5, fill: '#1b5e20' },
    ],
  };
}

export function ball() {
  return {
    w: 40,
    h: 40,
    shapes: [
      { t: 'circle', cx: 20, cy: 20, r: 16, fill: '#e53935', stroke: 2.5 },
      { t: 'ellipse', cx: 20, cy: 20, rx: 16, ry: 4, fill: '#ffcdd2' },
      { t: 'circle', cx: 14, cy: 12, r: 4, fill: '#ffffff' },
    ],
  };
}

export function sun() {
  const rays = [];
  for (let i = 0; i < 8; i++) rays.push({ t: 'ellipse', cx: 50, cy: 50, rx: 48, ry: 5, rot: i * 22.5, fill: '#ffd54f' });
  return { w: 100, h: 100, shapes: [...rays, { t: 'circle', cx: 50, cy: 50, r: 30, fill: '#ffeb3b', stroke: 2, strokeColor: '#f9a825' }] };
}

export function cloud() {
  const c = '#ffffff';
  return {
    w: 130,
    h: 60,
    shapes: [
      { t: 'circle', cx: 35, cy: 38, r: 20, fill: c },
      { t: 'circle', cx: 65, cy: 28, r: 26, fill: c },
      { t: 'circle', cx: 96, cy: 38, r: 20, fill: c },
      { t: 'rect', x: 35, y: 38, w: 61, h: 20, fill: c },
    ],
  };
}

export function barn() {
  const red = '#c62828';
  return {
    w: 170,
    h: 160,
    shapes: [
      { t: 'rect', x: 18, y: 62, w: 134, h: 94, fill: red, stroke: OUT },
      { t: 'tri', p: [[6, 66], [85, 6], [164, 66]], fill: '#8e1b1b', stroke: OUT },
      { t: 'rect', x: 60, y: 92, w: 50, h: 64, fill: '#fbe9e7', stroke: 2 },
      { t: 'rect', x: 64, y: 96, w: 42, h: 56, fill: '#b71c1c' },
      { t: 'tri', p: [[64, 96], [68, 96], [106, 148]], fill: '#fbe9e7' },
      { t: 'tri', p: [[106, 96], [102, 96], [64, 148]], fill: '#fbe9e7' },
      { t: 'rect', x: 74, y: 36, w: 22, h: 20, fill: '#fff59d', stroke: 2 },
    ],
  };
}

export function tree() {
  return {
    w: 140,
    h: 190,
    shapes: [
      { t: 'rect', x: 58, y: 100, w: 24, h: 86, fill: '#795548', stroke: OUT },
      { t: 'circle', cx: 45, cy: 80, r: 36, fill: '#43a047', stroke: OUT },
      { t: 'circle', cx: 95, cy: 80, r: 36, fill: '#43a047', stroke: OUT },
      { t: 'circle', cx: 70, cy: 48, r: 40, fill: '#43a047', stroke: OUT },
      { t: 'circle', cx: 70, cy: 86, r: 30, fill: '#43a047' },
      { t: 'circle', cx: 48, cy: 60, r: 6, fill: '#e53935' }, // apples
      { t: 'circle', cx: 92, cy: 72, r: 6, fill: '#e53935' },
      { t: 'circle', cx: 70, cy: 30, r: 6, fill: '#e53935' },
    ],
  };
}

export function bush() {
  return {
    w: 120,
    h: 70,
    shapes: [
      { t: 'circle', cx: 30, cy: 44, r: 24, fill: '#66bb6a', stroke: 2 },
      { t: 'circle', cx: 60, cy: 34, r: 30, fill: '#66bb6a', stroke: 2 },
      { t: 'circle', cx: 90, cy: 44, r: 24, fill: '#66bb6a', stroke: 2 },
      { t: 'rect', x: 30, y: 44, w: 60, h: 24, fill: '#66bb6a' },
    ],
  };
}

export function flower(petal = '#ff80ab') {
  return {
    w: 30,
    h: 44,
    shapes: [
      { t: 'rect', x: 14, y: 18, w: 3, h: 26, fill: '#2e7d32' },
      { t: 'circle', cx: 9, cy: 12, r: 6, fill: petal },
      { t: 'circle', cx: 21, cy: 12, r: 6, fill: petal },
      { t: 'circle', cx: 15, cy: 6, r: 6, fill: petal },
      { t: 'circle', cx: 15, cy: 18, r: 6, fill: petal },
      { t: 'circle', cx: 15, cy: 12, r: 4.5, fill: '#ffeb3b' },
    ],
  };
}

export function pond() {
  return {
    w: 360,
    h: 90,
    shapes: [
      { t: 'ellipse', cx: 180, cy: 45, rx: 174, ry: 40, fill: '#4fc3f7', stroke: OUT, strokeColor: '#0277bd' },
      { t: 'ellipse', cx: 130, cy: 36, rx: 60, ry: 6, fill: '#b3e5fc' },
      { t: 'ellipse', cx: 240, cy: 58, rx: 40, ry: 5, fill: '#b3e5fc' },
      { t: 'ellipse', cx: 300, cy: 36, rx: 18, ry: 8, fill: '#66bb6a', stroke: 1 }, // lily pad
      { t: 'circle', cx: 300, cy: 32, r: 4, fill: '#f48fb1' },
    ],
  };
}

export function fence() {
  const shapes = [
    { t: 'rect', x: 0, y: 18, w: 200, h: 7, fill: '#d7a86e', stroke: 2 },
    { t: 'rect', x: 0, y: 38, w: 200, h: 7, fill: '#d7a86e', stroke: 2 },
  ];
  for (let x = 6; x < 200; x += 38) shapes.push({ t: 'rect', x, y: 4, w: 12, h: 52, fill: '#e0b67f', stroke: 2 });
  return { w: 200, h: 60, shapes };
}

/** A white gust line for the windy scene. */
export function gust() {
  return {
    w: 120,
    h: 30,
    shapes: [
      { t: 'rect', x: 0, y: 8, w: 90, h: 4, fill: '#ffffff' },
      { t: 'arc', cx: 90, cy: 16, rx: 10, ry: 8, w: 4, half: 'upper', fill: '#ffffff' },
      { t: 'rect', x: 20, y: 22, w: 70, h: 4, fill: '#ffffff' },
    ],
  };
}

export const SPRITES = {
  pig: pig(),
  pigSad: pig({ sad: true }),
  bunny: bunny(),
  alligator: alligator(),
  ball: ball(),
  sun: sun(),
  cloud: cloud(),
  barn: barn(),
  tree: tree(),
  bush: bush(),
  flowerPink: flower('#ff80ab'),
  flowerYellow: flower('#ffb74d'),
  pond: pond(),
  fence: fence(),
  gust: gust(),
};
