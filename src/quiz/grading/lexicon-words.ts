/**
 * Function words and word classes the grader needs (raw forms; the lexicon index lemmatizes
 * them). General English, nothing taken from any particular story.
 */

/** Sounds and words a child uses to fill time: never part of an answer. */
export const FILLERS = [
  'um', 'umm', 'uhm', 'uh', 'uhh', 'er', 'erm', 'hmm', 'hm', 'mm', 'ah', 'oh', 'ooh', 'like', 'well', 'okay',
  'so', 'actually', 'basically', 'just', 'literally', 'yeah', 'mmm', 'huh', 'wow', 'hey',
];

/** Articles, pronouns, auxiliaries, conjunctions, framing ("her name is", "I think it was"). */
export const STOPWORDS = [
  'a', 'an', 'the', 'some', 'any', 'this', 'that', 'these', 'those', 'there', 'here',
  'i', 'me', 'my', 'mine', 'myself', 'you', 'your', 'yours', 'he', 'him', 'his', 'himself', 'she', 'her', 'hers',
  'herself', 'it', 'its', 'itself', 'we', 'us', 'our', 'ours', 'they', 'them', 'their', 'theirs', 'themselves',
  'who', 'whom', 'whose', 'what', 'which', 'where', 'when', 'why', 'how',
  'is', 'are', 'was', 'were', 'be', 'been', 'being', 'am', 'do', 'does', 'did', 'done', 'doing', 'have', 'has', 'had',
  'will', 'would', 'can', 'could', 'should', 'shall', 'may', 'might', 'must', 'let', 'lets',
  'and', 'or', 'but', 'if', 'then', 'than', 'because', 'while', 'also', 'as', 'plus',
  'name', 'named', 'called', 'call', 'answer', 'think', 'thought', 'guess', 'maybe', 'probably', 'perhaps', 'believe',
  'know', 'say', 'said', 'says', 'tell', 'told', 'saw',
  'yes', 'no', 'not', 'ever', 'please', 'ones', 'one',
];

/** Prepositions and particles: carried for negation scope and position, not scored as content. */
export const PREPOSITIONS = [
  'in', 'on', 'at', 'to', 'into', 'onto', 'under', 'underneath', 'beneath', 'over', 'above', 'below', 'behind',
  'beside', 'besides', 'between', 'by', 'near', 'next', 'around', 'through', 'across', 'along', 'up', 'down', 'off',
  'out', 'away', 'of', 'for', 'with', 'from', 'about', 'after', 'before', 'top', 'back', 'till', 'until', 'toward',
  'towards', 'against', 'upon', 'within', 'without', 'front',
];

/** Words that carry no answer on their own: intensifiers, quantities, "start to", "want to". */
export const WEAK = [
  'very', 'really', 'so', 'too', 'again', 'just', 'much', 'many', 'more', 'most', 'lot', 'lots', 'all', 'every',
  'each', 'everyone', 'everybody', 'whole', 'kind', 'sort', 'type', 'bit', 'start', 'started', 'starting',
  'begin', 'began', 'keep', 'kept', 'try', 'tried', 'want', 'wanted', 'go', 'went', 'going', 'get', 'got',
  'gets', 'getting', 'still', 'even', 'only', 'now', 'later', 'soon', 'first', 'last', 'next', 'time', 'times',
  'once', 'always', 'both', 'other', 'own', 'same', 'such', 'way', 'able', 'feel', 'felt', 'feeling', 'look', 'looked',
  'looks', 'need', 'needed', 'gonna', 'use', 'used', 'using',
];

/** Placeholders that stand in for a missing detail ("it was chasing something"). */
export const VAGUE = [
  'something', 'somethin', 'stuff', 'someone', 'somebody', 'somewhere', 'anything', 'anyone', 'whatever', 'thingy',
  'thing', 'things',
];

/** Titles before a name ("Captain Finn", "Mister Buttons"): a name without its title is still the name. */
export const TITLES = [
  'captain', 'mister', 'missus', 'miss', 'doctor', 'sir', 'madam', 'king', 'queen', 'prince', 'princess', 'professor',
  'officer', 'uncle', 'aunt', 'auntie', 'grandpa', 'grandma', 'lady', 'lord', 'saint', 'coach', 'chef', 'farmer',
];

