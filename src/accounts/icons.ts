/** The pictures a child profile can have (drawn by the kids pages); the default is 'star'. */
export const ICON_KEYS = [
  'star', 'bunny', 'pig', 'alligator', 'cat', 'dog', 'bear', 'fox',
  'owl', 'fish', 'rocket', 'flower', 'sun', 'moon', 'car', 'ball',
] as const;
export type IconKey = (typeof ICON_KEYS)[number];
