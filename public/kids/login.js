// Parent-code login: a big keypad for the family code (the input also takes a keyboard, and
// "ABC" brings up the tablet's letter keyboard for codes with letters).
import { api, ApiError, initPage, announce } from './common.js';
import { speak, unlockAudio } from './speech.js';

const form = /** @type {HTMLFormElement} */ (document.getElementById('login-form'));
const input = /** @type {HTMLInputElement} */ (document.getElementById('code'));
const error = document.getElementById('login-error');
const letters = document.getElementById('letters');
const go = /** @type {HTMLButtonElement} */ (form.querySelector('.key-go'));

const { sayInstruction } = initPage();
sayInstruction();

form.addEventListener('click', (e) => {
  const key = /** @type {HTMLElement | null} */ (/** @type {Element} */ (e.target).closest('[data-key]'));
  if (!key) return;
  unlockAudio();
  clearError();
  if (key.dataset.key === 'erase') input.value = input.value.slice(0, -1);
  else if (input.value.length < 64) input.value += key.dataset.key;
  announce(`${input.value.length} ${input.value.length === 1 ? 'number' : 'numbers'}`);
});

input.addEventListener('input', clearError);

letters.addEventListener('click', () => {
  const on = letters.getAttribute('aria-pressed') !== 'true';
  letters.setAttribute('aria-pressed', String(on));
  input.inputMode = on ? 'text' : 'numeric';
  input.type = on ? 'text' : 'password';
  input.focus();
});

form.addEventListener('submit', async (e) => {
  e.preventDefault();
  unlockAudio();
  const code = input.value.trim();
  if (!code) {
    fail('Type the family code first.');
    return;
  }
  go.disabled = true;
  try {
    await api('/api/learners/parents/login', { method: 'POST', json: { access_code: code }, redirectOn401: false });
    location.assign('/kids/profiles');
  } catch (err) {
    input.value = '';
    if (err instanceof ApiError && err.status === 401) fail('That code did not work. Try again.');
    else if (err instanceof ApiError && err.status === 429) fail('Too many tries. Please wait a little.');
    else if (err instanceof ApiError && err.status === 400) fail('That code is too short.');
    else fail('Something went wrong. Try again.');
    speak('Oops! Let us try again.');
  } finally {
    go.disabled = false;
  }
});

function fail(message) {
  error.textContent = message;
  input.setAttribute('aria-invalid', 'true');
}

function clearError() {
  error.textContent = '';
  input.removeAttribute('aria-invalid');
}
