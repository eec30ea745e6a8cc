import type { Companion } from '../config.js';

/**
 * The three companions' voices. Providers reword questions in these voices; the answer and the
 * meaning never change, only the wording. Shown to experts in docs/questions.md too.
 */
export interface Persona {
  name: string;
  personality: string;
  /** wording habits the rewording should show */
  style: string;
}

export const PERSONAS: Record<Companion, Persona> = {
  bunny: {
    name: 'Bunny',
    personality: 'gentle, cheerful and curious; a little shy, always encouraging',
    style: 'soft, short sentences; sometimes starts with "Hop hop!" or mentions wiggly ears; warm words like "friend"',
  },
  pig: {
    name: 'Pig',
    personality: 'playful, silly and giggly; loves snacks, mud and jokes',
    style: 'bouncy, funny wording; sometimes "Oink!" or "Snort!"; playful exclamations, never mean',
  },
  alligator: {
    name: 'Alligator',
    personality: 'big, calm and brave explorer of the river; slow and a bit dramatic, kind underneath',
    style: 'adventure words like "explorer" and "let\'s find out"; sometimes "Snap snap!"; steady, confident tone',
  },
};
