/**
 * Turning question and answer text into the words a recognizer can output: lower case, no
 * punctuation, titles and digits spelled out ("Mr." -> "mister", "5" -> "five"), hyphens split
 * ("T-rex" -> "t rex"). Pure functions.
 */

const ONES = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve',
  'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];

const TITLES: Record<string, string> = { mr: 'mister', mrs: 'missus', ms: 'miss', dr: 'doctor' };

/** 0..999999 in words ("21" -> "twenty one"); larger numbers are read digit by digit. */
export function numberToWords(n: number): string[] {
  if (!Number.isInteger(n) || n < 0) return [];
  if (n >= 1_000_000) return String(n).split('').map((d) => ONES[Number(d)] as string);
  if (n >= 1000) {
    const rest = n % 1000;
    return [...numberToWords(Math.floor(n / 1000)), 'thousand', ...(rest ? numberToWords(rest) : [])];
  }
  if (n >= 100) {
    const rest = n % 100;
    return [ONES[Math.floor(n / 100)] as string, 'hundred', ...(rest ? numberToWords(rest) : [])];
  }
  if (n >= 20) {
    const unit = n % 10;
    return [TENS[Math.floor(n / 10)] as string, ...(unit ? [ONES[unit] as string] : [])];
  }
  return [ONES[n] as string];
}

/** The words of a text, as a recognizer's dictionary spells them. */
export function textToWords(text: string): string[] {
  const s = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[\u2018\u2019\u02bc`]/g, "'")
    .replace(/(\d),(\d{3})\b/g, '$1$2')
    .replace(/(\d+)(st|nd|rd|th)\b/g, '$1')
    .replace(/&/g, ' and ');
  const out: string[] = [];
  for (const raw of s.split(/[^a-z0-9']+/)) {
    const token = raw.replace(/^'+|'+$/g, '');
    if (!token) continue;
    if (/^\d+$/.test(token)) {
      out.push(...numberToWords(Number(token)));
    } else if (/\d/.test(token)) {
      // "3d", "r2d2": letters and digits apart
      for (const part of token.match(/\d+|[a-z']+/g) ?? []) out.push(...(/^\d+$/.test(part) ? numberToWords(Number(part)) : [part]));
    } else {
      out.push(TITLES[token] ?? token);
    }
  }
  return out;
}

/** The distinct words of several texts, in first-seen order. */
export function distinctWords(texts: readonly string[]): string[] {
  const seen = new Set<string>();
  for (const t of texts) for (const w of textToWords(t)) seen.add(w);
  return [...seen];
}
