import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BinaryMissingError, runProcess, type RunOptions } from '../../src/pipeline/process-runner.js';
import { LocalRecognizer } from '../../src/speech/local/recognizer.js';
import { Pronouncer } from '../../src/speech/local/pronouncer.js';

const MODEL_DIR = '/usr/share/pocketsphinx/model/en-us';
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'speech-recognizer-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** The real runner, counting what it starts. */
function countingRunner() {
  const calls: string[] = [];
  const run = (cmd: string, args: readonly string[], opts?: RunOptions) => {
    calls.push(path.basename(cmd));
    return runProcess(cmd, args, opts);
  };
  return { run, calls };
}

function recognizer(workRoot: string, extra: Partial<ConstructorParameters<typeof LocalRecognizer>[0]> = {}) {
  return new LocalRecognizer({
    ffmpegPath: 'ffmpeg',
    espeakPath: 'espeak-ng',
    pocketsphinxPath: 'pocketsphinx_batch',
    modelDir: MODEL_DIR,
    workRoot,
    run: runProcess,
    ...extra,
  });
}

async function say(text: string): Promise<string> {
  const out = path.join(root, `${text.replace(/\W+/g, '-')}.wav`);
  await runProcess('espeak-ng', ['-v', 'en-us', '-s', '140', '-w', out, text]);
  return out;
}

describe('Pronouncer', () => {
  it('takes words from the CMU dictionary and asks espeak-ng (once) for the others', async () => {
    const { run, calls } = countingRunner();
    const p = new Pronouncer(path.join(MODEL_DIR, 'cmudict-en-us.dict'), 'espeak-ng', run);
    const first = await p.pronounce(['barn', 'pikachu', 'zzxq']);
    expect(first.get('barn')).toEqual(['B AA R N']);
    expect(first.get('pikachu')).toEqual(['P IH K AE CH UW']);
    expect(calls).toEqual(['espeak-ng']);
    const again = await p.pronounce(['pikachu', 'barn']);
    expect(again.get('pikachu')).toEqual(['P IH K AE CH UW']);
    expect(calls).toEqual(['espeak-ng']);
  });
});

describe('LocalRecognizer', () => {
  it("hears a name it only knows from the video's questions", async () => {
    const work = path.join(root, 'work-a');
    const r = recognizer(work);
    const wav = await say('pikachu');
    const withContext = await r.transcribe(wav, { focus: ['Who is the little yellow Pokemon?', 'Pikachu'], related: [] });
    expect(withContext.noSpeech).toBe(false);
    expect(withContext.text).toBe('pikachu');
    // without the context the word is not in the vocabulary at all
    const without = await r.transcribe(wav, { focus: [], related: [] });
    expect(without.text).not.toContain('pikachu');
    expect(fs.readdirSync(work)).toEqual([]);
  });

  it('hears the words of a short answer', async () => {
    const work = path.join(root, 'work-b');
    const r = recognizer(work);
    const res = await r.transcribe(await say('a butterfly'), { focus: ['What did the caterpillar turn into?', 'a butterfly'], related: [] });
    expect(res.text.split(' ')).toContain('butterfly');
    expect(res.vocabularySize).toBeGreaterThan(3000);
  });

  it("learns a speaker's vocal tract warp from the first answers, then decodes once", async () => {
    const work = path.join(root, 'work-f');
    const { run, calls } = countingRunner();
    const r = recognizer(work, { run, speakerWarps: { candidates: [0.9, 1, 1.3], learnAnswers: 1, relearnEvery: 100, maxSpeakers: 10 } });
    const context = { focus: ['What did the caterpillar turn into?', 'a butterfly'], related: [] };
    const wav = await say('a butterfly');
    const first = await r.transcribe(wav, context, { speaker: 'child:x' });
    expect(first.decodes).toBe(3);
    expect(calls.filter((c) => c === 'pocketsphinx_batch')).toHaveLength(3);
    expect([0.9, 1, 1.3]).toContain(first.warp);
    expect(first.warp).toBe(r.warps.chosen('child:x'));
    expect(first.text.split(' ')).toContain('butterfly');
    calls.length = 0;
    const second = await r.transcribe(wav, context, { speaker: 'child:x' });
    expect(calls.filter((c) => c === 'pocketsphinx_batch')).toHaveLength(1);
    expect(second).toMatchObject({ decodes: 1, warp: first.warp, text: first.text });
    // no speaker: no warp, one decode
    const anonymous = await r.transcribe(wav, context);
    expect(anonymous).toMatchObject({ decodes: 1, warp: 1 });
    expect(fs.readdirSync(work)).toEqual([]);
  });

  it('cleans its work directory when the input is not audio', async () => {
    const work = path.join(root, 'work-c');
    const bogus = path.join(root, 'bogus.webm');
    fs.writeFileSync(bogus, 'this is not audio');
    await expect(recognizer(work).transcribe(bogus, { focus: [], related: [] })).rejects.toThrow(/ffmpeg/);
    expect(fs.readdirSync(work)).toEqual([]);
  });

  it('reports a missing model and a missing binary clearly', async () => {
    const noModel = recognizer(path.join(root, 'work-d'), { modelDir: path.join(root, 'no-model') });
    expect(await noModel.unavailableReason()).toMatch(/apt-get install pocketsphinx-en-us/);
    expect(await recognizer(path.join(root, 'work-d')).unavailableReason()).toBeNull();
    const noBinary = recognizer(path.join(root, 'work-e'), { pocketsphinxPath: '/nonexistent/pocketsphinx_batch' });
    const err = await noBinary.transcribe(await say('hello'), { focus: [], related: [] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BinaryMissingError);
    expect((err as Error).message).toContain('apt-get install pocketsphinx');
    expect(fs.readdirSync(path.join(root, 'work-e'))).toEqual([]);
  });
});
