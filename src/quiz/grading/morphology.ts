/**
 * One morphology for the grader and the builtin question generator: WordNet's own (its
 * "morphy": the exception lists for irregular forms, then its detachment rules, each result kept
 * only when WordNet knows it in that part of speech). "went" -> go, "leaves" -> leaf, "hopping"
 * -> hop, "mice" -> mouse, "bigger" -> big, "slowly" -> slow. An unknown word keeps its spelling.
 */
import { memoize } from './memo.js';
import { wordnet } from './wordnet.js';

type MorphPos = 'n' | 'v' | 'a';
/** WordNet's detachment rules (morph.c), suffix -> ending, in its order. */
const RULES: Record<MorphPos, [string, string][]> = {
  n: [['s', ''], ['ses', 's'], ['xes', 'x'], ['zes', 'z'], ['ches', 'ch'], ['shes', 'sh'], ['men', 'man'], ['ies', 'y']],
  v: [['s', ''], ['ies', 'y'], ['es', 'e'], ['es', ''], ['ed', 'e'], ['ed', ''], ['ing', 'e'], ['ing', '']],
  a: [['er', ''], ['est', ''], ['er', 'e'], ['est', 'e']],
};

/** WordNet's base form of `w` in one part of speech, or undefined when it has none. */
export function morphy(w: string, pos: MorphPos): string | undefined {
  const wn = wordnet();
  const irregular = wn.exception(w, pos);
  if (irregular) return irregular;
  if (pos === 'v') {
    const e = silentE(w);
    if (e) return e;
  }
  for (const [suffix, ending] of RULES[pos]) {
    if (!w.endsWith(suffix) || w.length <= suffix.length + 1) continue;
    const stem = w.slice(0, -suffix.length);
    const base = stem + ending;
    // two-letter bases are abbreviations in WordNet ("has" is not the plural of "ha")
    if (base.length < 3) continue;
    if (wn.has(base, pos)) return base;
    // "hopping" -> hopp -> hop, "bigger" -> bigg -> big: the doubled consonant WordNet's rules leave
    if (ending === '' && /([^aeiou])\1$/.test(stem) && wn.has(stem.slice(0, -1), pos)) return stem.slice(0, -1);
  }
  return undefined;
}

const lemmatizer = () => ({
  noun: (w: string) => morphy(w, 'n') ?? w,
  verb: (w: string) => morphy(w, 'v') ?? w,
  adjective: (w: string) => morphy(w, 'a') ?? w,
});

/** The base forms a word may be: itself, and its noun, verb and adjective lemmas that WordNet knows. */
export const readings = memoize((word: string): string[] => {
  const w = word.toLowerCase();
  if (!/^[a-z]+$/.test(w) || w.length <= 2) return [w];
  const wn = wordnet();
  const l = lemmatizer();
  const out = new Set([w]);
  const add = (form: string, pos: 'n' | 'v' | 'a') => {
    if (form !== w && wn.has(form, pos)) out.add(form);
  };
  add(l.noun(w), 'n');
  add(l.verb(w), 'v');
  add(l.adjective(w), 'a');
  const adverbBase = adjectiveOfAdverb(w);
  if (adverbBase) out.add(adverbBase);
  return [...out];
});

/**
 * A single vowel and consonant before -ing/-ed had a silent e when the word with it is a verb:
 * "hoping" -> hope (the lemmatizer's first guess is "hop"; "hopping" keeps hop).
 */
function silentE(w: string): string | undefined {
  const m = /^(.*[^aeiou][aeiou][^aeiouwxy])(?:ing|ed)$/.exec(w);
  return m && wordnet().has(`${m[1]}e`, 'v') ? `${m[1]}e` : undefined;
}

/** "slowly" -> slow, "happily" -> happy: WordNet's pertainym link from an adverb to its adjective. */
function adjectiveOfAdverb(w: string): string | undefined {
  if (!w.endsWith('ly')) return undefined;
  const wn = wordnet();
  for (const id of wn.senses(w, 2, 'r')) {
    for (const p of wn.synset(id).pertainyms) {
      // the synset's word the adverb was made from: "happily" -> happy (not its synonym "felicitous")
      const adj = wn.synset(p).words.find((x) => !x.includes(' ') && w.startsWith(x.slice(0, Math.max(3, x.length - 1))));
      if (adj) return adj;
    }
  }
  return undefined;
}

/**
 * The one base form a word is filed under. An inflected form goes to its base ("dropped" ->
 * drop, "bees" -> bee) unless the word is itself a common noun or adjective WordNet saw used
 * as such ("ground" stays ground, not grind; "scared" stays an adjective; "left" stays left).
 */
export const lemmatize = memoize((word: string): string => {
  const w = word.toLowerCase();
  const forms = readings(w);
  if (forms.length === 1) return w;
  const wn = wordnet();
  const l = lemmatizer();
  const noun = l.noun(w);
  const verb = l.verb(w);
  const adj = l.adjective(w);
  if (noun !== w && forms.includes(noun) && /s$/.test(w)) return noun;
  // -ing/-ed: the verb, unless an adjective in its own right ("scared", "tired");
  // an irregular form: the verb, unless a common noun in its own right ("ground", not grind)
  // an -ing noun whose verb reading WordNet's corpus never saw stays a noun ("evening" is not "even")
  const ownWord = /ing$/.test(w) ? wn.tagCount(w, 'n') >= 1 && wn.tagCount(verb, 'v') === 0 : /ed$/.test(w) ? wn.tagCount(w, 'a') >= 1 : wn.tagCount(w, 'n') >= 2;
  if (verb !== w && forms.includes(verb) && !ownWord) return verb;
  if (noun !== w && forms.includes(noun)) return noun;
  if (adj !== w && forms.includes(adj) && (/(er|est)$/.test(w) || !wn.has(w))) return adj;
  const adverbBase = adjectiveOfAdverb(w);
  if (adverbBase && !wn.has(w, 'a')) return adverbBase;
  return w;
});

/** A verb's base form when the word is one of its forms ("chased" -> chase), else undefined. */
export function verbBase(word: string): string | undefined {
  const w = word.toLowerCase();
  if (!/^[a-z]+$/.test(w)) return undefined;
  const base = lemmatizer().verb(w);
  return base !== w && wordnet().has(base, 'v') ? base : undefined;
}

/** True when the surface form shows a verb inflection (-ed, -ing) or is an irregular past form. */
export function looksInflectedVerb(word: string): boolean {
  const w = word.toLowerCase();
  const base = verbBase(w);
  if (!base) return false;
  if (/(ing|ed)$/.test(w)) return lemmatize(w) === base;
  return !/s$/.test(w) && lemmatize(w) === base;
}

/** The past tense of an irregular verb as WordNet's exception list has it ("went" -> go); regular -ed forms are left to the caller. */
export function irregularPastBase(word: string): string | undefined {
  const w = word.toLowerCase();
  if (/(ed|ing|s)$/.test(w)) return undefined;
  return verbBase(w);
}
