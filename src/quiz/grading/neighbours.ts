/**
 * The answers a question's expected answer sits among, in the grader's meaning resources (WordNet and the overlay):
 * the words that mean the same (graded correct), broader words (graded almost: "a bird" for
 * "an owl", "in the house" for "under the bed") and neighbours that are different answers
 * (other members of the same groups: "blue" for "red", "bees" for "ants"; opposites).
 * The local speech recognizer raises these words' priors so it hears a child's paraphrase,
 * and a wrong answer next to the right one, as well as the expected words themselves.
 */
import { analyze } from './analyze.js';
import * as L from './lexicon.js';
import { wordnetNeighbours } from './meaning.js';

export interface AnswerNeighbours {
  /** surface forms meaning the same as a word of the answer */
  same: string[];
  /** broader words: the groups the answer's words belong to, places holding them */
  broader: string[];
  /** different answers near the right one: members of the same groups, opposites */
  kin: string[];
}

/** Groups with more members than this are too broad for their members to be near answers ("animal"). */
const MAX_GROUP_FOR_KIN = 40;

export function answerNeighbours(expected: string): AnswerNeighbours {
  const concepts = new Set(analyze(expected).tokens.filter((t) => t.kind === 'content').map((t) => t.concept));
  const same = new Set<string>();
  const broader = new Set<string>();
  const kin = new Set<string>();
  const addForms = (into: Set<string>, concept: string) => {
    const forms = L.formsOf(concept);
    // a phrase's concept name ("runout" for "run out") is not a word anyone says
    const phraseNames = new Set(forms.filter((f) => f.includes(' ')).map((f) => f.replace(/ /g, '')));
    for (const form of forms) if (!phraseNames.has(form)) into.add(form);
  };
  for (const concept of concepts) {
    // WordNet first: the overlay below adds what it lacks (child forms, phrases, places)
    const wn = wordnetNeighbours(concept);
    wn.same.forEach((w) => same.add(w));
    wn.broader.forEach((w) => broader.add(w));
    wn.kin.forEach((w) => kin.add(w));
    addForms(same, concept);
    for (const group of L.ancestors(concept)) addForms(broader, group);
    for (const place of L.placesHolding(concept)) addForms(broader, place);
    for (const group of L.parentsOf(concept)) {
      const members = L.membersOf(group);
      if (members.length <= MAX_GROUP_FOR_KIN) for (const m of members) if (m !== concept) addForms(kin, m);
    }
    for (const opposite of L.oppositesOf(concept)) addForms(kin, opposite);
  }
  for (const s of same) {
    broader.delete(s);
    kin.delete(s);
  }
  for (const b of broader) kin.delete(b);
  return { same: [...same], broader: [...broader], kin: [...kin] };
}
