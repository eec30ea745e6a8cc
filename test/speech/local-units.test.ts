import { describe, expect, it } from 'vitest';
import { numberToWords, textToWords, distinctWords } from '../../src/speech/local/words.js';
import { ipaToArpabet } from '../../src/speech/local/phonemes.js';
import { buildArpa, buildDictionary, buildJsgf, pronounceable } from '../../src/speech/local/grammar.js';
import { buildBigramArpa } from '../../src/speech/local/ngram.js';
import { buildVocabulary } from '../../src/speech/local/vocabulary.js';
import { parseDictionary } from '../../src/speech/local/pronouncer.js';
import { measureLevels, isSilentOrSteady, readPcm16, toRecognizerPcmArgs, trimToSpeech, withNoiseFloor } from '../../src/speech/local/audio.js';
import { DEFAULT_TUNING, parseHypotheses, parseHypothesis, pocketsphinxArgs } from '../../src/speech/local/pocketsphinx.js';
import { SpeakerWarps } from '../../src/speech/local/speaker-warps.js';
import { decodeToKeep } from '../../src/speech/local/recognizer.js';



describe('words', () => {
  it('spells numbers out', () => {
    expect(numberToWords(0)).toEqual(['zero']);
    expect(numberToWords(7)).toEqual(['seven']);
    expect(numberToWords(21)).toEqual(['twenty', 'one']);
    expect(numberToWords(40)).toEqual(['forty']);
    expect(numberToWords(105)).toEqual(['one', 'hundred', 'five']);
    expect(numberToWords(2024)).toEqual(['two', 'thousand', 'twenty', 'four']);
    expect(numberToWords(-1)).toEqual([]);
  });

  it('turns question text into dictionary words', () => {
    expect(textToWords('Mr. Buttons saw 5 T-Rexes!')).toEqual(['mister', 'buttons', 'saw', 'five', 't', 'rexes']);
    expect(textToWords("Leo's boots, the 3rd day")).toEqual(["leo's", 'boots', 'the', 'three', 'day']);
    expect(textToWords('Zoë’s rocket & ‘moon’')).toEqual(["zoe's", 'rocket', 'and', 'moon']);
    expect(textToWords('r2d2')).toEqual(['r', 'two', 'd', 'two']);
    expect(textToWords('  ?! ')).toEqual([]);
  });

  it('lists distinct words in first-seen order', () => {
    expect(distinctWords(['the red barn', 'The barn was red'])).toEqual(['the', 'red', 'barn', 'was']);
  });
});

describe('ipaToArpabet', () => {
  it('maps espeak-ng IPA units to pocketsphinx phones', () => {
    expect(ipaToArpabet('p_ɪ_k_ˈæ_tʃ_uː')).toEqual(['P', 'IH', 'K', 'AE', 'CH', 'UW']);
    expect(ipaToArpabet('s_k_w_ˈɜː_ɾ_əl')).toEqual(['S', 'K', 'W', 'ER', 'T', 'AH', 'L']);
    expect(ipaToArpabet('b_ˈʌ_ʔ_n̩')).toEqual(['B', 'AH', 'T', 'AH', 'N']);
    expect(ipaToArpabet('z_ˈoʊ_i')).toEqual(['Z', 'OW', 'IY']);
    expect(ipaToArpabet('')).toEqual([]);
  });
});

