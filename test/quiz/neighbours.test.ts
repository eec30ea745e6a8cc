import { describe, expect, it } from 'vitest';
import { answerNeighbours } from '../../src/quiz/grading/neighbours.js';
import { gradeAnswer } from '../../src/quiz/grading/grader.js';

describe('answerNeighbours', () => {
  it('lists same-meaning, broader and near-but-different words from WordNet and the overlay', () => {
    const n = answerNeighbours('a rabbit');
    expect(n.same).toEqual(expect.arrayContaining(['rabbit', 'bunny', 'bunny rabbit']));
    expect(n.broader).toEqual(expect.arrayContaining(['pet', 'animal']));
    expect(n.kin).toEqual(expect.arrayContaining(['dog', 'hamster']));
    expect(n.kin).not.toContain('bunny');
    const red = answerNeighbours('red');
    expect(red.broader).toContain('color');
    expect(red.kin).toEqual(expect.arrayContaining(['blue', 'green', 'yellow']));
  });

  it('includes places that hold a place, opposites and phrase forms, never phrase concept names', () => {
    expect(answerNeighbours('under the bed').broader).toEqual(expect.arrayContaining(['house', 'home']));
    expect(answerNeighbours('because it was dark').kin).toContain('light');
    const fuel = answerNeighbours('the rocket ran out of fuel');
    expect(fuel.same).toEqual(expect.arrayContaining(['gas', 'no more', 'run out']));
    expect(fuel.same).not.toContain('runout');
  });

  it('skips groups too broad to be near answers, and words neither WordNet nor the overlay knows (names)', () => {
    expect(answerNeighbours('a rabbit').kin).not.toContain('giraffe');
    expect(answerNeighbours('Zuzu')).toEqual({ same: ['zuzu'], broader: [], kin: [] });
    expect(answerNeighbours('')).toEqual({ same: [], broader: [], kin: [] });
  });

  it('agrees with the grader: same words grade correct, broader almost, kin wrong', () => {
    const q = { question: 'Who did she meet in the garden?', expected: 'a rabbit' };
    const n = answerNeighbours(q.expected);
    expect(gradeAnswer({ ...q, user: `a ${n.same.find((w) => w === 'bunny')}` }).status).toBe('correct');
    expect(gradeAnswer({ ...q, user: 'a pet' }).status).toBe('almost');
    expect(gradeAnswer({ ...q, user: 'a dog' }).status).toBe('wrong');
  });
});
