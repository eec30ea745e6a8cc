// Globals the browser scripts under public/ set for tests and grown-ups, or read from older
// browsers (see tsconfig.public.json).
interface Window {
  /** what the companion said, newest last (public/kids/speech.js) */
  kidsSpeech?: unknown[];
  /** the code editor's view, for the browser tests (public/code/src/kids-code.js) */
  codeEditor?: unknown;
  /** Safari before 14.1 (public/kids/recorder.js) */
  webkitAudioContext?: typeof AudioContext;
}
