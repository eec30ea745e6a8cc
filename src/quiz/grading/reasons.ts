/**
 * Sentences a parent can read, one per grading decision: what the child said, what was
 * expected, and why it counts as correct, almost or wrong.
 */
import type { Token } from './analyze.js';
import type { WordMatch } from './match.js';

export type Decision =
  | 'empty'
  | 'dont_know'
  | 'unsure'
  | 'yes_no'
  | 'negation'
  | 'negation_missing'
  | 'position'
  | 'number'
  | 'number_hedge'
  | 'number_wrong'
  | 'number_missing'
  | 'match'
  | 'key_idea'
  | 'hedge'
  | 'partial'
  | 'some_items'
  | 'vaguer'
  | 'vague_person'
  | 'vague_answer'
  | 'reason_missing'
  | 'echo'
  | 'conflict'
  | 'opposite'
  | 'no_match'
  | 'no_expected'
  | 'ai_judge';

export interface ExplainInput {
  expected: string;
  user: string;
  said?: string;
  target?: string;
  count?: number;
  total?: number;
  notes?: { expected: Token; match: WordMatch }[];
  missing?: Token[];
}

const MAX_QUOTE = 80;
const quote = (s: string) => {
  const t = s.trim().replace(/\s+/g, ' ');
  return `"${t.length > MAX_QUOTE ? `${t.slice(0, MAX_QUOTE - 1)}…` : t}"`;
};

export function explain(decision: Decision, status: string, d: ExplainInput): string {
  const exp = quote(d.expected);
  const said = quote(d.user);
  switch (decision) {
    case 'empty':
      return `No answer was heard (the answer is ${exp}).`;
    case 'dont_know':
      return `The child said they did not know (the answer is ${exp}).`;
    case 'unsure':
      return `The child sounded unsure ("I don't know"), though ${said} is close to ${exp}.`;
    case 'yes_no':
      return status === 'correct' ? `Said "${d.said}", which is right.` : `Said "${d.said}", but the answer is ${exp}.`;
    case 'negation':
      return `The child said "${d.said}", which says the opposite of ${exp}.`;
    case 'negation_missing':
      return `${said} leaves out the "not" in ${exp}, so it says the opposite.`;
    case 'position':
      return `${said} names the right thing but says "${d.said}" where the answer says "${d.target}" (${exp}).`;
    case 'number':
      return `Said the right number, ${d.target}.`;
    case 'number_hedge':
      return `Said ${d.target}, the right number, but also ${d.said}.`;
    case 'number_wrong':
      return `Said ${d.said}, but the answer is ${d.target}.`;
    case 'number_missing':
      return `No number was heard in ${said}; the answer is ${d.target}.`;
    case 'match':
      return `${said} matches ${exp}.${notes(d.notes)}`;
    case 'key_idea':
      return `${said} has the key idea of ${exp}.${notes(d.notes)}`;
    case 'hedge':
      return `${said} includes the answer ${exp} but also "${d.said}", so it is not a clear answer.`;
    case 'partial':
      return `${said} gets part of ${exp}${missing(d.missing)}.${notes(d.notes)}`;
    case 'some_items':
      return `${said} names ${d.count} of the ${d.total} parts of ${exp}${missing(d.missing)}.`;
    case 'vaguer':
      return `"${d.said}" is on the right track but less specific than ${exp}.`;
    case 'vague_person':
      return `"${d.said}" describes the character but does not give the name ${exp}.`;
    case 'vague_answer':
      return `${said} is vague ("${d.said}"); the answer is ${exp}.`;
    case 'reason_missing':
      return `${said} names part of ${exp} but not the reason${missing(d.missing)}.`;
    case 'echo':
      return `${said} only repeats words from the question; the answer is ${exp}.`;
    case 'conflict':
      return `"${d.said}" is not "${d.target}"${bare(d.expected) === bare(d.target ?? '') ? '' : ` (the answer is ${exp})`}.`;
    case 'opposite':
      return `"${d.said}" is the opposite of "${d.target}" (the answer is ${exp}).`;
    case 'no_match':
      return `${said} does not match ${exp}.`;
    case 'no_expected':
      return 'This question has no expected answer to compare with.';
    case 'ai_judge':
      return `The AI judge decided this borderline answer is ${status}: ${said} for ${exp}.`;
  }
}

/** "The Moon!" -> "moon": to tell whether quoting the whole answer adds anything. */
const bare = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9 ]/g, ' ')
    .split(/\s+/)
    .filter((w) => w && !['a', 'an', 'the'].includes(w))
    .join(' ');

function notes(list: ExplainInput['notes']): string {
  if (!list) return '';
  const parts: string[] = [];
  for (const { expected, match } of list) {
    const e = `"${expected.raw}"`;
    const s = `"${match.said}"`;
    if (match.how === 'synonym') parts.push(`${s} means ${e}`);
    else if (match.how === 'specific') parts.push(`${s} is a kind of ${e}`);
    else if (match.how === 'sound') parts.push(`${s} sounds like ${e}`);
    else if (match.how === 'spelling') parts.push(`${s} is heard as ${e}`);
    else if (match.how === 'joined' && match.said.includes(' ... ')) parts.push(`${s} names the parts of ${e}`);
    else if (match.how === 'joined') parts.push(`${s} is ${e} split by speech recognition`);
  }
  return parts.length > 0 ? ` (${parts.slice(0, 3).join('; ')}.)` : '';
}

function missing(list: Token[] | undefined): string {
  if (!list || list.length === 0) return '';
  return ` (missing ${list
    .slice(0, 3)
    .map((t) => `"${t.raw}"`)
    .join(', ')})`;
}
