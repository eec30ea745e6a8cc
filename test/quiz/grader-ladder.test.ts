import { describe, expect, it } from 'vitest';
import { buildContext, type GradeInput } from '../../src/quiz/grading/context.js';
import {
  coverageStep, dontKnowStep, emptyStep, fallbackStep, LADDER, negationStep, noExpectedStep, numberStep, oppositeStep,
  positionCheck, reasonCheck, runLadder, unsureCap, vaguerStep, yesNoStep, type Verdict,
} from '../../src/quiz/grading/ladder.js';
import { GRADING_THRESHOLDS as T } from '../../src/quiz/grading/thresholds.js';

/**
 * Each step of the decision ladder on its own: given the context of one answer, it decides
 * (a verdict) or passes (undefined). Words and stories are made up for the tests.
 */
const ctx = (question: string, expected: string, user: string) => buildContext({ question, expected, user } satisfies GradeInput, T);
const decided = (v: Verdict | undefined) => (v ? `${v.status}:${v.decision}` : 'pass');

describe('yesNoStep', () => {
  it('decides by the yes or no said, and passes other questions', () => {
    expect(decided(yesNoStep(ctx('Did the dog find the ball?', 'yes', 'yeah he did')))).toBe('correct:yes_no');
    expect(decided(yesNoStep(ctx('Did the dog find the ball?', 'yes', 'nope')))).toBe('wrong:yes_no');
    expect(decided(yesNoStep(ctx('What did the dog find?', 'the ball', 'the ball')))).toBe('pass');
  });
});

describe('dontKnowStep and emptyStep', () => {
  it('"I don\'t know" alone is wrong; with an answer it passes', () => {
    expect(decided(dontKnowStep(ctx('What did the fox want?', 'grapes', "I don't know")))).toBe('wrong:dont_know');
    expect(decided(dontKnowStep(ctx('What did the fox want?', 'grapes', "I don't know... grapes?")))).toBe('pass');
  });
  it('fillers only are no answer', () => {
    expect(decided(emptyStep(ctx('What did the fox want?', 'grapes', 'um uh')))).toBe('wrong:empty');
    expect(decided(emptyStep(ctx('What did the fox want?', 'grapes', 'grapes')))).toBe('pass');
  });
  it('an expected answer of nothing cannot be matched', () => {
    expect(decided(noExpectedStep(ctx('What?', '', 'grapes')))).toBe('wrong:no_expected');
  });
});

describe('negationStep', () => {
  it('a negated expected word is wrong', () => {
    expect(decided(negationStep(ctx('What colour was the kite?', 'red', 'not red')))).toBe('wrong:negation');
  });
  it('leaving out the expected "not" is wrong only when what it negates is said', () => {
    expect(decided(negationStep(ctx('What did Max do?', 'he did not share', 'he shared')))).toBe('wrong:negation_missing');
    expect(decided(negationStep(ctx('What did the cookie shout?', 'run as fast as you can, you cannot catch me', 'run as fast as you can')))).toBe('pass');
  });
});

describe('numberStep', () => {
  it('reads every spoken form of the number', () => {
    expect(decided(numberStep(ctx('How many times a day do you brush your teeth?', 'two', 'twice')))).toBe('correct:number');
    expect(decided(numberStep(ctx('How many eggs?', 'twelve', 'a dozen')))).toBe('correct:number');
    expect(decided(numberStep(ctx('How many eggs?', 'twelve', 'ten')))).toBe('wrong:number_wrong');
    expect(decided(numberStep(ctx('How many eggs?', 'twelve', 'ten or twelve')))).toBe('almost:number_hedge');
  });
  it('passes when no single number is expected', () => {
    expect(decided(numberStep(ctx('What did she find?', 'a shell', 'a shell')))).toBe('pass');
  });
});

describe('oppositeStep', () => {
  it('an antonym (WordNet, through an adjective head) is wrong', () => {
    expect(decided(oppositeStep(ctx('How was the soup?', 'hot', 'it was cold')))).toBe('wrong:opposite');
    expect(decided(oppositeStep(ctx('How was the soup?', 'hot', 'hot')))).toBe('pass');
  });
});

