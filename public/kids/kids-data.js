// The page's embedded data, read once (no imports: every kids module may use it).

/**
 * What the server embedded in the page (<script type="application/json" id="kids-data">): the one
 * list of companions (src/speech/companion-lines.ts), the pre-rendered voice clips of their fixed
 * lines, and whether this page may ask POST /api/tts (only with a session).
 */
export const KIDS = readKidsData();
export const COMPANIONS = KIDS.companions.map((c) => c.key);

/** The profile of one companion (name, hello, pitch, lines); the first one for an unknown key. */
export function companionProfile(key) {
  return KIDS.companions.find((c) => c.key === key) || KIDS.companions[0];
}

function readKidsData() {
  try {
    const data = JSON.parse(document.getElementById('kids-data')?.textContent || '{}');
    return { companions: Array.isArray(data.companions) ? data.companions : [], voice: data.voice || {}, tts: data.tts === true };
  } catch {
    return { companions: [], voice: {}, tts: false };
  }
}
