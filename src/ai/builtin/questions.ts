import type { QuestionType } from '../../questions/questions.schema.js';
import type { SubtitleLine } from '../types.js';
import {
  COPULA,
  EMOTIONS,
  PLACES,
  WEATHER,
  Discourse,
  capitalize,
  objectPhrase,
  pastBase,
  presentBase,
  resolveIt,
  shortAnswer,
  splitSentences,
  thirdPerson,
  words,
  type Clause,
} from './text.js';

/**
 * Question candidates built from a segment's subtitles. Each builder looks for one pattern a
 * children's narration commonly has ("Penny felt sad", "went down to the pond", a "why" line
 * answered on the next line) and scores how sure it is; the provider keeps the best per type.
 */
export interface Candidate {
  question_type: QuestionType;
  question: string;
  answer: string;
  score: number;
}

interface Read {
  c: Clause;
  /** the last object mentioned before this sentence (for "it") */
  objectBefore: string | null;
}

/** verbs that link a subject to a feeling ("felt sad", "looked happy") */
const FEEL_VERBS = new Set(['felt', 'feel', 'feels', 'looked', 'looks', 'seemed', 'seems', 'got', 'gets', 'became']);
/** verbs that do not describe an action worth asking "what did … do" about */
const NOT_ACTION = new Set(['felt', 'feel', 'feels', 'had', 'have', 'has', 'said', 'says', 'lives', 'lived', 'live', 'seemed', 'seems']);
const WANT = /^(loves?|loved|likes?|liked|wants?|wanted|tries|tried|try)$/;
const MOVE = /^(went|go|goes|came|comes|ran|runs|walked|walks|hopped|hops|swam|swims|flew|flies|rode|rides|climbed|climbs)$/;
const PLACE_RE = new RegExp(
  `\\b((?:down |up |over )?(?:on|in|at|to|into|near|by|under|inside|around|across)\\s+(?:(?:a|an|the|her|his|their)\\s+)?(?:[a-z]+\\s+){0,2}?(?:${PLACES.join('|')}))\\b`,
  'i',
);

