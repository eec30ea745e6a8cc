import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildManifest, frameArgs, manifestCsv, runFrameExtraction } from '../../src/pipeline/frames.js';
import { parseVtt } from '../../src/pipeline/subtitles.js';
import { ffmpeg, frameHalfMeans, makeClockVideo } from '../fixtures/media.js';

let tmp: string;
let clock60: string;

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kvq-frames-'));
  clock60 = makeClockVideo(path.join(tmp, 'clock60.mp4'), 60);
}, 60_000);
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('frameArgs', () => {
  it('is one ffmpeg pass: video stream only, fps=1 rounded up from t=0, JPEGs numbered from 0', () => {
    expect(frameArgs('/d/video.mp4', '/d/out')).toEqual([
      '-hide_banner', '-nostdin', '-loglevel', 'error', '-progress', 'pipe:1', '-nostats', '-y',
      '-i', '/d/video.mp4',
      '-map', '0:v:0', '-an', '-sn', '-dn',
      '-vf', "fps=fps=1:round=up:start_time=0,scale=-2:'min(720,ih)'",
      '-q:v', '3', '-start_number', '0', '-f', 'image2', '/d/out/frame_%05d.jpg',
    ]);
  });
});

describe('runFrameExtraction on a 60 s clock video', () => {
  it('gives 60 frames, and frame k is the picture at t = k s', async () => {
    const out = path.join(tmp, 'out60');
    fs.mkdirSync(out);
    const reports: number[] = [];
    const files = await runFrameExtraction({ ffmpeg: 'ffmpeg', durationSeconds: 60, onProgress: (f) => reports.push(f) }, clock60, out);
    expect(files).toHaveLength(60);
    // ffmpeg's own -progress output: never backwards, within 0..1, ending at 1 (progress=end)
    expect(reports.length).toBeGreaterThan(0);
    expect(reports.at(-1)).toBe(1);
    reports.forEach((f, i) => {
      expect(f).toBeGreaterThanOrEqual(i === 0 ? 0 : reports[i - 1]!);
      expect(f).toBeLessThanOrEqual(1);
    });
    expect(files[0]).toBe('frame_00000.jpg');
    expect(files[59]).toBe('frame_00059.jpg');
    const means = frameHalfMeans(out, 64, 48);
    expect(means).toHaveLength(60);
    means.forEach((m, k) => {
      // left half: which second (20 + 3k); right half: the tenth of that second (0 → 20)
      expect(Math.abs(m.left - (20 + 3 * k)), `frame ${k} left ${m.left}`).toBeLessThan(1.5);
      expect(Math.abs(m.right - 20), `frame ${k} right ${m.right}`).toBeLessThan(4);
    });
  });

  it('keeps frame k = t k when the picture starts after the sound (e.g. after an MPEG-TS remux)', async () => {
    const late = path.join(tmp, 'late.mp4');
    // the sound starts at 0 and the picture 0.5 s later
    ffmpeg(['-itsoffset', '0.5', '-i', clock60, '-i', clock60, '-map', '0:v', '-map', '1:a', '-t', '10', '-c', 'copy', late]);
    const out = path.join(tmp, 'outlate');
    fs.mkdirSync(out);
    const files = await runFrameExtraction({ ffmpeg: 'ffmpeg' }, late, out);
    const means = frameHalfMeans(out, 64, 48);
    expect(files.length).toBeGreaterThanOrEqual(10);
    // before the picture starts, frame 0 is the first picture (not the one of slot 1)
    expect(Math.abs(means[0]!.right - 20)).toBeLessThan(4);
    // at t = 3 the player shows the content of 2.5 s: second 2, tenth 5
    expect(Math.abs(means[3]!.left - (20 + 3 * 2))).toBeLessThan(1.5);
    expect(Math.abs(means[3]!.right - (20 + 20 * 5))).toBeLessThan(4);
  });
});

describe('manifests', () => {
  const cues = parseVtt('WEBVTT\n\n00:00:01.000 --> 00:00:03.000\nA "quoted", line\n\n00:00:03.000 --> 00:00:04.000\n=SUM(A1)\n');
  const m = buildManifest('vid1', ['frame_00000.jpg', 'frame_00001.jpg', 'frame_00002.jpg', 'frame_00003.jpg', 'frame_00004.jpg'], cues);

  it('frames.json has the agreed shape, with the subtitle showing at each second', () => {
    expect(m).toEqual({
      video_id: 'vid1',
      fps: 1,
      count: 5,
      frames: [
        { frame: 0, timestamp: 0, time: '00:00:00', file: 'frame_00000.jpg', subtitle: '' },
        { frame: 1, timestamp: 1, time: '00:00:01', file: 'frame_00001.jpg', subtitle: 'A "quoted", line' },
        { frame: 2, timestamp: 2, time: '00:00:02', file: 'frame_00002.jpg', subtitle: 'A "quoted", line' },
        { frame: 3, timestamp: 3, time: '00:00:03', file: 'frame_00003.jpg', subtitle: '=SUM(A1)' },
        { frame: 4, timestamp: 4, time: '00:00:04', file: 'frame_00004.jpg', subtitle: '' },
      ],
    });
  });

  it('frames.csv quotes commas and quotes, and defuses spreadsheet formulas', () => {
    expect(manifestCsv(m).split('\n')).toEqual([
      'frame,timestamp,time,file,subtitle',
      '0,0,00:00:00,frame_00000.jpg,',
      '1,1,00:00:01,frame_00001.jpg,"A ""quoted"", line"',
      '2,2,00:00:02,frame_00002.jpg,"A ""quoted"", line"',
      "3,3,00:00:03,frame_00003.jpg,'=SUM(A1)",
      '4,4,00:00:04,frame_00004.jpg,',
      '',
    ]);
  });
});