describe('vocabulary and search files', () => {
  const context = { focus: ['What colour was the barn?', 'red'], related: ['Who is Daisy?'] };
  const child = ['the', 'red', 'blue', 'barn', 'dog'].map((word) => ({ word, inflected: false }));
  const weights = { focus: 20, related: 4, glue: 10, common: 1, inflected: 0.5, same: 12, broader: 6, kin: 3 };
  const vocab = buildVocabulary([...child, { word: 'dogs', inflected: true }], context, weights);

  it('weights focus words over related and common ones, without removing any', () => {
    const w = Object.fromEntries(vocab.map((v) => [v.word, v.weight]));
    expect(w.red).toBe(20);
    expect(w.barn).toBe(20);
    expect(w.colour).toBe(20);
    expect(w.daisy).toBe(4);
    expect(w.blue).toBe(1);
    expect(w.dog).toBe(1);
    expect(w.dogs).toBe(0.5);
    expect(w.the).toBe(10);
    expect(vocab.map((v) => v.word)).toEqual([...vocab.map((v) => v.word)].sort());
  });

  it('raises the words around the expected answer, and their inflected forms, below the answer itself', () => {
    const childWords = [...['bunny', 'hop', 'animal', 'dog', 'red', 'the'].map((word) => ({ word, inflected: false })), { word: 'hopping', inflected: true }, { word: 'bunnies', inflected: true }];
    const neighbours = { same: ['bunny', 'bunny rabbit', 'hop'], broader: ['animal', 'the'], kin: ['dog', 'bunny'] };
    const w = Object.fromEntries(buildVocabulary(childWords, { focus: ['a rabbit'], related: [], neighbours }, weights).map((v) => [v.word, v.weight]));
    expect(w.rabbit).toBe(20);
    expect(w.bunny).toBe(12);
    expect(w.bunnies).toBe(6);
    expect(w.hopping).toBe(6);
    expect(w.animal).toBe(6);
    expect(w.dog).toBe(3);
    expect(w.the).toBe(10);
    expect(w.red).toBe(1);
  });

  const prons = parseDictionary('the DH AH\nthe(2) DH IY\nred R EH D\nblue B L UW\nbarn B AA R N\ndog D AO G\nwhat W AH T\nwas W AA Z\n');

  it('keeps only pronounceable words and writes alternatives as word(2)', () => {
    const words = pronounceable(vocab, prons);
    expect(words.map((w) => w.word)).toEqual(['barn', 'blue', 'dog', 'red', 'the', 'was', 'what']);
    expect(buildDictionary(words, prons)).toBe('barn B AA R N\nblue B L UW\ndog D AO G\nred R EH D\nthe DH AH\nthe(2) DH IY\nwas W AA Z\nwhat W AH T\n');
  });

  it('builds a weighted JSGF word loop, never a fixed sentence', () => {
    const g = buildJsgf(pronounceable(vocab, prons));
    expect(g).toContain('public <answer> = <word>+;');
    expect(g).toContain('/20.0/ red');
    expect(g).toContain('/1.0/ blue');
    expect(() => buildJsgf([])).toThrow();
  });

  it('builds a unigram ARPA model whose probabilities sum to one', () => {
    const words = pronounceable(vocab, prons);
    const arpa = buildArpa(words, 0.2);
    const probs = arpa
      .split('\n')
      .filter((l) => /^-?\d+\.\d+ \S+ /.test(l) && !l.includes('<s>'))
      .map((l) => 10 ** Number(l.split(' ')[0]));
    expect(probs).toHaveLength(words.length + 1);
    expect(probs.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 2);
  });

  it('builds a bigram model where every unseen pair keeps a backoff', () => {
    const words = pronounceable(vocab, prons);
    const arpa = buildBigramArpa(words, { focus: ['the red barn'], related: [] }, { lambda: 0.5, focusRepeat: 3, endProb: 0.2, danglingEnd: 0.01 });
    expect(arpa).toMatch(/ngram 2=\d+/);
    expect(arpa).toMatch(/^-?\d+\.\d+ the red$/m);
    expect(arpa).toMatch(/^-?\d+\.\d+ red barn$/m);
    // "the" has continuations, so it carries a backoff weight of log10(0.5)
    expect(arpa).toMatch(/^-?\d+\.\d+ the -0\.3010$/m);
    expect(arpa).toMatch(/^-?\d+\.\d+ blue 0\.0000$/m);
  });

  it('makes ending on a dangling word rare, and lets frames go on instead of ending', () => {
    const words = pronounceable(vocab, prons);
    const opts = { lambda: 0.5, focusRepeat: 3, endProb: 0.2, danglingEnd: 0.01 };
    // the frame "the" is the start of an answer, not a whole one; with no pairs after it: 0.2 x 0.01
    const bare = buildBigramArpa(words, { focus: [], related: [] }, opts);
    expect(bare).toMatch(/^-0\.2553 <s> the$/m);
    expect(bare).toMatch(/^-2\.6990 the <\/s>$/m);
    expect(bare).toMatch(/^-2\.6990 was <\/s>$/m);
    // "the red barn" gives "the" pairs: 0.5 (backoff) x 0.2 x 0.01; the answer's own end stays likely
    const arpa = buildBigramArpa(words, { focus: ['the red barn'], related: [] }, opts);
    expect(arpa).toMatch(/^-3\.0000 the <\/s>$/m);
    expect(arpa).toMatch(/^-0\.\d+ barn <\/s>$/m);
    expect(arpa).not.toMatch(/ red <\/s>$/m);
  });

  it('links the words of a same-meaning phrase in the bigram model', () => {
    const words = pronounceable(vocab, prons);
    const neighbours = { same: ['blue barn', 'dog'], broader: [], kin: [] };
    const arpa = buildBigramArpa(words, { focus: [], related: [], neighbours }, { lambda: 0.5, focusRepeat: 3, endProb: 0.2, danglingEnd: 0.01 });
    expect(arpa).toMatch(/^-?\d+\.\d+ blue barn$/m);
    expect(arpa).not.toMatch(/^-?\d+\.\d+ <s> dog$/m);
  });
});

