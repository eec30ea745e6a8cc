/**
 * `npm run bench:speech` (npx tsx bench/speech.ts): the local recognizer on synthetic children.
 *
 * espeak-ng speaks every child answer (`user`) of shared/data/grading-dev.jsonl in four voices
 * and speeds, the fourth with every frequency raised 25 % like a child's shorter vocal tract, and
 * flite in three voices built from recorded speech (a woman, a man, and the woman's voice raised
 * 25 % the same way) as a cross-check; the recognizer transcribes each with the question and
 * expected answer as its context. Printed: word accuracy, grade agreement (the grade of the transcript equals the
 * grade of the true text, both by the real grader), false-correct rates on wrong answers and on
 * silence / noise clips, and time per answer. The baseline, measured in the same run on the
 * first voice, is pocketsphinx with its own general English language model and no context.
 * Each voice is one speaker: its answers come in order under one speaker name, so the recognizer
 * learns that voice's vocal tract warp from its first answers as it would a child's; the noise
 * clips are then heard under every voice's learned warp.
 *
 * Settings (environment): BENCH_LIMIT=n (first n cases), BENCH_VOICES=us140,f3-120 (subset),
 * BENCH_TUNING='{"wip":0.01}', BENCH_WEIGHTS='{"focus":20}' and BENCH_WARPS='{"candidates":[1]}'
 * (overrides), BENCH_NO_BASELINE=1, BENCH_NO_NEIGHBOURS=1 (no answer neighbours in the context),
 * BENCH_AUDIO_DIR=dir (keep synthesized audio between runs), BENCH_DUMP=file (one JSON line per transcript).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runProcess } from '../src/pipeline/process-runner.js';
import { DEFAULT_WEIGHTS, LocalRecognizer } from '../src/speech/local/recognizer.js';
import { DEFAULT_TUNING, modelPaths, parseHypothesis } from '../src/speech/local/pocketsphinx.js';
import { DEFAULT_SPEAKER_WARPS } from '../src/speech/local/speaker-warps.js';
import { textToWords } from '../src/speech/local/words.js';
import { loadChildWords } from '../src/speech/local/vocabulary.js';
import { toRecognizerPcmArgs } from '../src/speech/local/audio.js';
import { gradeAnswer } from '../src/quiz/grading/grader.js';
import { answerNeighbours } from '../src/quiz/grading/neighbours.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DATA = [path.join(ROOT, 'test', 'fixtures', 'grading', 'grading-dev.jsonl')].find((f) => fs.existsSync(f));
const MODEL_DIR = '/usr/share/pocketsphinx/model/en-us';

interface Case { id: string; question: string; expected: string; user: string; label: string }
/**
 * `scale` multiplies every frequency of the synthesized voice (formants and pitch) and keeps its
 * duration: a shorter vocal tract, as a child's is next to the adult voices the synthesizers model
 * (children's formants are roughly 20-30 % higher than adults').
 *
 * Two synthesizers: espeak-ng (formant synthesis; the issue's benchmark and its 0.85 target) and,
 * as a cross-check, flite's voices built from recorded human speech (CMU ARCTIC: `slt` a woman,
 * `rms` a man; `kal16` diphones, `awb` a Scottish man). The gap between the two groups tells how
 * much of the error is espeak-ng's synthetic sound rather than the recognizer.
 */
interface Voice { name: string; engine: 'espeak-ng' | 'flite'; voice: string; speed?: number; pitch?: number; scale?: number }

const VOICES: Voice[] = [
  { name: 'us140', engine: 'espeak-ng', voice: 'en-us', speed: 140, pitch: 50 },
  { name: 'm3-165', engine: 'espeak-ng', voice: 'en-us+m3', speed: 165, pitch: 40 },
  { name: 'f3-120', engine: 'espeak-ng', voice: 'en-us+f3', speed: 120, pitch: 70 },
  { name: 'f2-125', engine: 'espeak-ng', voice: 'en-us+f2', speed: 125, pitch: 55 },
  { name: 'klatt-130', engine: 'espeak-ng', voice: 'en-us+klatt', speed: 130, pitch: 60 },
  { name: 'child-us140', engine: 'espeak-ng', voice: 'en-us', speed: 140, pitch: 50, scale: 1.25 },
  { name: 'flite-slt', engine: 'flite', voice: 'slt' },
  { name: 'flite-rms', engine: 'flite', voice: 'rms' },
  { name: 'flite-awb', engine: 'flite', voice: 'awb' },
  { name: 'flite-kal16', engine: 'flite', voice: 'kal16' },
  { name: 'flite-slt-child', engine: 'flite', voice: 'slt', scale: 1.25 },
];
const DEFAULT_VOICES = ['us140', 'm3-165', 'f3-120', 'child-us140', 'flite-slt', 'flite-rms', 'flite-slt-child'];

