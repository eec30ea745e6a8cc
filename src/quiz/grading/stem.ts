/**
 * A small lemmatizer: irregular forms from a table, then suffix rules (plurals, -ed, -ing,
 * a final silent e), so "sandwiches"/"sandwich", "hopping"/"hop", "chased"/"chasing"/"chase"
 * and "leaves"/"leaf" reach the same key. Keys are internal: they only need to agree with
 * each other, not to be dictionary words. The lexicon runs through the same function.
 */

import { memoize } from './memo.js';

const IRREGULAR: Record<string, string> = {
  went: 'go', gone: 'go', goes: 'go', ran: 'run', ate: 'eat', eaten: 'eat', saw: 'see', seen: 'see',
  flew: 'fly', flown: 'fly', flies: 'fly', blew: 'blow', blown: 'blow', took: 'take', taken: 'take',
  got: 'get', gotten: 'get', found: 'find', made: 'make', came: 'come', gave: 'give', given: 'give',
  felt: 'feel', fell: 'fall', fallen: 'fall', said: 'say', says: 'say', thought: 'think', caught: 'catch',
  brought: 'bring', bought: 'buy', dug: 'dig', wore: 'wear', worn: 'wear', won: 'win', broke: 'break',
  broken: 'break', woke: 'wake', woken: 'wake', sat: 'sit', slept: 'sleep', hid: 'hide', hidden: 'hide',
  drank: 'drink', drunk: 'drink', swam: 'swim', sang: 'sing', sung: 'sing', rang: 'ring', threw: 'throw',
  thrown: 'throw', grew: 'grow', grown: 'grow', knew: 'know', known: 'know', drew: 'draw', drawn: 'draw',
  drove: 'drive', rode: 'ride', ridden: 'ride', wrote: 'write', written: 'write', spoke: 'speak',
  stole: 'steal', froze: 'freeze', frozen: 'freeze', chose: 'choose', began: 'begin', begun: 'begin',
  built: 'build', sent: 'send', spent: 'spend', lost: 'lose', met: 'meet', kept: 'keep', fed: 'feed',
  held: 'hold', told: 'tell', sold: 'sell', stood: 'stand', hung: 'hang', stuck: 'stick', spun: 'spin',
  shook: 'shake', bitten: 'bite', fought: 'fight', taught: 'teach', heard: 'hear', paid: 'pay',
  slid: 'slide', shone: 'shine', sank: 'sink', sunk: 'sink', swung: 'swing', dove: 'dive', led: 'lead',
  was: 'be', were: 'be', been: 'be', is: 'be', are: 'be', am: 'be', being: 'be',
  has: 'have', had: 'have', having: 'have', did: 'do', does: 'do', done: 'do', doing: 'do',
  children: 'child', mice: 'mouse', geese: 'goose', feet: 'foot', teeth: 'tooth', men: 'man',
  women: 'woman', people: 'person', leaves: 'leaf', wolves: 'wolf', knives: 'knife', wives: 'wife',
  lives: 'life', loaves: 'loaf', halves: 'half', shelves: 'shelf', calves: 'calf', elves: 'elf',
  scarves: 'scarf', hooves: 'hoof', oxen: 'ox', shoes: 'shoe', toes: 'toe', canoes: 'canoe',
  cookies: 'cookie', movies: 'movie', zombies: 'zombie', pies: 'pie', ties: 'tie', lies: 'lie',
  dies: 'die', buses: 'bus', glasses: 'glasses', clothes: 'clothes', pants: 'pants', news: 'news',
  fish: 'fish', fishes: 'fish', sheep: 'sheep', deer: 'deer', bunnies: 'bunny', puppies: 'puppy',
};

/** Words ending in -ed / -ing that are not verb forms. */
const NOT_INFLECTED = new Set([
  'red', 'bed', 'shed', 'sled', 'hundred', 'sacred', 'naked', 'wicked', 'seed', 'need', 'feed', 'weed',
  'speed', 'thing', 'something', 'nothing', 'anything', 'everything', 'king', 'ring', 'wing', 'sing',
  'swing', 'spring', 'string', 'morning', 'evening', 'ceiling', 'during', 'pudding', 'sibling', 'ping',
  'sting', 'sling', 'bring', 'ding', 'kitten', 'garden', 'golden', 'wooden', 'chicken', 'children',
  'ted', 'fred', 'ned', 'jed', 'bled', 'fled', 'sped', 'led', 'wed', 'bred', 'dried', 'lightning', 'icing',
]);

