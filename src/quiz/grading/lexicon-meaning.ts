/**
 * The child-word overlay: only what WordNet 3.1 lacks, consulted before WordNet (meaning.ts).
 * A synonym group is here because WordNet misses at least one of its members (the group stays
 * whole, so its words keep meaning one another); an is-a link or an opposite because WordNet does
 * not give it. test/quiz/grader-resources.test.ts fails when WordNet already covers an entry, so
 * the overlay cannot grow back into a second dictionary. What WordNet lacks, by kind: child and
 * pet forms ("mommy", "kitty", "owie", "piggy"); baby animals said in words ("baby pig" = piglet);
 * feelings named by the face ("crying" = sad); phrases a child uses for one idea ("run out",
 * "blow away"); everyday groups a child sorts by ("toy", "vehicle", "treasure") where WordNet's
 * hypernyms run through technical classes; opposite actions ("find"/"lose"), which WordNet files
 * only for describing words. Places that contain other places and words a recognizer writes for
 * one another are not in WordNet at all. Raw forms; the index lemmatizes. Never one story's words.
 */

/** Each group: the first word is the concept's name, the rest mean the same for a child. */
export const SYNONYMS: string[][] = [
  ['mother', 'mom', 'mommy', 'mum', 'mummy', 'mama', 'mamma', 'momma', 'mommie', 'ma'],
  ['father', 'dad', 'daddy', 'papa', 'pa', 'dada'],
  ['grandmother', 'grandma', 'granny', 'nana', 'nan', 'gran', 'grandmom', 'grammy', 'grandmama', 'gramma', 'nanny'],
  ['grandfather', 'grandpa', 'granddad', 'grandad', 'gramps', 'grandpop', 'grampa', 'granpa', 'pop pop'],
  ['brother', 'bro'], ['friend', 'pal', 'buddy', 'bestie', 'best friend'], ['child', 'kid', 'kiddo'],
  ['baby', 'infant', 'newborn'], ['firefighter', 'fireman', 'firemen', 'firewoman', 'fire fighter'],
  ['police', 'policeman', 'policewoman', 'police officer', 'cop', 'cops'],
  ['astronaut', 'spaceman', 'space man', 'spacewoman'], ['rabbit', 'bunny', 'hare', 'bunny rabbit'],
  ['cat', 'kitty', 'kitty cat', 'pussycat', 'kitcat'], ['dog', 'doggy', 'doggie', 'pooch', 'hound'],
  ['puppy', 'pup', 'puppy dog', 'little dog', 'baby dog', 'small dog'],
  ['kitten', 'baby cat', 'little cat', 'small cat'], ['pig', 'piggy', 'piggie', 'hog', 'swine'],
  ['piglet', 'baby pig', 'little pig', 'small pig', 'piggy baby'], ['chick', 'baby chicken', 'chickie'],
  ['duckling', 'baby duck', 'little duck'], ['calf', 'baby cow'], ['lamb', 'baby sheep', 'lambie'],
  ['foal', 'baby horse', 'pony foal'], ['cub', 'baby bear', 'bear cub', 'baby lion', 'lion cub'],
  ['tadpole', 'baby frog'], ['bird', 'birdie', 'birdy'], ['bug', 'insect', 'critter'], ['horse', 'horsie', 'horsey'],
  ['mouse', 'mousie'], ['ladybug', 'ladybird', 'lady bug'],
  ['trex', 't rex', 'tyrannosaurus', 'tyrannosaurus rex', 'tyrannosaur'],
  ['fossil', 'dinosaur bone', 'dinosaur bones', 'fossils'],
  ['afraid', 'scared', 'frightened', 'fearful', 'terrified', 'fear', 'scary', 'spooked', 'afeared'],
  ['happy', 'glad', 'joyful', 'cheerful', 'pleased', 'joy', 'jolly', 'delighted', 'merry', 'happily', 'overjoyed', 'smile', 'smiling', 'grin'],
  ['sad', 'unhappy', 'upset', 'sorrowful', 'gloomy', 'miserable', 'heartbroken', 'cry', 'crying', 'sob', 'weep', 'tears'],
  ['angry', 'mad', 'cross', 'furious', 'grumpy', 'annoyed', 'cranky', 'grouchy'],
  ['excited', 'thrilled', 'eager', 'excite', 'exciting'],
  ['surprised', 'shocked', 'amazed', 'astonished', 'surprise'],
  ['tired', 'sleepy', 'exhausted', 'worn out', 'drowsy'], ['worried', 'nervous', 'anxious', 'worry'],
  ['hungry', 'starving', 'starved'], ['small', 'little', 'tiny', 'wee', 'teeny', 'teeny tiny'],
  ['pretty', 'beautiful', 'lovely'], ['good', 'nice', 'great', 'fine', 'awesome'],
  ['bad', 'horrible', 'terrible', 'awful'], ['jump', 'hop', 'leap', 'bounce', 'spring'],
  ['chase', 'catch', 'run after', 'go after'], ['run', 'race', 'dash', 'sprint', 'jog'],
  ['look', 'see', 'watch', 'peek', 'stare'], ['laugh', 'giggle', 'chuckle'], ['talk', 'speak', 'chat'],
  ['sleep', 'nap', 'snooze', 'doze', 'asleep', 'fall asleep', 'go to sleep', 'take a nap', 'bedtime'],
  ['eat', 'munch', 'gobble', 'nibble', 'chomp'], ['hug', 'cuddle', 'snuggle'], ['throw', 'toss'],
  ['finish', 'done with'], ['rescue', 'save'], ['gift', 'present'], ['fuel', 'gas', 'gasoline', 'petrol'],
  ['rocket', 'spaceship', 'space ship', 'rocket ship', 'rocketship'], ['firetruck', 'fire truck', 'fire engine'],
  ['plane', 'airplane', 'aeroplane', 'jet'], ['boat', 'ship', 'sailboat'], ['house', 'home'],
  ['rock', 'stone', 'pebble'], ['dark', 'night', 'nighttime', 'night time', 'darkness'],
  ['rain', 'rainy', 'rainstorm', 'raindrop'], ['wind', 'windy', 'breeze', 'gust'], ['snow', 'snowy', 'snowflake'],
  ['sun', 'sunshine', 'sunny'], ['cold', 'freezing', 'chilly', 'icy'], ['tummy', 'belly', 'stomach'],
  ['candy', 'sweets'], ['bathtub', 'bath', 'tub'], ['trash', 'garbage', 'rubbish'], ['shop', 'store', 'market'],
  ['teddy', 'teddy bear', 'teddybear'], ['hotdog', 'hot dog', 'sausage'], ['wateringcan', 'watering can'],
  ['door', 'front door', 'back door', 'doorway'], ['picture', 'photo', 'photograph'],
  ['runout', 'run out', 'no more', 'all gone', 'used up', 'use up', 'none left', 'nothing left', 'empty'],
  // carried off by air or water, with either particle ("blew away", "flew off")
  ['goaway', 'go away', 'gone', 'disappear', 'vanish', ...['blow', 'fly', 'float', 'carry'].flatMap((v) => [`${v} away`, `${v} off`])],
  ['wake', 'wake up', 'get up'], ['noise', 'sound'], ['turtle', 'tortoise'], ['hello', 'hi', 'howdy', 'hiya'],
  ['goodbye', 'bye', 'bye bye', 'see you', 'farewell'], ['thankyou', 'thank you', 'thanks'],
  ['shoe', 'sneaker', 'trainer'], ['pants', 'trousers'], ['grab', 'snatch'], ['pull', 'tug'], ['push', 'shove'],
  ['wet', 'soaked', 'soggy', 'drenched'], ['dirty', 'messy', 'muddy'], ['loud', 'noisy'], ['pick', 'choose'],
  ['truck', 'lorry'], ['garden', 'backyard'], ['duck', 'ducky', 'duckie'], ['frog', 'froggy', 'froggie'],
  ['fish', 'fishy', 'fishie'], ['train', 'choo choo', 'choo choo train'],
  ['hurt', 'owie', 'boo boo', 'ouch', 'injured'], ['yucky', 'gross', 'disgusting', 'icky'],
  ['adult', 'grownup', 'grown up'], ['search', 'look for', 'hunt for', 'search for'], ['drink', 'sip', 'slurp'],
  ['build', 'make'], ['fall', 'fall down', 'tumble', 'trip'], ['break', 'smash', 'crack'],
  ['lose', 'can not find', 'could not find', 'missing'], ['alligator', 'gator', 'crocodile', 'croc'],
  ['mitten', 'glove'], ['block', 'lego'], ['monkey', 'chimp', 'chimpanzee', 'ape'],
];

