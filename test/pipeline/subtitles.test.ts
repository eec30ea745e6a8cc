import { describe, expect, it } from 'vitest';
import { formatClock, formatDuration, parseVtt, subtitleAt, subtitleBetween } from '../../src/pipeline/subtitles.js';

const VTT = `\uFEFFWEBVTT
Kind: captions
Language: en

STYLE
::cue { color: yellow }

NOTE a comment --> with an arrow-like text

intro
00:00:00.000 --> 00:00:02.500 align:start position:0%
<v Narrator>Hello <b>there</b>, bunny &amp; pig!</v>

00:00:02.500 --> 00:00:04.000
The dog runs &lt;fast&gt;

1:00:01.250 --> 1:00:03.000
Late line
`;

describe('parseVtt', () => {
  it('reads cues, strips tags and settings, decodes entities, skips STYLE and NOTE blocks', () => {
    expect(parseVtt(VTT)).toEqual([
      { start: 0, end: 2.5, text: 'Hello there, bunny & pig!' },
      { start: 2.5, end: 4, text: 'The dog runs <fast>' },
      { start: 3601.25, end: 3603, text: 'Late line' },
    ]);
  });

  it('reads SRT too (comma decimals, index lines)', () => {
    const srt = '1\r\n00:00:01,000 --> 00:00:02,000\r\nOne\r\n\r\n2\r\n00:00:03,000 --> 00:00:04,500\r\nTwo\r\nlines\r\n';
    expect(parseVtt(srt)).toEqual([
      { start: 1, end: 2, text: 'One' },
      { start: 3, end: 4.5, text: 'Two\nlines' },
    ]);
  });

  it('handles automatic captions: inline timing tags and lines repeated from the previous cue', () => {
    const auto = `WEBVTT

00:00:00.000 --> 00:00:02.000
the<00:00:00.500><c> cat</c><00:00:01.000><c> sat</c>

00:00:02.000 --> 00:00:02.010
the cat sat

00:00:02.010 --> 00:00:04.000
the cat sat
on<00:00:02.500><c> the</c><00:00:03.000><c> mat</c>
`;
    const cues = parseVtt(auto);
    expect(subtitleAt(cues, 1)).toBe('the cat sat');
    expect(subtitleAt(cues, 3)).toBe('the cat sat on the mat');
    expect(subtitleBetween(cues, 0, 4)).toBe('the cat sat on the mat');
  });
});

describe('subtitleAt', () => {
  const cues = parseVtt(VTT);
  it('gives the text on screen at t (start inclusive, end exclusive), or empty', () => {
    expect(subtitleAt(cues, 0)).toBe('Hello there, bunny & pig!');
    expect(subtitleAt(cues, 2)).toBe('Hello there, bunny & pig!');
    expect(subtitleAt(cues, 3)).toBe('The dog runs <fast>');
    expect(subtitleAt(cues, 4)).toBe('');
    expect(subtitleAt(cues, 3602)).toBe('Late line');
  });
});

describe('time formats', () => {
  it('formatClock is HH:MM:SS', () => {
    expect(formatClock(0)).toBe('00:00:00');
    expect(formatClock(75)).toBe('00:01:15');
    expect(formatClock(3725.9)).toBe('01:02:05');
  });
  it('formatDuration is M:SS or H:MM:SS', () => {
    expect(formatDuration(0)).toBe('0:00');
    expect(formatDuration(59.6)).toBe('1:00');
    expect(formatDuration(75)).toBe('1:15');
    expect(formatDuration(3725)).toBe('1:02:05');
  });
});
