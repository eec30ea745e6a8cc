import { describe, expect, it } from 'vitest';
import { numberToWords, textToWords, distinctWords } from '../../src/speech/local/words.js';
import { ipaToArpabet } from '../../src/speech/local/phonemes.js';
import { buildArpa, buildDictionary, buildJsgf, pronounceable } from '../../src/speech/local/grammar.js';
import { buildBigramArpa } from '../../src/speech/local/ngram.js';
import { buildVocabulary } from '../../src/speech/local/vocabulary.js';
import { parseDictionary } from '../../src/speech/local/pronouncer.js';
import { measureLevels, isSilentOrSteady, readPcm16Wav, toRecognizerWavArgs } from '../../src/speech/local/audio.js';
import { DEFAULT_TUNING, parseCmnUpdate, parseHypothesis, parseTimedWords, pocketsphinxArgs, withCmnInit } from '../../src/speech/local/pocketsphinx.js';

/** A 16-bit PCM mono WAV file holding `samples` (test data for the reader). */
function pcm16Wav(samples: Int16Array, sampleRate = 16000): Buffer {
  const data = Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}



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
  const vocab = buildVocabulary([...child, { word: 'dogs', inflected: true }], context, { focus: 20, related: 4, glue: 10, common: 1, inflected: 0.5 });

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
    const arpa = buildBigramArpa(words, { focus: ['the red barn'], related: [] }, { lambda: 0.5, focusRepeat: 3, endProb: 0.2 });
    expect(arpa).toMatch(/ngram 2=\d+/);
    expect(arpa).toMatch(/^-?\d+\.\d+ the red$/m);
    expect(arpa).toMatch(/^-?\d+\.\d+ red barn$/m);
    // "the" has continuations, so it carries a backoff weight of log10(0.5)
    expect(arpa).toMatch(/^-?\d+\.\d+ the -0\.3010$/m);
    expect(arpa).toMatch(/^-?\d+\.\d+ blue 0\.0000$/m);
  });
});

describe('audio', () => {
  it('builds the ffmpeg conversion to 16 kHz mono 16-bit WAV', () => {
    expect(toRecognizerWavArgs('/in/a.webm', '/out/b.wav', 20)).toEqual([
      '-hide_banner', '-nostdin', '-loglevel', 'error', '-y', '-i', '/in/a.webm', '-vn', '-map', '0:a:0', '-t', '20',
      '-ac', '1', '-ar', '16000', '-c:a', 'pcm_s16le', '-f', 'wav', '/out/b.wav',
    ]);
  });

  it('reads the samples of a 16-bit mono WAV', () => {
    const samples = Int16Array.from([0, 1000, -1000, 32767, -32768]);
    const back = readPcm16Wav(pcm16Wav(samples));
    expect(back.sampleRate).toBe(16000);
    expect([...back.samples]).toEqual([...samples]);
    expect(() => readPcm16Wav(Buffer.from('not a wav at all'))).toThrow('not a WAV file');
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
  it('builds the decoder arguments', () => {
    const args = pocketsphinxArgs({ wav: '/w/s.wav', dict: '/w/d.dict', search: '/w/a.arpa', hmm: '/m/en-us' }, { ...DEFAULT_TUNING, search: 'bigram' });
    expect(args.slice(0, 8)).toEqual(['-infile', '/w/s.wav', '-hmm', '/m/en-us', '-dict', '/w/d.dict', '-lm', '/w/a.arpa']);
    expect(args).toContain('-time');
    expect(args[args.indexOf('-remove_noise') + 1]).toBe('no');
    const jsgf = pocketsphinxArgs({ wav: 'a', dict: 'b', search: 'c.gram', hmm: 'd' }, { ...DEFAULT_TUNING, search: 'jsgf' });
    expect(jsgf[jsgf.indexOf('-jsgf') + 1]).toBe('c.gram');
  });

  it('reads the CMN a first pass reached and writes it into feat.params', () => {
    const line = 'INFO: cmn_live.c(138): Update to   < 54.30 24.57 -11.77 13.76 -9.89  9.02 -1.54 -11.76  3.15 -21.86 -1.89 -0.60 -3.96 >';
    const cmn = parseCmnUpdate(line)!;
    expect(cmn).toHaveLength(13);
    expect(cmn[0]).toBe(54.3);
    expect(parseCmnUpdate('INFO: cmn_live.c(120): Update from < 41.00 -5.29 >')).toBeNull();
    expect(parseCmnUpdate('Update to < 1 2 3 >')).toBeNull();
    const params = '-lowerf 130\n-cmn batch\n-cmninit 41.00,-5.29\n-model ptm\n';
    expect(withCmnInit(params, cmn)).toBe(
      '-lowerf 130\n-cmn batch\n-model ptm\n-cmninit 54.30,24.57,-11.77,13.76,-9.89,9.02,-1.54,-11.76,3.15,-21.86,-1.89,-0.60,-3.96\n',
    );
  });

  it('parses hypotheses and timed words, dropping fillers', () => {
    const out = 'he was cute\n<s> 0.000 0.380 0.999700\nhe 0.390 0.560 0.579399\n[NOISE] 0.56 0.57 1.0\nwas(2) 0.570 0.860 0.944493\n(NULL) 0.860 0.860 1.000000\ncute 0.870 1.390 0.567187\n</s> 1.400 1.860 1.000000\n';
    expect(parseTimedWords(out)).toEqual([
      { word: 'he', start: 0.39, end: 0.56, prob: 0.579399 },
      { word: 'was', start: 0.57, end: 0.86, prob: 0.944493 },
      { word: 'cute', start: 0.87, end: 1.39, prob: 0.567187 },
    ]);
    expect(parseHypothesis('the red <sil> barn(2)\n\nit was [NOISE]\n')).toEqual(['the', 'red', 'barn', 'it', 'was']);
  });
});
