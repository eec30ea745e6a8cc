// Shared helpers for the staff pages: JSON calls, forms with field errors, DOM building, notices.
// Everything is built with DOM nodes (never innerHTML with data) so names and titles cannot inject markup.

export class ApiError extends Error {
  constructor(status, body) {
    super((body && (body.message || body.error)) || `The server answered ${status}.`);
    this.status = status;
    this.body = body || {};
    this.code = this.body.error || this.body.error_code || '';
  }

  /** Field name -> message, from the error body's `detail: [{loc: ['body', 'field'], msg}]`. */
  fieldErrors() {
    const out = {};
    const detail = Array.isArray(this.body.detail) ? this.body.detail : [];
    for (const d of detail) {
      if (!d || !Array.isArray(d.loc)) continue;
      const name = d.loc.filter((p) => p !== 'body' && p !== 'query' && p !== 'path')[0];
      if (name !== undefined && !out[name]) out[name] = d.msg;
    }
    return out;
  }
}

/**
 * Calls the JSON API with the session cookie. Throws ApiError for any non-2xx answer.
 * @param {string} method
 * @param {string} url
 * @param {any} [body] sent as JSON, or as a urlencoded form with `form`
 * @param {{ form?: boolean, headers?: Record<string, string> }} [options]
 * @returns {Promise<any>} the JSON body ({} when empty)
 */
export async function api(method, url, body, { form = false, headers = {} } = {}) {
  /** @type {RequestInit & { headers: Record<string, string> }} */
  const init = { method, credentials: 'same-origin', headers: { Accept: 'application/json', ...headers } };
  if (body !== undefined) {
    if (form) {
      init.headers['Content-Type'] = 'application/x-www-form-urlencoded';
      init.body = new URLSearchParams(body).toString();
    } else {
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
  }
  let res;
  try {
    res = await fetch(url, init);
  } catch {
    throw new ApiError(0, { message: 'The server could not be reached. Check the connection and try again.' });
  }
  let data = null;
  const text = await res.text();
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = { message: text.slice(0, 200) };
    }
  }
  if (res.status === 401 && !url.includes('/login') && !url.includes('verify-access')) {
    // The session ended (logout elsewhere, expiry): go back to this area's login page.
    const area = location.pathname.startsWith('/admin') ? '/admin' : '/expert';
    location.assign(`${area}?next=${encodeURIComponent(location.pathname + location.search)}`);
  }
  if (!res.ok) throw new ApiError(res.status, data);
  return data ?? {};
}

/** h('div', {class: 'x', onclick: fn}, 'text', child) */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k === 'value') el.value = v;
    else if (k === 'checked' || k === 'selected' || k === 'disabled') el[k] = Boolean(v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === undefined || c === null || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

export const $ = (sel, root = document) => root.querySelector(sel);
export const $$ = (sel, root = document) => [...root.querySelectorAll(sel)];

let toastTimer;

/** A short message in the page's polite live region (bottom-right), gone after a while. */
export function toast(message, kind = 'ok') {
  const box = $('#toast');
  if (!box) return;
  box.replaceChildren(h('div', { class: `msg msg-${kind}` }, message));
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => box.replaceChildren(), kind === 'bad' ? 9000 : 4500);
}

/** Shows a message inside a region (role=status / alert set in the markup). */
export function say(region, message, kind = 'info', extra) {
  if (!region) return;
  region.classList.remove('msg-ok', 'msg-bad', 'msg-warn', 'msg-info');
  region.classList.add('msg', `msg-${kind}`);
  region.replaceChildren(...[message && h('span', {}, message), extra].filter(Boolean));
}

/**
 * Wires a <form>: on submit, clears old errors, marks the button busy, awaits handler(values, form).
 * On an ApiError the message goes next to the field named in the error's detail (or the form's
 * status line), the field gets aria-invalid and focus; entered values always stay in the form.
 * @param {HTMLFormElement} form
 * @param {(values: Record<string, any>, form: HTMLFormElement, button: HTMLElement) => unknown} handler
 * @param {{ success?: string }} [options]
 */