/** Size words modify a noun and weigh little ("the little piglet" is mostly "piglet"). */
export const MODIFIERS = ['little', 'small', 'tiny', 'big', 'large', 'huge', 'giant', 'baby', 'young', 'old', 'new', 'wee', 'teeny'];

/** Generic person words: vaguer than a character's name. */
export const PERSON_WORDS = [
  'girl', 'boy', 'man', 'woman', 'lady', 'guy', 'kid', 'child', 'person', 'friend', 'people', 'baby', 'grownup',
  'adult', 'somebody', 'someone', 'character', 'lady',
];

export const NEGATIONS = ['not', 'no', 'never', 'nobody', 'nothing', 'none', 'neither', 'nor', 'nowhere', 'noone'];

/** Ends a negation's reach: "it is not blue , it is red" only negates "blue". */
export const NEGATION_BOUNDARY = [',', 'but', 'and', 'it', 'is', 'was', 'are', 'were', 'be', 'he', 'she', 'they', 'i', 'we', 'because', 'so', 'then', 'instead'];

export const YES_WORDS = ['yes', 'yeah', 'yep', 'yup', 'yea', 'sure', 'correct', 'right', 'true', 'definitely', 'totally'];
export const NO_WORDS = ['no', 'nope', 'nah', 'not', 'never', 'false', 'wrong'];

/** Normalized phrases meaning "I don't know" (after contraction expansion). */
export const DONT_KNOW = [
  'i do not know', 'do not know', 'i did not know', 'i dunno', 'no idea', 'i have no idea', 'not sure', 'i am not sure',
  'i forgot', 'i forget', 'forgot', 'i do not remember', 'do not remember', 'can not remember', 'i can not remember',
  'no clue', 'i give up', 'pass', 'skip', 'next', 'i do not get it', 'beats me', 'who knows',
];

/** Common base-form verbs in children's stories; with -ed/-ing forms they mark an action. */
export const VERBS = [
  'chase', 'catch', 'jump', 'hop', 'run', 'walk', 'eat', 'drink', 'sleep', 'sit', 'stand', 'swim', 'fly', 'climb',
  'dance', 'sing', 'play', 'cry', 'laugh', 'smile', 'hug', 'kiss', 'help', 'find', 'look', 'see', 'hide', 'seek',
  'throw', 'kick', 'push', 'pull', 'carry', 'bring', 'give', 'take', 'make', 'build', 'dig', 'plant', 'grow', 'cook',
  'bake', 'paint', 'draw', 'write', 'read', 'ride', 'drive', 'open', 'close', 'shut', 'fall', 'wake', 'touch',
  'hold', 'share', 'clean', 'wash', 'brush', 'cut', 'break', 'fix', 'buy', 'sell', 'shout', 'yell', 'scream',
  'whisper', 'talk', 'ask', 'wait', 'watch', 'listen', 'hear', 'smell', 'taste', 'learn', 'teach', 'count', 'win',
  'lose', 'score', 'bite', 'scratch', 'bark', 'roar', 'hoot', 'cheer', 'clap', 'wave', 'bounce', 'roll', 'slide',
  'skip', 'splash', 'pick', 'pack', 'save', 'rescue', 'visit', 'follow', 'fight', 'stop', 'finish', 'blow', 'melt',
  'shine', 'hunt', 'feed', 'rest', 'hurry', 'travel', 'explore', 'search', 'wish', 'hatch', 'roast', 'pour', 'mix',
  'fill', 'spill', 'drop', 'trip', 'slip', 'land', 'launch', 'crash', 'float', 'sink', 'sail', 'row', 'paddle',
  'leave', 'stay', 'come', 'arrive', 'return', 'escape', 'chew', 'lick', 'sniff', 'knock', 'ring', 'shake', 'spin',
  'tickle', 'wipe', 'sweep', 'water', 'feed', 'call', 'invite', 'thank', 'forgive', 'kick', 'tie', 'wrap', 'hang',
  'lift', 'drag', 'peek', 'point', 'nod', 'blink', 'sneeze', 'yawn', 'snore', 'whistle', 'buzz', 'quack', 'moo',
  'oink', 'neigh', 'meow', 'growl', 'howl', 'hiss', 'crawl', 'wiggle', 'waddle', 'gallop', 'race', 'tumble',
  'sneak', 'stomp', 'march', 'skate', 'ski', 'surf', 'dive', 'fish', 'camp', 'hike', 'pretend', 'imagine',
];