/** Sounds that are not an answer: each must be graded wrong for every question. */
const NOISES: { name: string; lavfi?: string; reversed?: string }[] = [
  { name: 'digital silence', lavfi: 'anullsrc=r=16000:cl=mono' },
  { name: 'room hiss -60 dB', lavfi: 'anoisesrc=r=16000:a=0.001:c=white' },
  { name: 'white noise -25 dB', lavfi: 'anoisesrc=r=16000:a=0.05:c=white' },
  { name: 'pink noise', lavfi: 'anoisesrc=r=16000:a=0.2:c=pink' },
  { name: 'brown noise', lavfi: 'anoisesrc=r=16000:a=0.5:c=brown' },
  { name: '50 Hz hum', lavfi: 'sine=f=50:r=16000,volume=0.3' },
  { name: 'noise bursts', lavfi: "anoisesrc=r=16000:a=0.3:c=pink,volume='0.05+0.95*gt(sin(2*PI*2*t),0.3)':eval=frame" },
  { name: 'clicks', lavfi: "anoisesrc=r=16000:a=0.5:c=white,volume='gt(mod(t,0.5),0.47)':eval=frame" },
  // speech-like sound with no words in it: a sentence played backwards
  { name: 'reversed speech', reversed: 'the little dog ran after the big red ball in the garden' },
];

const env = process.env;
const limit = env.BENCH_LIMIT ? Number(env.BENCH_LIMIT) : Infinity;
const hasFlite = spawnSync('flite', ['-lv']).status === 0;
const voices = VOICES.filter((v) => (env.BENCH_VOICES?.split(',') ?? DEFAULT_VOICES).includes(v.name) && (v.engine !== 'flite' || hasFlite));
const tuning = { ...DEFAULT_TUNING, ...(env.BENCH_TUNING ? JSON.parse(env.BENCH_TUNING) : {}) };
const weights = { ...DEFAULT_WEIGHTS, ...(env.BENCH_WEIGHTS ? JSON.parse(env.BENCH_WEIGHTS) : {}) };
const speakerWarps = { ...DEFAULT_SPEAKER_WARPS, ...(env.BENCH_WARPS ? JSON.parse(env.BENCH_WARPS) : {}) };

/** The context the service gives the recognizer for one question (transcribe.service.ts contextFor). */
function contextOf(c: Case) {
  return { focus: [c.question, c.expected], related: [], ...(env.BENCH_NO_NEIGHBOURS ? {} : { neighbours: answerNeighbours(c.expected) }) };
}

