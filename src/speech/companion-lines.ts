import type { Companion } from '../config.js';

/**
 * The one list of companions for the whole child experience: names, greetings, the pitch of the
 * browser's fallback voice, and every fixed line they say around the questions. The kids pages
 * embed it (public/kids/common.js reads it), and the voice-line renderer speaks each fixed line
 * ahead of time (voice-lines.ts), so no page waits for, or anonymously asks for, speech.
 * `{a}` in a line is the expected answer: those lines are spoken per question (POST /api/tts).
 */

export type LineKind =
  | 'start' | 'correct' | 'almost' | 'wrong' | 'replay' | 'tell' | 'didntHear' | 'skipped' | 'onward' | 'finish' | 'noSkip' | 'oops';

export interface CompanionProfile {
  key: Companion;
  name: string;
  hello: string;
  /** speechSynthesis pitch when the service's voice cannot play */
  pitch: number;
  lines: Record<LineKind, string[]>;
}

const shared = {
  tell: ['The answer is {a}.'],
  skipped: ['Okay! The answer is {a}.'],
  onward: ['Let us keep watching!'],
  noSkip: ['Let us watch it first!'],
  oops: ['Oops! Let us try again.'],
};

export const COMPANION_PROFILES: CompanionProfile[] = [
  {
    key: 'bunny',
    name: 'Bunny',
    hello: 'Hi! I am Bunny. Let us watch together!',
    pitch: 1.6,
    lines: {
      ...shared,
      start: ['Hop hop! Let us watch together!'],
      correct: ['Hooray! That is right!', 'Hop hop hooray! You got it!', 'Yes! Great listening!'],
      almost: ['So close!', 'Almost, friend!'],
      wrong: ['Good try!', 'Nice try, friend!'],
      replay: ['Let us watch that part again, and listen carefully.'],
      didntHear: ['My ears did not hear you. Can you say it again?'],
      finish: ['You did it! Great watching, friend!'],
    },
  },
  {
    key: 'pig',
    name: 'Piggy',
    hello: 'Oink oink! I am Piggy. Let us watch together!',
    pitch: 1.15,
    lines: {
      ...shared,
      start: ['Oink oink! Let us watch together!'],
      correct: ['Oink oink! That is right!', 'Yay! You are so smart!', 'Snort snort, hooray! You got it!'],
      almost: ['Oink, so close!', 'Almost!'],
      wrong: ['Good try!', 'Oink, nice try!'],
      replay: ['Let us watch that part again. Listen carefully!'],
      didntHear: ['Oink? I did not hear you. Can you say it again?'],
      finish: ['Oink oink! You did it! Great watching!'],
    },
  },
  {
    key: 'alligator',
    name: 'Gator',
    hello: 'Snap snap! I am Gator. Let us watch together!',
    pitch: 0.6,
    lines: {
      ...shared,
      start: ['Snap snap! Let us watch together, explorer!'],
      correct: ['Snap snap! That is right!', 'Chomp! You got it, explorer!', 'Yes! Great job, explorer!'],
      almost: ['Snap, so close!', 'Almost, explorer!'],
      wrong: ['Good try, explorer!', 'Nice try!'],
      replay: ['Let us swim back and watch that part again.'],
      didntHear: ['Snap? I did not hear you. Can you say it again?'],
      finish: ['Snap snap! You did it, explorer! Great watching!'],
    },
  },
];

/** What each kids page says when it opens (in the default voice: no companion is picked yet on most). */
export const PAGE_INSTRUCTIONS = {
  login: 'Hello! Ask a grown-up to type the family code.',
  profiles: 'Who is watching? Tap your picture.',
  companion: 'Pick a friend to watch with you!',
  videos: 'Pick a video to watch!',
  play: 'Tap the big play button to start!',
  /** spoken when "Another family" is tapped instead of held */
  hold: 'Grown-ups: press and hold this button to change the family.',
} as const;

export interface FixedLine {
  /** null: the default voice */
  companion: Companion | null;
  text: string;
}

/** Every line the pages say that does not depend on a question: the ones spoken ahead of time. */
export function fixedLines(): FixedLine[] {
  const out: FixedLine[] = Object.values(PAGE_INSTRUCTIONS).map((text) => ({ companion: null, text }));
  out.push({ companion: null, text: shared.oops[0]! });
  for (const c of COMPANION_PROFILES) {
    out.push({ companion: c.key, text: c.hello });
    for (const variants of Object.values(c.lines)) {
      for (const text of variants) if (!text.includes('{a}')) out.push({ companion: c.key, text });
    }
  }
  const seen = new Set<string>();
  return out.filter((l) => {
    const k = `${l.companion ?? '-'}|${l.text}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
