/**
 * Small, dependency-free English analysis for the offline provider: sentences, who does what
 * (subject, verb, rest), pronouns resolved to the last named character, objects for "it".
 * It is tuned for the simple narration of children's videos, not general English.
 */

import { irregularPastBase } from '../../quiz/grading/morphology.js';

export interface Clause {
  /** the sentence as spoken */
  raw: string;
  /** seconds from the video start */
  time: number;
  /** who acts, resolved ("Penny", "the wind"); null when not found */
  subject: string | null;
  /** how the subject was written ("She", "Penny") */
  subjectWord: string | null;
  verb: string | null;
  /** words after the verb, without final punctuation */
  rest: string;
  tense: 'past' | 'present' | null;
  /** a leading time phrase ("One windy day") */
  lead: string | null;
  isQuestion: boolean;
  /** a line in quotes / first person (dialogue) */
  firstPerson: boolean;
}

export interface Character {
  name: string;
  /** "a little pig", "the bunny" */
  description: string | null;
  pronoun: 'she' | 'he' | null;
}

export const COPULA = new Set(['is', 'are', 'was', 'were', 'am']);
/**
 * Past forms WordNet's exception lists cannot give: modals, and verbs whose past is spelt like
 * the present (irregular pasts come from the grader's morphology, `irregularPastBase`).
 */
const PAST_OUTSIDE_WORDNET: Record<string, string> = {
  could: 'can', would: 'will', was: 'be', were: 'be', did: 'do', had: 'have', put: 'put', cut: 'cut', hit: 'hit', let: 'let',
};
/** Capitalised words that start sentences but are not names. */
const NOT_NAMES = new Set(
  ('i the a an this that these those then they she he it we you one two once and but so oh look lets let ' +
    'dont thank thanks why what where who how when yes no hello hi hey there here now today soon after ' +
    'before later finally suddenly every some all in on at to with up down come go see please wow my your ' +
    'our his her their its the end mom mum dad ok okay good great').split(' '),
);
export const EMOTIONS = [
  'happy', 'sad', 'scared', 'afraid', 'angry', 'mad', 'excited', 'tired', 'sleepy', 'surprised', 'hungry',
  'proud', 'worried', 'grumpy', 'upset', 'lonely', 'glad', 'cross', 'nervous', 'shy', 'silly', 'bored',
  'thankful', 'curious', 'cold', 'hot', 'sorry', 'frightened', 'cheerful', 'calm',
];
export const WEATHER = ['sunny', 'windy', 'rainy', 'snowy', 'cloudy', 'stormy', 'foggy', 'hot', 'cold'];
export const PLACES = [
  'farm', 'park', 'garden', 'house', 'home', 'school', 'beach', 'forest', 'wood', 'woods', 'pond', 'river',
  'lake', 'sea', 'playground', 'shop', 'store', 'kitchen', 'bedroom', 'room', 'castle', 'jungle', 'zoo',
  'field', 'hill', 'mountain', 'city', 'town', 'village', 'street', 'road', 'barn', 'tree', 'cave', 'island',
  'library', 'market', 'bathroom', 'yard', 'meadow', 'nest', 'ocean', 'sky', 'space', 'moon', 'bed', 'boat',
];

const SUBJECT_PRONOUNS: Record<string, true> = { she: true, he: true, they: true, it: true, we: true, i: true, you: true };

export function splitSentences(lines: { time: number; text: string }[]): { time: number; text: string }[] {
  const out: { time: number; text: string }[] = [];
  for (const line of lines) {
    const parts = line.text.replace(/\s+/g, ' ').match(/[^.!?]+[.!?]*/g) ?? [];
    for (const p of parts) {
      const text = p.trim();
      if (/[a-z]/i.test(text)) out.push({ time: line.time, text });
    }
  }
  return out;
}