export function bindForm(form, handler, { success } = {}) {
  const status = form.querySelector('.form-status');
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const button = ev.submitter || form.querySelector('[type=submit]');
    if (button?.dataset.busy) return;
    clearErrors(form);
    // checked here first, in words a person understands; the server checks again
    if (!checkForm(form)) return;
    const values = Object.fromEntries(new FormData(form).entries());
    await busy(button, async () => {
      try {
        const msg = await handler(values, form, button);
        if (msg !== false) {
          const text = typeof msg === 'string' ? msg : success;
          if (text) {
            say(status, text, 'ok');
            toast(text, 'ok');
          }
        }
      } catch (err) {
        showError(form, err);
      }
    });
  });
}

/**
 * Checks the form's fields in the page before anything is sent: empty required fields, links,
 * lengths and patterns (from the markup's required / type=url / minlength / pattern attributes,
 * with data-pattern-message for the pattern's words). Marks each bad field with one message next
 * to it, says what to do in the status line, focuses the first one. Returns true when all is well.
 */
export function checkForm(form) {
  const bad = [];
  for (const el of form.querySelectorAll('input, select, textarea')) {
    if (el.disabled || el.type === 'hidden' || el.type === 'radio' || el.type === 'checkbox') continue;
    const msg = fieldProblem(el, form);
    if (!msg) continue;
    el.setAttribute('aria-invalid', 'true');
    const slot = form.querySelector(`[data-error-for="${CSS.escape(el.name)}"]`);
    if (slot) slot.textContent = msg;
    bad.push(el);
  }
  if (bad.length === 0) return true;
  // one bad field: its message is the only one; several: a summary says so once
  if (bad.length > 1) say(form.querySelector('.form-status'), `Please correct the ${bad.length} marked fields.`, 'bad');
  bad[0].focus();
  return false;
}

function fieldProblem(el, form) {
  const value = String(el.value ?? '').trim();
  const label = fieldLabel(el, form);
  if (!value) {
    if (!el.required) return '';
    return el.tagName === 'SELECT' ? `Choose ${label}.` : `Enter ${label}.`;
  }
  if (el.type === 'url') {
    let url = null;
    try {
      url = new URL(value);
    } catch {
      url = null;
    }
    if (!url || !/^https?:$/.test(url.protocol)) return 'This is not a link. Copy the whole address from the browser, starting with https://';
  }
  const min = Number(el.getAttribute('minlength') || 0);
  if (min && value.length < min) return `Use at least ${min} characters.`;
  const pattern = el.getAttribute('pattern');
  if (pattern && !new RegExp(`^(?:${pattern})$`).test(value)) return el.dataset.patternMessage || 'This is not in the right form.';
  return '';
}

/** "the first name" from <label>First name</label>: lower-case, without "(optional)". */
function fieldLabel(el, form) {
  const text = (el.id && form.querySelector(`label[for="${CSS.escape(el.id)}"]`)?.textContent) || el.name || 'this field';
  const clean = text.replace(/\(.*?\)/g, '').trim();
  const lower = clean.charAt(0).toLowerCase() + clean.slice(1);
  return /^(a|an|the|your|my) /i.test(lower) ? lower : `${/^[aeiou]/i.test(lower) ? 'an' : 'the'} ${lower}`;
}

export function clearErrors(form) {
  for (const el of form.querySelectorAll('[aria-invalid=true]')) el.removeAttribute('aria-invalid');
  for (const el of form.querySelectorAll('.field-error')) el.textContent = '';
  const status = form.querySelector('.form-status');
  if (status) say(status, '', 'info');
}

/** Puts an error next to its field (or in the form's status line) and focuses the first bad field. */
export function showError(form, err, fallbackField) {
  const fields = err instanceof ApiError ? err.fieldErrors() : {};
  if (fallbackField && Object.keys(fields).length === 0 && err instanceof ApiError && err.status === 400) fields[fallbackField] = err.message;
  let first = null;
  for (const [name, msg] of Object.entries(fields)) {
    const input = form.elements.namedItem(name);
    const slot = form.querySelector(`[data-error-for="${CSS.escape(name)}"]`);
    if (input instanceof Element) input.setAttribute('aria-invalid', 'true');
    if (slot) slot.textContent = msg;
    if (!first && input instanceof HTMLElement) first = input;
  }
  const status = form.querySelector('.form-status');
  const n = Object.keys(fields).length;
  // With the reason next to each field, the status line only says what to do.
  say(status, n ? `Please correct the marked field${n > 1 ? 's' : ''}.` : err.message || 'Something went wrong.', 'bad');
  if (!status) toast(err.message, 'bad');
  (first || status)?.focus?.();
}

