import { chromium, type Browser } from 'playwright-core';

/** Chromium flags measured on this machine (NOTES.md): no sandbox, headless, no outside traffic. */
export const CHROMIUM_BASE_ARGS = [
  '--no-sandbox',
  '--headless',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Debian's Chromium (playwright-core never downloads a browser here). */
export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: [...CHROMIUM_BASE_ARGS, ...extraArgs] });
}
