// /expert/account: see and change the expert's own access code.
import { api, bindForm, $ } from './lib.js';

const codeEl = $('#current-code');
const reveal = $('#reveal');
let code = null;

reveal.addEventListener('click', async () => {
  const showing = reveal.getAttribute('aria-pressed') === 'true';
  if (!showing && code === null) code = (await api('GET', '/api/expert/access-code')).access_code ?? '(not available)';
  codeEl.textContent = showing ? '••••••' : code;
  reveal.setAttribute('aria-pressed', String(!showing));
  reveal.textContent = showing ? 'Show' : 'Hide';
});

const form = $('#code-form');
bindForm(form, async (v) => {
  if (v.login_code !== v.confirm_code) {
    form.elements.confirm_code.setAttribute('aria-invalid', 'true');
    $('[data-error-for=confirm_code]', form).textContent = 'The two codes are not the same.';
    form.elements.confirm_code.focus();
    return false;
  }
  const r = await api('PUT', '/api/expert/my-login-code', { login_code: v.login_code });
  code = v.login_code.trim();
  if (reveal.getAttribute('aria-pressed') === 'true') codeEl.textContent = code;
  form.reset();
  return r.message || 'Your access code was changed.';
});