const KEEP_DOUBLE = new Set(['ll', 'ss', 'zz', 'ff']);

export const lemmatize = memoize(lemmatizeWord);

function lemmatizeWord(word: string): string {
  const w = word.toLowerCase();
  const irregular = IRREGULAR[w];
  if (irregular) return finalE(irregular);
  if (/^\d+$/.test(w) || w.length <= 3 || NOT_INFLECTED.has(w)) return w;
  let s = w;
  if (s.endsWith('ies') && s.length > 4) s = `${s.slice(0, -3)}y`;
  else if (s.endsWith('ied') && s.length > 4) s = `${s.slice(0, -3)}y`;
  else if (/(ches|shes|sses|xes|zzes|oes)$/.test(s)) s = s.slice(0, -2);
  else if (s.endsWith('s') && !/(ss|us|is)$/.test(s)) s = s.slice(0, -1);
  else if (s.endsWith('eed')) return s;
  else if (s.endsWith('ing') && /[aeiouy]/.test(s.slice(0, -3)) && s.length >= 5) s = restoreStem(s.slice(0, -3));
  else if (s.endsWith('ed') && /[aeiouy]/.test(s.slice(0, -2))) s = restoreStem(s.slice(0, -2));
  return finalE(s);
}

/**
 * After -ed/-ing comes off (Porter's step 1b): "hopp" -> "hop", "chas" -> "chase", "hat" ->
 * "hate" (a short consonant-vowel-consonant stem had an e), so every form meets its base.
 */
function restoreStem(stem: string): string {
  if (/(at|bl|iz)$/.test(stem)) return `${stem}e`;
  const tail = stem.slice(-2);
  if (tail.length === 2 && tail[0] === tail[1] && !KEEP_DOUBLE.has(tail) && !/[aeiou]/.test(tail)) return stem.slice(0, -1);
  if (measure(stem) === 1 && endsCvc(stem)) return `${stem}e`;
  return stem;
}

/** A final silent e goes unless the word is short CVC+e ("huge", "care", "bone" keep theirs). */
function finalE(s: string): string {
  if (!s.endsWith('e') || s.endsWith('ee') || s.length < 4) return s;
  const stem = s.slice(0, -1);
  const m = measure(stem);
  if (m > 1 || (m === 1 && !endsCvc(stem))) return stem;
  return s;
}

const isCons = (s: string, i: number): boolean => {
  const c = s[i] as string;
  if ('aeiou'.includes(c)) return false;
  if (c === 'y') return i === 0 || !isCons(s, i - 1);
  return true;
};

/** Porter's m: the number of vowel-consonant sequences. */
function measure(s: string): number {
  let m = 0;
  let prevVowel = false;
  for (let i = 0; i < s.length; i++) {
    const cons = isCons(s, i);
    if (cons && prevVowel) m++;
    prevVowel = !cons;
  }
  return m;
}

function endsCvc(s: string): boolean {
  const n = s.length;
  if (n < 3) return false;
  return isCons(s, n - 3) && !isCons(s, n - 2) && isCons(s, n - 1) && !'wxy'.includes(s[n - 1] as string);
}

/** True when the surface form shows a verb inflection (-ed, -ing) or is an irregular verb form. */
export function looksInflectedVerb(word: string): boolean {
  const w = word.toLowerCase();
  if (NOT_INFLECTED.has(w) || w.length < 5) return IRREGULAR_VERB_FORMS.has(w);
  if (IRREGULAR_VERB_FORMS.has(w)) return true;
  return /(ing|ed)$/.test(w) && !w.endsWith('eed');
}

const IRREGULAR_VERB_FORMS = new Set(
  Object.entries(IRREGULAR)
    .filter(([form, base]) => !['child', 'mouse', 'goose', 'foot', 'tooth', 'man', 'woman', 'person', 'be', 'have', 'do'].includes(base) && !/(ves|oes|ies|s)$/.test(form))
    .map(([form]) => form),
);