/**
 * Slang a child uses for praise, as an extra meaning next to the word's own (so "cool" still
 * means a little cold): word -> the overlay concept it also means. WordNet has none of these
 * among a word's first senses ("cool" = all right is its 6th adjective sense; "rad" and "epic" are
 * a unit of radiation and a long poem). Not "wicked": WordNet's evil is the likelier meaning.
 */
export const SLANG: Record<string, string> = { cool: 'good', rad: 'good', epic: 'good' };

/** Is-a: parent -> children (children may be parents too; a word may have several parents). */
export const TAXONOMY: Record<string, string[]> = {
  animal: ['pony', 'sheep', 'goat', 'dolphin', 'skunk', 'beaver', 'seal', 'donkey', 'moose', 'gorilla', 'unicorn',
    'dragon', 'baby', 'reindeer'],
  pet: ['dog', 'cat', 'fish', 'hamster', 'rabbit', 'parrot', 'goldfish', 'turtle', 'guinea pig'],
  baby: ['puppy', 'kitten', 'piglet', 'calf', 'lamb', 'chick', 'duckling', 'foal', 'cub', 'tadpole'],
  cat: ['kitten'],
  pig: ['piglet'],
  cow: ['calf'],
  sheep: ['lamb'],
  horse: ['foal'],
  bear: ['teddy'],
  frog: ['tadpole'],
  bug: ['fly', 'ant', 'bee', 'butterfly', 'caterpillar', 'ladybug', 'spider', 'beetle', 'moth', 'worm',
    'grasshopper', 'mosquito', 'dragonfly', 'firefly', 'cricket', 'snail', 'slug', 'wasp'],
  fish: ['clownfish'],
  dinosaur: ['trex', 'pterodactyl'],
  food: ['fruit', 'fries', 'nut', 'peanut', 'acorn', 'seed'],
  vegetable: ['corn', 'pepper'],
  candy: ['chocolate'],
  cake: ['muffin'],
  drink: ['juice', 'water'],
  feeling: ['happy', 'sad', 'afraid', 'angry', 'excited', 'surprised', 'tired', 'hungry', 'bored', 'lonely', 'proud',
    'worried', 'silly', 'calm', 'shy', 'sick', 'jealous', 'curious', 'brave', 'thirsty', 'confused', 'embarrassed'],
  good: ['happy', 'excited', 'proud', 'calm', 'brave'],
  bad: ['sad', 'afraid', 'angry', 'worried', 'lonely', 'sick', 'jealous', 'bored'],
  person: ['police'],
  family: ['mother', 'father', 'grandmother', 'grandfather', 'sister', 'brother', 'aunt', 'uncle', 'cousin', 'baby'],
  weather: ['storm', 'thunder', 'lightning', 'cloud', 'sun', 'tornado'],
  vehicle: ['bus', 'firetruck', 'train'],
  toy: ['ball', 'block', 'puzzle', 'robot', 'yoyo', 'top', 'marble', 'drum'],
  clothes: ['hat', 'helmet', 'cap', 'boot', 'sock', 'dress', 'skirt', 'pants', 'scarf', 'glove', 'mitten', 'sweater',
    'raincoat', 'pajamas', 'crown', 'cape', 'mask', 'belt', 'apron'],
  tool: ['ladder', 'rope', 'hose', 'bucket', 'net', 'wateringcan', 'broom', 'scissors', 'flashlight', 'key',
    'telescope', 'map', 'compass', 'magnifying glass', 'spoon', 'fork', 'brush'],
  furniture: ['bathtub', 'shelf', 'cupboard', 'sink', 'toilet', 'stairs', 'window', 'door', 'drawer', 'fridge', 'oven'],
  room: ['attic', 'basement', 'garage', 'hallway'],
  building: ['house', 'tent', 'cabin', 'castle', 'hut', 'igloo', 'apartment', 'barn', 'school', 'hospital', 'shop',
    'museum', 'library', 'church', 'tower', 'palace', 'cave', 'nest', 'treehouse', 'farmhouse', 'station'],
  sky: ['sun', 'moon', 'star', 'cloud', 'rainbow', 'planet', 'earth', 'mars', 'comet'],
  plant: ['leaf', 'seed', 'mushroom'],
  flower: ['rose', 'tulip', 'dandelion', 'lily'],
  prize: ['trophy', 'medal', 'ribbon', 'cup', 'sticker', 'crown'],
  time: ['morning', 'afternoon', 'evening', 'dark', 'noon', 'midnight'],
  instrument: ['drum', 'guitar', 'piano', 'flute', 'trumpet', 'violin', 'bell', 'whistle', 'horn'],
  shape: ['star', 'heart'],
  body: ['head', 'hand', 'foot', 'leg', 'arm', 'nose', 'ear', 'eye', 'mouth', 'tail', 'wing', 'tooth', 'hair',
    'finger', 'toe', 'tummy', 'paw', 'beak'],
  money: ['coin', 'dollar', 'penny', 'cash'],
  treasure: ['coin', 'jewel', 'diamond', 'pearl', 'crown'],
};

