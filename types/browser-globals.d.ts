// Globals the browser scripts under public/ set for tests and grown-ups (see tsconfig.public.json).
interface Window {
  /** what the companion said, newest last (public/kids/speech.js) */
  kidsSpeech?: unknown[];
}
