// The child's code page (bundled by scripts/build-client.mjs with CodeMirror 6): write code,
// "Help me" asks POST /suggest and shows the three choices as big buttons in shuffled order,
// the pick goes to POST /api/suggestions/{id}/answer and the explanation follows; "Run" sends
// the code with the problem's id to POST /run and shows each test as passed / not yet in words.
import { EditorState } from '@codemirror/state';
import { EditorView, keymap, lineNumbers, highlightActiveLine, drawSelection } from '@codemirror/view';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { bracketMatching, defaultHighlightStyle, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { python } from '@codemirror/lang-python';
import { javascript } from '@codemirror/lang-javascript';

const $ = (id) => document.getElementById(id);
const problemId = Number(document.body.dataset.problemId);
const preview = document.body.dataset.preview === '1';
// drafts are kept per child and problem: a shared tablet must not show one child's code to another
const draftKey = `code-draft:${document.body.dataset.childId}:${problemId}`;
let problem = null;
let view = null;
let hint = null;

async function api(method, url, body) {
  const res = await fetch(url, {
    method,
    credentials: 'same-origin',
    headers: { Accept: 'application/json', ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await res.json().catch(() => ({}));
  if (res.status === 401) {
    location.assign('/kids');
    throw new Error('Please log in again.');
  }
  if (!res.ok) throw new Error(data.message || 'Something went wrong. Please try again.');
  return data;
}

function say(text) {
  $('status').textContent = text;
}

function showError(err) {
  $('error').textContent = err.message;
}

function code() {
  return view.state.doc.toString();
}

function cursor() {
  const head = view.state.selection.main.head;
  const line = view.state.doc.lineAt(head);
  return { line: line.number, column: head - line.from };
}

function createEditor(doc, language) {
  view = new EditorView({
    parent: $('editor'),
    state: EditorState.create({
      doc,
      extensions: [
        lineNumbers(),
        history(),
        drawSelection(),
        highlightActiveLine(),
        indentOnInput(),
        bracketMatching(),
        syntaxHighlighting(defaultHighlightStyle),
        keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
        language === 'python' ? python() : javascript(),
        EditorView.updateListener.of((u) => {
          if (u.docChanged && !preview) localStorage.setItem(draftKey, u.state.doc.toString());
        }),
        EditorView.contentAttributes.of({ 'aria-label': 'Your code', autocapitalize: 'off', autocorrect: 'off', spellcheck: 'false' }),
      ],
    }),
  });
  // for the browser test and for assistive tools: the editor behind the page
  window.codeEditor = view;
}

function shuffle(items) {
  const a = [...items];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

async function help() {
  $('error').textContent = '';
  /** @type {HTMLButtonElement} */ ($('help')).disabled = true;
  say('Thinking…');
  try {
    hint = await api('POST', '/suggest', { problemId, code: code(), language: problem.language, cursorPosition: cursor() });
    say('');
    showHint(hint);
  } catch (err) {
    say('');
    showError(err);
  } finally {
    /** @type {HTMLButtonElement} */ ($('help')).disabled = false;
  }
}

function showHint(h) {
  $('hint').hidden = false;
  $('hint-feedback').textContent = '';
  $('explanation').hidden = true;
  $('use-line').hidden = true;
  if (h.complete) {
    $('hint-title').textContent = h.suggestion;
    $('choices').replaceChildren();
    $('explanation').textContent = h.explanation;
    $('explanation').hidden = false;
    return;
  }
  $('hint-title').textContent = 'Which line comes next?';
  const buttons = shuffle([h.suggestion, ...h.distractors]).map((text) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'cbtn cchoice';
    b.textContent = text.trim();
    b.dataset.choice = text;
    b.addEventListener('click', () => pick(text, buttons));
    return b;
  });
  $('choices').replaceChildren(...buttons);
  buttons[0]?.focus();
}

async function pick(choice, buttons) {
  buttons.forEach((b) => (b.disabled = true));
  try {
    const res = await api('POST', `/api/suggestions/${hint.event_id}/answer`, { choice });
    for (const b of buttons) {
      if (b.dataset.choice === res.suggestion) b.classList.add('is-right');
      else if (b.dataset.choice === choice) b.classList.add('is-wrong');
    }
    $('hint-feedback').textContent = res.correct ? 'Yes! That is the right line.' : 'Not quite. The right line is the green one.';
    $('explanation').textContent = res.explanation;
    $('explanation').hidden = false;
    $('use-line').hidden = false;
  } catch (err) {
    buttons.forEach((b) => (b.disabled = false));
    showError(err);
  }
}

/** Puts the right line where the cursor is: on the cursor's line when it is empty, else below it. */
function useLine() {
  const line = view.state.doc.lineAt(view.state.selection.main.head);
  const text = hint.suggestion;
  const change = line.text.trim() === '' ? { from: line.from, to: line.to, insert: text } : { from: line.to, insert: `\n${text}` };
  const end = change.from + change.insert.length;
  view.dispatch({ changes: change, selection: { anchor: end } });
  view.focus();
  $('use-line').hidden = true;
}

function describeCase(r, i) {
  const li = document.createElement('li');
  li.className = `ctest ${r.passed ? 'ctest-pass' : 'ctest-fail'}`;
  const name = r.hidden ? `Secret test ${i + 1}` : `Test ${i + 1}`;
  const head = document.createElement('div');
  head.textContent = r.passed ? `${name}: passed ✓` : `${name}: not yet ✗`;
  li.append(head);
  const say = (text, pre) => {
    const p = document.createElement(pre ? 'pre' : 'div');
    p.textContent = text;
    li.append(p);
  };
  if (r.hidden) {
    if (!r.passed) say('This test is a secret. Check your code works for other numbers too.');
    return li;
  }
  if (r.stdin) say(`We typed in: ${r.stdin.trim().replace(/\n/g, ', ')}`);
  if (r.timed_out) say('Your program took too long. Is there a loop that never stops?');
  else if (r.exitCode !== 0) say(`Your program stopped with an error: ${lastLine(r.stderr)}`);
  else if (!r.passed && r.expected_stdout !== null) {
    say('It should print:');
    say(r.expected_stdout, true);
    say('Your program printed:');
    say(r.stdout || '(nothing)', true);
  } else if (r.stdout) {
    say('Your program printed:');
    say(r.stdout, true);
  }
  return li;
}

function lastLine(s) {
  const lines = (s || '').trim().split('\n');
  return lines[lines.length - 1] || 'no message';
}

async function run() {
  $('error').textContent = '';
  /** @type {HTMLButtonElement} */ ($('run')).disabled = true;
  say('Running your code…');
  try {
    const res = await api('POST', '/run', { code: code(), language: problem.language, testCases: [], problemId });
    say('');
    $('results').hidden = false;
    $('results-title').textContent = res.passed === res.total ? `All ${res.total} tests passed! Great job!` : `${res.passed} of ${res.total} tests passed. Keep going!`;
    $('tests').replaceChildren(...res.results.map(describeCase));
  } catch (err) {
    say('');
    showError(err);
  } finally {
    /** @type {HTMLButtonElement} */ ($('run')).disabled = false;
  }
}

async function start() {
  const { problem: p } = await api('GET', `/api/learners/problems/${problemId}`);
  problem = p;
  $('prompt').textContent = p.prompt;
  $('examples').replaceChildren(
    ...p.tests.map((t) => {
      const li = document.createElement('li');
      li.textContent = `If we type ${t.stdin.trim().replace(/\n/g, ', ') || 'nothing'}, it should print ${t.expected_stdout.trim().replace(/\n/g, ', ')}`;
      return li;
    }),
  );
  const draft = preview ? null : localStorage.getItem(draftKey);
  createEditor(draft ?? p.starter_code, p.language);
  $('help').addEventListener('click', help);
  $('run').addEventListener('click', run);
  $('use-line').addEventListener('click', useLine);
  // sent `disabled data-needs-script`: a press before this point would do nothing
  for (const el of document.querySelectorAll('[data-needs-script]')) {
    el.removeAttribute('data-needs-script');
    /** @type {HTMLButtonElement} */ (el).disabled = false;
  }
  document.body.dataset.ready = '1';
}

start().catch(showError);