/**
 * Broad places that hold smaller ones: an answer naming the broad place is on the right
 * track but vaguer. Tent vs house stays a different place (both are buildings, see TAXONOMY).
 */
export const CONTAINS: Record<string, string[]> = {
  house: ['bed', 'bedroom', 'kitchen', 'bathroom', 'bathtub', 'door', 'table', 'couch', 'closet', 'chair', 'window',
    'living room', 'attic', 'basement', 'garage', 'stairs', 'crib', 'cupboard', 'drawer', 'fridge', 'oven', 'sink',
    'toilet', 'shelf', 'desk', 'hallway', 'lamp', 'room', 'floor', 'roof', 'wall'],
  outside: ['puddle', 'mud', 'garden', 'yard', 'park', 'tree', 'street', 'field', 'sky', 'rain', 'grass', 'pond',
    'hill', 'forest', 'beach', 'playground', 'sandbox', 'bush', 'fence', 'sidewalk', 'road', 'farm', 'tent', 'snow'],
  forest: ['tent', 'tree', 'campfire', 'cabin', 'log', 'bush', 'cave', 'den', 'stream', 'river'],
  island: ['palm', 'beach', 'sand', 'tree', 'cave', 'treasure'],
  sky: ['sun', 'moon', 'star', 'cloud', 'rainbow', 'planet', 'bird', 'plane', 'kite', 'balloon'],
  space: ['moon', 'star', 'planet', 'earth', 'mars', 'sun', 'comet', 'rocket'],
  farm: ['barn', 'field', 'pen', 'coop', 'pond', 'tractor', 'stable', 'haystack', 'mud'],
  ocean: ['beach', 'island', 'boat', 'wave', 'reef', 'sand'],
  park: ['swing', 'slide', 'playground', 'pond', 'bench', 'sandbox', 'tree', 'grass'],
  school: ['classroom', 'playground', 'library', 'desk'],
  town: ['street', 'shop', 'house', 'school', 'park', 'library', 'museum', 'road', 'station', 'hospital'],
  garden: ['flower', 'plant', 'tree', 'bush', 'dirt', 'soil', 'pond', 'vegetable', 'carrot', 'tomato', 'lettuce'],
  water: ['puddle', 'pond', 'lake', 'river', 'ocean', 'pool', 'stream', 'bathtub'],
  ground: ['dirt', 'mud', 'grass', 'hole', 'puddle', 'sand', 'floor'],
};