async function main(): Promise<void> {
  if (!DATA) throw new Error('grading-dev.jsonl not found (expected test/fixtures/grading/).');
  const cases = fs.readFileSync(DATA, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Case).slice(0, limit);
  const keep = env.BENCH_AUDIO_DIR;
  const audioDir = keep ?? fs.mkdtempSync(path.join(os.tmpdir(), 'bench-speech-'));
  const workRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-speech-work-'));
  fs.mkdirSync(audioDir, { recursive: true });
  const recognizer = new LocalRecognizer({
    ffmpegPath: 'ffmpeg', espeakPath: 'espeak-ng', pocketsphinxPath: 'pocketsphinx_batch',
    modelDir: MODEL_DIR, workRoot, run: runProcess, tuning, weights, speakerWarps,
    childWords: env.BENCH_VOCAB === 'base' ? loadChildWords().filter((w) => !w.inflected) : undefined,
  });
  console.log(`local recognizer: ${tuning.search} search, weights ${JSON.stringify(weights)}, warps ${JSON.stringify(speakerWarps)}, voices ${voices.map((v) => v.name).join(', ')}`);
  try {
    await recognizer.pronouncer.dictionary();
    if (env.BENCH_VOCAB === 'base') console.log('vocabulary: base words only (no inflected forms)');
    const spoken = cases.filter((c) => c.user.trim());
    let words = 0, wordErrors = 0, agree = 0, total = 0, ms = 0, decodes = 0;
    let wrongTotal = 0, wrongFalseCorrect = 0;
    const confusion = new Map<string, number>();
    const perVoice = new Map<string, { n: number; agree: number; words: number; errors: number }>();
    const shown: string[] = [];
    for (const v of voices) {
      for (const c of spoken) {
        const wav = await synthesize(audioDir, c, v);
        const t0 = performance.now();
        const r = await recognizer.transcribe(wav, contextOf(c), { speaker: v.name });
        ms += performance.now() - t0;
        decodes += r.decodes;
        const ref = textToWords(c.user);
        const hyp = textToWords(r.text);
        words += ref.length;
        wordErrors += editDistance(ref, hyp);
        const truth = gradeAnswer({ question: c.question, expected: c.expected, user: c.user }).status;
        const heard = gradeAnswer({ question: c.question, expected: c.expected, user: r.text }).status;
        total++;
        const pv = perVoice.get(v.name) ?? { n: 0, agree: 0, words: 0, errors: 0 };
        pv.n++;
        pv.words += ref.length;
        pv.errors += editDistance(ref, hyp);
        if (truth === heard) pv.agree++;
        perVoice.set(v.name, pv);
        if (truth === heard) agree++;
        else if (shown.length < 25) shown.push(`  ${c.id} ${v.name}: "${c.user}" -> "${r.text}" (${truth} -> ${heard})`);
        confusion.set(`${truth}->${heard}`, (confusion.get(`${truth}->${heard}`) ?? 0) + 1);
        if (env.BENCH_DUMP) fs.appendFileSync(env.BENCH_DUMP, JSON.stringify({ id: c.id, voice: v.name, question: c.question, expected: c.expected, user: c.user, heard: r.text, truth, graded: heard }) + '\n');
        if (truth === 'wrong') {
          wrongTotal++;
          if (heard === 'correct') wrongFalseCorrect++;
        }
      }
    }
    const noise = await noiseClips(audioDir, recognizer, spoken, voices.map((v) => v.name));
    const baseline = env.BENCH_NO_BASELINE ? undefined : await baselineRun(audioDir, workRoot, spoken, voices[0]!);

    console.log('\nSome disagreements (true text -> transcript):');
    console.log(shown.join('\n'));
    console.log(`\nconfusion (grade of true text -> grade of transcript): ${[...confusion].map(([k, n]) => `${k} ${n}`).join(', ')}`);
    const perAnswer = ms / total;
    console.log('\n| measure | local recognizer | target |');
    console.log('|---|---|---|');
    console.log(`| answers transcribed | ${total} (${spoken.length} x ${voices.length} voices) | |`);
    console.log(`| grade agreement, all voices | ${fmt(agree / total)} | |`);
    console.log(`| word accuracy (1 - WER) | ${fmt(1 - wordErrors / words)} | |`);
    for (const engine of ['espeak-ng', 'flite'] as const) {
      const group = voices.filter((v) => v.engine === engine).map((v) => perVoice.get(v.name)!).filter(Boolean);
      if (!group.length) continue;
      const n = group.reduce((a, pv) => a + pv.n, 0);
      const agreeing = group.reduce((a, pv) => a + pv.agree, 0);
      console.log(engine === 'espeak-ng'
        ? `| grade agreement, espeak-ng voices | ${fmt(agreeing / n)} | >= 0.85 |`
        : `| grade agreement, flite voices (recorded speech, cross-check) | ${fmt(agreeing / n)} | |`);
    }
    if (!hasFlite) console.log('| (flite voices skipped: flite is not installed; apt-get install flite) | | |');
    console.log(`| false-correct, wrong answers | ${fmt(wrongFalseCorrect / Math.max(1, wrongTotal))} (${wrongFalseCorrect}/${wrongTotal}) | low |`);
    console.log(`| false-correct, silence and noise | ${fmt(noise.falseCorrect / noise.total)} (${noise.falseCorrect}/${noise.total}) | 0 |`);
    console.log(`| noise clips with any words | ${noise.withWords}/${noise.clips} | |`);
    console.log(`| time per answer | ${perAnswer.toFixed(0)} ms | < 1000 ms |`);
    console.log(`| pocketsphinx runs per answer | ${(decodes / total).toFixed(2)} | |`);
    console.log('\n| voice | answers | word accuracy | grade agreement | warp learned |');
    console.log('|---|---|---|---|---|');
    for (const [name, pv] of perVoice) console.log(`| ${name} | ${pv.n} | ${fmt(1 - pv.errors / pv.words)} | ${fmt(pv.agree / pv.n)} | ${recognizer.warps.chosen(name)} |`);
    if (baseline) {
      const first = perVoice.get(voices[0]!.name)!;
      console.log(`\nbaseline (pocketsphinx general LM, no context, voice ${voices[0]!.name}, ${baseline.total} answers): ` +
        `word accuracy ${fmt(baseline.wordAcc)}, grade agreement ${fmt(baseline.agree)}, ${baseline.ms.toFixed(0)} ms per answer`);
      const localAcc = 1 - first.errors / first.words;
      // the stock model inserts so many words that its word accuracy can fall below zero
      const accRatio = baseline.wordAcc > 0 ? `x${(localAcc / baseline.wordAcc).toFixed(2)}` : `n/a (baseline ${fmt(baseline.wordAcc)} vs ${fmt(localAcc)})`;
      console.log(`ratios local/baseline on ${voices[0]!.name}: word accuracy ${accRatio}, ` +
        `grade agreement x${(first.agree / first.n / baseline.agree).toFixed(2)}, time x${(perAnswer / baseline.ms).toFixed(2)}`);
    }
    console.log(`load average during the run: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} (2 cores)`);
  } finally {
    fs.rmSync(workRoot, { recursive: true, force: true });
    if (!keep) fs.rmSync(audioDir, { recursive: true, force: true });
  }
}

