/**
 * Every number the grader decides with, in one object (also served by GET /api/config as
 * `thresholds`, so the player and a parent can see how answers are judged).
 */
export const GRADING_THRESHOLDS = {
  /** weighted share of the expected answer's meaning words the child said: at or above -> correct */
  correct: 0.75,
  /** a lower share is still correct when only a noun or size word is missing and nothing else was said ("a helmet" for "a space helmet") */
  key_idea: 0.5,
  /** similarity band of "almost" starts here (below -> wrong) */
  almost: 0.4,
  /** similarity reported for a vaguer answer ("an animal" for "the piglet") */
  vaguer: 0.5,
  /** Jaro-Winkler at or above which two words of 5+ letters with the same first letter are one word misspelt ("purpel") */
  fuzzy_word: 0.89,
  /** words with the same sound key also need this much spelling in common (Levenshtein ratio) */
  sound_min_ratio: 0.5,
  /** ... and more for words of 4 letters or less ("Jack" is not "Jake"; "read" is "red") */
  sound_min_ratio_short: 0.6,
  /** same sound key but another first vowel: still one word when this much of the spelling agrees ("cacoon") */
  sound_vowel_free_ratio: 0.75,
  /** a word's match must reach this to count as said at all */
  word_match: 0.8,
  /** request limits for POST /api/check_answer */
  max_text_length: 500,
} as const;

export type GradingThresholds = typeof GRADING_THRESHOLDS;
