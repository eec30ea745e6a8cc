/**
 * Pronunciations for words the CMU dictionary lacks (names like "Pikachu", made-up words):
 * espeak-ng writes their IPA (`--ipa --sep=_`, one word per line) and this table maps it to the
 * ARPAbet phones of the pocketsphinx-en-us acoustic model. Pure; the espeak call lives in
 * pronouncer.ts.
 */

/** IPA units as espeak-ng separates them (stress and length marks removed) -> ARPAbet. */
const IPA_TO_ARPABET: Record<string, string[]> = {
  p: ['P'], b: ['B'], t: ['T'], d: ['D'], k: ['K'], g: ['G'], ɡ: ['G'], f: ['F'], v: ['V'], θ: ['TH'], ð: ['DH'],
  s: ['S'], z: ['Z'], ʃ: ['SH'], ʒ: ['ZH'], h: ['HH'], m: ['M'], n: ['N'], ŋ: ['NG'], l: ['L'], ɫ: ['L'], w: ['W'],
  j: ['Y'], ɹ: ['R'], r: ['R'], ɾ: ['T'], ʔ: ['T'], x: ['K'], ç: ['HH'], tʃ: ['CH'], dʒ: ['JH'],
  əl: ['AH', 'L'], l̩: ['AH', 'L'], n̩: ['AH', 'N'], m̩: ['AH', 'M'],
  i: ['IY'], ɪ: ['IH'], ᵻ: ['IH'], e: ['EY'], eɪ: ['EY'], ɛ: ['EH'], æ: ['AE'], a: ['AE'], aɪ: ['AY'], aʊ: ['AW'],
  ɑ: ['AA'], ɒ: ['AA'], ɔ: ['AO'], ɔɪ: ['OY'], o: ['OW'], oʊ: ['OW'], əʊ: ['OW'], ʊ: ['UH'], u: ['UW'], ʌ: ['AH'],
  ə: ['AH'], ɐ: ['AH'], ɚ: ['ER'], ɜ: ['ER'], ɝ: ['ER'], ɪə: ['IH', 'R'], ɛə: ['EH', 'R'], ʊə: ['UH', 'R'],
  iə: ['IY', 'AH'], aɪə: ['AY', 'ER'], aʊə: ['AW', 'ER'],
};

/** The phone set of pocketsphinx-en-us (a pronunciation may use only these). */
export const ARPABET = new Set([
  'AA', 'AE', 'AH', 'AO', 'AW', 'AY', 'B', 'CH', 'D', 'DH', 'EH', 'ER', 'EY', 'F', 'G', 'HH', 'IH', 'IY', 'JH', 'K',
  'L', 'M', 'N', 'NG', 'OW', 'OY', 'P', 'R', 'S', 'SH', 'T', 'TH', 'UH', 'UW', 'V', 'W', 'Y', 'Z', 'ZH',
]);

/**
 * One line of `espeak-ng -q --ipa --sep=_` output (e.g. "p_ɪ_k_ˈæ_tʃ_uː") -> ARPAbet phones.
 * Units the table does not know are tried letter by letter, then dropped.
 */
export function ipaToArpabet(line: string): string[] {
  const phones: string[] = [];
  const units = line
    .normalize('NFC')
    // biome-ignore lint/suspicious/noMisleadingCharacterClass: each mark, the joiner included, is removed on its own
    .replace(/[ˈˌː\u200d'ˑ]/g, '')
    .split(/[_\s]+/)
    .filter(Boolean);
  for (const unit of units) {
    const whole = IPA_TO_ARPABET[unit];
    if (whole) {
      phones.push(...whole);
      continue;
    }
    for (const ch of Array.from(unit)) phones.push(...(IPA_TO_ARPABET[ch] ?? []));
  }
  return phones;
}
