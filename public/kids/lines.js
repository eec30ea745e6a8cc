// What each companion says around the questions: the lines come from the one companion list the
// server embeds in the page (src/speech/companion-lines.ts). `{a}` is replaced by the expected answer.
import { companionProfile } from './kids-data.js';

let turn = 0;

/** One line of the given kind for the companion (rotating through the variants). */
export function line(companion, kind, answer = '') {
  const set = companionProfile(companion)?.lines?.[kind] || [''];
  const text = set[turn++ % set.length];
  return text.replace('{a}', answer.replace(/[.!?]+$/, ''));
}
