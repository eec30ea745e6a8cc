// One class: its problems (editor with test cases; saving checks the solution in the sandbox)
// and what the class did (hints asked for, the wrong lines picked most, runs).
import { $, actionButton, api, bindForm, h, toast } from '../staff/lib.js';

const classId = Number(document.body.dataset.classId);
const form = $('#problem-form');
let editing = null; // problem id being edited, or null for a new one

function testRow(t = { stdin: '', expected_stdout: '', hidden: false }) {
  const row = h('div', { class: 'test-row' },
    h('label', { class: 'field' }, 'Input typed in', h('textarea', { rows: 2, class: 'code t-stdin', spellcheck: 'false' }, t.stdin)),
    h('label', { class: 'field' }, 'Expected output', h('textarea', { rows: 2, class: 'code t-expected', spellcheck: 'false' }, t.expected_stdout)),
    h('label', { class: 'choice' }, h('input', { type: 'checkbox', class: 't-hidden', checked: t.hidden }), 'Secret'),
  );
  row.append(actionButton('Remove', async () => row.remove(), { cls: 'btn btn-small btn-quiet', title: 'Remove this test' }));
  return row;
}

function openEditor(p) {
  editing = p ? p.problem_id : null;
  $('#editor-card').hidden = false;
  $('#editor-title').textContent = p ? `Edit: ${p.title}` : 'New problem';
  form.reset();
  form.title.value = p?.title ?? '';
  form.prompt.value = p?.prompt ?? '';
  form.language.value = p?.language ?? 'python';
  form.starter_code.value = p?.starter_code ?? '';
  form.solution.value = p?.solution ?? '';
  $('#test-rows').replaceChildren(...(p?.tests ?? [undefined]).map(testRow));
  $('#problem-status').textContent = '';
  form.title.focus();
}

async function loadProblems() {
  const { problems } = await api('GET', `/api/expert/classes/${classId}/problems`);
  $('#problems').replaceChildren(
    problems.length === 0
      ? h('p', { class: 'empty' }, 'No problems yet.')
      : h('div', { class: 'table-wrap', tabindex: 0, role: 'region', 'aria-label': 'Problems table' }, h('table', { class: 'data' },
          h('thead', {}, h('tr', {}, h('th', {}, 'Title'), h('th', {}, 'Language'), h('th', {}, 'Tests'), h('th', {}, 'Hint lines'), h('th', {}, h('span', { class: 'visually-hidden' }, 'Actions')))),
          h('tbody', {}, ...problems.map((p) => h('tr', {},
            h('td', {}, p.title),
            h('td', {}, p.language),
            h('td', {}, `${p.tests.length} (${p.tests.filter((t) => t.hidden).length} secret)`),
            h('td', {}, `${p.hints.filter((x) => x.distractors.length >= 2).length} of ${p.hints.length} lines have 2+ proven wrong lines`),
            h('td', {}, h('div', { class: 'row' },
              h('a', { class: 'btn btn-small btn-secondary', href: `/kids/code/${p.problem_id}` }, 'Try it'),
              actionButton('Edit', async () => openEditor(p), { title: `Edit: ${p.title}` }),
              actionButton('Delete', async () => {
                await api('DELETE', `/api/expert/problems/${p.problem_id}`);
                toast('Problem deleted.');
                await loadProblems();
              }, { cls: 'btn btn-small btn-danger', confirmText: `Delete "${p.title}"?`, title: `Delete: ${p.title}` })))))))),
  );
}

function table(headers, rows, empty) {
  if (rows.length === 0) return h('p', { class: 'empty' }, empty);
  return h('div', { class: 'table-wrap', tabindex: 0, role: 'region', 'aria-label': headers.join(', ') }, h('table', { class: 'data' }, h('thead', {}, h('tr', {}, ...headers.map((x) => h('th', {}, x)))), h('tbody', {}, ...rows.map((r) => h('tr', {}, ...r.map((c) => h('td', {}, c)))))));
}

const when = (iso) => new Date(iso).toLocaleString();
const code = (s) => h('code', {}, s);

async function loadActivity() {
  const [ev, runs] = await Promise.all([api('GET', `/api/expert/classes/${classId}/suggestion-events`), api('GET', `/api/expert/classes/${classId}/runs`)]);
  $('#misconceptions').replaceChildren(table(['Problem', 'Right line', 'Wrong line picked', 'Times', 'Children'],
    ev.misconceptions.map((m) => [m.problem_title, code(m.right_line), code(m.picked), String(m.picks), String(m.children)]), 'No wrong picks yet.'));
  $('#events').replaceChildren(table(['When', 'Who', 'Problem', 'Right line', 'Picked', 'Hint by'],
    ev.events.map((e) => [when(e.created_at), e.child_name ?? e.caller_role, e.problem_title, code(e.suggestion), e.choice === null ? 'not picked' : `${e.choice_correct ? 'right' : 'wrong'}: ${e.choice.trim()}`, e.generator]), 'No hints asked for yet.'));
  $('#runs').replaceChildren(table(['When', 'Who', 'Problem', 'Tests passed', 'Result'],
    runs.runs.map((r) => [when(r.created_at), r.child_name ?? r.caller_role, r.problem_title, `${r.passed} of ${r.total}`, r.status.replace('_', ' ')]), 'No runs yet.'));
}

$('#new-problem').addEventListener('click', () => openEditor(null));
$('#add-test').addEventListener('click', () => $('#test-rows').append(testRow()));
$('#cancel-problem').addEventListener('click', () => {
  $('#editor-card').hidden = true;
});

bindForm(form, async (values) => {
  const tests = [...document.querySelectorAll('#test-rows .test-row')].map((row) => ({
    stdin: /** @type {HTMLTextAreaElement} */ (row.querySelector('.t-stdin')).value,
    expected_stdout: /** @type {HTMLTextAreaElement} */ (row.querySelector('.t-expected')).value,
    hidden: /** @type {HTMLInputElement} */ (row.querySelector('.t-hidden')).checked,
  }));
  const body = { title: values.title, prompt: values.prompt, language: values.language, starter_code: values.starter_code, solution: values.solution, tests };
  if (editing) await api('PUT', `/api/expert/problems/${editing}`, body);
  else await api('POST', `/api/expert/classes/${classId}/problems`, body);
  $('#editor-card').hidden = true;
  await loadProblems();
  toast('Problem saved: its solution passes every test.');
  return false;
});

Promise.all([loadProblems(), loadActivity()]).catch((err) => toast(err.message, 'bad'));