describe('coverageStep', () => {
  it('the words of the answer, or words meaning the same, are correct', () => {
    expect(decided(coverageStep(ctx('Who baked the gingerbread man?', 'an old woman', 'a little old lady')))).toBe('correct:match');
    expect(decided(coverageStep(ctx('What did the pup find?', 'a big stick', 'a stick')))).toBe('correct:key_idea');
  });
  it('some of several parts is almost', () => {
    expect(decided(coverageStep(ctx('What did they buy?', 'milk and eggs', 'milk')))).toBe('almost:some_items');
  });
  it('nothing of the answer passes on', () => {
    expect(decided(coverageStep(ctx('What did they buy?', 'milk', 'a kite')))).toBe('pass');
  });
  it('a verb said without its own noun says that noun too (WordNet derivation)', () => {
    expect(decided(coverageStep(ctx('What did Mia do at the party?', 'she sang a song', 'she was singing')))).toBe('correct:match');
  });
  it('a head without the named kind before it is less precise', () => {
    expect(decided(coverageStep(ctx('Who rang the bell?', 'the ice cream seller', 'the seller')))).toBe('almost:partial');
    expect(decided(coverageStep(ctx('Who rang the bell?', 'the old seller', 'the seller')))).toBe('correct:key_idea');
  });
  it('a reason without what it acts on is a vaguer reason', () => {
    expect(decided(coverageStep(ctx('Why did Ben wear a helmet?', 'it protects his head', 'to protect him')))).toBe('almost:partial');
    expect(decided(coverageStep(ctx('What does the helmet do?', 'it protects his head', 'to protect him')))).toBe('correct:key_idea');
  });
  it('a placeholder and what it is for names the thing made for that ("something to drink": a drink)', () => {
    expect(decided(coverageStep(ctx('What did the choir learn?', 'a new song', 'something new to sing')))).toBe('correct:match');
    expect(decided(vaguerStep(ctx('What did the kids ask for?', 'apples', 'something to eat')))).toBe('almost:vague_answer');
  });
  it('praise slang means the everyday word', () => {
    expect(decided(coverageStep(ctx('What did Sam think of the kite?', 'it was great', 'it was so cool')))).toBe('correct:match');
  });
  it('a vaguer word in place of the missing thing is not its key idea', () => {
    expect(decided(coverageStep(ctx('What did the band play?', 'a shiny trumpet', 'a shiny instrument')))).toBe('almost:partial');
  });
  it('a word the missing word\'s definition uses stands for it beside other said words, never alone', () => {
    // storm: "a violent weather condition with ... precipitation and thunder and lightning"
    expect(decided(coverageStep(ctx('Why did the dog hide under the bed?', 'he was scared of the storm', 'he was afraid of the thunder')))).toBe('correct:match');
    expect(decided(coverageStep(ctx('What did the dog hear?', 'the storm', 'the thunder')))).toBe('pass');
  });
  it('a vaguer word with the difference the missing word\'s definition names is that thing', () => {
    // pouch: "a small or medium size container for holding or carrying things"
    expect(decided(coverageStep(ctx('What did the kangaroo keep her baby in?', 'a pouch', 'a little bag')))).toBe('correct:match');
    expect(decided(coverageStep(ctx('What did the kangaroo keep her baby in?', 'a pouch', 'a bag')))).toBe('pass');
    expect(decided(vaguerStep(ctx('What did the kangaroo keep her baby in?', 'a pouch', 'a bag')))).toBe('almost:vaguer');
    expect(decided(coverageStep(ctx('What did the kangaroo keep her baby in?', 'a pouch', 'a red bag')))).toBe('pass');
  });
  it('only its describing words said, and another thing named, is a different thing', () => {
    expect(decided(coverageStep(ctx('What did the pup find?', 'a red ball', 'a red hat')))).toBe('wrong:conflict');
  });
});

