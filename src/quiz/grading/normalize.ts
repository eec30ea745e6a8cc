/**
 * Text normalization for grading: lower case, accents and punctuation removed, contractions
 * expanded ("wasn't" -> "was not", "'cause" -> "because"), titles spelled out ("Mr." ->
 * "mister"), hyphens split ("T-rex" -> "t rex"), and number words turned into digits
 * ("twenty one" -> "21"). Commas survive as their own token because they separate list items.
 */

const ABBREVIATIONS: [RegExp, string][] = [
  [/\bmr\b\.?/g, 'mister'],
  [/\bmrs\b\.?/g, 'missus'],
  [/\bms\b\.?/g, 'miss'],
  [/\bdr\b\.?/g, 'doctor'],
  [/\bst\b\./g, 'saint'],
];

/** "it's" -> "it is" only for pronouns; any other "'s" is a possessive and is dropped. */
const IS_PRONOUNS = new Set(['it', 'that', 'what', 'he', 'she', 'there', 'here', 'who', 'where', 'this']);

const WORD_FIXES: Record<string, string> = {
  cause: 'because',
  cuz: 'because',
  coz: 'because',
  cos: 'because',
  bc: 'because',
  gonna: 'going to',
  wanna: 'want to',
  gotta: 'got to',
  kinda: 'kind of',
  sorta: 'sort of',
  lotta: 'lot of',
  dunno: 'do not know',
  idk: 'i do not know',
  dno: 'do not know',
  ain: 'is',
  aint: 'is not',
  dont: 'do not',
  didnt: 'did not',
  doesnt: 'does not',
  isnt: 'is not',
  wasnt: 'was not',
  werent: 'were not',
  cant: 'can not',
  cannot: 'can not',
  wont: 'will not',
  couldnt: 'could not',
  shouldnt: 'should not',
  wouldnt: 'would not',
  havent: 'have not',
  hasnt: 'has not',
  hadnt: 'had not',
  arent: 'are not',
  thats: 'that is',
  whats: 'what is',
  im: 'i am',
  ok: 'okay',
};