export function buildCandidates(lines: SubtitleLine[], after: SubtitleLine[] = []): Candidate[] {
  const d = new Discourse();
  const reads: Read[] = splitSentences(lines).map((s) => {
    const objectBefore = d.lastObject;
    return { c: d.read(s), objectBefore };
  });
  const out: Candidate[] = [];
  const add = (question_type: QuestionType, question: string, answer: string, score: number) => {
    const q = capitalize(question.replace(/\s+/g, ' ').replace(/[\s,.!?]+$/, '').trim()) + '?';
    const a = answer.replace(/\s+/g, ' ').replace(/[\s,.!?]+$/, '').trim();
    if (!a || words(q).length > 16 || words(a).length > 8) return;
    if (` ${q.toLowerCase()} `.includes(` ${a.toLowerCase()} `)) return; // the question must not give the answer away
    out.push({ question_type, question: q, answer: a, score });
  };
  const who = (c: Clause) => c.subject ?? c.subjectWord?.toLowerCase() ?? null;
  const narrated = (c: Clause) => !c.isQuestion && !c.firstPerson && c.verb !== null && who(c) !== null;

  // character
  for (const ch of d.characters.values()) {
    if (ch.description) add('character', `Who is ${ch.description.replace(/^an? /, 'the ')}`, ch.name, 0.85);
  }
  for (const { c, objectBefore } of reads) {
    if (narrated(c) && c.subjectWord === c.subject && d.characters.has(c.subject!) && !COPULA.has(c.verb!) && c.rest) {
      add('character', `Who ${c.verb} ${resolveIt(c.rest, objectBefore)}`, c.subject!, 0.8);
    }
  }

  for (const [k, { c, objectBefore }] of reads.entries()) {
    const s = who(c);
    const past = c.tense === 'past';
    const does = past ? 'did' : s === 'they' ? 'do' : 'does';
    // setting: weather and places
    const weather = WEATHER.find((w) => new RegExp(`\\b${w}\\b`, 'i').test(`${c.lead ?? ''} ${c.raw}`));
    if (weather && !c.isQuestion) add('setting', `What ${past || c.lead ? 'was' : 'is'} the weather like`, weather, 0.7);
    const place = PLACE_RE.exec(c.rest);
    if (place && narrated(c)) {
      const verb = c.verb!;
      if (/^liv/.test(verb)) add('setting', `Where ${does} ${s} live`, place[1]!, 0.9);
      else if (MOVE.test(verb)) add('setting', `Where did ${s} go`, place[1]!, 0.85);
      else add('setting', `Where ${past ? 'was' : 'is'} ${s}`, place[1]!, 0.65);
    }
    // feeling
    const emotion = EMOTIONS.find((e) => new RegExp(`\\b${e}\\b`, 'i').test(c.raw));
    if (emotion && narrated(c) && (FEEL_VERBS.has(c.verb!) || COPULA.has(c.verb!))) {
      add('feeling', `How ${past ? 'did' : does} ${s} feel`, emotion, 0.9);
      const cause = reads.slice(0, k).reverse().find((r) => narrated(r.c) && !EMOTIONS.some((e) => r.c.raw.toLowerCase().includes(e)));
      if (cause) add('causal', `Why did ${s} feel ${emotion}`, causeText(cause), 0.8);
    }
    const addressed = /^why (?:are|is) you (\w+),?\s+([A-Z][a-z]+)/i.exec(c.raw);
    if (addressed && EMOTIONS.includes(addressed[1]!.toLowerCase())) {
      const [, feeling, name] = addressed;
      add('feeling', `How does ${name} feel`, feeling!.toLowerCase(), 0.8);
      const reply = reads[k + 1];
      if (reply?.c.firstPerson) {
        add('causal', `Why is ${name} ${feeling!.toLowerCase()}`, thirdPerson(shortAnswer(reply.c.raw, 7), d.characters.get(name!) ?? null), 0.85);
      }
    }
    // causal: "... because ..."
    const because = /^(.*?)\s*,?\s*because\s+(.*)$/i.exec(c.raw.replace(/[.!?]+$/, ''));
    if (because && narrated(c)) {
      const q = whyQuestion(c, s!, because[1]!);
      if (q) add('causal', q, shortAnswer(because[2]!, 7), 0.9);
    }
    // action
    if (narrated(c) && WANT.test(c.verb!) && /^to \w/.test(c.rest)) {
      const base = pastBase(c.verb!) ?? presentBase(c.verb!) ?? c.verb!;
      add('action', `What ${does} ${s} ${base} to do`, shortAnswer(c.rest.slice(3)), 0.85);
    } else if (narrated(c) && !NOT_ACTION.has(c.verb!) && !COPULA.has(c.verb!) && c.rest && c.tense) {
      add('action', `What ${does} ${s} do`, shortAnswer(`${c.verb} ${resolveIt(c.rest, objectBefore)}`), 0.75);
    }
    // outcome: "X, so Y" and one event followed by another
    const so = /^(.*?),?\s+so\s+(.*)$/i.exec(c.raw.replace(/[.!?]+$/, ''));
    if (so && narrated(c)) add('outcome', `What happened when ${lowerFirst(so[1]!)}`, shortAnswer(so[2]!), 0.85);
    const next = reads[k + 1]?.c;
    if (next && narrated(c) && narrated(next) && c.tense === 'past' && next.tense === 'past' && !NOT_ACTION.has(next.verb!) && !COPULA.has(next.verb!)) {
      const s2 = who(next)!;
      const pronoun = s2 === s ? d.characters.get(s2)?.pronoun : undefined;
      const subject = pronoun ?? (c.subject === c.subjectWord || !c.subject ? (c.subjectWord ?? '') : c.subject);
      const event = lowerFirst(`${subject} ${c.verb} ${resolveIt(c.rest, objectBefore)}`.trim());
      if (s2 !== s || pronoun) add('outcome', `What did ${s2} do after ${event}`, shortAnswer(`${next.verb} ${next.rest}`), s2 !== s ? 0.8 : 0.7);
    }
    // prediction from "will" / "going to"
    const will = /\b(?:will|is going to|are going to)\s+(.*)$/i.exec(c.raw.replace(/[.!?]+$/, ''));
    if (will && narrated(c) && d.characters.has(s!)) add('prediction', `What will ${s} do`, shortAnswer(will[1]!), 0.6);
  }

  // outcome: how the segment ends for the last thing acted upon
  const last = [...reads].reverse().find((r) => narrated(r.c) && r.c.tense === 'past' && !NOT_ACTION.has(r.c.verb!) && !COPULA.has(r.c.verb!));
  const thing = last && objectPhrase(last.c.rest);
  if (last && thing) {
    const rest = last.c.rest.replace(/\b(?:the|her|his|their|my) (?:[a-z]+ ){0,2}?([a-z]+)\b/i, (m) => (objectPhrase(m) === thing ? 'it' : m));
    add('outcome', `What happened to ${thing} in the end`, shortAnswer(`${last.c.subjectWord ?? who(last.c)} ${last.c.verb} ${rest}`, 7), 0.6);
  }

  // prediction from what happens right after the segment
  const nextRead = new Discourse();
  for (const ch of d.characters.values()) nextRead.characters.set(ch.name, { ...ch });
  nextRead.lastCharacter = d.lastCharacter;
  const upcoming = splitSentences(after).map((s) => nextRead.read(s)).find((c) => narrated(c));
  if (upcoming) {
    const s = who(upcoming)!;
    const base = pastBase(upcoming.verb!) ?? presentBase(upcoming.verb!) ?? upcoming.verb!;
    const action = shortAnswer(`${COPULA.has(upcoming.verb!) ? 'be' : base} ${upcoming.rest}`);
    add('prediction', `What do you think ${s} will do next`, action, 0.8);
  }
  return out;
}

function causeText(r: Read): string {
  const c = r.c;
  const body = `${c.subjectWord ?? ''} ${c.verb} ${c.rest}`.trim();
  const afterBut = /\bbut\s+(.*)$/i.exec(body);
  return resolveIt(shortAnswer(lowerFirst(afterBut ? afterBut[1]! : body), 7), r.objectBefore);
}

/** "Penny is sad" → "Why is Penny sad", "Penny cried" → "Why did Penny cry". */
function whyQuestion(c: Clause, subject: string, clause: string): string | null {
  const rest = words(clause).slice(words(clause).indexOf(c.verb ?? '') + 1).join(' ');
  if (!c.verb) return null;
  if (COPULA.has(c.verb)) return `Why ${c.verb} ${subject} ${rest}`;
  const past = pastBase(c.verb);
  if (past) return `Why did ${subject} ${past} ${rest}`;
  const present = presentBase(c.verb);
  return present ? `Why does ${subject} ${present} ${rest}` : null;
}

function lowerFirst(s: string): string {
  return s.replace(/^(The|A|An|She|He|They|It|One|We)\b/, (w) => w.toLowerCase());
}