describe('vaguerStep', () => {
  it('a more general word (a WordNet hypernym) is almost', () => {
    expect(decided(vaguerStep(ctx('What did Lily see?', 'an owl', 'a bird')))).toBe('almost:vaguer');
    expect(decided(vaguerStep(ctx('What do astronauts sleep in?', 'sleeping bags', 'a bag')))).toBe('almost:vaguer');
  });
  it('a word for anyone for a particular person, and a placeholder with a description, are almost', () => {
    expect(decided(vaguerStep(ctx('Who helped her?', 'her big brother', 'a boy')))).toBe('almost:vague_person');
    expect(decided(vaguerStep(ctx('What did the pirate find?', 'a gold coin', 'something shiny')))).toBe('almost:vague_answer');
    expect(decided(vaguerStep(ctx('What colour was the kite?', 'red', 'something blue')))).toBe('pass');
    expect(decided(vaguerStep(ctx('What did the owl hear?', 'a mouse', 'things that squeak')))).toBe('almost:vague_answer');
  });
  it('a part of the day for a time on the clock is almost', () => {
    expect(decided(vaguerStep(ctx('When did the owl wake up?', 'at eight o\'clock', 'in the evening')))).toBe('almost:vaguer');
    expect(decided(vaguerStep(ctx('When did the owl wake up?', 'at night', 'in the evening')))).toBe('pass');
  });
  it('a person described but not named is almost; naming someone else is not', () => {
    expect(decided(vaguerStep(ctx('Who found the map?', 'Priya', 'a girl with a hat')))).toBe('almost:vague_person');
    expect(decided(vaguerStep(ctx('Who found the map?', 'Priya', 'Tom')))).toBe('pass');
  });
  it('a different one of the same kind passes on', () => {
    expect(decided(vaguerStep(ctx('What colour was the kite?', 'red', 'blue')))).toBe('pass');
  });
});

describe('fallbackStep', () => {
  it('tells an echo of the question, a different one of a kind and an unrelated answer apart', () => {
    expect(decided(fallbackStep(ctx('What did the fox want?', 'the grapes', 'the fox wanted')))).toBe('wrong:echo');
    expect(decided(fallbackStep(ctx('What colour was the kite?', 'red', 'blue')))).toBe('wrong:conflict');
    expect(decided(fallbackStep(ctx('What did they pour on the pancakes?', 'maple syrup', 'can we go outside now')))).toBe('wrong:no_match');
  });
  it('a word whose other name holds the expected thing is almost ("cavities": tooth decay)', () => {
    expect(decided(fallbackStep(ctx('What did the dentist check?', 'his teeth', 'the cavities')))).toBe('almost:partial');
    expect(decided(fallbackStep(ctx('What did the dentist check?', 'his teeth', 'the car')))).toBe('wrong:no_match');
  });
  it('naming what the expected action makes is almost (WordNet derivation)', () => {
    expect(decided(fallbackStep(ctx('What did the bird do?', 'it sang all morning', 'a pretty song')))).toBe('almost:partial');
    expect(decided(fallbackStep(ctx('What did the bird do?', 'it sang all morning', 'a pretty nest')))).toBe('wrong:no_match');
  });
});

describe('checks on a correct verdict', () => {
  const correct: Verdict = { status: 'correct', similarity: 1, decision: 'match' };
  it('unsureCap: "I don\'t know... grapes?" is at most almost', () => {
    expect(unsureCap(ctx('What did the fox want?', 'grapes', "I don't know... grapes?"), correct).status).toBe('almost');
    expect(unsureCap(ctx('What did the fox want?', 'grapes', 'grapes'), correct)).toBe(correct);
  });
  it('positionCheck: the right thing in the wrong place is almost', () => {
    expect(positionCheck(ctx('Where was the cat?', 'under the table', 'on the table'), correct).decision).toBe('position');
  });
  it('reasonCheck: a why answer naming only a thing from the reason is almost', () => {
    const c = ctx('Why did they need a wagon?', 'because the pumpkin was too heavy', 'because of the pumpkin');
    expect(reasonCheck(c, correct).decision).toBe('reason_missing');
    expect(reasonCheck(ctx('Why did they need a wagon?', 'because the pumpkin was too heavy', 'it was very heavy'), correct)).toBe(correct);
  });
});

describe('runLadder', () => {
  it('the first step that decides wins, in ladder order', () => {
    expect(LADDER[0]).toBe(yesNoStep);
    expect(decided(runLadder(ctx('What did the fox want?', 'grapes', "I don't know")))).toBe('wrong:dont_know');
    expect(decided(runLadder(ctx('What do bees make?', 'honey', 'hunny')))).toBe('correct:match');
  });
});

describe('oppositeStep with numbers', () => {
  it('another number in the place of an expected one is wrong, not part of the answer', () => {
    expect(decided(oppositeStep(ctx('When did the party start?', "six o'clock", "five o'clock")))).toBe('wrong:number_wrong');
    expect(decided(oppositeStep(ctx('When did the party start?', "six o'clock", "six o'clock")))).toBe('pass');
  });
});