export const words = (s: string): string[] => s.split(/\s+/).filter(Boolean);
const bare = (w: string) => w.replace(/[^A-Za-z'’-]/g, '');

export function isName(word: string): boolean {
  const w = bare(word);
  return /^[A-Z][a-z]+$/.test(w) && !NOT_NAMES.has(w.toLowerCase().replace(/['’]/g, ''));
}

/** Past tense of a verb token, or null when it does not look like a past verb. */
export function pastBase(verb: string): string | null {
  const v = verb.toLowerCase();
  if (PAST_OUTSIDE_WORDNET[v]) return PAST_OUTSIDE_WORDNET[v]!;
  const irregular = irregularPastBase(v);
  if (irregular) return irregular;
  if (!/ed$/.test(v) || v.length < 4) return null;
  if (/ied$/.test(v)) return v.slice(0, -3) + 'y';
  if (/([bdfgklmnprtz])\1ed$/.test(v) && !/(ll|ss)ed$/.test(v)) return v.slice(0, -3);
  // "liked", "smiled", "danced", "waved": the stem ends in a silent e
  if (/([^aeiou][aeiou][kvcgzlnmt]|[uv]|[^aeiou]c|ng|dg)ed$/.test(v) && !/(ing|ang|ung|eng)ed$/.test(v)) return v.slice(0, -1);
  return v.slice(0, -2);
}

/** "loves" → "love", "watches" → "watch", "cries" → "cry"; null when not a 3rd-person verb. */
export function presentBase(verb: string): string | null {
  const v = verb.toLowerCase();
  if (v === 'has') return 'have';
  if (v === 'does') return 'do';
  if (v === 'goes') return 'go';
  if (!/[^su]s$/.test(v) || v.length < 3) return null;
  if (/ies$/.test(v)) return v.slice(0, -3) + 'y';
  if (/(sh|ch|x|ss|zz|o)es$/.test(v)) return v.slice(0, -2);
  return v.slice(0, -1);
}

/** Tracks characters and the last object ("the ball") across a segment's sentences. */
export class Discourse {
  readonly characters = new Map<string, Character>();
  lastCharacter: string | null = null;
  lastObject: string | null = null;

  character(name: string): Character {
    let c = this.characters.get(name);
    if (!c) this.characters.set(name, (c = { name, description: null, pronoun: null }));
    return c;
  }

  /** Parses one sentence into a clause and updates who was last mentioned. */
  read(s: { time: number; text: string }): Clause {
    let text = s.text.replace(/[.!?]+$/, '').replace(/^["“”']+|["“”']+$/g, '').trim();
    const isQuestion = /\?\s*$/.test(s.text);
    let lead: string | null = null;
    // "One windy day, the wind blew ...": a short opening phrase without a subject
    const leadMatch = /^((?:one|once|on|that|the next|later|then|after|in the)\b[^,]{0,30}),\s+(.*)$/i.exec(text);
    if (leadMatch) {
      lead = leadMatch[1]!;
      text = leadMatch[2]!;
    } else if (/^then\s+/i.test(text)) text = text.replace(/^then\s+/i, '');
    this.learnDescriptions(text);
    const ws = words(text);
    let subject: string | null = null;
    let subjectWord: string | null = null;
    let i = 0;
    const first = bare(ws[0] ?? '');
    if (first && isName(first)) {
      subject = first;
      subjectWord = first;
      i = 1;
      // "Benny the bunny came": keep the description with the name
      if (/^the$/i.test(ws[1] ?? '') && ws[2] && !isVerbLike(ws[2])) {
        this.character(first).description ??= `the ${bare(ws[2]).toLowerCase()}`;
        i = 3;
      }
      this.lastCharacter = first;
    } else if (first && SUBJECT_PRONOUNS[first.toLowerCase()]) {
      subjectWord = first;
      const low = first.toLowerCase();
      if ((low === 'she' || low === 'he') && this.lastCharacter) {
        subject = this.lastCharacter;
        this.character(subject).pronoun ??= low;
      } else if (low === 'it' && this.lastObject) subject = this.lastObject;
      else subject = low === 'they' ? 'they' : null;
      i = 1;
    } else if (/^(the|a|an)$/i.test(first) && ws[1]) {
      // "the wind", "the little duck"
      let j = 1;
      while (j < ws.length - 1 && j < 3 && !isVerbLike(ws[j + 1]!)) j++;
      subject = ws.slice(0, j + 1).map(bare).join(' ').toLowerCase();
      subjectWord = subject;
      i = j + 1;
    }
    const verb = subject || subjectWord ? bare(ws[i] ?? '').toLowerCase() || null : null;
    const rest = verb ? ws.slice(i + 1).join(' ').replace(/[,;]+$/, '') : '';
    const tense = verb ? (pastBase(verb) ? 'past' : presentBase(verb) || COPULA.has(verb) ? 'present' : null) : null;
    const object = objectPhrase(rest);
    if (object) this.lastObject = object;
    return {
      raw: s.text.trim(),
      time: s.time,
      subject,
      subjectWord,
      verb,
      rest,
      tense,
      lead,
      isQuestion,
      firstPerson: /^(i|we)$/i.test(first) || /\b(my|I)\b/.test(text),
    };
  }

  /** "This is Penny, a little pig" and "Ally the alligator" describe characters. */
  private learnDescriptions(text: string): void {
    const intro = /^(?:this is|meet|here is|here's)\s+([A-Z][a-z]+),?\s+(an? [a-z ]+)$/i.exec(text);
    if (intro && isName(intro[1]!)) {
      this.character(intro[1]!).description = intro[2]!.toLowerCase();
      this.lastCharacter = intro[1]!;
    }
    for (const m of text.matchAll(/\b([A-Z][a-z]+) the ([a-z]+)\b/g)) {
      if (isName(m[1]!)) this.character(m[1]!).description ??= `the ${m[2]}`;
    }
    for (const w of words(text).slice(1)) if (isName(w)) this.character(bare(w));
  }
}

const OBJECT_STOP = new Set(
  'away back to on in at with by up down out off and but so for from into over under way day end time'.split(' '),
);

/** The first "the/her/his (adjectives) noun" phrase, as "the …": "blew the ball away" → "the ball". */
export function objectPhrase(text: string): string | null {
  const ws = words(text.toLowerCase()).map((w) => w.replace(/[^a-z'-]/g, ''));
  const at = ws.findIndex((w) => /^(the|her|his|their|my)$/.test(w));
  if (at < 0) return null;
  const phrase: string[] = [];
  for (const w of ws.slice(at + 1, at + 4)) {
    if (!w || OBJECT_STOP.has(w)) break;
    phrase.push(w);
  }
  return phrase.length ? `the ${phrase.join(' ')}` : null;
}

function isVerbLike(w: string): boolean {
  const b = bare(w).toLowerCase();
  return COPULA.has(b) || pastBase(b) !== null || presentBase(b) !== null || /^(can|will|could|would|did|does|do)$/.test(b);
}

/** Cuts an answer at the first clause break and to at most `max` words. */
export function shortAnswer(text: string, max = 6): string {
  const cut = text.split(/,|;|\bbut\b|\bbecause\b|\bwhen\b|\band then\b/i)[0]!.trim();
  return words(cut).slice(0, max).join(' ').replace(/[.!?,]+$/, '');
}

/**
 * "I lost my red ball" said by Penny → "she lost her red ball" when Penny is known to be "she";
 * otherwise the speaker is left out rather than guessed: "lost the red ball".
 */
export function thirdPerson(text: string, who: Character | null): string {
  const subj = who?.pronoun;
  if (!subj) {
    return text
      .replace(/^(?:I|I'm|I am|we|we're)\s+/i, '')
      .replace(/\b(my|our)\b/gi, 'the')
      .replace(/\b(me|us)\b/gi, 'them');
  }
  const poss = subj === 'she' ? 'her' : 'his';
  return text
    .replace(/\bI am\b|\bI'm\b/g, `${subj} is`)
    .replace(/\bI\b/g, subj)
    .replace(/\bmy\b/gi, poss)
    .replace(/\bme\b/gi, subj === 'she' ? 'her' : 'him');
}

/** Replaces a lone "it" with the last object mentioned ("could not find it" → "could not find the ball"). */
export function resolveIt(text: string, lastObject: string | null): string {
  return lastObject ? text.replace(/\bit\b/, lastObject) : text;
}

export function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
