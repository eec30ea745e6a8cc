// "Penny and the Red Ball": the bundled sample's story. Four scenes; each scene is one question
// segment of sample/questions.json, so its duration is fixed here and the build fails when the
// narration no longer fits (change the text or the duration, then review the questions).

export const VIDEO_ID = 'sample-red-ball';
export const TITLE = 'Penny and the Red Ball';
export const WIDTH = 640;
export const HEIGHT = 360;
export const FPS = 24;
export const GROUND_Y = 250;

/** espeak-ng voices: the narrator, and a distinct voice for each character who speaks. */
export const VOICES = {
  narrator: { voice: 'en-us+f3', pitch: 50, speed: 130 },
  penny: { voice: 'en-us+f2', pitch: 75, speed: 135 },
  benny: { voice: 'en-us+m3', pitch: 85, speed: 140 },
};

const SKY = '0x8fd3f4';
const GREY_SKY = '0xa9c3d3';

/** The farm every scene but the last starts from: fixed props, drawn back to front. */
const farm = [
  { sprite: 'sun', x: 24, y: 14 },
  { sprite: 'cloud', x: '60+t*6', y: 34 },
  { sprite: 'cloud', x: '380+t*4', y: 70 },
  { sprite: 'tree', x: 6, y: 74 },
  { sprite: 'barn', x: 452, y: 104 },
  { sprite: 'fence', x: 170, y: 204 },
  { sprite: 'bush', x: 560, y: 222 },
  { sprite: 'flowerPink', x: 40, y: 300 },
  { sprite: 'flowerYellow', x: 580, y: 310 },
  { sprite: 'flowerPink', x: 520, y: 296 },
];

/** a bounce: `height` pixels high, `perSecond` bounces a second, resting on `rest` */
const bounce = (rest, height, perSecond) => `${rest}-abs(sin(t*${Math.PI * perSecond}))*${height}`;

/** x moving from a to b between t0 and t1, resting at each end */
const move = (a, b, t0, t1) => `${a}+(${b - a})*clip((t-${t0})/${t1 - t0},0,1)`;

export const SCENES = [
  {
    name: 'farm',
    duration: 12,
    sky: SKY,
    props: farm,
    actors: [
      { sprite: 'pig', x: 200, y: 146 },
      { sprite: 'ball', x: 400, y: bounce(262, 70, 1.2) },
    ],
    texts: [{ text: TITLE, y: 18, size: 34, from: 0, to: 3.6 }],
    narration: [
      { who: 'narrator', text: 'This is Penny, a little pig.' },
      { who: 'narrator', text: 'Penny lives on a sunny farm.' },
      { who: 'narrator', text: 'She loves to play with her red ball.' },
    ],
  },
  {
    name: 'windy',
    duration: 13,
    sky: GREY_SKY,
    props: farm.filter((p) => p.sprite !== 'sun'),
    actors: [
      { sprite: 'gust', x: '-130+mod(t*300,900)', y: 120 },
      { sprite: 'gust', x: '-400+mod(t*260,1000)', y: 190 },
      { sprite: 'pig', x: 200, y: 146, enable: 'lt(t,5)' },
      { sprite: 'pigSad', x: '200+30*sin((t-5)*2)', y: 146, enable: 'gte(t,5)' },
      { sprite: 'ball', x: move(400, 700, 1.2, 3.6), y: bounce(262, 18, 2) },
    ],
    narration: [
      { who: 'narrator', text: 'One windy day, the wind blew the ball away.' },
      { who: 'narrator', text: 'Penny looked and looked, but she could not find it.' },
      { who: 'narrator', text: 'Penny felt sad.' },
    ],
  },
  {
    name: 'bunny',
    duration: 12,
    sky: SKY,
    props: farm,
    actors: [
      { sprite: 'pigSad', x: 330, y: 146, enable: 'lt(t,9)' },
      { sprite: 'pig', x: 330, y: 146, enable: 'gte(t,9)' },
      { sprite: 'bunny', x: move(-130, 170, 0, 3.4), y: `104-abs(sin(t*${Math.PI * 1.6}))*34*lt(t,3.4)` },
    ],
    narration: [
      { who: 'narrator', text: 'Then Benny the bunny came hopping by.' },
      { who: 'benny', text: 'Why are you sad, Penny?' },
      { who: 'penny', text: 'I lost my red ball.' },
      { who: 'benny', text: "Don't worry. I will help you look!" },
    ],
  },
  {
    name: 'pond',
    duration: 14,
    sky: SKY,
    props: [
      { sprite: 'sun', x: 520, y: 14 },
      { sprite: 'cloud', x: '120+t*5', y: 40 },
      { sprite: 'tree', x: 190, y: 66 },
      { sprite: 'bush', x: 0, y: 192 },
      { sprite: 'pond', x: 270, y: 262 },
      { sprite: 'flowerYellow', x: 30, y: 306 },
      { sprite: 'flowerPink', x: 230, y: 320 },
    ],
    actors: [
      { sprite: 'alligator', x: 330, y: 196 },
      { sprite: 'bunny', x: move(-140, 10, 0, 3), y: `104-abs(sin(t*${Math.PI * 1.6}))*24*lt(t,3)` },
      { sprite: 'pig', x: move(-200, 120, 0, 3), y: 150 },
      // on Ally's nose until she tosses it to Penny, then bouncing beside Penny
      { sprite: 'ball', x: '336+(250-336)*clip((t-8.4)/1.2,0,1)', y: 'if(lt(t,8.4),232,if(lt(t,9.6),232+(262-232)*(t-8.4)/1.2-90*sin(PI*(t-8.4)/1.2),' + bounce(262, 40, 1.2).replace(/t\*/, '(t-9.6)*') + '))' },
    ],
    texts: [{ text: 'The End', y: 24, size: 40, from: 12, to: 14 }],
    narration: [
      { who: 'narrator', text: 'They went down to the pond.' },
      { who: 'narrator', text: 'Ally the alligator had the red ball on her nose!' },
      { who: 'narrator', text: 'Ally gave the ball back to Penny.' },
      { who: 'penny', text: 'Thank you, Ally!' },
      { who: 'narrator', text: 'The end.', at: 12.1 },
    ],
  },
];

/** seconds of quiet before the first line of a scene, between lines, and at the scene's end */
export const LEAD_IN = 0.5;
export const GAP = 0.45;
export const TAIL = 0.6;
