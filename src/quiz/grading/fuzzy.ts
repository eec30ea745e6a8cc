/**
 * String distances and phonetic keys: Double Metaphone (npm) and, written here,
 * Levenshtein (edit distance), Jaro-Winkler (typo similarity that rewards a shared start),
 * and a simplified Metaphone-style key that maps words which sound alike to the same code
 * ("read"/"red" -> RT, "biskit"/"biscuit" -> BSKT, "brewno"/"bruno" -> BRN).
 */
import { doubleMetaphone } from 'double-metaphone';
import { memoize } from './memo.js';

const metaphone = memoize((w: string) => doubleMetaphone(w));

/**
 * Two spellings of one sound by Double Metaphone (npm `double-metaphone`, MIT): a primary or
 * secondary code in common ("hunny"/"honey" HN, "twocan"/"toucan" TKN). A one-letter code
 * ("bo"/"bow" P) also needs the same first letter.
 */
/** Both words' primary codes are equal and three sounds or longer ("aunts"/"ants" ANTS): two dictionary words that sound alike. */
export function sameLongCode(a: string, b: string): boolean {
  const [a1] = metaphone(a);
  return a1.length >= 3 && a1 === metaphone(b)[0];
}

export function metaphoneAlike(a: string, b: string): boolean {
  const [a1, a2] = metaphone(a);
  const [b1, b2] = metaphone(b);
  const shared = [a1, a2].find((c) => c !== '' && (c === b1 || c === b2));
  if (shared === undefined) return false;
  return shared.length >= 2 || a[0] === b[0];
}

export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur.push(Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost));
    }
    prev = cur;
  }
  return prev[b.length] ?? 0;
}

/** 1 - distance / longer length: 1 for equal strings, 0 for nothing in common. */
export function levenshteinRatio(a: string, b: string): number {
  const longest = Math.max(a.length, b.length);
  return longest === 0 ? 1 : 1 - levenshtein(a, b) / longest;
}

export function jaroWinkler(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length === 0 || b.length === 0) return 0;
  const window = Math.max(0, Math.floor(Math.max(a.length, b.length) / 2) - 1);
  const aUsed = new Array<boolean>(a.length).fill(false);
  const bUsed = new Array<boolean>(b.length).fill(false);
  let matches = 0;
  for (let i = 0; i < a.length; i++) {
    const lo = Math.max(0, i - window);
    const hi = Math.min(b.length - 1, i + window);
    for (let j = lo; j <= hi; j++) {
      if (bUsed[j] || a[i] !== b[j]) continue;
      aUsed[i] = true;
      bUsed[j] = true;
      matches++;
      break;
    }
  }
  if (matches === 0) return 0;
  let transpositions = 0;
  let k = 0;
  for (let i = 0; i < a.length; i++) {
    if (!aUsed[i]) continue;
    while (!bUsed[k]) k++;
    if (a[i] !== b[k]) transpositions++;
    k++;
  }
  const m = matches;
  const jaro = (m / a.length + m / b.length + (m - transpositions / 2) / m) / 3;
  let prefix = 0;
  while (prefix < 4 && prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  return jaro + prefix * 0.1 * (1 - jaro);
}

const VOWELS = new Set(['a', 'e', 'i', 'o', 'u']);
const isVowel = (c: string | undefined) => c !== undefined && VOWELS.has(c);

/**
 * A phonetic key in the spirit of Metaphone (Lawrence Philips, 1990), simplified for short
 * English words a child says: vowels after the first letter are dropped, letters that sound
 * alike share a code, silent letters are skipped, repeated codes collapse. Only a-z is read.
 */
export const phoneticKey = memoize(computePhoneticKey);

function computePhoneticKey(word: string): string {
  let w = word.toLowerCase().replace(/[^a-z]/g, '');
  if (w.length === 0) return '';
  if (/^(kn|gn|pn|wr)/.test(w)) w = w.slice(1);
  if (w.startsWith('x')) w = `s${w.slice(1)}`;
  if (w.startsWith('wh')) w = `w${w.slice(2)}`;
  const out: string[] = [];
  for (let i = 0; i < w.length; i++) {
    const c = w[i] as string;
    const next = w[i + 1];
    const prev = w[i - 1];
    let code = '';
    if (isVowel(c)) {
      code = i === 0 ? 'A' : '';
    } else {
      switch (c) {
        case 'b':
          code = prev === 'm' && i === w.length - 1 ? '' : 'B';
          break;
        case 'c':
          if (next === 'h') {
            code = 'X';
            i++;
          } else if (next === 'i' || next === 'e' || next === 'y') code = 'S';
          else code = 'K';
          break;
        case 'd':
          code = next === 'g' && ['e', 'i', 'y'].includes(w[i + 2] ?? '') ? 'J' : 'T';
          break;
        case 'g':
          if (next === 'h' && !isVowel(w[i + 2])) {
            code = '';
            i++;
          } else if (next === 'n' && i + 2 >= w.length) code = '';
          else if (next === 'e' || next === 'i' || next === 'y') code = 'J';
          else code = 'K';
          break;
        case 'h':
          code = isVowel(next) && !['c', 's', 'p', 't', 'g'].includes(prev ?? '') ? 'H' : '';
          break;
        case 'k':
          code = prev === 'c' ? '' : 'K';
          break;
        case 'p':
          if (next === 'h') {
            code = 'F';
            i++;
          } else code = 'P';
          break;
        case 'q':
          code = 'K';
          break;
        case 's':
          if (next === 'h') {
            code = 'X';
            i++;
          } else if (next === 'i' && (w[i + 2] === 'o' || w[i + 2] === 'a')) code = 'X';
          else code = 'S';
          break;
        case 't':
          if (next === 'h') {
            code = '0';
            i++;
          } else if (next === 'i' && (w[i + 2] === 'o' || w[i + 2] === 'a')) code = 'X';
          else if (next === 'c' && w[i + 2] === 'h') code = '';
          else code = 'T';
          break;
        case 'v':
          code = 'F';
          break;
        case 'w':
        case 'y':
          code = isVowel(next) ? c.toUpperCase() : '';
          break;
        case 'x':
          code = 'KS';
          break;
        case 'z':
          code = 'S';
          break;
        default:
          code = c.toUpperCase();
      }
    }
    for (const ch of code) if (out[out.length - 1] !== ch) out.push(ch);
  }
  return out.join('');
}

/**
 * The word as many speakers say it with "yod coalescence": a "t" or "d" before a long "u" turns
 * into "ch" or "j" ("Tuesday" -> "chooseday", "tune" -> "chune", "duty" -> "jooty"), which a
 * recognizer then spells as other words. Undefined when the word has no such sound. A long "u"
 * is one followed by a vowel or by a single consonant and a vowel ("tulip", not "tummy", "duck").
 */
export function yodCoalesced(word: string): string | undefined {
  const out = word.replace(/(^|[^a-z])([td])u(?=[aeiouy]|[b-df-hj-np-tv-z][aeiouy])/g, (_, before: string, c: string) => `${before}${c === 't' ? 'ch' : 'j'}u`);
  return out === word ? undefined : out;
}
