// /expert/reports: one line per child with a short summary, linking to the full report.
import { api, h, $, listFrom, toast, iconFor } from './lib.js';

const tbody = $('#children');
const pct = (v) => (v === null || v === undefined ? '–' : `${Math.round(v)}%`);

async function load() {
  const reports = listFrom(await api('GET', '/api/expert/report'), 'children');
  if (reports.length === 0) {
    tbody.replaceChildren(h('tr', {}, h('td', { colspan: 5, class: 'empty' }, 'No children yet. The admin adds child profiles.')));
    return;
  }
  tbody.replaceChildren(
    ...reports.map(({ child: c, overall: o }) => {
      const name = `${c.first_name} ${c.last_name || ''}`.trim();
      return h(
        'tr',
        { class: c.active === false ? 'inactive' : '', dataset: { childId: c.child_id } },
        h('td', {}, iconFor(c.icon_key), ' ', h('strong', {}, name), c.active === false ? h('span', { class: 'badge badge-bad' }, ' deactivated') : ''),
        h('td', {}, String(o.attempts)),
        h('td', {}, o.scored_attempts ? pct(o.score) : '–'),
        h('td', {}, o.last_activity ? new Date(o.last_activity).toLocaleDateString() : '–'),
        h('td', {}, h('a', { class: 'btn btn-small', href: `/expert/reports/${c.child_id}` }, `Report for ${name}`)),
      );
    }),
  );
}

load().catch((err) => toast(err.message, 'bad'));
