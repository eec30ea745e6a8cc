// Login form for /admin (password) and /expert (access code).
import { api, bindForm, $ } from './lib.js';

const form = $('#login-form');
const area = form.dataset.area;
const field = area === 'admin' ? 'password' : 'access_code';

function fieldError(message) {
  form.elements[field].setAttribute('aria-invalid', 'true');
  $(`[data-error-for=${field}]`, form).textContent = message;
  form.elements[field].focus();
  return false;
}

bindForm(form, async (values) => {
  if (!values[field]) return fieldError(area === 'admin' ? 'Enter the admin password.' : 'Enter your access code.');
  try {
    if (area === 'admin') await api('POST', '/api/admin/verify-access', { password: values.password });
    else await api('POST', '/api/expert/login', { access_code: values.access_code });
  } catch (err) {
    // Wrong password/code: say it next to the field and keep what was typed so a typo can be fixed.
    if (err.status === 401) return fieldError(err.message);
    throw err;
  }
  location.assign(form.dataset.next || `/${area}`);
  return 'Logged in.';
});