export function normalizeText(text: string): string {
  let s = text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
  s = s.replace(/[\u2018\u2019\u02bc`]/g, "'").replace(/[\u201c\u201d]/g, '"');
  for (const [re, word] of ABBREVIATIONS) s = s.replace(re, ` ${word} `);
  s = s.replace(/&/g, ' and ').replace(/\+/g, ' plus ');
  s = s.replace(/(\d),(\d{3})\b/g, '$1$2');
  s = s.replace(/(\d)(st|nd|rd|th)\b/g, '$1');
  s = s.replace(/\bwon't\b/g, 'will not').replace(/\bcan't\b/g, 'can not').replace(/\bain't\b/g, 'is not');
  s = s.replace(/n't\b/g, ' not');
  s = s.replace(/'(re|ve|ll|d|m)\b/g, (_m, suffix: string) => (suffix === 'm' ? ' am' : ''));
  s = s.replace(/\b([a-z]+)'s\b/g, (_m, word: string) => (IS_PRONOUNS.has(word) ? `${word} is` : word));
  s = s.replace(/(^|\s)'(cause|cuz|coz)\b/g, '$1because');
  s = s.replace(/[,;:]+/g, ' , ');
  s = s.replace(/[^a-z0-9,\s]+/g, ' ');
  const words = s.split(/\s+/).filter(Boolean);
  return words
    .map((w) => WORD_FIXES[w] ?? w)
    .join(' ')
    .replace(/(\s*,\s*)+/g, ' , ')
    .replace(/^\s*,\s*|\s*,\s*$/g, '')
    .trim();
}

const UNITS: Record<string, number> = {
  zero: 0, oh: 0, none: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9,
  ten: 10, eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17,
  eighteen: 18, nineteen: 19, first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7,
  eighth: 8, ninth: 9, tenth: 10, dozen: 12,
  // how many times, said as one word; a pair is two of a thing
  once: 1, twice: 2, thrice: 3, couple: 2, pair: 2,
};
const TENS: Record<string, number> = {
  twenty: 20, thirty: 30, forty: 40, fourty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90,
};

/** Words a recognizer writes for a spoken number; used only when a number is expected. */
export const NUMBER_HOMOPHONES: Record<string, string> = {
  to: '2', too: '2', tu: '2', for: '4', fore: '4', ate: '8', won: '1', wan: '1', tree: '3', free: '3', sex: '6',
  sicks: '6', fife: '5', tin: '10', nein: '9',
};

/**
 * Before these a homophone is a preposition or a verb, not a number: "to the park", "for my
 * mom", "ate the cake". (A recognizer's "to the earth" must not answer "how many?" with 2.)
 */
const NOT_A_NUMBER_BEFORE = new Set(['the', 'a', 'an', 'my', 'his', 'her', 'their', 'our', 'your', 'its', 'this', 'that',
  'these', 'those', 'him', 'them', 'me', 'us', 'it', 'some', 'all']);

/** "one" is a pronoun after these ("the red one", "that one"), not a count. */
const ONE_PRONOUN_BEFORE = new Set(['the', 'this', 'that', 'which', 'every', 'each', 'no', 'some', 'any', 'another', 'other',
  'big', 'little', 'small', 'red', 'blue', 'green', 'yellow', 'orange', 'purple', 'pink', 'black', 'white', 'brown', 'new', 'old']);
/** "first they danced": ordinals and "oh"/"none" count only when a number is expected. */
const ONLY_WHEN_NUMERIC = new Set(['oh', 'none', 'first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth', 'dozen',
  'once', 'twice', 'thrice', 'couple', 'pair']);

/**
 * Replaces number words with digits: "twenty one" -> "21", "a hundred" -> "100",
 * "two hundred and five" -> "205". "ones" and a pronoun "one" are left as words; ordinals,
 * "oh" and "none" become numbers only when `numeric` (a count is expected); `homophones`
 * (the child's words only) also reads "too" as 2, "for" as 4, "ate" as 8, except before a
 * determiner or pronoun ("to the", "for my").
 */
export function wordsToNumbers(words: string[], numeric: boolean, homophones = numeric): string[] {
  const out: string[] = [];
  const hasDigits = words.some((w) => /^\d+$/.test(w) || (w in UNITS && !ONLY_WHEN_NUMERIC.has(w)) || w in TENS);
  let i = 0;
  while (i < words.length) {
    const w = words[i] as string;
    const prev = out[out.length - 1];
    if ((ONLY_WHEN_NUMERIC.has(w) && !numeric) || (w === 'one' && prev !== undefined && (ONE_PRONOUN_BEFORE.has(prev) || /^\d+$/.test(prev)))) {
      out.push(w);
      i++;
      continue;
    }
    if (homophones && !hasDigits && w in NUMBER_HOMOPHONES && !NOT_A_NUMBER_BEFORE.has(words[i + 1] ?? '')) {
      out.push(NUMBER_HOMOPHONES[w] as string);
      i++;
      continue;
    }
    let value: number | undefined;
    let j = i;
    const take = (word: string | undefined): number | undefined =>
      word === undefined ? undefined : /^\d+$/.test(word) ? Number(word) : (UNITS[word] ?? TENS[word]);
    let first = take(w);
    if (first === undefined && (w === 'a' || w === 'one') && (words[i + 1] === 'hundred' || words[i + 1] === 'thousand')) first = 1;
    if (first !== undefined) {
      value = first;
      j = i + 1;
      if (w in TENS && words[j] !== undefined && UNITS[words[j] as string] !== undefined && (UNITS[words[j] as string] as number) < 10) {
        value += UNITS[words[j] as string] as number;
        j++;
      }
      if (words[j] === 'hundred' || words[j] === 'thousand') {
        value *= words[j] === 'hundred' ? 100 : 1000;
        j++;
        const restStart = words[j] === 'and' ? j + 1 : j;
        const rest = take(words[restStart]);
        if (rest !== undefined && rest < 100) {
          let extra = rest;
          let k = restStart + 1;
          if ((words[restStart] as string) in TENS && UNITS[words[k] as string] !== undefined) {
            extra += UNITS[words[k] as string] as number;
            k++;
          }
          value += extra;
          j = k;
        }
      }
    }
    if (value === undefined) {
      out.push(w);
      i++;
    } else {
      out.push(String(value));
      i = j;
    }
  }
  return out;
}

export const isNumberToken = (w: string): boolean => /^\d+$/.test(w);