/**
 * Runs fn with the button marked busy; a second press meanwhile is ignored. The button is not
 * `disabled`, so it keeps keyboard focus while the request runs.
 */
export async function busy(button, fn) {
  if (button?.dataset.busy) return undefined;
  if (button) {
    button.dataset.busy = '1';
    button.classList.add('busy');
    button.setAttribute('aria-disabled', 'true');
  }
  try {
    return await fn();
  } finally {
    if (button) {
      delete button.dataset.busy;
      button.classList.remove('busy');
      button.removeAttribute('aria-disabled');
    }
  }
}

/**
 * A button that runs an action with busy state and reports errors as a toast.
 * @param {string} label
 * @param {(button: HTMLButtonElement) => unknown} fn
 * @param {{ cls?: string, confirmText?: string, title?: string }} [options]
 */
export function actionButton(label, fn, { cls = 'btn btn-small btn-secondary', confirmText, title } = {}) {
  // `title` names the button for screen readers too (e.g. "Edit: Mia"); it starts with the visible text.
  const b = h('button', { type: 'button', class: cls, title, 'aria-label': title });
  b.textContent = label;
  b.addEventListener('click', async () => {
    if (confirmText && !window.confirm(confirmText)) return;
    await busy(b, async () => {
      try {
        await fn(b);
      } catch (err) {
        toast(err.message || 'Something went wrong.', 'bad');
      }
    });
  });
  return b;
}

/** First array found among the given keys of a response (APIs wrap lists in different names). */
export function listFrom(data, ...keys) {
  if (Array.isArray(data)) return data;
  for (const k of keys) if (data && Array.isArray(data[k])) return data[k];
  return [];
}

export function formatSeconds(s) {
  const n = Math.max(0, Math.round(Number(s) || 0));
  const m = Math.floor(n / 60);
  const sec = String(n % 60).padStart(2, '0');
  return m >= 60 ? `${Math.floor(m / 60)}:${String(m % 60).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

/** The one list of companions (src/speech/companion-lines.ts), embedded in every staff page: [{ key, label }]. */
export const COMPANIONS = readCompanions();

function readCompanions() {
  try {
    const list = JSON.parse(document.getElementById('companions-data')?.textContent || '[]');
    return list.map((c) => ({ key: c.key, label: c.name }));
  } catch {
    return [];
  }
}

export const MODES = [
  { key: 'strict', label: 'Strict', hint: 'must answer correctly to go on' },
  { key: 'flexible', label: 'Flexible', hint: 'gets hints, can go on after tries' },
  { key: 'passive', label: 'Passive', hint: 'questions without pressure' },
];

/** The log-out button in the top bar (present on every logged-in page). */
function wireLogout() {
  for (const b of $$('[data-logout]')) {
    b.addEventListener('click', async () => {
      await busy(b, async () => {
        try {
          await api('POST', b.dataset.logout);
        } catch {
          // already logged out: fall through to the login page
        }
        location.assign(b.dataset.after || '/');
      });
    });
  }
}

/**
 * The pages' buttons are sent `disabled data-needs-script`: pressed before the page's script had
 * wired them, they would do nothing (or submit a form natively, codes in the URL). Every module
 * script of a page has run before DOMContentLoaded, so that is when they become usable.
 */
export function enableScriptControls() {
  for (const el of $$('[data-needs-script]')) {
    el.removeAttribute('data-needs-script');
    /** @type {HTMLButtonElement} */ (el).disabled = false;
  }
}

if (typeof document !== 'undefined') {
  const ready = () => {
    wireLogout();
    enableScriptControls();
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', ready);
  else ready();
}

/**
 * A child's profile picture (or a companion), drawn from the kids pages' sprite so grown-ups see
 * the same picture as the child. Decorative: the name is always written next to it.
 */
export function iconFor(key) {
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('class', 'icon');
  svg.setAttribute('aria-hidden', 'true');
  const use = document.createElementNS('http://www.w3.org/2000/svg', 'use');
  use.setAttribute('href', `${new URL('../kids/icons.svg', import.meta.url).pathname}#icon-${encodeURIComponent(key || 'star')}`);
  svg.append(use);
  return svg;
}
