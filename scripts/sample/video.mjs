// Pictures: every sprite is painted once into a PNG by ffmpeg's geq filter, then each scene is a
// sky colour + a grass band (drawbox) with the props and moving characters overlaid, and the
// titles written with drawtext when a font is available. One ffmpeg run draws all scenes,
// joins them and encodes the MP4 with the narration.

import fs from 'node:fs';
import path from 'node:path';
import { geqFilter, SUPERSAMPLE } from './draw.mjs';
import { run } from './run.mjs';
import { FPS, GROUND_Y, HEIGHT, WIDTH } from './story.mjs';

const INK = '0x3b2a2a';

/** Paints each sprite into `<dir>/<name>.png`; returns name -> file. */
export function renderSprites(ffmpeg, sprites, dir) {
  const files = {};
  for (const [name, s] of Object.entries(sprites)) {
    const file = path.join(dir, `${name}.png`);
    run(ffmpeg, [
      '-nostdin', '-y', '-v', 'error',
      '-f', 'lavfi', '-i', `color=c=black@0:s=${s.w * SUPERSAMPLE}x${s.h * SUPERSAMPLE}:d=1,format=rgba`,
      // geq paints at SUPERSAMPLE x; the area down-scale smooths the edges
      '-vf', `${geqFilter(s.shapes)},scale=${s.w}:${s.h}:flags=area`,
      '-frames:v', '1', '-flags', '+bitexact', file,
    ]);
    files[name] = file;
  }
  return files;
}

/**
 * The ffmpeg arguments that draw the scenes and encode `out` (H.264 main + AAC, faststart).
 * `font` may be null: the titles are then left out and the pictures still tell the story.
 */
export function encodeArgs({ scenes, spriteFiles, font, narrationWav, out, graphFile }) {
  const inputs = [];
  const chains = [];
  scenes.forEach((scene, si) => {
    let label = `s${si}bg`;
    chains.push(
      `color=c=${scene.sky}:s=${WIDTH}x${HEIGHT}:r=${FPS}:d=${scene.duration},format=rgb24,` +
        `drawbox=x=0:y=${GROUND_Y}:w=${WIDTH}:h=${HEIGHT - GROUND_Y}:color=0x7cc576:t=fill,` +
        `drawbox=x=0:y=${GROUND_Y}:w=${WIDTH}:h=5:color=0x5aa856:t=fill[${label}]`,
    );
    [...scene.props, ...scene.actors].forEach((item, ii) => {
      const file = spriteFiles[item.sprite];
      if (!file) throw new Error(`scene ${scene.name}: unknown sprite ${item.sprite}`);
      inputs.push('-i', file);
      const index = inputs.length / 2 - 1;
      const next = `s${si}l${ii}`;
      const enable = item.enable ? `:enable='${item.enable}'` : '';
      chains.push(`[${label}][${index}:v]overlay=x='${item.x}':y='${item.y}':eval=frame:format=rgb${enable}[${next}]`);
      label = next;
    });
    let tail = `[${label}]null`;
    if (font) {
      for (const t of scene.texts ?? []) {
        tail +=
          `,drawtext=fontfile='${font}':text='${t.text}':fontsize=${t.size}:fontcolor=white:` +
          `borderw=4:bordercolor=${INK}:x=(w-text_w)/2:y=${t.y}:enable='between(t,${t.from},${t.to})'`;
      }
    }
    chains.push(`${tail}[v${si}]`);
  });
  const joined = scenes.map((_, i) => `[v${i}]`).join('');
  chains.push(`${joined}concat=n=${scenes.length}:v=1:a=0,format=yuv420p[v]`);
  fs.writeFileSync(graphFile, chains.join(';\n'));
  const audioIndex = inputs.length / 2;
  return [
    '-nostdin', '-y', '-v', 'error',
    ...inputs,
    '-i', narrationWav,
    '-filter_complex_script', graphFile,
    '-map', '[v]', '-map', `${audioIndex}:a`,
    // main profile + yuv420p + faststart: plays in every browser and starts before it is all loaded;
    // fixed thread count so the same input gives the same bytes on any machine
    '-c:v', 'libx264', '-profile:v', 'main', '-level:v', '3.0', '-preset', 'slow', '-tune', 'animation',
    '-crf', '26', '-g', String(FPS * 2), '-threads', '2', '-pix_fmt', 'yuv420p',
    '-c:a', 'aac', '-b:a', '64k', '-ar', '44100', '-ac', '1',
    '-map_metadata', '-1', '-fflags', '+bitexact', '-flags', '+bitexact',
    '-movflags', '+faststart', '-shortest',
    out,
  ];
}
