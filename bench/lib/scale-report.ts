import type { LoadResult } from './load.js';

/** bench/scale.ts's request bodies and its arithmetic on rounds; no I/O, so tests can check it. */

export interface FinalSegment {
  segment_range_start: number;
  segment_range_end: number;
  question: string;
  answer: string;
}

/** check_answer bodies from the video's final questions: a right, a hesitant and a wrong answer each. */
export function checkAnswerBodies(segments: FinalSegment[]): string[] {
  return segments.flatMap((s) =>
    [s.answer, `um ${s.answer} I think`, 'a purple banana'].map((user) => JSON.stringify({ expected: s.answer, user, question: s.question })),
  );
}

/**
 * Finished attempts as the player sends them (every segment answered, statuses graded on the
 * tablet): all right, half right, all wrong, so the rows are not all alike.
 */
export function attemptBodies(childId: string, videoId: string, segments: FinalSegment[]): string[] {
  return [0, 1, 2].map((variant) =>
    JSON.stringify({
      child_id: childId,
      video_id: videoId,
      total_retries: variant,
      watch_minutes: 1,
      interaction_mode: 'flexible',
      companion: 'bunny',
      details: segments.map((s, k) => {
        const right = variant === 0 || (variant === 1 && k % 2 === 0);
        return {
          question: s.question,
          expected: s.answer,
          user: right ? s.answer : 'a purple banana',
          status: right ? 'correct' : 'wrong',
          similarity: right ? 1 : 0,
          segment_range_start: s.segment_range_start,
          segment_range_end: s.segment_range_end,
          retries: right ? 0 : 1,
        };
      }),
    }),
  );
}

/** One round of one cell: a load result per instance, and what was read around it. */
export interface Round {
  loads: LoadResult[];
  /** the web processes' CPU during the round, µs (summed over instances) */
  webUs: number;
  /** PostgreSQL's CPU during the round, µs; undefined on SQLite */
  dbUs?: number;
  /** score rows that landed during the round; undefined for check_answer */
  rows?: number;
}

export interface Combined {
  requests: number;
  rps: number;
  /** ms: the median over rounds of each round's percentile (with several instances, the worse one's) */
  p50: number;
  p99: number;
  errors: number;
  /** answers with a status below 400 */
  acknowledged: number;
  webUsPerRequest: number;
  dbUsPerRequest?: number;
  rowsLanded?: number;
}

export interface CellResult extends Combined {
  config: string;
  route: string;
  /** how many requests may have been in flight when the rounds' loads stopped (their rows may land unacknowledged) */
  inFlight: number;
}

/**
 * Every acknowledged score must have landed; more rows than answers only by the requests still
 * in flight when a round's load stopped.
 */
export function rowsVerdict(r: Pick<CellResult, 'rowsLanded' | 'acknowledged' | 'inFlight'>): 'ok' | 'rows missing' | 'more rows than requests' {
  if (r.rowsLanded === undefined || r.rowsLanded < r.acknowledged) return 'rows missing';
  return r.rowsLanded > r.acknowledged + r.inFlight ? 'more rows than requests' : 'ok';
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/**
 * Throughput over all rounds (requests of every instance over the rounds' durations, a round
 * lasting as long as its longest load), percentiles as the median round's.
 */
export function combineRounds(rounds: Round[]): Combined {
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const requests = sum(rounds.flatMap((r) => r.loads.map((l) => l.requests)));
  const seconds = sum(rounds.map((r) => Math.max(0, ...r.loads.map((l) => l.seconds))));
  const perRequest = (us: number) => (requests > 0 ? us / requests : 0);
  const dbRounds = rounds.map((r) => r.dbUs);
  const rowRounds = rounds.map((r) => r.rows);
  return {
    requests,
    rps: seconds > 0 ? requests / seconds : 0,
    p50: median(rounds.map((r) => Math.max(0, ...r.loads.map((l) => l.p50)))),
    p99: median(rounds.map((r) => Math.max(0, ...r.loads.map((l) => l.p99)))),
    errors: sum(rounds.flatMap((r) => r.loads.map((l) => l.badStatus + l.socketErrors))),
    acknowledged: sum(rounds.flatMap((r) => r.loads.map((l) => l.requests - l.badStatus))),
    webUsPerRequest: perRequest(sum(rounds.map((r) => r.webUs))),
    dbUsPerRequest: dbRounds.every((u) => u !== undefined) ? perRequest(sum(dbRounds as number[])) : undefined,
    rowsLanded: rowRounds.every((n) => n !== undefined) ? sum(rowRounds as number[]) : undefined,
  };
}

const BASELINE = 'SQLite, 1 instance';

/** The results table, the ratios against the SQLite single-instance cell of the same route, and the row check. */
export function formatTable(results: CellResult[]): string {
  const f = (n: number | undefined, d = 0) => (n === undefined ? '-' : n.toFixed(d));
  const lines = [
    `${'configuration'.padEnd(26)}${'route'.padEnd(17)}${'req/s'.padStart(8)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'errors'.padStart(8)}` +
      `${'web CPU us/req'.padStart(16)}${'PG CPU us/req'.padStart(15)}`,
  ];
  for (const r of results) {
    lines.push(
      `${r.config.padEnd(26)}${r.route.padEnd(17)}${f(r.rps).padStart(8)}${f(r.p50, 1).padStart(9)}${f(r.p99, 1).padStart(9)}${f(r.errors).padStart(8)}` +
        `${f(r.webUsPerRequest).padStart(16)}${f(r.dbUsPerRequest).padStart(15)}`,
    );
  }
  lines.push('', "(p50, p99: median of the rounds; with two instances, the slower instance's. CPU: from /proc, per request answered)");
  lines.push(`ratios against "${BASELINE}" of the same route, same run (throughput: higher is better; p99 and CPU: lower is better):`);
  for (const r of results) {
    const base = results.find((b) => b.config === BASELINE && b.route === r.route);
    if (!base || base === r) continue;
    const webAndDb = r.webUsPerRequest + (r.dbUsPerRequest ?? 0);
    lines.push(
      `  ${r.config.padEnd(24)} ${r.route.padEnd(16)} throughput ${f(r.rps / base.rps, 2)}x   p99 ${f(r.p99 / base.p99, 2)}x   ` +
        `CPU per request (web + PG) ${f(webAndDb / base.webUsPerRequest, 2)}x`,
    );
  }
  const saves = results.filter((r) => r.rowsLanded !== undefined);
  if (saves.length) {
    lines.push(
      'score rows (quiz_attempts counted before and after each round) against 2xx answers; up to ' +
        `${saves[0]!.inFlight} more may land (requests in flight when a round's load stopped):`,
    );
    for (const r of saves) {
      lines.push(`  ${r.config.padEnd(24)} ${f(r.rowsLanded).padStart(7)} landed, ${f(r.acknowledged).padStart(7)} acknowledged: ${rowsVerdict(r)}`);
    }
  }
  return lines.join('\n');
}
