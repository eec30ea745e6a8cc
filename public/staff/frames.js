// The frames manifest (one frame per second, with the subtitle text showing at that second).
import { api, h, listFrom, formatSeconds } from './lib.js';

/** [{ frame, seconds, time, file, subtitle }] sorted by time, from the video's frames.json. */
export async function loadManifest(videoId) {
  const data = await api('GET', `/media/videos/${encodeURIComponent(videoId)}/frames/frames.json`);
  return listFrom(data, 'frames')
    .map((f) => ({ frame: f.frame, seconds: Number(f.timestamp), time: f.time, file: f.file, subtitle: f.subtitle ?? '' }))
    .sort((a, b) => a.seconds - b.seconds);
}

export const frameUrl = (videoId, file) => `/media/videos/${encodeURIComponent(videoId)}/frames/${encodeURIComponent(file)}`;

/** A horizontal strip of frame pictures with their times (lazy-loaded). */
export function frameStrip(videoId, frames) {
  if (frames.length === 0) return h('p', { class: 'muted small' }, 'No frames for this part.');
  return h(
    'ul',
    // a scrolling strip: focusable so a keyboard can scroll it (axe scrollable-region-focusable)
    { class: 'frames', tabindex: '0', 'aria-label': 'Frames, one per second' },
    frames.map((f) =>
      h(
        'li',
        {},
        h(
          'figure',
          {},
          h('img', { src: frameUrl(videoId, f.file), alt: `Frame at ${f.time ?? formatSeconds(f.seconds)}${f.subtitle ? `: ${f.subtitle}` : ''}`, loading: 'lazy', width: 132, height: 74 }),
          h('figcaption', {}, f.time ?? formatSeconds(f.seconds)),
        ),
      ),
    ),
  );
}

/** The subtitle lines of a time range [start, end), consecutive repeats removed. */
export function subtitlesBetween(frames, start, end) {
  const lines = [];
  for (const f of frames) {
    if (f.seconds < start || f.seconds >= end || !f.subtitle) continue;
    if (lines[lines.length - 1] !== f.subtitle) lines.push(f.subtitle);
  }
  return lines;
}

/** Up to n frames spread evenly over [start, end). */
export function framesBetween(frames, start, end, n = 8) {
  const inside = frames.filter((f) => f.seconds >= start && f.seconds < end);
  if (inside.length <= n) return inside;
  const step = inside.length / n;
  return Array.from({ length: n }, (_, i) => inside[Math.floor(i * step)]);
}
