// What each companion says around the questions. Short, warm, said slowly; no reading needed.
// `{a}` is replaced by the expected answer.

const LINES = {
  bunny: {
    start: ['Hop hop! Let us watch together!'],
    correct: ['Hooray! That is right!', 'Hop hop hooray! You got it!', 'Yes! Great listening!'],
    almost: ['So close!', 'Almost, friend!'],
    wrong: ['Good try!', 'Nice try, friend!'],
    replay: ['Let us watch that part again, and listen carefully.'],
    tell: ['The answer is {a}.'],
    didntHear: ['My ears did not hear you. Can you say it again?'],
    skipped: ['Okay! The answer is {a}.'],
    onward: ['Let us keep watching!'],
    finish: ['You did it! Great watching, friend!'],
    noSkip: ['Let us watch it first!'],
  },
  pig: {
    start: ['Oink oink! Let us watch together!'],
    correct: ['Oink oink! That is right!', 'Yay! You are so smart!', 'Snort snort, hooray! You got it!'],
    almost: ['Oink, so close!', 'Almost!'],
    wrong: ['Good try!', 'Oink, nice try!'],
    replay: ['Let us watch that part again. Listen carefully!'],
    tell: ['The answer is {a}.'],
    didntHear: ['Oink? I did not hear you. Can you say it again?'],
    skipped: ['Okay! The answer is {a}.'],
    onward: ['Let us keep watching!'],
    finish: ['Oink oink! You did it! Great watching!'],
    noSkip: ['Let us watch it first!'],
  },
  alligator: {
    start: ['Snap snap! Let us watch together, explorer!'],
    correct: ['Snap snap! That is right!', 'Chomp! You got it, explorer!', 'Yes! Great job, explorer!'],
    almost: ['Snap, so close!', 'Almost, explorer!'],
    wrong: ['Good try, explorer!', 'Nice try!'],
    replay: ['Let us swim back and watch that part again.'],
    tell: ['The answer is {a}.'],
    didntHear: ['Snap? I did not hear you. Can you say it again?'],
    skipped: ['Okay! The answer is {a}.'],
    onward: ['Let us keep watching!'],
    finish: ['Snap snap! You did it, explorer! Great watching!'],
    noSkip: ['Let us watch it first!'],
  },
};

let turn = 0;

/** One line of the given kind for the companion (rotating through the variants). */
export function line(companion, kind, answer = '') {
  const set = (LINES[companion] || LINES.bunny)[kind] || [''];
  const text = set[turn++ % set.length];
  return text.replace('{a}', answer.replace(/[.!?]+$/, ''));
}
