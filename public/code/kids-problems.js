// The child's coding puzzles: the problems of the picked child's classes, with what is solved.
const list = document.getElementById('problems');
const empty = document.getElementById('problems-empty');
const error = document.getElementById('problems-error');

async function load() {
  const childId = document.body.dataset.childId;
  const res = await fetch(`/api/learners/children/${encodeURIComponent(childId)}/problems`, { credentials: 'same-origin', headers: { Accept: 'application/json' } });
  if (res.status === 401) return location.assign('/kids');
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(body.message || 'Something went wrong.');
  list.replaceChildren(
    ...body.problems.map((p) => {
      const li = document.createElement('li');
      const a = document.createElement('a');
      a.className = 'ccardlink';
      a.href = `/kids/code/${p.problem_id}`;
      const title = document.createElement('strong');
      title.textContent = p.title;
      const cls = document.createElement('span');
      cls.textContent = `${p.class_name} · ${p.language === 'python' ? 'Python' : 'JavaScript'}`;
      const state = document.createElement('span');
      state.className = p.progress.solved ? 'csolved' : 'cnotyet';
      state.textContent = p.progress.solved ? 'Solved! ✓' : 'Not solved yet';
      a.append(title, cls, state);
      li.append(a);
      return li;
    }),
  );
  empty.hidden = body.problems.length > 0;
}

load()
  .catch((err) => {
    error.textContent = err.message;
  })
  .finally(() => list.setAttribute('aria-busy', 'false'));