/** Same sound, different spelling: a recognizer may write either (surface forms). */
export const HOMOPHONES: string[][] = [
  ['blue', 'blew'], ['bear', 'bare'], ['sun', 'son'], ['pear', 'pair', 'pare'], ['flower', 'flour'],
  ['night', 'knight'], ['red', 'read'], ['sea', 'see'], ['tail', 'tale'], ['hair', 'hare'], ['deer', 'dear'],
  ['meet', 'meat'], ['week', 'weak'], ['road', 'rode', 'rowed'], ['rose', 'rows'], ['right', 'write'],
  ['nose', 'knows'], ['hole', 'whole'], ['mail', 'male'], ['plane', 'plain'], ['sail', 'sale'], ['wood', 'would'],
  ['bee', 'be'], ['tea', 'tee', 't'], ['pea', 'pee', 'p'], ['berry', 'bury'], ['knot', 'not'], ['hour', 'our'],
  ['ant', 'aunt'], ['cheap', 'cheep'], ['flea', 'flee'], ['fur', 'fir'], ['horse', 'hoarse'], ['moose', 'mousse'],
  ['new', 'knew'], ['peace', 'piece'], ['rain', 'reign', 'rein'], ['steak', 'stake'], ['tow', 'toe'],
  ['way', 'weigh'], ['wait', 'weight'], ['which', 'witch'], ['whale', 'wail'], ['whine', 'wine'], ['ring', 'wring'],
  ['sew', 'so', 'sow'], ['waist', 'waste'], ['wear', 'where'], ['break', 'brake'], ['bored', 'board'],
  ['made', 'maid'], ['hay', 'hey'], ['dough', 'doe'], ['eye', 'i'], ['bow', 'bough'], ['sweet', 'suite'],
];

/** Opposites: saying one for the other is the opposite answer, not a partial one. */
export const ANTONYMS: [string, string][] = [
  ['find', 'lose'], ['win', 'lose'], ['open', 'close'], ['love', 'hate'], ['push', 'pull'],
  ['sink', 'float'], ['sleep', 'wake'], ['give', 'take'], ['buy', 'sell'], ['remember', 'forget'],
  ['friend', 'enemy'], ['full', 'hungry'], ['arrive', 'leave'], ['fix', 'break'], ['day', 'dark'],
  ['sunny', 'rain'], ['lead', 'follow'],
];