describe('audio', () => {
  it('builds the ffmpeg conversion to 16 kHz mono 16-bit raw PCM', () => {
    expect(toRecognizerPcmArgs('/in/a.webm', '/out/b.raw', 20)).toEqual([
      '-hide_banner', '-nostdin', '-loglevel', 'error', '-y', '-i', '/in/a.webm', '-vn', '-map', '0:a:0', '-t', '20',
      '-ac', '1', '-ar', '16000', '-f', 's16le', '/out/b.raw',
    ]);
  });

  it('reads raw 16-bit little-endian samples, ignoring a dangling byte', () => {
    const samples = Int16Array.from([0, 1000, -1000, 32767, -32768]);
    const bytes = Buffer.concat([Buffer.from(samples.buffer), Buffer.from([7])]);
    expect([...readPcm16(bytes)]).toEqual([...samples]);
    expect(readPcm16(Buffer.alloc(0))).toHaveLength(0);
  });

  it('adds the same quiet noise floor every time, so no stretch is digital silence', () => {
    const silence = new Int16Array(16000);
    const floored = withNoiseFloor(silence);
    expect([...floored]).toEqual([...withNoiseFloor(silence)]);
    expect(floored.filter((v) => v === 0).length).toBeLessThan(16000 / 10);
    const rmsDb = 10 * Math.log10(floored.reduce((s, v) => s + (v / 32768) ** 2, 0) / floored.length);
    expect(rmsDb).toBeGreaterThan(-79);
    expect(rmsDb).toBeLessThan(-75);
    expect(withNoiseFloor(Int16Array.from([32767, -32768])).every((v) => v >= -32768 && v <= 32767)).toBe(true);
    // the gate still calls it silence
    expect(isSilentOrSteady(measureLevels(floored))).toBe(true);
  });

  it('trims the quiet before and after the words to 300 ms margins', () => {
    // 2 s of silence, 0.5 s of sound, 3 s of silence
    const samples = new Int16Array(5.5 * 16000);
    for (let i = 32000; i < 40000; i++) samples[i] = Math.round(8000 * Math.sin(i / 5));
    const levels = measureLevels(samples);
    expect(levels.firstActiveMs).toBe(2000);
    expect(levels.lastActiveMs).toBe(2480);
    const trimmed = trimToSpeech(samples, levels);
    expect(trimmed.length).toBe((0.3 + 0.5 + 0.3) * 16000);
    expect(trimmed[0.3 * 16000 + 100]).toBe(samples[32100]);
    // nothing active: unchanged; margins never run past the ends
    const quiet = new Int16Array(1000);
    expect(measureLevels(quiet)).toMatchObject({ firstActiveMs: -1, lastActiveMs: -1 });
    expect(trimToSpeech(quiet, measureLevels(quiet))).toHaveLength(1000);
    const loud = Int16Array.from({ length: 16000 }, (_, i) => Math.round(8000 * Math.sin(i / 5)));
    expect(trimToSpeech(loud, { ...measureLevels(loud), firstActiveMs: 0, lastActiveMs: 980 })).toHaveLength(16000);
  });

  const tone = (seconds: number, amp: number, gapEvery = 0) =>
    Int16Array.from({ length: seconds * 16000 }, (_, i) => (gapEvery && Math.floor(i / gapEvery) % 2 ? 0 : Math.round(amp * Math.sin(i / 5))));

  it('calls digital silence and steady hum silent, bursts of sound not', () => {
    expect(isSilentOrSteady(measureLevels(new Int16Array(32000)))).toBe(true);
    expect(isSilentOrSteady(measureLevels(tone(2, 8000)))).toBe(true);
    expect(isSilentOrSteady(measureLevels(tone(2, 30)))).toBe(true);
    const bursts = measureLevels(tone(2, 8000, 4000));
    expect(bursts.activeMs).toBeGreaterThanOrEqual(900);
    expect(isSilentOrSteady(bursts)).toBe(false);
  });
});

