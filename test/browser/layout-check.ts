import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/**
 * What the layout test checks on one page at one viewport: nothing wider than the viewport,
 * touch targets big enough (48 px for a child's buttons, 24 px for staff controls: WCAG 2.5.8),
 * and axe-core's rules (its source injected with Playwright, so the page's CSP does not apply).
 */

export const LAYOUT_ARTIFACTS = path.resolve('test-artifacts/layout');

export const VIEWPORTS = [
  { name: 'ipad-landscape', width: 1024, height: 768 },
  { name: 'ipad-portrait', width: 768, height: 1024 },
  { name: 'ipad-air-landscape', width: 1180, height: 820 },
  { name: 'ipad-air-portrait', width: 820, height: 1180 },
  { name: 'ipad-pro-landscape', width: 1366, height: 1024 },
  { name: 'phone', width: 390, height: 844 },
  { name: 'laptop', width: 1440, height: 900 },
] as const;

export type Viewport = (typeof VIEWPORTS)[number];

const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface LayoutProblem {
  page: string;
  viewport: string;
  problem: string;
}

/** Runs every check on the page as it is now; returns the problems found (empty when it passes). */
export async function checkLayout(page: Page, name: string, vp: Viewport, kind: 'kids' | 'staff', opts: { noScroll?: boolean } = {}): Promise<LayoutProblem[]> {
  const problems: LayoutProblem[] = [];
  const add = (problem: string) => problems.push({ page: name, viewport: `${vp.width}x${vp.height}`, problem });
  fs.mkdirSync(LAYOUT_ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(LAYOUT_ARTIFACTS, `${kind}-${name}-${vp.width}x${vp.height}.png`), fullPage: kind === 'staff' });

  const layout = await page.evaluate(({ kind, min }) => {
    const vw = document.documentElement.clientWidth;
    const out: { wide: number; offenders: string[]; small: string[] } = { wide: document.documentElement.scrollWidth, offenders: [], small: [] };
    const describe = (el: Element) => {
      const id = el.id ? `#${el.id}` : '';
      const cls = typeof el.className === 'string' && el.className ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
      const label = el.getAttribute('aria-label') || (el.textContent || '').trim().slice(0, 30);
      return `${el.tagName.toLowerCase()}${id}${cls} "${label}"`;
    };
    const visible = (el: Element) => {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) return false;
      const s = getComputedStyle(el);
      return s.visibility !== 'hidden' && s.display !== 'none' && !el.closest('[hidden], .visually-hidden, .skip-link');
    };
    for (const el of document.body.querySelectorAll('*')) {
      if (!visible(el)) continue;
      const r = el.getBoundingClientRect();
      // inside a horizontal scroller (a strip that is meant to scroll) the page itself is not wider
      let p = el.parentElement;
      let scrolled = false;
      while (p && p !== document.body) {
        const ox = getComputedStyle(p).overflowX;
        if (ox === 'auto' || ox === 'scroll' || ox === 'hidden' || ox === 'clip') { scrolled = true; break; }
        p = p.parentElement;
      }
      if (!scrolled && (r.right > vw + 1 || r.left < -1)) out.offenders.push(`${describe(el)} x=${Math.round(r.left)}..${Math.round(r.right)}`);
    }
    const targets = kind === 'kids'
      ? 'button, a[href], input:not([type=hidden]), select, [role=button]'
      : 'button, select, textarea, input:not([type=hidden]):not([type=radio]):not([type=checkbox]), label:has(> input[type=radio]), label:has(> input[type=checkbox]), a[href]';
    for (const el of document.querySelectorAll(targets)) {
      if (!visible(el)) continue;
      // a link inside a sentence is exempt (WCAG 2.5.8 "inline")
      const host = el.closest('p, td, li, dd, .hint');
      if (kind === 'staff' && el.tagName === 'A' && getComputedStyle(el).display === 'inline' && host && host.textContent!.trim() !== el.textContent!.trim()) continue;
      const r = el.getBoundingClientRect();
      const tooSmall = kind === 'kids' ? (r.width < min || r.height < min) : (r.height < min || r.width < min);
      if (tooSmall) out.small.push(`${describe(el)} ${Math.round(r.width)}x${Math.round(r.height)}`);
    }
    return out;
  }, { kind, min: kind === 'kids' ? 48 : 24 });

  if (layout.wide > vp.width) add(`page is ${layout.wide} px wide`);
  if (opts.noScroll) {
    // the player fits the screen: a child never scrolls to reach the controls
    const tall = await page.evaluate(() => document.documentElement.scrollHeight);
    if (tall > vp.height) add(`page scrolls: ${tall} px tall`);
  }
  for (const o of layout.offenders.slice(0, 8)) add(`outside the viewport: ${o}`);
  for (const s of layout.small.slice(0, 8)) add(`target smaller than ${kind === 'kids' ? 48 : 24} px: ${s}`);

  // the buttons the template sent disabled until the page's script had run are usable by now
  // (test/browser/script-ready.test.ts): a page whose script never enables them is dead
  const waiting = await page.evaluate(() =>
    [...document.querySelectorAll('[data-needs-script]')].map((el) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''} "${(el.getAttribute('aria-label') || el.textContent || '').trim().slice(0, 30)}"`),
  );
  for (const w of waiting.slice(0, 8)) add(`still waiting for the page script: ${w}`);

  const hasAxe = await page.evaluate(() => 'axe' in window);
  if (!hasAxe) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: object): Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> } }).axe;
    const res = await axe.run(document, { rules: { 'label-content-name-mismatch': { enabled: true } }, resultTypes: ['violations'] });
    return res.violations.map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
  });
  for (const v of violations) add(`axe ${v}`);
  return problems;
}