async function synthesize(dir: string, c: Case, v: Voice): Promise<string> {
  const out = path.join(dir, `${c.id}-${v.name}.wav`);
  if (fs.existsSync(out)) return out;
  if (v.engine === 'flite') await runProcess('flite', ['-voice', v.voice, '-t', c.user, '-o', `${out}.tmp.wav`]);
  else await runProcess('espeak-ng', ['-v', v.voice, '-s', String(v.speed), '-p', String(v.pitch), '-w', `${out}.tmp.wav`, c.user]);
  // every frequency up by `scale`, same duration (espeak-ng writes 22,050 Hz, flite 16,000 Hz)
  const scale = v.scale ? `asetrate=22050*${v.scale},aresample=22050,atempo=${1 / v.scale},` : '';
  // a little room noise and a pause either side, as a tablet microphone would record it
  await runProcess('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-i', `${out}.tmp.wav`,
    '-f', 'lavfi', '-i', 'anoisesrc=r=22050:a=0.002:c=pink',
    '-filter_complex', `[0]aresample=22050,${scale}adelay=400,apad=pad_dur=0.5[s];[s][1]amix=inputs=2:duration=first:normalize=0`,
    '-ar', '16000', '-ac', '1', out]);
  fs.rmSync(`${out}.tmp.wav`, { force: true });
  return out;
}

async function noiseClips(dir: string, recognizer: LocalRecognizer, cases: Case[], speakers: string[]) {
  const questions = cases.filter((_, i) => i % 10 === 0);
  let total = 0, falseCorrect = 0, withWords = 0;
  for (const n of NOISES) {
    const clip = path.join(dir, `noise-${n.name.replace(/\W+/g, '-')}.wav`);
    if (!fs.existsSync(clip) && n.lavfi) {
      await runProcess('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', n.lavfi, '-t', '2.5', '-ar', '16000', '-ac', '1', clip]);
    } else if (!fs.existsSync(clip) && n.reversed) {
      await runProcess('espeak-ng', ['-v', 'en-us', '-s', '140', '-w', `${clip}.tmp.wav`, n.reversed]);
      await runProcess('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-i', `${clip}.tmp.wav`, '-af', 'areverse', '-ar', '16000', '-ac', '1', clip]);
      fs.rmSync(`${clip}.tmp.wav`, { force: true });
    }
    const heardWords: string[] = [];
    for (const speaker of speakers) {
      for (const c of questions) {
        const r = await recognizer.transcribe(clip, contextOf(c), { speaker });
        if (r.text) heardWords.push(r.text);
        total++;
        if (gradeAnswer({ question: c.question, expected: c.expected, user: r.text }).status === 'correct') falseCorrect++;
      }
    }
    if (heardWords.length) withWords++;
    console.log(`  ${n.name}: ${heardWords.length ? `heard "${heardWords.slice(0, 3).join('", "')}"` : 'nothing heard'}`);
  }
  return { total, falseCorrect, withWords, clips: NOISES.length };
}

/** pocketsphinx as it comes: its general English model, no vocabulary, no context. */
async function baselineRun(dir: string, workRoot: string, cases: Case[], v: Voice) {
  const m = modelPaths(MODEL_DIR);
  let words = 0, errors = 0, agree = 0, ms = 0;
  for (const c of cases) {
    const wav = await synthesize(dir, c, v);
    const t0 = performance.now();
    const conv = path.join(workRoot, 'baseline.raw');
    await runProcess('ffmpeg', toRecognizerPcmArgs(wav, conv));
    const r = await runProcess('pocketsphinx_continuous', ['-infile', conv, '-hmm', m.hmm, '-dict', m.dict,
      '-lm', path.join(MODEL_DIR, 'en-us.lm.bin'), '-logfn', '/dev/null']);
    ms += performance.now() - t0;
    const text = parseHypothesis(r.stdout.toString()).join(' ');
    const ref = textToWords(c.user);
    words += ref.length;
    errors += editDistance(ref, textToWords(text));
    const truth = gradeAnswer({ question: c.question, expected: c.expected, user: c.user }).status;
    if (gradeAnswer({ question: c.question, expected: c.expected, user: text }).status === truth) agree++;
  }
  return { total: cases.length, wordAcc: 1 - errors / words, agree: agree / cases.length, ms: ms / cases.length };
}

function editDistance(a: string[], b: string[]): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length]!;
}

const fmt = (x: number) => x.toFixed(3);

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