describe('pocketsphinx', () => {
  const files = { audioDir: '/w', ctl: '/w/s.ctl', dict: '/w/d.dict', search: '/w/a.arpa', hmm: '/m/en-us', hyp: '/w/0.hyp', hypseg: '/w/0.seg' };

  it('builds the batch decoder arguments: raw audio, our search, a warp only when asked', () => {
    const args = pocketsphinxArgs(files, { ...DEFAULT_TUNING, search: 'bigram' });
    const opt = (name: string) => args[args.indexOf(name) + 1];
    expect(args.slice(0, 10)).toEqual(['-ctl', '/w/s.ctl', '-cepdir', '/w', '-cepext', '.raw', '-adcin', 'yes', '-adchdr', '0']);
    expect([opt('-hmm'), opt('-dict'), opt('-lm'), opt('-hyp'), opt('-hypseg'), opt('-remove_noise')]).toEqual(['/m/en-us', '/w/d.dict', '/w/a.arpa', '/w/0.hyp', '/w/0.seg', 'no']);
    expect(args).not.toContain('-warp_params');
    const warped = pocketsphinxArgs({ ...files, search: '/w/a.gram' }, { ...DEFAULT_TUNING, search: 'jsgf' }, 1.3);
    expect(warped[warped.indexOf('-jsgf') + 1]).toBe('/w/a.gram');
    expect(warped.slice(warped.indexOf('-warp_type'), warped.indexOf('-warp_type') + 4)).toEqual(['-warp_type', 'inverse_linear', '-warp_params', '1.3']);
  });

  it('parses batch hypotheses with their scores and frame counts, dropping fillers', () => {
    const hyp = 'the red barn(2) (speech -3094)\n (quiet 0)\n';
    const seg = 'speech S 0 T -3094 A -2420 L -674 0 -188 -337 <sil> 11 -1150 0 the 51 -430 0 red 68 -432 0 barn(2) 110 -220 -337 <sil> 157\nquiet S 0 T 0 A 0 L 0 0\n';
    expect(parseHypotheses(hyp, seg)).toEqual([
      { utterance: 'speech', words: ['the', 'red', 'barn'], score: -3094, frames: 157 },
      { utterance: 'quiet', words: [], score: 0, frames: 0 },
    ]);
    expect(parseHypotheses('it was [NOISE] +SPN+ blue (u -120)\n', '')).toEqual([{ utterance: 'u', words: ['it', 'was', 'blue'], score: -120, frames: 0 }]);
  });

  it("parses pocketsphinx_continuous's output (the benchmark's baseline)", () => {
    expect(parseHypothesis('the red <sil> barn(2)\n\nit was [NOISE]\n')).toEqual(['the', 'red', 'barn', 'it', 'was']);
  });
});

describe('SpeakerWarps', () => {
  const options = { candidates: [0.9, 1, 1.3, 1.6, 1.9], learnAnswers: 3, relearnEvery: 4, maxSpeakers: 2 };

  it('climbs the ladder from 1 by the scores per frame of neighbouring warps, then settles', () => {
    const w = new SpeakerWarps(options);
    expect(w.warpsFor(undefined)).toEqual([1]);
    expect(w.warpsFor('child:a')).toEqual([0.9, 1, 1.3]);
    expect(w.learn('child:a', [0.9, 1, 1.3], [-30, -29, -26])).toBe(1.3); // 1.3 beat 1
    expect(w.warpsFor('child:a')).toEqual([1, 1.3, 1.6]);
    expect(w.learn('child:a', [1, 1.3, 1.6], [-28, -27, -25])).toBe(1.6); // 1 -> 1.3: +4 in all; 1.3 -> 1.6: +2
    expect(w.warpsFor('child:a')).toEqual([1.3, 1.6, 1.9]);
    expect(w.learn('child:a', [1.3, 1.6, 1.9], [-24, -26, -27])).toBe(1.3); // 1.3 -> 1.6: +2 - 2 = 0, not better
    // settled: one decode per answer
    expect(w.warpsFor('child:a')).toEqual([1.3]);
    expect(w.chosen('child:a')).toBe(1.3);
    // every 4th answer after that is decoded at the chosen warp and its neighbours again, and can change the choice
    expect([w.warpsFor('child:a'), w.warpsFor('child:a')]).toEqual([[1.3], [1.3]]);
    expect(w.warpsFor('child:a')).toEqual([1, 1.3, 1.6]);
    expect(w.learn('child:a', [1, 1.3, 1.6], [-30, -29, -20])).toBe(1.6); // 1.3 -> 1.6 now +9 in all; 1.6 -> 1.9 was -1
    expect(w.warpsFor('child:a')).toEqual([1.6]);
    // another speaker learns on its own, and can go down
    expect(w.chosen('child:b')).toBe(1);
    expect(w.warpsFor('child:b')).toEqual([0.9, 1, 1.3]);
    expect(w.learn('child:b', [0.9, 1, 1.3], [-20, -24, -25])).toBe(0.9);
    expect(w.warpsFor('child:b')).toEqual([0.9, 1]);
    // both neighbours better than 1: towards the better one, not up first
    expect(w.learn('child:c', [0.9, 1, 1.3], [-25.6, -27.5, -27.3])).toBe(0.9);
  });

  it("keeps the chosen warp's decode, or the best decoded when the choice moved past them", () => {
    expect(decodeToKeep([0.9, 1, 1.3], [-30, -29, -26], 1)).toBe(1);
    expect(decodeToKeep([0.9, 1, 1.3], [-30, -29, -26], 1.3)).toBe(2);
    expect(decodeToKeep([1, 1.3, 1.6], [-28, -25, -27], 1.9)).toBe(1);
  });

  it('keeps 1 on a tie or a bad score list, and forgets the least recently heard speaker', () => {
    const w = new SpeakerWarps(options);
    expect(w.learn('a', [0.9, 1, 1.3], [-10, -10, -10])).toBe(1);
    expect(w.learn('a', [0.9, 1, 1.3], [Number.NaN, -1, -1])).toBe(1);
    expect(w.learn('a', [0.9, 1, 1.3], [-1, -1])).toBe(1);
    expect(w.learn('a', [0.9, 1.3], [-2, -1])).toBe(1); // not neighbours on the ladder
    expect(w.learn('a', [1.2, 1.3], [-2, -1])).toBe(1); // not on the ladder
    expect(w.learn('a', [1], [-1])).toBe(1);
    w.learn('b', [0.9, 1, 1.3], [-1, -2, -3]);
    w.warpsFor('a'); // heard again: 'b' is now the oldest
    w.learn('c', [0.9, 1, 1.3], [-3, -2, -1]);
    expect(w.size).toBe(2);
    expect(w.chosen('b')).toBe(1);
    expect(w.chosen('c')).toBe(1.3);
    expect(() => new SpeakerWarps({ ...options, candidates: [0.9, 1.3] })).toThrow(/include 1/);
    expect(() => new SpeakerWarps({ ...options, candidates: [1, 0.9, 1.3] })).toThrow(/ascending/);
  });
});
